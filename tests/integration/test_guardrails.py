"""Guard-rails in every profile, through the Python driver.

cassandra.yaml's thresholds are options with its names and defaults. Under the
default cosmos profile they are advisories: an oversized or wide unlogged batch,
a read over many tombstones and a partition growing past the large-partition
threshold are served with a protocol warning, logged at warn and counted per
table in /stats, /metrics and the cost report, while the service's own 2 MB item
limit is still refused. Under --profile cassandra the same batch fails with
"Batch too large" and the tombstone read with Read_failure, as Cassandra does."""

import json
import logging
import os
import re
import shutil
import tempfile
import unittest
import urllib.request

from cassandra import InvalidRequest, ReadFailure, WriteFailure
from cassandra.query import BatchStatement, BatchType

from emulator import Emulator

logging.getLogger("cassandra").setLevel(logging.ERROR)
KS = "guard"


def get(admin, path):
    with urllib.request.urlopen("http://%s%s" % (admin, path), timeout=10) as r:
        return r.read().decode()


class Guarded:
    def __init__(self, test, *args):
        self.emu = Emulator(tls=False, args=["--admin-port", "0"] + list(args))
        test.addCleanup(self.emu.stop)
        self.emu.start()
        self.admin = self.emu.admin
        self.cluster = self.emu.cluster()
        test.addCleanup(self.cluster.shutdown)
        self.session = s = self.cluster.connect()
        s.execute("CREATE KEYSPACE %s WITH replication = "
                  "{'class': 'SimpleStrategy', 'replication_factor': 1}" % KS)
        s.execute("CREATE TABLE %s.kv (k int, c int, v text, PRIMARY KEY (k, c))" % KS)
        self.insert = s.prepare("INSERT INTO %s.kv (k, c, v) VALUES (?, ?, ?)" % KS)

    def batch(self, partitions, value_bytes):
        b = BatchStatement(batch_type=BatchType.UNLOGGED)
        for k in range(partitions):
            b.add(self.insert, (k, 0, "x" * value_bytes))
        return b

    def tombstones(self, n):
        """Partition 1000 with n deleted rows and one live one."""
        delete = self.session.prepare("DELETE FROM %s.kv WHERE k = 1000 AND c = ?" % KS)
        for c in range(n):
            self.session.execute(delete, (c,))
        self.session.execute(self.insert, (1000, n, "live"))

    def table_guardrails(self):
        stats = json.loads(get(self.admin, "/stats"))
        for t in stats["tables"]:
            if t["keyspace"] == KS and t["table"] == "kv":
                return t["guardrails"]
        raise AssertionError("no %s.kv in /stats" % KS)


def warnings_of(rs):
    return rs.response_future.warnings or []


