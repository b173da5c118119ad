"""Group commit (--fsync always) and periodic sync through the Python driver.

With --fsync always a write is answered only once an fdatasync covers it, and
one fdatasync covers every write that arrived while the previous one ran: 256
concurrent writes are all held back while the sync thread is held (the
COSMOS_EMULATOR_TEST_SYNC_GATE file exists), then all answered after a few
fdatasyncs (commitlog_syncs_total in /metrics), and every one of them is there
after kill -9 right after the acknowledgements. With --fsync periodic writes
are answered at once, fsync or not (but only once the commit log's writer
thread has written them: held by COSMOS_EMULATOR_TEST_WRITE_GATE, they run and
wait), and survive kill -9 as well (the page cache outlives the process).
Behaviour only: no timings are asserted."""

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
WRITE_GATE_ENV = "COSMOS_EMULATOR_TEST_WRITE_GATE"
EXECUTED = 'requests_total{opcode="EXECUTE"}'  # counted once a request has run


def metric(admin, name, timeout=10):
    """A sample of /metrics: name may carry labels (requests_total{opcode="EXECUTE"})."""
    with urllib.request.urlopen("http://%s/metrics" % admin, timeout=timeout) as r:
        text = r.read().decode()
    m = re.search(r"^cosmos_emulator_%s (\S+)$" % re.escape(name), text, re.M)
    if m is None and "{" in name:
        return 0.0  # a labelled counter appears with its first sample
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
        self.write_gate = os.path.join(self.dir, "write-gate")
        self.emus = []
        self.clusters = []
        os.environ[GATE_ENV] = self.gate
        os.environ[WRITE_GATE_ENV] = self.write_gate

    def tearDown(self):
        os.environ.pop(GATE_ENV, None)
        os.environ.pop(WRITE_GATE_ENV, None)
        for gate in (self.gate, self.write_gate):
            if os.path.exists(gate):
                os.unlink(gate)
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
        executed = metric(emu.admin, EXECUTED)
        futures = [track(session.execute_async(insert, (i, "value-%d" % i))) for i in range(N)]
        # Every write ran (in memory, in the log) but none is answered yet. (The
        # driver's own queries on other streams may be held too: they could have
        # seen the writes.)
        wait_until(lambda: metric(emu.admin, EXECUTED) == executed + N, "%d writes run" % N)
        self.assertGreaterEqual(metric(emu.admin, "commitlog_acks_waiting"), N)
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
        select = session.prepare("SELECT v FROM %s.kv WHERE k = 1" % KS)
        executed = metric(emu.admin, EXECUTED)
        write = track(session.execute_async(insert, (1, "unsynced")))
        wait_until(lambda: metric(emu.admin, EXECUTED) == executed + 1, "the write run")
        read = track(session.execute_async(select))
        wait_until(lambda: metric(emu.admin, EXECUTED) == executed + 2, "the read run")
        self.assertGreaterEqual(metric(emu.admin, "commitlog_acks_waiting"), 2)
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

    def test_answers_wait_for_the_log_write_while_the_loop_serves_on(self):
        # --fsync periodic: the commit log's writer thread is held before its next write
        emu, cluster, session = self.start("--fsync", "periodic")
        insert = self.make_schema(session)
        open(self.write_gate, "w").close()
        executed = metric(emu.admin, EXECUTED)
        writes = [track(session.execute_async(insert, (i, "value-%d" % i))) for i in range(N)]
        # every write runs (the loop is not blocked), none is answered before its record
        # is written
        wait_until(lambda: metric(emu.admin, EXECUTED) == executed + N, "the writes run")
        self.assertGreaterEqual(metric(emu.admin, "commitlog_acks_waiting"), 1)
        self.assertFalse(any(w.finished.is_set() for w in writes))
        os.unlink(self.write_gate)
        for w in writes:
            w.result()
        self.kill(emu, cluster)  # kill -9 right after: the written log is all there is

        emu, cluster, session = self.start("--fsync", "periodic")
        self.assert_all_rows(session)

    def test_a_disk_behind_the_writes_is_counted_and_logged(self):
        # The writer held, 72 MB of writes fill its queue past its 64 MB limit: the loop
        # waits for it (the admin endpoint, on the loop, stops answering), and that wait
        # shows in /metrics and in a warning once the writer is let go.
        emu, cluster, session = self.start("--fsync", "periodic")
        insert = self.make_schema(session)
        self.assertEqual(metric(emu.admin, "commitlog_waits_total"), 0)
        open(self.write_gate, "w").close()
        big = "x" * (1 << 20)
        writes = [session.execute_async(insert, (i, big)) for i in range(72)]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                metric(emu.admin, EXECUTED, timeout=0.5)
            except OSError:  # a timeout: the loop is waiting for the writer
                break
            time.sleep(0.05)
        else:
            self.fail("the loop never waited for the held writer")
        os.unlink(self.write_gate)
        for w in writes:
            w.result()
        self.assertGreaterEqual(metric(emu.admin, "commitlog_waits_total"), 1)
        self.assertGreater(metric(emu.admin, "commitlog_wait_seconds_total"), 0)
        emu.wait_for_log(r"WARN  commit log: the disk fell behind the writes; requests waited "
                         r"for it \d+ times? in the last \d+ s")


if __name__ == "__main__":
    unittest.main()
