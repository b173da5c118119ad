"""Request units through the Python driver: the RequestCharge of every kind
of operation against the cost model, provisioned throughput enforced with
--rate-limiting on (0x1001 Overloaded with the service's message, about the
table's RU/s accepted, hot partitions), the warning when rate limiting is
off, and server-side retry (a throttled write answered late, or a write
timeout once the retry budget is spent)."""

import json
import logging
import os
import shutil
import struct
import subprocess
import tempfile
import time
import unittest
import uuid

from cassandra import InvalidRequest, WriteTimeout
from cassandra.cluster import EXEC_PROFILE_DEFAULT, ExecutionProfile
from cassandra.metadata import murmur3
from cassandra.policies import (DCAwareRoundRobinPolicy, FallthroughRetryPolicy,
                                TokenAwarePolicy)
from cassandra.protocol import OverloadedErrorMessage
from cassandra.query import BatchStatement, BatchType

from emulator import REGION, Emulator, binary

logging.getLogger("cassandra").setLevel(logging.CRITICAL)  # throttling is expected here

KS = "ru_py"
ROW = "x" * 900  # with its key, a row just under 1 KB


def charge_of(future):
    """RequestCharge of a finished request, RESULT or ERROR alike."""
    return struct.unpack(">d", future.custom_payload["RequestCharge"])[0]


def retry_after_ms(message):
    """Parses the throttling text as the Azure Java retry policy does: split on
    ',', then each part on '=', key RetryAfterMs, Integer.parseInt(value)."""
    for part in message.split(","):
        kv = part.split("=")
        if len(kv) == 2 and kv[0].strip() == "RetryAfterMs":
            return int(kv[1])
    raise AssertionError("no RetryAfterMs in %r" % message)


class Server:
    """One emulator plus a session that never retries (errors reach us)."""

    def __init__(self, *args):
        self.emu = Emulator(args=list(args)).start()
        profile = ExecutionProfile(
            load_balancing_policy=TokenAwarePolicy(DCAwareRoundRobinPolicy(local_dc=REGION)),
            retry_policy=FallthroughRetryPolicy(), request_timeout=30)
        self.cluster = self.emu.cluster(execution_profiles={EXEC_PROFILE_DEFAULT: profile})
        self.session = self.cluster.connect()
        self.session.execute("CREATE KEYSPACE %s WITH replication = "
                             "{'class': 'SimpleStrategy', 'replication_factor': 1}" % KS)
        self.session.set_keyspace(KS)

    def run(self, query, params=None):
        """Returns (result set or exception, charge)."""
        f = self.session.execute_async(query, params)
        try:
            out = f.result()
        except Exception as e:  # noqa: BLE001 - the error is the result here
            out = e
        return out, charge_of(f)

    def close(self):
        self.cluster.shutdown()
        self.emu.stop()


def flood(server, statement, params_of, seconds, window=64):
    """Keeps `window` writes in flight for `seconds`; returns (sum of the
    charges of those that passed, list of Overloaded messages, elapsed)."""
    ok_ru, throttled, i, pending = 0.0, [], 0, []
    start = time.monotonic()
    while time.monotonic() - start < seconds or pending:
        while time.monotonic() - start < seconds and len(pending) < window:
            pending.append(server.session.execute_async(statement, params_of(i)))
            i += 1
        f = pending.pop(0)
        try:
            f.result()
            ok_ru += charge_of(f)
        except OverloadedErrorMessage as e:
            throttled.append(e.message)
            assert charge_of(f) == 0.0
    return ok_ru, throttled, time.monotonic() - start


def physical_partition(key, n):
    """The physical partition of an int partition key on a ring cut in n."""
    token = murmur3(struct.pack(">i", key))
    return (((token + 2**63) >> 32) * n) >> 32


