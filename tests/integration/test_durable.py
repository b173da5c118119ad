"""Durable storage through the Python driver: --storage durable keeps the
schema (as cluster.metadata shows it) and every row across a graceful
restart and across kill -9 right after acknowledged writes; the default
memory storage keeps nothing; a damaged schema log refuses start-up
(naming the file and offset) rather than drop a table's rows."""

import datetime
import json
import logging
import os
import re
import resource
import shutil
import socket
import tempfile
import unittest
import urllib.error
import urllib.request

from cassandra.concurrent import execute_concurrent_with_args

from emulator import Emulator

logging.getLogger("cassandra").setLevel(logging.ERROR)
KS = "durable_py"

SCHEMA = [
    "CREATE KEYSPACE %s WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}"
    % KS,
    "CREATE TYPE %s.addr (street text, zip int)" % KS,
    """CREATE TABLE %s.events (user_id int, ts int, kind text, payload text,
         PRIMARY KEY (user_id, ts)) WITH CLUSTERING ORDER BY (ts DESC)""" % KS,
    """CREATE TABLE %s.profiles (id int PRIMARY KEY, name text, tags set<text>,
         scores list<int>, attrs map<text, int>, home frozen<addr>)""" % KS,
    "CREATE TABLE %s.sessions (id int PRIMARY KEY, secret text) WITH default_time_to_live = 3600"
    % KS,
    # Ids must survive DROP / re-CREATE and ALTER ADD / DROP.
    "CREATE TABLE %s.scratch (k int PRIMARY KEY, v int)" % KS,
    "DROP TABLE %s.scratch" % KS,
    "CREATE TABLE %s.scratch (k int PRIMARY KEY, w text, x int)" % KS,
    "ALTER TABLE %s.scratch DROP x" % KS,
    "ALTER TABLE %s.scratch ADD y bigint" % KS,
]

TABLES = ("events", "profiles", "sessions", "scratch")


def checkpoint_starts(log):
    """When each background checkpoint in an emulator's log started, in seconds (its
    line is written at its end, with how long it took)."""
    starts = []
    for m in re.finditer(r"^(\S+)Z \w+ +checkpoint \(commit log past the data\): .* in (\d+) ms",
                         log, re.M):
        end = datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S.%f")
        starts.append(end.timestamp() - int(m.group(2)) / 1000.0)
    return starts


def write_rows(session, first, count):
    ins_ev = session.prepare("INSERT INTO %s.events (user_id, ts, kind, payload) "
                             "VALUES (?, ?, ?, ?)" % KS)
    ins_pr = session.prepare("INSERT INTO %s.profiles (id, name, tags, scores, attrs, home) "
                             "VALUES (?, ?, ?, ?, ?, {street: ?, zip: ?})" % KS)
    ins_se = session.prepare("INSERT INTO %s.sessions (id, secret) VALUES (?, ?) USING TTL 7200"
                             % KS)
    ins_sc = session.prepare("INSERT INTO %s.scratch (k, w, y) VALUES (?, ?, ?)" % KS)
    for i in range(first, first + count):
        session.execute(ins_ev, (i % 7, i, "k%d" % (i % 3), "payload-%d" % i))
        session.execute(ins_pr, (i, "user%d" % i, {"a%d" % i, "b"}, [i, i + 1],
                                 {"x": i}, "street %d" % i, 10000 + i))
        session.execute(ins_se, (i, "tok%d" % i))
        session.execute(ins_sc, (i, "w%d" % i, i * 1000))
    # Updates and deletions must come back as they were left, too.
    session.execute("UPDATE %s.profiles SET tags = tags + {'late'}, scores = scores + [99] "
                    "WHERE id = %d" % (KS, first))
    session.execute("DELETE FROM %s.events WHERE user_id = %d AND ts = %d"
                    % (KS, first % 7, first))
    session.execute("DELETE attrs['x'] FROM %s.profiles WHERE id = %d" % (KS, first + 1))


def snapshot(session):
    """Every row of every table, in a comparable form."""
    out = {}
    for t in TABLES:
        rows = session.execute("SELECT * FROM %s.%s" % (KS, t))
        out[t] = sorted(repr(tuple(r)) for r in rows)
    # Clustering order must survive: a partition reads newest first.
    out["events_order"] = [r.ts for r in session.execute(
        "SELECT ts FROM %s.events WHERE user_id = 3" % KS)]
    return out