class CosmosAdvisoriesTest(unittest.TestCase):
    def test_batches_are_served_with_advisories_and_counted(self):
        g = Guarded(self)
        rs = g.session.execute(g.batch(2, 5 * 1024))  # 10 KB over two partitions
        self.assertTrue(any(re.match(r"Batch for \[guard\.kv\] is of size \d+, exceeding "
                                     r"specified threshold of 5120 by \d+\.$", w)
                            for w in warnings_of(rs)), warnings_of(rs))
        rs = g.session.execute(g.batch(2, 30 * 1024))  # 60 KB: Cassandra would refuse it
        self.assertTrue(any("Batch too large" in w and "batch_size_fail_threshold_in_kb" in w
                            for w in warnings_of(rs)), warnings_of(rs))
        rs = g.session.execute(g.batch(11, 10))
        self.assertTrue(any(w.startswith("Unlogged batch covering 11 partitions detected "
                                         "against table [guard.kv].")
                            for w in warnings_of(rs)), warnings_of(rs))
        self.assertEqual(len(list(g.session.execute("SELECT k FROM %s.kv" % KS))), 11)
        counts = g.table_guardrails()
        self.assertEqual(counts["batch_size_warn"], 1)
        self.assertEqual(counts["batch_size_fail"], 1)
        self.assertEqual(counts["unlogged_batch_partitions"], 1)
        metrics = get(g.admin, "/metrics")
        self.assertIn('cosmos_emulator_table_guardrails_total{keyspace="guard",table="kv",'
                      'guardrail="batch_size_fail"} 1', metrics)
        self.assertIn("guard-rails crossed: batch_size_warn 1, batch_size_fail 1, "
                      "unlogged_batch_partitions 1", get(g.admin, "/report"))
        g.emu.wait_for_log(r"WARN.*guard-rail on guard\.kv: Batch for \[guard\.kv\]")

    def test_tombstone_reads_are_served_with_advisories(self):
        g = Guarded(self, "--tombstone-warn-threshold", "20", "--tombstone-failure-threshold", "50")
        g.tombstones(30)
        rs = g.session.execute("SELECT * FROM %s.kv WHERE k = 1000" % KS)
        self.assertEqual(len(list(rs)), 1)
        self.assertTrue(any(w.startswith("Read 1 live rows and 30 tombstone cells for query")
                            for w in warnings_of(rs)), warnings_of(rs))
        g.tombstones(60)
        rs = g.session.execute("SELECT * FROM %s.kv WHERE k = 1000" % KS)
        self.assertEqual(len(list(rs)), 1)  # served: the service keeps no tombstones
        self.assertTrue(any(w.startswith("Scanned over 60 tombstones") and
                            "tombstone_failure_threshold" in w for w in warnings_of(rs)),
                        warnings_of(rs))
        counts = g.table_guardrails()
        self.assertEqual((counts["tombstone_warn"], counts["tombstone_failure"]), (1, 1))

    def test_large_partitions_are_flagged_and_items_past_2_mb_refused(self):
        g = Guarded(self, "--compaction-large-partition-warning-threshold-mb", "1")
        warned = []
        for c in range(12):  # 12 x 100 KB rows in one partition
            rs = g.session.execute(g.insert, (7, c, "y" * 100 * 1024))
            warned += [c for w in warnings_of(rs) if "compaction_large_partition_warning" in w]
        self.assertEqual(len(warned), 1)  # once, when the partition crosses 1 MB
        self.assertEqual(g.table_guardrails()["large_partition"], 1)
        g.emu.wait_for_log(r"WARN.*Writing large partition guard/kv:token")
        with self.assertRaises(WriteFailure):  # the service's own limit stays a refusal
            g.session.execute(g.insert, (8, 0, "z" * (2 * 1024 * 1024 + 10)))


class CassandraRefusalsTest(unittest.TestCase):
    def test_batch_too_large_and_tombstone_overwhelm(self):
        g = Guarded(self, "--profile", "cassandra", "--tombstone-failure-threshold", "50",
                    "--batch-size-warn-threshold-in-kb", "1")
        rs = g.session.execute(g.batch(2, 1024))  # 2 KB: past the lowered warn threshold
        self.assertTrue(any("exceeding specified threshold of 1024" in w
                            for w in warnings_of(rs)), warnings_of(rs))
        with self.assertRaises(InvalidRequest) as cm:
            g.session.execute(g.batch(2, 30 * 1024))
        self.assertIn("Batch too large", str(cm.exception))
        g.tombstones(60)
        with self.assertRaises(ReadFailure):
            g.session.execute("SELECT * FROM %s.kv WHERE k = 1000" % KS)
        counts = g.table_guardrails()
        self.assertEqual((counts["batch_size_warn"], counts["batch_size_fail"],
                          counts["tombstone_failure"]), (1, 1, 1))

    def test_thresholds_come_from_the_config_file_in_cassandra_yaml_spelling(self):
        d = tempfile.mkdtemp(prefix="emu-guard-cfg-")
        self.addCleanup(shutil.rmtree, d, True)
        path = os.path.join(d, "config.json")
        with open(path, "w") as f:
            json.dump({"profile": "cassandra", "tombstone_warn_threshold": 5,
                       "tombstone-failure-threshold": 1000}, f)
        g = Guarded(self, "--config", path)
        g.tombstones(8)
        rs = g.session.execute("SELECT * FROM %s.kv WHERE k = 1000" % KS)
        self.assertTrue(any(w.startswith("Read 1 live rows and 8 tombstone cells")
                            for w in warnings_of(rs)), warnings_of(rs))


if __name__ == "__main__":
    unittest.main()