class Charges(unittest.TestCase):
    """Rate limiting on, tables with room to spare: charges per operation."""

    @classmethod
    def setUpClass(cls):
        cls.s = Server("--rate-limiting", "on")
        cls.s.session.execute("CREATE TABLE kv (k int, c int, v text, PRIMARY KEY (k, c)) "
                              "WITH cosmosdb_provisioned_throughput = 20000")

    @classmethod
    def tearDownClass(cls):
        cls.s.close()

    def test_point_read_of_1kb_is_1_ru(self):
        self.s.run("INSERT INTO kv (k, c, v) VALUES (1, 1, %s)", [ROW])
        rs, ru = self.s.run("SELECT * FROM kv WHERE k = 1 AND c = 1")
        self.assertEqual(len(rs.current_rows), 1)
        self.assertEqual(ru, 1.0)

    def test_write_then_overwrite(self):
        _, insert = self.s.run("INSERT INTO kv (k, c, v) VALUES (2, 1, %s)", [ROW])
        _, overwrite = self.s.run("INSERT INTO kv (k, c, v) VALUES (2, 1, %s)", [ROW])
        self.assertEqual(insert, 5.5)
        self.assertEqual(overwrite, 2 * insert)

    def test_cross_partition_query_costs_more_than_a_partition_query(self):
        for k in range(10, 20):
            self.s.run("INSERT INTO kv (k, c, v) VALUES (%s, 1, 'small')", [k])
        _, partition = self.s.run("SELECT * FROM kv WHERE k = 10")
        _, scan = self.s.run("SELECT * FROM kv")
        self.assertGreaterEqual(partition, 2.0)  # query_base: not a point read
        # 20000 RU/s -> 2 physical partitions, 2.5 RU each on top of the scan
        self.assertGreaterEqual(scan, partition + 2 * 2.5)

    def test_batch_costs_the_sum_of_its_statements(self):
        insert = self.s.session.prepare("INSERT INTO kv (k, c, v) VALUES (?, ?, ?)")
        _, one = self.s.run(insert, [30, 1, ROW])
        batch = BatchStatement(batch_type=BatchType.UNLOGGED)
        for c in range(1, 4):
            batch.add(insert, [31, c, ROW])
        _, three = self.s.run(batch)
        self.assertEqual(three, 3 * one)

    def test_lwt_costs_more_than_a_write(self):
        _, write = self.s.run("INSERT INTO kv (k, c, v) VALUES (40, 1, 'a')")
        rs, lwt = self.s.run("INSERT INTO kv (k, c, v) VALUES (41, 1, 'a') IF NOT EXISTS")
        self.assertTrue(rs.one()[0])
        self.assertGreater(lwt, write)
        self.assertEqual(lwt, 2.0 + 1.0 + 5.5)  # lwt_extra + its read + its write
        rs, lost = self.s.run("INSERT INTO kv (k, c, v) VALUES (41, 1, 'b') IF NOT EXISTS")
        self.assertFalse(rs.one()[0])
        self.assertEqual(lost, 2.0 + 1.0)  # not applied: no write

    def test_failed_request_is_charged_for_what_it_did(self):
        err, ru = self.s.run("SELECT * FROM kv WHERE v = 'a'")  # needs ALLOW FILTERING
        self.assertIsInstance(err, Exception)
        self.assertGreaterEqual(ru, 0.0)
        err, ru = self.s.run("SELECT * FROM no_such_table")
        self.assertIsInstance(err, Exception)
        self.assertGreater(ru, 0.0)

    def test_invalid_throughput_gets_the_service_text(self):
        err, _ = self.s.run("CREATE TABLE bad (k int PRIMARY KEY) "
                            "WITH cosmosdb_provisioned_throughput = 450")
        self.assertIn("between 400 and 1000000 inclusive in increments of 100", str(err))

    def test_lowering_a_table_stops_at_its_highest_throughput_over_100(self):
        self.s.session.execute("CREATE TABLE lowered (k int PRIMARY KEY) "
                               "WITH cosmosdb_provisioned_throughput = 100000")
        err, _ = self.s.run("ALTER TABLE lowered WITH cosmosdb_provisioned_throughput = 400")
        self.assertIsInstance(err, InvalidRequest)
        self.assertIn("The offer throughput value 400 is below the minimum of 1000 RU/s for this "
                      "table (highest throughput ever provisioned 100000 / 100).", str(err))
        rs, _ = self.s.run("ALTER TABLE lowered WITH cosmosdb_provisioned_throughput = 1000")
        self.assertNotIsInstance(rs, Exception)