def schema_of(cluster):
    cluster.refresh_schema_metadata()
    return cluster.metadata.keyspaces[KS].export_as_string()


class DurableTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="emu-durable-")
        self.emus = []
        self.clusters = []

    def tearDown(self):
        for c in self.clusters:
            c.shutdown()
        for e in self.emus:
            e.kill()
        shutil.rmtree(self.dir, ignore_errors=True)

    def start(self, durable=True, extra=(), preexec_fn=None):
        args = (["--storage", "durable"] if durable else []) + list(extra)
        emu = Emulator(tls=False, args=args, data_dir=self.dir, preexec_fn=preexec_fn)
        self.emus.append(emu)  # tearDown kills it even if start() fails
        emu.start()
        cluster = emu.cluster()
        self.clusters.append(cluster)
        return emu, cluster, cluster.connect()

    def stop(self, emu, cluster, kill=False, status=0):
        cluster.shutdown()
        self.clusters.remove(cluster)
        self.emus.remove(emu)
        if kill:
            emu.kill()
        else:
            emu.stop(status=status)

    def test_graceful_restart_keeps_schema_and_rows(self):
        emu, cluster, session = self.start()
        for ddl in SCHEMA:
            session.execute(ddl)
        write_rows(session, 0, 60)
        schema, rows = schema_of(cluster), snapshot(session)
        self.assertEqual(len(rows["profiles"]), 60)
        self.stop(emu, cluster)
        self.assertIn("checkpoint (shutdown)", emu.log())

        emu, cluster, session = self.start()
        self.assertEqual(schema_of(cluster), schema)
        self.assertEqual(snapshot(session), rows)
        ttl = session.execute("SELECT ttl(secret) FROM %s.sessions WHERE id = 5" % KS).one()[0]
        self.assertTrue(0 < ttl <= 7200, ttl)
        # The restored tables take new writes and new DDL, and keep them too.
        write_rows(session, 60, 5)
        session.execute("CREATE TABLE %s.later (k int PRIMARY KEY)" % KS)
        session.execute("INSERT INTO %s.later (k) VALUES (1)" % KS)
        schema, rows = schema_of(cluster), snapshot(session)
        self.stop(emu, cluster)

        emu, cluster, session = self.start()
        self.assertEqual(schema_of(cluster), schema)
        self.assertEqual(snapshot(session), rows)
        self.assertEqual(len(list(session.execute("SELECT * FROM %s.later" % KS))), 1)
        self.stop(emu, cluster)

    def test_kill_9_keeps_every_acknowledged_write(self):
        emu, cluster, session = self.start()
        for ddl in SCHEMA:
            session.execute(ddl)
        write_rows(session, 0, 40)
        rows = snapshot(session)
        self.stop(emu, cluster, kill=True)  # right after the last acknowledged write

        emu, cluster, session = self.start()
        self.assertEqual(snapshot(session), rows)
        write_rows(session, 40, 10)
        rows = snapshot(session)
        self.stop(emu, cluster, kill=True)  # twice: the log replayed once is appended to

        emu, cluster, session = self.start()
        self.assertEqual(snapshot(session), rows)
        self.stop(emu, cluster)

    def test_storage_lines_follow_the_log_format(self):
        """Lines from storage and cql (a torn record dropped at start-up) go through the
        process's logger: with --log-format json every line is one JSON object, theirs
        too, where they used to be bare text on stderr."""
        emu, cluster, session = self.start()
        session.execute(SCHEMA[0])
        session.execute("CREATE TABLE %s.t (k int PRIMARY KEY, v int)" % KS)
        session.execute("INSERT INTO %s.t (k, v) VALUES (1, 1)" % KS)
        self.stop(emu, cluster, kill=True)
        data = os.path.join(self.dir, "data")
        logs = sorted((f for f in os.listdir(data) if re.match(r"commitlog-\d+\.log$", f)),
                      key=lambda f: int(re.search(r"\d+", f).group()))
        with open(os.path.join(data, logs[-1]), "ab") as f:
            f.write(b"\0" * 64)  # a write the kill cut short

        emu, cluster, session = self.start(extra=["--log-format", "json"])
        self.assertEqual(session.execute("SELECT v FROM %s.t WHERE k = 1" % KS).one().v, 1)
        self.stop(emu, cluster)
        docs = [json.loads(l) for l in emu.log().splitlines()]  # every line one object
        torn = [d for d in docs if "dropping a torn record" in d["msg"]]
        self.assertEqual(len(torn), 1, docs)
        self.assertEqual(torn[0]["level"], "warn")
        self.assertRegex(torn[0]["msg"], r"^storage: .*commitlog-\d+\.log: dropping a torn "
                                         r"record at offset \d+ \(64 bytes\)$")

    def test_dropped_columns_survive_restart_and_kill_9(self):
        """ALTER TABLE DROP deletes the cells up to its timestamp durably; the cells
        written after it come back with a compatible ADD, before and after restarts,
        and system_schema.dropped_columns keeps the same drop time."""
        emu, cluster, session = self.start()
        session.execute("CREATE KEYSPACE dk WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        session.execute("CREATE TABLE dk.t (id int, c int, v int, x int, y int, "
                        "PRIMARY KEY (id, c))")
        for i in range(5):
            session.execute("INSERT INTO dk.t (id, c, v, x, y) VALUES (1, %d, %d, %d, %d) "
                            "USING TIMESTAMP %d" % (i, i, i, i, 10000 * i))
        session.execute("ALTER TABLE dk.t DROP x USING TIMESTAMP 20000")
        session.execute("ALTER TABLE dk.t DROP y")  # at the statement's time: every cell
        dropped = sorted(tuple(r) for r in session.execute(
            "SELECT column_name, dropped_time FROM system_schema.dropped_columns "
            "WHERE keyspace_name = 'dk' AND table_name = 't'"))
        self.assertEqual([d[0] for d in dropped], ["x", "y"])
        self.stop(emu, cluster, kill=True)

        emu, cluster, session = self.start()
        self.assertEqual(sorted(tuple(r) for r in session.execute(
            "SELECT column_name, dropped_time FROM system_schema.dropped_columns "
            "WHERE keyspace_name = 'dk' AND table_name = 't'")), dropped)
        session.execute("ALTER TABLE dk.t ADD x int")
        session.execute("ALTER TABLE dk.t ADD y int")
        want = [(1, c, c, c if c >= 3 else None, None) for c in range(5)]
        got = [tuple(r) for r in session.execute("SELECT id, c, v, x, y FROM dk.t")]
        self.assertEqual(got, want)
        self.stop(emu, cluster)

        emu, cluster, session = self.start()
        got = [tuple(r) for r in session.execute("SELECT id, c, v, x, y FROM dk.t")]
        self.assertEqual(got, want)
        self.stop(emu, cluster)

    def test_recovery_reports_the_data_it_rebuilt(self):
        """The restart's log line counts the rows rebuilt (not the compressed files)
        and the whole recovery's duration."""
        emu, cluster, session = self.start()
        session.execute(SCHEMA[0])
        session.execute("CREATE TABLE %s.blobs (k int PRIMARY KEY, v blob)" % KS)
        ins = session.prepare("INSERT INTO %s.blobs (k, v) VALUES (?, ?)" % KS)
        execute_concurrent_with_args(session, ins, [(i, bytes(1024)) for i in range(2048)])
        self.stop(emu, cluster, kill=True)  # the log alone holds the rows
        emu, cluster, session = self.start()
        m = re.search(r"restored (\d+\.\d) MB of rows from (\d+\.\d) MB of snapshot and "
                      r"commit log in (\d+\.\d+) s \((\d+) MB/s of rows\)", emu.log())
        self.assertIsNotNone(m, emu.log())
        self.assertGreaterEqual(float(m.group(1)), 2.0)  # 2048 x 1 KB values
        self.assertGreater(float(m.group(2)), 0.0)
        self.assertEqual(session.execute("SELECT count(*) FROM %s.blobs" % KS).one()[0], 2048)
        self.stop(emu, cluster)

    def test_checkpoints_written_between_requests_lose_nothing(self):
        """With a 1 MB checkpoint floor, writes go on through several background
        checkpoints (each written by the loop between requests, the writes landing in
        the new log); kill -9 right after the last acknowledged write, then restart:
        every acknowledged value is there, and the replaced files were deleted."""
        emu, cluster, session = self.start(extra=["--checkpoint-log-mb", "1"])
        session.execute(SCHEMA[0])
        session.execute("CREATE TABLE %s.kv (k int PRIMARY KEY, v text, n int)" % KS)
        ins = session.prepare("INSERT INTO %s.kv (k, v, n) VALUES (?, ?, ?)" % KS)
        want = {}
        rounds = 0
        # Rounds of overwrites until two checkpoints ended.
        while emu.log().count("checkpoint (commit log past the data)") < 2:
            self.assertLess(rounds, 60, emu.log())
            args = [(k, "%d-%s" % (rounds, "x" * 1000), rounds) for k in range(1500)]
            for ok, res in execute_concurrent_with_args(session, ins, args,
                                                        raise_on_first_error=False):
                self.assertTrue(ok, res)
            want.update({k: (v, n) for k, v, n in args})
            session.execute("DELETE FROM %s.kv WHERE k = %d" % (KS, rounds))
            want.pop(rounds)
            rounds += 1
        data = os.path.join(self.dir, "data")
        self.assertEqual(len([f for f in os.listdir(data) if f.startswith("snapshot-")]), 1,
                         os.listdir(data))
        # The log is looked at four times a second, but a table this small (its log
        # past the data within a round) is not rewritten more than every 2 s.
        starts = checkpoint_starts(emu.log())
        self.assertGreaterEqual(len(starts), 2, emu.log())
        for a, b in zip(starts, starts[1:]):
            self.assertGreaterEqual(b - a, 1.99, emu.log())
        self.stop(emu, cluster, kill=True)

        emu, cluster, session = self.start()
        got = {r.k: (r.v, r.n) for r in session.execute("SELECT k, v, n FROM %s.kv" % KS)}
        self.assertEqual(got, want)
        self.stop(emu, cluster)

    def start_refused(self):
        """Starts the emulator on self.dir expecting it to refuse: returns its log."""
        emu = Emulator(tls=False, args=["--storage", "durable"], data_dir=self.dir)
        self.emus.append(emu)
        with self.assertRaises(AssertionError):
            emu.start()
        log = emu.log()
        self.emus.remove(emu)
        emu.kill()
        return log

    def test_a_damaged_schema_log_never_drops_a_table(self):
        emu, cluster, session = self.start()
        for ddl in SCHEMA:
            session.execute(ddl)
        write_rows(session, 0, 20)
        rows = snapshot(session)
        session.execute("CREATE TABLE %s.last (k int PRIMARY KEY, v text)" % KS)
        for i in range(10):
            session.execute("INSERT INTO %s.last (k, v) VALUES (%d, 'v%d')" % (KS, i, i))
        self.stop(emu, cluster)  # checkpointed: the rows of `last` are in the snapshot
        path = os.path.join(self.dir, "data", "schema.log")
        with open(path, "rb") as f:
            whole = f.read()
        # The last record is CREATE TABLE last: its text follows the length and CRC (8
        # bytes), the id counters (12) and an empty session keyspace's length (2).
        start = whole.rindex(b"CREATE TABLE %s.last" % KS.encode()) - 22
        cuts = {"truncated mid-record": whole[:start + 20],
                "a flipped byte": whole[:-5] + bytes([whole[-5] ^ 0x40]) + whole[-4:]}
        for what, damaged in cuts.items():
            with open(path, "wb") as f:
                f.write(damaged)
            log = self.start_refused()
            self.assertIn("cannot restore the schema", log, what)
            self.assertIn(path, log, what)
            self.assertIn("offset %d of %d bytes" % (start, len(damaged)), log, what)
            self.assertIn("Refusing to start rather than drop their rows", log, what)
            with open(path, "rb") as f:
                self.assertEqual(f.read(), damaged, what)  # nothing cut or rewritten
        # With the log repaired every row is back, the damaged table's too.
        with open(path, "wb") as f:
            f.write(whole)
        emu, cluster, session = self.start()
        self.assertEqual(snapshot(session), rows)
        self.assertEqual(sorted(tuple(r) for r in session.execute("SELECT * FROM %s.last" % KS)),
                         [(i, "v%d" % i) for i in range(10)])
        self.stop(emu, cluster)

    def test_a_create_table_cut_short_before_any_write_is_dropped(self):
        emu, cluster, session = self.start()
        session.execute(SCHEMA[0])
        session.execute("CREATE TABLE %s.empty (k int PRIMARY KEY)" % KS)
        self.stop(emu, cluster, kill=True)
        path = os.path.join(self.dir, "data", "schema.log")
        with open(path, "rb") as f:
            whole = f.read()
        start = whole.rindex(b"CREATE TABLE") - 22  # as above
        with open(path, "wb") as f:
            f.write(whole[:start + 12])  # as if the process died writing it
        emu, cluster, session = self.start()
        self.assertIn("dropped 1 empty stored table(s)", emu.log())
        session.execute("CREATE TABLE %s.empty (k int PRIMARY KEY)" % KS)
        session.execute("INSERT INTO %s.empty (k) VALUES (1)" % KS)
        self.stop(emu, cluster)
        emu, cluster, session = self.start()
        self.assertEqual(len(list(session.execute("SELECT * FROM %s.empty" % KS))), 1)
        self.stop(emu, cluster)

    def test_memory_storage_keeps_nothing(self):
        emu, cluster, session = self.start(durable=False)
        for ddl in SCHEMA[:3]:
            session.execute(ddl)
        session.execute("INSERT INTO %s.events (user_id, ts) VALUES (1, 1)" % KS)
        self.stop(emu, cluster)

        emu, cluster, session = self.start(durable=False)
        cluster.refresh_schema_metadata()
        self.assertNotIn(KS, cluster.metadata.keyspaces)
        self.stop(emu, cluster)

    def test_a_full_disk_stops_cql_and_keeps_every_acknowledged_write(self):
        """The commit log's write fails (a file size limit stands in for a full disk: it
        gives the same error path without a small file system to mount): CQL stops, as
        Cassandra's commit_failure_policy "stop" does, rather than close every
        connection at its first answer while a connect hangs and /healthz says ok."""
        def limit():  # the log passes 24 MB within a few thousand 4 KB rows
            resource.setrlimit(resource.RLIMIT_FSIZE, (24 << 20, 24 << 20))
        emu, cluster, session = self.start(preexec_fn=limit)
        session.execute(SCHEMA[0])
        session.execute("CREATE TABLE %s.big (k int PRIMARY KEY, v text)" % KS)
        ins = session.prepare("INSERT INTO %s.big (k, v) VALUES (?, ?)" % KS)
        acked = {}
        for i in range(20000):
            try:
                session.execute(ins, (i % 3000, "v%d-%s" % (i, "x" * 4000)))
            except Exception:
                break
            acked[i % 3000] = "v%d-" % i
        self.assertLess(i, 19999, "the log never failed")
        emu.wait_for_log(r"ERROR +commit log write failed: File too large: CQL is no longer "
                         r"served \(\d+ connection\(s\) closed, new ones refused\)", 10)
        self.assertEqual(emu.proc.poll(), None, "it stays up for inspection")
        # A connect is refused at once, not left to time out.
        with self.assertRaises(ConnectionRefusedError):
            socket.create_connection((emu.host, emu.port), timeout=5).close()
        with self.assertRaises(urllib.error.HTTPError) as cm:
            urllib.request.urlopen("http://%s/healthz" % emu.admin, timeout=10)
        self.assertEqual(cm.exception.code, 503)
        self.assertEqual(json.loads(cm.exception.read()),
                         {"status": "failed", "reason": "commit log write failed: File too large"})
        self.stop(emu, cluster, status=1)  # the exit status says it failed; sanitizers nothing

        # Restarted without the limit: every acknowledged write is there.
        emu, cluster, session = self.start()
        got = {r.k: r.v for r in session.execute("SELECT k, v FROM %s.big" % KS)}
        for k, prefix in acked.items():
            maybe = ("v%d-" % i,) if k == i % 3000 else ()  # the write in flight, unanswered
            self.assertTrue(got.get(k, "").startswith((prefix,) + maybe),
                            (k, prefix, got.get(k, "")[:20]))
        self.stop(emu, cluster)


if __name__ == "__main__":
    unittest.main()
