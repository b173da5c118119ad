"""The data models of the issue, through the Python driver over TLS: rows
written with prepared statements and read back row by row (with paging),
clustering order, LIMIT, ORDER BY, the refused table, and the schema as
cluster.metadata shows it."""

import datetime
import decimal
import logging
import struct
import unittest
import uuid

from cassandra import InvalidRequest
from cassandra.query import SimpleStatement

from emulator import Emulator

EMU = None
CLUSTER = None
SESSION = None
KS = "models_py"
BASE = datetime.datetime(2024, 5, 1, 12, 0, 0)
logging.getLogger("cassandra").setLevel(logging.ERROR)

SCHEMA = [
    """CREATE TABLE sensor_data (
         sensor_id uuid, date date, reading_time timestamp,
         temperature double, humidity double,
         PRIMARY KEY ((sensor_id, date), reading_time)
       ) WITH CLUSTERING ORDER BY (reading_time DESC)""",
    """CREATE TABLE user_events (
         user_id uuid, event_time timestamp, event_type text, payload text,
         PRIMARY KEY (user_id, event_time)
       ) WITH CLUSTERING ORDER BY (event_time DESC)""",
    """CREATE TABLE followers (
         user_id text, follower_id text, followed_at timestamp,
         PRIMARY KEY (user_id, follower_id))""",
    """CREATE TABLE users (
         user_id uuid PRIMARY KEY, username text, email text, created_at timestamp,
         tags set<text>, attributes map<text, text>)""",
    """CREATE TABLE user_orders (
         user_id uuid, orderTimestamp timestamp, order_id uuid, total decimal, status text,
         PRIMARY KEY (user_id, orderTimestamp)
       ) WITH CLUSTERING ORDER BY (orderTimestamp DESC)""",
    """CREATE TABLE orders_by_id (
         order_id uuid PRIMARY KEY, user_id uuid, orderTimestamp timestamp,
         total decimal, status text)""",
]


def setUpModule():
    global EMU, CLUSTER, SESSION
    EMU = Emulator().start()
    CLUSTER = EMU.cluster()
    SESSION = CLUSTER.connect()
    SESSION.execute("CREATE KEYSPACE %s WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1}" % KS)
    SESSION.set_keyspace(KS)
    for ddl in SCHEMA:
        SESSION.execute(ddl)


def tearDownModule():
    if CLUSTER is not None:
        CLUSTER.shutdown()
    EMU.stop()


def ts(minutes):
    return BASE + datetime.timedelta(minutes=minutes)


class SensorData(unittest.TestCase):
    SENSORS = [uuid.UUID(int=0x1000 + i) for i in range(2)]
    DATES = [datetime.date(2024, 5, 1), datetime.date(2024, 5, 2)]
    N = 30

    @classmethod
    def setUpClass(cls):
        insert = SESSION.prepare("INSERT INTO sensor_data (sensor_id, date, reading_time, "
                                 "temperature, humidity) VALUES (?, ?, ?, ?, ?)")
        for s in cls.SENSORS:
            for d in cls.DATES:
                for i in range(cls.N):
                    SESSION.execute(insert, [s, d, ts(i), 20.0 + i / 4, 40.0 + i])

    def expected(self, sensor, date):
        # Newest first: the table's clustering order.
        return [(sensor, date, ts(i), 20.0 + i / 4, 40.0 + i) for i in reversed(range(self.N))]

    def rows(self, rs):
        return [(r.sensor_id, r.date.date(), r.reading_time, r.temperature, r.humidity)
                for r in rs]

    def test_partition_reads_newest_first_row_by_row(self):
        select = SESSION.prepare("SELECT * FROM sensor_data WHERE sensor_id = ? AND date = ?")
        for s in self.SENSORS:
            for d in self.DATES:
                self.assertEqual(self.rows(SESSION.execute(select, [s, d])), self.expected(s, d))

    def test_paging_returns_every_row_once_in_order(self):
        select = SESSION.prepare("SELECT * FROM sensor_data WHERE sensor_id = ? AND date = ?")
        select.fetch_size = 7
        s, d = self.SENSORS[0], self.DATES[1]
        rs = SESSION.execute(select, [s, d])
        self.assertEqual(len(rs.current_rows), 7)
        self.assertTrue(rs.has_more_pages)
        self.assertEqual(self.rows(rs), self.expected(s, d))  # iterating fetches every page

    def test_paging_state_resumes_where_the_page_ended(self):
        select = SimpleStatement("SELECT * FROM sensor_data WHERE sensor_id = %s AND date = %s",
                                 fetch_size=10)
        s, d = self.SENSORS[1], self.DATES[0]
        first = SESSION.execute(select, [s, d])
        page1 = self.rows(first.current_rows)
        second = SESSION.execute(select, [s, d], paging_state=first.paging_state)
        page2 = self.rows(second.current_rows)
        self.assertEqual(page1 + page2, self.expected(s, d)[:20])

    def test_clustering_range_slice(self):
        select = SESSION.prepare("SELECT reading_time FROM sensor_data WHERE sensor_id = ? "
                                 "AND date = ? AND reading_time >= ? AND reading_time < ?")
        rs = SESSION.execute(select, [self.SENSORS[0], self.DATES[0], ts(5), ts(10)])
        self.assertEqual([r.reading_time for r in rs], [ts(i) for i in (9, 8, 7, 6, 5)])