class RateLimiting(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.s = Server("--rate-limiting", "on")

    @classmethod
    def tearDownClass(cls):
        cls.s.close()

    def test_table_at_400_rus_accepts_about_400_ru_per_second(self):
        self.s.session.execute("CREATE TABLE t400 (k uuid PRIMARY KEY, v text) "
                               "WITH cosmosdb_provisioned_throughput = 400")
        insert = self.s.session.prepare("INSERT INTO t400 (k, v) VALUES (?, ?)")
        # drain the second of budget the table starts with, then measure
        flood(self.s, insert, lambda i: [uuid.uuid4(), ROW], 0.5)
        ru, throttled, elapsed = flood(self.s, insert, lambda i: [uuid.uuid4(), ROW], 3.0)
        rate = ru / elapsed
        self.assertTrue(250 <= rate <= 600, "accepted %.0f RU/s" % rate)
        self.assertGreater(len(throttled), 0)
        for message in throttled[:50]:
            self.assertTrue(message.startswith("Request rate is large: ActivityID="), message)
            self.assertEqual(message.split(",")[1].split("=")[0].strip(), "RetryAfterMs")
            self.assertTrue(1 <= retry_after_ms(message) <= 1000, message)
        ids = {m.split(",")[0] for m in throttled}
        self.assertEqual(len(ids), len(throttled), "ActivityID must be fresh per request")

    def test_hot_partition_is_throttled_while_the_others_pass(self):
        # 30000 RU/s = 3 physical partitions of 10000 RU/s each
        self.s.session.execute("CREATE TABLE hot (k int, c int, v blob, PRIMARY KEY (k, c)) "
                               "WITH cosmosdb_provisioned_throughput = 30000")
        keys = {}
        for k in range(1000):
            keys.setdefault(physical_partition(k, 3), k)
        self.assertEqual(len(keys), 3)
        hot = keys[0]
        insert = self.s.session.prepare("INSERT INTO hot (k, c, v) VALUES (?, ?, ?)")
        big = b"\x01" * (1000 * 1024)  # ~505 RU a write: 20 drain a partition
        _, throttled, _ = flood(self.s, insert, lambda i: [hot, i, big], 1.0, window=8)
        self.assertGreater(len(throttled), 0, "the hot partition was never throttled")
        for p in (1, 2):
            rs, ru = self.s.run(insert, [keys[p], 0, big])
            self.assertNotIsInstance(rs, Exception, "partition %d was throttled" % p)
            self.assertGreater(ru, 400)


class RateLimitingOff(unittest.TestCase):
    def test_over_budget_requests_pass_with_a_warning(self):
        s = Server()  # the default: rate limiting off, as the Azure emulator
        try:
            s.session.execute("CREATE TABLE w (k int PRIMARY KEY, v text)")  # 400 RU/s default
            insert = s.session.prepare("INSERT INTO w (k, v) VALUES (?, ?)")
            warned = None
            for k in range(300):
                f = s.session.execute_async(insert, [k, ROW])
                f.result()  # never Overloaded
                if f.warnings:
                    warned = (k, f.warnings, charge_of(f))
                    break
            self.assertIsNotNone(warned, "no request carried the would-throttle warning")
            k, warnings, ru = warned
            self.assertGreater(k, 50)  # one second's budget first
            self.assertTrue(any("would have throttled" in w for w in warnings), warnings)
            self.assertEqual(ru, 5.5)
        finally:
            s.close()


class ServerSideRetry(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.s = Server("--rate-limiting", "on", "--server-side-retry",
                       "--server-side-retry-ms", "1500")

    @classmethod
    def tearDownClass(cls):
        cls.s.close()

    def test_throttled_writes_are_answered_late_but_successfully(self):
        self.s.session.execute("CREATE TABLE ssr (k int PRIMARY KEY, v text) "
                               "WITH cosmosdb_provisioned_throughput = 400")
        insert = self.s.session.prepare("INSERT INTO ssr (k, v) VALUES (?, ?)")
        start = time.monotonic()
        futures = [self.s.session.execute_async(insert, [k, ROW]) for k in range(90)]
        for f in futures:
            f.result()  # no Overloaded: the server retried
        elapsed = time.monotonic() - start
        # 90 x 5.5 = 495 RU against a 400 RU bucket: the last ones waited
        self.assertGreater(elapsed, 0.15)
        self.assertEqual(self.s.session.execute("SELECT count(*) FROM ssr").one()[0], 90)

    def test_a_write_held_past_the_budget_times_out(self):
        self.s.session.execute("CREATE TABLE ssr_big (k int PRIMARY KEY, v blob) "
                               "WITH cosmosdb_provisioned_throughput = 400")
        insert = self.s.session.prepare("INSERT INTO ssr_big (k, v) VALUES (?, ?)")
        big = b"\x02" * (1000 * 1024)  # ~505 RU: more than the table's 400 RU/s
        self.s.session.execute(insert, [0, big])
        futures = [self.s.session.execute_async(insert, [k, big]) for k in range(1, 4)]
        outcomes = []
        for f in futures:
            try:
                f.result()
                outcomes.append("ok")
            except WriteTimeout as e:
                outcomes.append("timeout")
                self.assertEqual(charge_of(f), 0.0)
                self.assertIn("server-side retry", str(e))
        self.assertIn("timeout", outcomes)


class CostModelFile(unittest.TestCase):
    def test_a_calibrated_cost_model_changes_the_charges(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"_about": "calibrated", "write_1kb": 7.25}, f)
        try:
            s = Server("--cost-model", f.name)
            try:
                s.session.execute("CREATE TABLE m (k int PRIMARY KEY, v text)")
                _, ru = s.run("INSERT INTO m (k, v) VALUES (1, 'a')")
                self.assertEqual(ru, 7.25)
            finally:
                s.close()
        finally:
            os.unlink(f.name)

    def test_an_unknown_coefficient_stops_the_start_naming_it(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"write_1kb": 5.5, "point_read_10kb": 2}, f)
        data_dir = tempfile.mkdtemp(prefix="emu-it-")
        try:
            p = subprocess.run([binary(), "--port", "0", "--data-dir", data_dir, "--cost-model",
                                f.name], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                               timeout=60)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("unknown coefficient 'point_read_10kb'", p.stderr)
        finally:
            os.unlink(f.name)
            shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
