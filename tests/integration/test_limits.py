"""Wide keys and the schema's named limits through the Python driver: a table
with 70 clustering columns (more than any fixed array once held) takes
prepared inserts and reads them back, and a table past the column limit is
refused with InvalidRequest naming the limit while the server keeps serving."""

import logging
import unittest

from cassandra import InvalidRequest

from emulator import Emulator

logging.getLogger("cassandra").setLevel(logging.ERROR)
KS = "limits_py"
N_CK = 70

EMU = None
CLUSTER = None
SESSION = None


def setUpModule():
    global EMU, CLUSTER, SESSION
    EMU = Emulator(tls=False).start()
    CLUSTER = EMU.cluster()
    SESSION = CLUSTER.connect()
    SESSION.execute("CREATE KEYSPACE %s WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1}" % KS)
    SESSION.set_keyspace(KS)


def tearDownModule():
    CLUSTER.shutdown()
    EMU.stop()


class WideKeyTest(unittest.TestCase):
    def test_70_clustering_columns_round_trip(self):
        cks = ["c%d" % i for i in range(N_CK)]
        SESSION.execute("CREATE TABLE wide (k int, %s, v text, PRIMARY KEY (k, %s)) "
                        "WITH CLUSTERING ORDER BY (%s)"
                        % (", ".join(c + " int" for c in cks), ", ".join(cks),
                           ", ".join(c + " DESC" for c in cks)))
        ins = SESSION.prepare("INSERT INTO wide (k, %s, v) VALUES (?, %s, ?)"
                              % (", ".join(cks), ", ".join("?" * N_CK)))
        rows = {}
        for r in range(5):
            key = tuple(i * r for i in range(N_CK))
            SESSION.execute(ins, (1,) + key + ("row%d" % r,))
            rows[key] = "row%d" % r
        got = list(SESSION.execute("SELECT %s, v FROM wide WHERE k = 1" % ", ".join(cks)))
        self.assertEqual([tuple(r[:N_CK]) for r in got],
                         sorted(rows, reverse=True))  # every column DESC
        self.assertEqual({tuple(r[:N_CK]): r.v for r in got}, rows)

        point = SESSION.prepare("SELECT v FROM wide WHERE k = ? AND %s"
                                % " AND ".join(c + " = ?" for c in cks))
        key = tuple(i * 3 for i in range(N_CK))
        self.assertEqual(SESSION.execute(point, (1,) + key).one().v, "row3")
        tup = SESSION.prepare("SELECT v FROM wide WHERE k = ? AND (%s) < ?" % ", ".join(cks))
        self.assertEqual(len(list(SESSION.execute(tup, (1, key)))), 3)  # rows 0, 1, 2
        SESSION.execute("DELETE FROM wide WHERE k = 1 AND %s"
                        % " AND ".join("%s = %d" % (c, v) for c, v in zip(cks, key)))
        self.assertEqual(SESSION.execute("SELECT count(*) FROM wide").one()[0], 4)

    def test_a_table_past_the_column_limit_is_refused(self):
        cols = ", ".join("c%d int" % i for i in range(4096))
        with self.assertRaises(InvalidRequest) as cm:
            SESSION.execute("CREATE TABLE too_wide (k int PRIMARY KEY, %s)" % cols)
        self.assertIn("more than the emulator's limit of 4096", str(cm.exception))
        self.assertEqual(SESSION.execute("SELECT count(*) FROM system_schema.tables "
                                         "WHERE keyspace_name = %s AND table_name = 'too_wide'",
                                         (KS,)).one()[0], 0)


if __name__ == "__main__":
    unittest.main()