class UserEvents(unittest.TestCase):
    USER = uuid.UUID(int=0x2000)
    N = 150

    @classmethod
    def setUpClass(cls):
        insert = SESSION.prepare("INSERT INTO user_events (user_id, event_time, event_type, "
                                 "payload) VALUES (?, ?, ?, ?)")
        for i in range(cls.N):
            SESSION.execute(insert, [cls.USER, ts(i), "click" if i % 2 else "view",
                                     '{"n": %d}' % i])

    def test_limit_100_returns_the_newest_100(self):
        select = SESSION.prepare("SELECT * FROM user_events WHERE user_id = ? LIMIT 100")
        rows = list(SESSION.execute(select, [self.USER]))
        self.assertEqual(len(rows), 100)
        for row, i in zip(rows, reversed(range(self.N - 100, self.N))):
            self.assertEqual((row.user_id, row.event_time, row.event_type, row.payload),
                             (self.USER, ts(i), "click" if i % 2 else "view", '{"n": %d}' % i))

    def test_limit_with_small_pages(self):
        select = SESSION.prepare("SELECT event_time FROM user_events WHERE user_id = ? LIMIT 100")
        select.fetch_size = 33
        times = [r.event_time for r in SESSION.execute(select, [self.USER])]
        self.assertEqual(times, [ts(i) for i in reversed(range(self.N - 100, self.N))])


class Followers(unittest.TestCase):
    def test_followers_come_back_in_clustering_order_and_delete_works(self):
        insert = SESSION.prepare("INSERT INTO followers (user_id, follower_id, followed_at) "
                                 "VALUES (?, ?, ?)")
        names = ["zoe", "adam", "mia", "bob", "eve"]
        for i, name in enumerate(names):
            SESSION.execute(insert, ["alice", name, ts(i)])
        SESSION.execute(insert, ["carol", "adam", ts(99)])
        select = SESSION.prepare("SELECT follower_id, followed_at FROM followers "
                                 "WHERE user_id = ?")
        rows = [(r.follower_id, r.followed_at) for r in SESSION.execute(select, ["alice"])]
        self.assertEqual(rows, sorted((n, ts(i)) for i, n in enumerate(names)))
        SESSION.execute("DELETE FROM followers WHERE user_id = 'alice' AND follower_id = 'mia'")
        rows = [r.follower_id for r in SESSION.execute(select, ["alice"])]
        self.assertEqual(rows, ["adam", "bob", "eve", "zoe"])
        self.assertEqual([r.follower_id for r in SESSION.execute(select, ["carol"])], ["adam"])


