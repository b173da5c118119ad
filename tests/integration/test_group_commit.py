"""Group commit (--fsync always) and periodic sync through the Python driver.

With --fsync always a write is answered only once an fdatasync covers it, and
one fdatasync covers every write that arrived while the previous one ran: 256
concurrent writes are all held back while the sync thread is held (the
COSMOS_EMULATOR_TEST_SYNC_GATE file exists), then all answered after a few
fdatasyncs (commitlog_syncs_total in /metrics), and every one of them is there
after kill -9 right after the acknowledgements. With --fsync periodic writes
are answered at once, fsync or not, and survive kill -9 as well (the page
cache outlives the process). Behaviour only: no timings are asserted."""

import logging
import os
import re
import shutil
import tempfile
import time
import unittest
import urllib.request

from emulator import Emulator

logging.getLogger("cassandra").setLevel(logging.ERROR)
KS = "group_commit"
N = 256
GATE_ENV = "COSMOS_EMULATOR_TEST_SYNC_GATE"


def metric(admin, name):
    with urllib.request.urlopen("http://%s/metrics" % admin, timeout=10) as r:
        text = r.read().decode()
    m = re.search(r"^cosmos_emulator_%s (\S+)$" % name, text, re.M)
    if m is None:
        raise AssertionError("no %s in /metrics:\n%s" % (name, text))
    return float(m.group(1))


def track(future):
    """The future, with a .finished Event set once it is answered either way."""
    import threading
    future.finished = threading.Event()
    future.add_callbacks(lambda _: future.finished.set(), lambda _: future.finished.set())
    return future


def wait_until(pred, what, timeout=30):
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0.02)


class GroupCommitTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="emu-group-commit-")
        self.gate = os.path.join(self.dir, "gate")
        self.emus = []
        self.clusters = []
        os.environ[GATE_ENV] = self.gate

    def tearDown(self):
        os.environ.pop(GATE_ENV, None)
        if os.path.exists(self.gate):
            os.unlink(self.gate)
        for c in self.clusters:
            c.shutdown()
        for e in self.emus:
            e.kill()
        shutil.rmtree(self.dir, ignore_errors=True)

    def start(self, *fsync):
        emu = Emulator(tls=False, data_dir=self.dir,
                       args=["--storage", "durable", "--admin-port", "0"] + list(fsync))
        self.emus.append(emu)
        emu.start()
        emu.admin = emu.wait_for_log(r"admin endpoint on http://(\S+) \(").group(1)
        cluster = emu.cluster()
        self.clusters.append(cluster)
        return emu, cluster, cluster.connect()

    def kill(self, emu, cluster):
        cluster.shutdown()
        self.clusters.remove(cluster)
        self.emus.remove(emu)
        emu.kill()

    def make_schema(self, session):
        session.execute("CREATE KEYSPACE %s WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}" % KS)
        session.execute("CREATE TABLE %s.kv (k int PRIMARY KEY, v text)" % KS)
        return session.prepare("INSERT INTO %s.kv (k, v) VALUES (?, ?)" % KS)

    def assert_all_rows(self, session):
        rows = {r.k: r.v for r in session.execute("SELECT k, v FROM %s.kv" % KS)}
        self.assertEqual(rows, {i: "value-%d" % i for i in range(N)})

    def test_always_answers_after_the_fsync_that_covers_many_writes(self):
        emu, cluster, session = self.start("--fsync", "always")
        insert = self.make_schema(session)
        open(self.gate, "w").close()  # the sync thread now waits before each fdatasync
        syncs_before = metric(emu.admin, "commitlog_syncs_total")
        futures = [track(session.execute_async(insert, (i, "value-%d" % i))) for i in range(N)]
        # Every write ran (in memory, in the log) but none is answered yet.
        wait_until(lambda: metric(emu.admin, "commitlog_acks_waiting") == N,
                   "%d answers held for their fdatasync" % N)
        self.assertEqual([f for f in futures if f.finished.is_set()], [])
        os.unlink(self.gate)
        for f in futures:
            f.result()
        syncs = metric(emu.admin, "commitlog_syncs_total") - syncs_before
        self.assertGreaterEqual(syncs, 1)
        self.assertLess(syncs, N / 16, "one fdatasync covers the writes that waited for it")
        self.assertEqual(metric(emu.admin, "commitlog_acks_waiting"), 0)
        self.kill(emu, cluster)  # at once: nothing but the fdatasync'ed log is left

        emu, cluster, session = self.start("--fsync", "always")
        self.assert_all_rows(session)
        self.assertIn("(fsync always)", emu.log())

    def test_reads_wait_for_the_fsync_of_what_they_saw(self):
        emu, cluster, session = self.start("--fsync", "always")
        insert = self.make_schema(session)
        open(self.gate, "w").close()
        write = track(session.execute_async(insert, (1, "unsynced")))
        wait_until(lambda: metric(emu.admin, "commitlog_acks_waiting") == 1, "the held write")
        read = track(session.execute_async("SELECT v FROM %s.kv WHERE k = 1" % KS))
        wait_until(lambda: metric(emu.admin, "commitlog_acks_waiting") == 2, "the held read")
        self.assertFalse(write.finished.is_set() or read.finished.is_set())
        os.unlink(self.gate)
        write.result()
        self.assertEqual(read.result().one().v, "unsynced")

    def test_periodic_answers_at_once_and_syncs_on_its_timer(self):
        emu, cluster, session = self.start("--fsync", "periodic", "--fsync-interval-ms", "20")
        insert = self.make_schema(session)
        open(self.gate, "w").close()  # no fdatasync can finish now: answers do not wait
        futures = [session.execute_async(insert, (i, "value-%d" % i)) for i in range(N)]
        for f in futures:
            f.result()
        self.assertEqual(metric(emu.admin, "commitlog_acks_waiting"), 0)
        syncs = metric(emu.admin, "commitlog_syncs_total")
        os.unlink(self.gate)
        wait_until(lambda: metric(emu.admin, "commitlog_syncs_total") > syncs,
                   "a periodic fdatasync")
        self.kill(emu, cluster)

        emu, cluster, session = self.start("--fsync", "periodic")
        self.assert_all_rows(session)
        self.assertIn("(fsync periodic)", emu.log())


if __name__ == "__main__":
    unittest.main()
