"""The DataStax Python driver (Debian python3-cassandra 3.25) connecting the
way an application would: TLS verified against the exported CA, the
PasswordAuthenticator, protocol negotiation from the driver's default (DSE
v2) down to v4, lz4, RequestCharge, and the failure cases."""

import logging
import ssl
import struct
import unittest

from cassandra import AuthenticationFailed, ConsistencyLevel
from cassandra.cluster import NoHostAvailable
from cassandra.query import SimpleStatement

from emulator import ACCOUNT, KEY, REGION, Emulator

EMU = None
logging.getLogger("cassandra").setLevel(logging.ERROR)  # downgrade chatter


def setUpModule():
    global EMU
    EMU = Emulator().start()


def tearDownModule():
    EMU.stop()


def charge(rs):
    payload = rs.response_future.custom_payload
    return struct.unpack(">d", payload["RequestCharge"])[0]


class Connect(unittest.TestCase):
    def test_tls_with_ca_verification_and_auth_negotiates_v4(self):
        cluster = EMU.cluster()  # protocol_version left to the driver (starts at 0x42)
        try:
            session = cluster.connect()
            self.assertEqual(cluster.protocol_version, 4)
            row = session.execute("SELECT cluster_name, data_center, release_version "
                                  "FROM system.local WHERE key = 'local'").one()
            self.assertEqual(row.data_center, REGION)
            self.assertTrue(row.release_version)
            host = cluster.metadata.all_hosts()[0]
            self.assertEqual(host.datacenter, REGION)
        finally:
            cluster.shutdown()

    def test_hostname_localhost_verifies_too(self):
        cluster = EMU.cluster(contact_points=["localhost"])
        try:
            cluster.connect().execute("SELECT key FROM system.local")
        finally:
            cluster.shutdown()

    def test_explicit_v3_is_served(self):
        cluster = EMU.cluster(protocol_version=3)
        try:
            rs = cluster.connect().execute("SELECT key FROM system.local")
            self.assertEqual(rs.one().key, "local")
            self.assertFalse(rs.response_future.custom_payload)  # v3 carries none
        finally:
            cluster.shutdown()

    def test_wrong_key_is_authentication_failed(self):
        cluster = EMU.cluster(key="definitely-not-the-key")
        try:
            with self.assertRaises(NoHostAvailable) as cm:
                cluster.connect()
            errors = list(cm.exception.errors.values())
            self.assertTrue(any(isinstance(e, AuthenticationFailed) for e in errors), errors)
            self.assertIn("Provided username localhost and/or password are incorrect",
                          str(errors))
        finally:
            cluster.shutdown()

    def test_wrong_account_is_authentication_failed(self):
        cluster = EMU.cluster(user="someone-else")
        try:
            with self.assertRaises(NoHostAvailable):
                cluster.connect()
        finally:
            cluster.shutdown()

    def test_untrusted_certificate_is_rejected_by_the_client(self):
        ctx = ssl.create_default_context()  # system CAs only: ours is not among them
        cluster = EMU.cluster(ssl_context=ctx)
        try:
            with self.assertRaises(NoHostAvailable):
                cluster.connect()
        finally:
            cluster.shutdown()

    def test_plaintext_driver_on_the_tls_port_fails_and_the_server_carries_on(self):
        cluster = EMU.cluster(ssl=False, connect_timeout=5)
        try:
            with self.assertRaises(NoHostAvailable):
                cluster.connect()
        finally:
            cluster.shutdown()
        EMU.wait_for_log(r"refused plaintext connection from 127\.0\.0\.1:\d+ on the TLS port")
        ok = EMU.cluster()
        try:
            ok.connect().execute("SELECT key FROM system.local")
        finally:
            ok.shutdown()

    def test_lz4_compression(self):
        cluster = EMU.cluster(compression="lz4")
        try:
            session = cluster.connect()
            conn = cluster.control_connection._connection
            self.assertIsNotNone(conn.compressor)
            rs = session.execute("SELECT keyspace_name FROM system_schema.keyspaces")
            names = {r.keyspace_name for r in rs}
            self.assertIn("system", names)
            self.assertGreater(charge(rs), 0.0)
        finally:
            cluster.shutdown()

    def test_request_charge_and_warnings_ride_on_every_statement(self):
        cluster = EMU.cluster()
        try:
            session = cluster.connect()
            session.execute("CREATE KEYSPACE IF NOT EXISTS charge_ks WITH replication = "
                            "{'class': 'SimpleStrategy', 'replication_factor': 1}")
            session.execute("CREATE TABLE IF NOT EXISTS charge_ks.kv (k int PRIMARY KEY, v text)")
            write = session.execute("INSERT INTO charge_ks.kv (k, v) VALUES (1, 'one')")
            read = session.execute("SELECT * FROM charge_ks.kv WHERE k = 1")
            self.assertGreater(charge(write), 0.0)
            self.assertGreater(charge(read), 0.0)
            prepared = session.prepare("SELECT v FROM charge_ks.kv WHERE k = ?")
            rs = session.execute(prepared, [1])
            self.assertEqual(rs.one().v, "one")
            self.assertGreater(charge(rs), 0.0)
        finally:
            cluster.shutdown()


class Consistency(unittest.TestCase):
    LEVELS = [ConsistencyLevel.ANY, ConsistencyLevel.ONE, ConsistencyLevel.TWO,
              ConsistencyLevel.THREE, ConsistencyLevel.QUORUM, ConsistencyLevel.ALL,
              ConsistencyLevel.LOCAL_QUORUM, ConsistencyLevel.EACH_QUORUM,
              ConsistencyLevel.SERIAL, ConsistencyLevel.LOCAL_SERIAL, ConsistencyLevel.LOCAL_ONE]

    def test_session_at_quorum(self):
        cluster = EMU.cluster(consistency_level=ConsistencyLevel.QUORUM)
        try:
            session = cluster.connect()
            session.execute("CREATE KEYSPACE IF NOT EXISTS cl_ks WITH replication = "
                            "{'class': 'SimpleStrategy', 'replication_factor': 1}")
            session.execute("CREATE TABLE IF NOT EXISTS cl_ks.t (k int PRIMARY KEY, v int)")
            session.execute("INSERT INTO cl_ks.t (k, v) VALUES (0, 0)")
            self.assertEqual(session.execute("SELECT v FROM cl_ks.t WHERE k = 0").one().v, 0)
        finally:
            cluster.shutdown()

    def test_every_consistency_level_is_accepted(self):
        cluster = EMU.cluster()
        try:
            session = cluster.connect()
            session.execute("CREATE KEYSPACE IF NOT EXISTS cl_ks WITH replication = "
                            "{'class': 'SimpleStrategy', 'replication_factor': 1}")
            session.execute("CREATE TABLE IF NOT EXISTS cl_ks.t (k int PRIMARY KEY, v int)")
            insert = session.prepare("INSERT INTO cl_ks.t (k, v) VALUES (?, ?)")
            for i, level in enumerate(self.LEVELS, start=1):
                name = ConsistencyLevel.value_to_name[level]
                with self.subTest(level=name):
                    insert.consistency_level = level
                    session.execute(insert, [i, i * 10])
                    select = SimpleStatement("SELECT v FROM cl_ks.t WHERE k = %s",
                                             consistency_level=level)
                    self.assertEqual(session.execute(select, [i]).one().v, i * 10)
        finally:
            cluster.shutdown()


if __name__ == "__main__":
    unittest.main(verbosity=2)