class Users(unittest.TestCase):
    def test_point_reads_updates_and_collections(self):
        insert = SESSION.prepare("INSERT INTO users (user_id, username, email, created_at, tags, "
                                 "attributes) VALUES (?, ?, ?, ?, ?, ?)")
        users = {uuid.UUID(int=0x3000 + i): ("user%d" % i, "user%d@example.com" % i, ts(i))
                 for i in range(10)}
        for uid, (name, email, created) in users.items():
            SESSION.execute(insert, [uid, name, email, created, {"a", name},
                                     {"plan": "free", "n": name}])
        select = SESSION.prepare("SELECT * FROM users WHERE user_id = ?")
        for uid, (name, email, created) in users.items():
            row = SESSION.execute(select, [uid]).one()
            self.assertEqual((row.user_id, row.username, row.email, row.created_at),
                             (uid, name, email, created))
            self.assertEqual(set(row.tags), {"a", name})
            self.assertEqual(dict(row.attributes), {"plan": "free", "n": name})
        uid = uuid.UUID(int=0x3000)
        SESSION.execute("UPDATE users SET email = %s WHERE user_id = %s", ["new@example.com", uid])
        self.assertEqual(SESSION.execute(select, [uid]).one().email, "new@example.com")
        self.assertIsNone(SESSION.execute(select, [uuid.UUID(int=0x3999)]).one())


class LightweightTransactions(unittest.TestCase):
    def test_prepared_conditional_writes_return_the_row_they_lost_to(self):
        insert = SESSION.prepare("INSERT INTO orders_by_id (order_id, status) VALUES (?, ?) "
                                 "IF NOT EXISTS")
        oid = uuid.UUID(int=0x7000)
        self.assertTrue(SESSION.execute(insert, [oid, "new"]).one().applied)
        lost = SESSION.execute(insert, [oid, "again"]).one()
        self.assertFalse(lost.applied)
        self.assertEqual((lost.order_id, lost.status), (oid, "new"))
        update = SESSION.prepare("UPDATE orders_by_id SET status = ? WHERE order_id = ? "
                                 "IF status = ?")
        lost = SESSION.execute(update, ["paid", oid, "shipped"]).one()
        self.assertEqual((lost.applied, lost.status), (False, "new"))
        self.assertTrue(SESSION.execute(update, ["paid", oid, "new"]).one().applied)
        row = SESSION.execute("SELECT status FROM orders_by_id WHERE order_id = %s", [oid]).one()
        self.assertEqual(row.status, "paid")


class Orders(unittest.TestCase):
    USER = uuid.UUID(int=0x4000)
    N = 25

    @classmethod
    def setUpClass(cls):
        by_user = SESSION.prepare("INSERT INTO user_orders (user_id, orderTimestamp, order_id, "
                                  "total, status) VALUES (?, ?, ?, ?, ?)")
        by_id = SESSION.prepare("INSERT INTO orders_by_id (order_id, user_id, orderTimestamp, "
                                "total, status) VALUES (?, ?, ?, ?, ?)")
        cls.orders = []
        for i in range(cls.N):
            order = (uuid.UUID(int=0x5000 + i), ts(i), decimal.Decimal("%d.%02d" % (i, i)),
                     "shipped" if i % 3 else "open")
            cls.orders.append(order)
            SESSION.execute(by_user, [cls.USER, order[1], order[0], order[2], order[3]])
            SESSION.execute(by_id, [order[0], cls.USER, order[1], order[2], order[3]])

    def test_order_by_desc_limit_10_is_the_newest_10(self):
        select = SESSION.prepare("SELECT * FROM user_orders WHERE user_id = ? "
                                 "ORDER BY orderTimestamp DESC LIMIT 10")
        rows = [(r.order_id, r.ordertimestamp, r.total, r.status)
                for r in SESSION.execute(select, [self.USER])]
        self.assertEqual(rows, list(reversed(self.orders))[:10])

    def test_order_by_asc_reverses_the_clustering_order(self):
        select = SESSION.prepare("SELECT order_id FROM user_orders WHERE user_id = ? "
                                 "ORDER BY orderTimestamp ASC LIMIT 3")
        self.assertEqual([r.order_id for r in SESSION.execute(select, [self.USER])],
                         [o[0] for o in self.orders[:3]])

    def test_orders_by_id_point_lookups(self):
        select = SESSION.prepare("SELECT * FROM orders_by_id WHERE order_id = ?")
        for order_id, when, total, status in self.orders:
            row = SESSION.execute(select, [order_id]).one()
            self.assertEqual((row.order_id, row.user_id, row.ordertimestamp, row.total,
                              row.status), (order_id, self.USER, when, total, status))


class RefusedTable(unittest.TestCase):
    def test_primary_key_naming_a_missing_column_is_invalid_and_creates_nothing(self):
        with self.assertRaises(InvalidRequest) as cm:
            SESSION.execute("CREATE TABLE bad_pk (id int, name text, PRIMARY KEY (missing_col))")
        self.assertIn("Unknown definition missing_col referenced in PRIMARY KEY",
                      str(cm.exception))
        self.assertIn("code=2200", str(cm.exception))
        rows = SESSION.execute("SELECT table_name FROM system_schema.tables WHERE "
                               "keyspace_name = %s AND table_name = 'bad_pk'", [KS])
        self.assertEqual(list(rows), [])
        CLUSTER.refresh_schema_metadata()
        self.assertNotIn("bad_pk", CLUSTER.metadata.keyspaces[KS].tables)


class Metadata(unittest.TestCase):
    def table(self, name):
        return CLUSTER.metadata.keyspaces[KS].tables[name]

    def test_keyspace_and_tables_are_listed(self):
        CLUSTER.refresh_schema_metadata()
        ks = CLUSTER.metadata.keyspaces[KS]
        self.assertEqual(ks.replication_strategy.replication_factor, 1)
        self.assertTrue({"sensor_data", "user_events", "followers", "users", "user_orders",
                         "orders_by_id"} <= set(ks.tables))

    def test_keys_and_columns(self):
        expect = {
            "sensor_data": (["sensor_id", "date"], ["reading_time"],
                            {"sensor_id": "uuid", "date": "date", "reading_time": "timestamp",
                             "temperature": "double", "humidity": "double"}),
            "user_events": (["user_id"], ["event_time"],
                            {"user_id": "uuid", "event_time": "timestamp", "event_type": "text",
                             "payload": "text"}),
            "followers": (["user_id"], ["follower_id"],
                          {"user_id": "text", "follower_id": "text", "followed_at": "timestamp"}),
            "users": (["user_id"], [],
                      {"user_id": "uuid", "username": "text", "email": "text",
                       "created_at": "timestamp", "tags": "set<text>",
                       "attributes": "map<text, text>"}),
            "user_orders": (["user_id"], ["ordertimestamp"],
                            {"user_id": "uuid", "ordertimestamp": "timestamp",
                             "order_id": "uuid", "total": "decimal", "status": "text"}),
            "orders_by_id": (["order_id"], [],
                             {"order_id": "uuid", "user_id": "uuid",
                              "ordertimestamp": "timestamp", "total": "decimal",
                              "status": "text"}),
        }
        for name, (pk, ck, columns) in expect.items():
            with self.subTest(table=name):
                t = self.table(name)
                self.assertEqual([c.name for c in t.partition_key], pk)
                self.assertEqual([c.name for c in t.clustering_key], ck)
                self.assertEqual({n: c.cql_type for n, c in t.columns.items()}, columns)

    def test_clustering_order_is_reported(self):
        self.assertTrue(self.table("sensor_data").clustering_key[0].is_reversed)
        self.assertFalse(self.table("followers").clustering_key[0].is_reversed)
        cql = self.table("sensor_data").export_as_string()
        self.assertIn("PRIMARY KEY ((sensor_id, date), reading_time)", cql)
        self.assertIn("CLUSTERING ORDER BY (reading_time DESC)", cql)


if __name__ == "__main__":
    unittest.main(verbosity=2)
