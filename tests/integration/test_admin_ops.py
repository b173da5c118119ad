"""The operational surface a CI pipeline and a container use: the admin
endpoint's /healthz, /metrics, /cert (and /_explorer/emulator.pem),
POST /stats/reset and the older routes; the `health` command before ready,
after ready and after stop; the configuration file's precedence end to end;
JSON log lines; and the Docker pieces run outside a container (the
entrypoint serves, the image's HEALTHCHECK command passes).

Every emulator runs with --port 0 --admin-port 0 and is found through its
"listening on" and "admin endpoint on" log lines, so runs never collide.
"""

import json
import os
import re
import shlex
import shutil
import struct
import subprocess
import tempfile
import unittest
import urllib.error
import urllib.request

from cassandra.query import BatchStatement, BatchType

from emulator import START_TIMEOUT, Emulator, binary

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ADMIN_RX = r"admin endpoint on http://(\S+) \("
START_DELAY_ENV = "COSMOS_EMULATOR_TEST_START_DELAY_MS"


class OpsEmulator(Emulator):
    """Emulator with its admin endpoint on a free port, extra environment,
    and a choice of what "started" means (JSON logs, or before ready)."""

    def __init__(self, args=(), env=None, command=None, wait_ready=True, **kw):
        super().__init__(args=args, **kw)
        self.extra_env = dict(env or {})
        self.command = command  # replaces the binary (the Docker entrypoint)
        self.wait_ready = wait_ready
        self.admin = None

    def start(self):
        if self.own_data_dir:
            self.data_dir = tempfile.mkdtemp(prefix="emu-ops-")
        cmd = (self.command or [binary()]) + ["--port", "0", "--admin-port", "0",
                                              "--data-dir", self.data_dir] + self.args
        env = dict(os.environ)
        env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0")
        env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
        env.update(self.extra_env)
        self.env = env
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, env=env, text=True,
                                     errors="replace")
        import threading
        self._reader = threading.Thread(target=self._read_log, daemon=True)
        self._reader.start()
        m = self.wait_for_log(r"(?:bound to|listening on) (\S+):(\d+) \((TLS|plaintext)\)", START_TIMEOUT)
        self.port = int(m.group(2))
        self.admin = self.wait_for_log(ADMIN_RX, START_TIMEOUT).group(1)
        if self.wait_ready:
            self.wait_ready_line()
        return self

    def wait_ready_line(self):
        self.wait_for_log(r'\bready$|"msg":"ready"', START_TIMEOUT)
        if self.tls and self.ca_path is None:
            self.ca_path = os.path.join(self.data_dir, "ca-from-http.pem")
            status, _, body = http(self.admin, "/cert")
            assert status == 200, (status, body)
            with open(self.ca_path, "wb") as f:
                f.write(body)


def http(admin, path, method="GET", headers=None):
    """(status, headers, body bytes) of one request to the admin endpoint."""
    req = urllib.request.Request("http://%s%s" % (admin, path), method=method,
                                 headers=headers or {},
                                 data=b"" if method == "POST" else None)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def health(admin, env=None, *extra):
    """Runs `cosmos-cassandra-emulator health`; returns the CompletedProcess."""
    args = [binary(), "health"] + (["--admin", admin] if admin else []) + list(extra)
    return subprocess.run(args, capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, **(env or {})))


# ---- the Prometheus text format ------------------------------------------------

SAMPLE_RX = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$")
LABEL_RX = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"')


def unescape(v):
    return re.sub(r"\\(.)", lambda m: {"n": "\n"}.get(m.group(1), m.group(1)), v)


def parse_labels(text):
    labels, pos = {}, 0
    while pos < len(text):
        m = LABEL_RX.match(text, pos)
        if not m:
            raise AssertionError("bad labels at %d: %r" % (pos, text))
        labels[m.group(1)] = unescape(m.group(2))
        pos = m.end()
        if pos < len(text):
            if text[pos] != ",":
                raise AssertionError("bad labels at %d: %r" % (pos, text))
            pos += 1
    return labels


def parse_metrics(text):
    """{family: type}, [(name, labels, value)]: every line a HELP/TYPE comment
    or `name{labels} value`, every sample's family TYPEd before it, once."""
    types, helps, samples = {}, set(), []
    assert text.endswith("\n"), "the exposition ends with a newline"
    for line in text.split("\n")[:-1]:
        if line.startswith("# TYPE "):
            _, _, name, typ = line.split(" ", 3)
            assert name not in types, "TYPE twice for " + name
            assert typ in ("counter", "gauge", "histogram", "summary", "untyped"), line
            types[name] = typ
            continue
        if line.startswith("# HELP "):
            helps.add(line.split(" ")[2])
            continue
        assert not line.startswith("#"), line
        m = SAMPLE_RX.match(line)
        assert m, "not a sample line: %r" % line
        name, labels, value = m.group(1), parse_labels(m.group(2) or ""), float(m.group(3))
        family = name
        for suffix in ("_bucket", "_sum", "_count"):
            if name.endswith(suffix) and types.get(name[:-len(suffix)]) == "histogram":
                family = name[:-len(suffix)]
        assert family in types, "sample before (or without) its TYPE: " + line
        if types[family] == "counter":
            assert name.endswith("_total"), name
        samples.append((name, labels, value))
    assert helps == set(types), "HELP and TYPE differ: %r" % (helps ^ set(types))
    return types, samples


def values(samples, name, **want):
    return [v for n, l, v in samples if n == name and all(l.get(k) == x for k, x in want.items())]


# ---- a ready emulator with driver traffic ------------------------------------------

def setUpModule():
    global EMU, CLUSTER, SESSION
    EMU = OpsEmulator().start()
    CLUSTER = EMU.cluster()
    SESSION = CLUSTER.connect()
    SESSION.execute("CREATE KEYSPACE ops WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    SESSION.execute("CREATE TABLE ops.a (k int PRIMARY KEY, v text)")
    SESSION.execute("CREATE TABLE ops.b (k int PRIMARY KEY, v text)")


def tearDownModule():
    CLUSTER.shutdown()
    EMU.stop()


def traffic(table, n):
    ins = SESSION.prepare("INSERT INTO ops.%s (k, v) VALUES (?, ?)" % table)
    for i in range(n):
        SESSION.execute(ins, (i, "value %d" % i))
    SESSION.execute("SELECT * FROM ops.%s WHERE k = 1" % table)


def stats():
    status, _, body = http(EMU.admin, "/stats")
    assert status == 200, (status, body)
    return json.loads(body)


def table_stats(doc, table):
    for t in doc["tables"]:
        if t["keyspace"] == "ops" and t["table"] == table:
            return t
    raise AssertionError("no ops.%s in %r" % (table, doc["tables"]))


class Routes(unittest.TestCase):
    def test_healthz_is_ok_once_ready(self):
        status, headers, body = http(EMU.admin, "/healthz")
        self.assertEqual(status, 200)
        self.assertEqual(headers["Content-Type"], "application/json")
        self.assertEqual(json.loads(body), {"status": "ok"})
        status, _, body = http(EMU.admin, "/status")
        self.assertEqual(json.loads(body)["state"], "ok")
        status, _, body = http(EMU.admin, "/healthz", method="HEAD")
        self.assertEqual((status, body), (200, b""))

    def test_cert_serves_the_ca_that_certs_export_prints(self):
        exported = subprocess.run([binary(), "certs", "export", "--data-dir", EMU.data_dir],
                                  capture_output=True, check=True, timeout=60).stdout
        for path in ("/cert", "/_explorer/emulator.pem"):
            status, headers, body = http(EMU.admin, path)
            self.assertEqual(status, 200, path)
            self.assertEqual(headers["Content-Type"], "application/x-pem-file")
            self.assertTrue(body.startswith(b"-----BEGIN CERTIFICATE-----"))
            self.assertEqual(body, exported)
        # the module's driver connection verifies the server with the CA from /cert
        row = SESSION.execute("SELECT release_version FROM system.local").one()
        self.assertTrue(row.release_version)

    def test_unknown_pages_and_wrong_methods(self):
        status, _, body = http(EMU.admin, "/nope")
        self.assertEqual(status, 404)
        self.assertIn(b"/healthz", body)
        status, headers, _ = http(EMU.admin, "/metrics", method="POST")
        self.assertEqual((status, headers["Allow"]), (405, "GET, HEAD"))
        status, headers, _ = http(EMU.admin, "/stats/reset")
        self.assertEqual((status, headers["Allow"]), (405, "POST"))
        status, _, body = http(EMU.admin, "/stats/reset", method="POST",
                               headers={"Origin": "http://evil.example"})
        self.assertEqual(status, 403)
        status, _, body = http(EMU.admin, "/stats/reset?tabel=ops.a", method="POST")
        self.assertEqual(status, 400)
        status, _, body = http(EMU.admin, "/stats/reset?table=ops", method="POST")
        self.assertEqual(status, 400)
        status, _, body = http(EMU.admin, "/stats/reset?table=ops.never", method="POST")
        self.assertEqual(status, 404)
        self.assertIn(b"no statistics for table ops.never", body)

    def test_older_routes_still_answer(self):
        for path, kind in (("/status", "application/json"), ("/stats", "application/json"),
                           ("/estimate", "application/json"), ("/report", "text/plain"),
                           ("/report.html", "text/html")):
            status, headers, _ = http(EMU.admin, path)
            self.assertEqual(status, 200, path)
            self.assertTrue(headers["Content-Type"].startswith(kind), path)

    def test_metrics_after_driver_traffic(self):
        traffic("a", 20)
        SESSION.execute('CREATE TABLE IF NOT EXISTS ops."Odd ""name"" \\" (k int PRIMARY KEY)')
        SESSION.execute('INSERT INTO ops."Odd ""name"" \\" (k) VALUES (1)')
        with self.assertRaises(Exception):
            SESSION.execute("SELECT nope FROM ops.a")
        status, headers, body = http(EMU.admin, "/metrics")
        self.assertEqual(status, 200)
        self.assertTrue(headers["Content-Type"].startswith("text/plain; version=0.0.4"))
        types, samples = parse_metrics(body.decode())

        self.assertEqual(types["cosmos_emulator_request_duration_seconds"], "histogram")
        self.assertEqual(values(samples, "cosmos_emulator_ready"), [1])
        self.assertGreaterEqual(values(samples, "cosmos_emulator_requests_total",
                                       opcode="EXECUTE")[0], 20)
        self.assertGreaterEqual(values(samples, "cosmos_emulator_requests_total",
                                       opcode="STARTUP")[0], 1)
        self.assertGreaterEqual(values(samples, "cosmos_emulator_errors_total", opcode="QUERY",
                                       code="0x2200", error="INVALID")[0], 1)
        # the histogram: cumulative buckets ending in +Inf == _count
        buckets = [(l["le"], v) for n, l, v in samples
                   if n == "cosmos_emulator_request_duration_seconds_bucket"
                   and l["opcode"] == "EXECUTE"]
        self.assertEqual(buckets[-1][0], "+Inf")
        counts = [v for _, v in buckets]
        self.assertEqual(counts, sorted(counts))
        self.assertEqual(counts[-1], values(samples, "cosmos_emulator_request_duration_seconds_count",
                                            opcode="EXECUTE")[0])
        self.assertGreater(values(samples, "cosmos_emulator_request_duration_seconds_sum",
                                  opcode="EXECUTE")[0], 0)
        # RU per keyspace/table/physical partition, matching /stats
        ru = values(samples, "cosmos_emulator_ru_consumed_total", keyspace="ops", table="a",
                    partition="0")
        self.assertEqual(len(ru), 1)
        self.assertAlmostEqual(ru[0], table_stats(stats(), "a")["stats"]["ru_total"], places=1)
        self.assertGreater(ru[0], 20 * 5)  # 20 inserts at about 5.5 RU
        self.assertEqual(values(samples, "cosmos_emulator_requests_throttled_total",
                                keyspace="ops", table="a", partition="0"), [0])
        self.assertEqual(values(samples, "cosmos_emulator_table_throughput_ru_per_second",
                                keyspace="ops", table="a"), [400])
        self.assertGreaterEqual(values(samples, "cosmos_emulator_connections_open")[0], 1)
        self.assertGreaterEqual(values(samples, "cosmos_emulator_connections_accepted_total")[0],
                                values(samples, "cosmos_emulator_connections_open")[0])
        self.assertEqual(values(samples, "cosmos_emulator_storage_durable"), [0])
        # tables this small live in small chunks of the heap: nothing to move
        self.assertEqual(values(samples, "cosmos_emulator_storage_small_chunks"), [0])
        self.assertEqual(values(samples, "cosmos_emulator_storage_chunk_moves_total"), [0])
        # a quoted table name comes back whole through the label escaping
        self.assertGreater(values(samples, "cosmos_emulator_ru_consumed_total", keyspace="ops",
                                  table='Odd "name" \\', partition="0")[0], 0)

    def test_a_batch_over_two_tables_is_charged_to_each(self):
        SESSION.execute("CREATE TABLE ops.orders (k int PRIMARY KEY, v text)")
        SESSION.execute("CREATE TABLE ops.lines (k int, n int, v text, PRIMARY KEY (k, n))")
        one = SESSION.execute_async("INSERT INTO ops.orders (k, v) VALUES (0, 'x')")
        one.result()
        one_ru = struct.unpack(">d", one.custom_payload["RequestCharge"])[0]
        before = stats()
        batch = BatchStatement(batch_type=BatchType.UNLOGGED)
        batch.add("INSERT INTO ops.orders (k, v) VALUES (1, 'x')")
        for n in range(3):
            batch.add("INSERT INTO ops.lines (k, n, v) VALUES (1, %d, 'x')" % n)
        f = SESSION.execute_async(batch)
        f.result()
        charge = struct.unpack(">d", f.custom_payload["RequestCharge"])[0]
        after = stats()

        def spent(table):
            return (table_stats(after, table)["stats"]["ru_total"]
                    - table_stats(before, table)["stats"]["ru_total"])
        orders, lines = spent("orders"), spent("lines")
        # each table pays for its own statements: one insert here, three there
        self.assertAlmostEqual(orders + lines, charge, places=1)
        self.assertGreaterEqual(orders, one_ru)
        self.assertGreaterEqual(lines, 3 * one_ru)
        self.assertLess(orders, 2 * one_ru)

    def test_stats_reset_per_table_then_all(self):
        traffic("a", 5)
        traffic("b", 5)
        before = stats()
        self.assertGreater(table_stats(before, "a")["stats"]["count"], 0)
        self.assertGreater(table_stats(before, "b")["stats"]["count"], 0)

        status, _, body = http(EMU.admin, "/stats/reset?table=ops.a", method="POST")
        self.assertEqual((status, json.loads(body)), (200, {"reset": "ops.a"}))
        after = stats()
        self.assertEqual(table_stats(after, "a")["stats"]["count"], 0)
        self.assertEqual(table_stats(after, "a")["stats"]["ru_total"], 0)
        self.assertEqual(table_stats(after, "b")["stats"], table_stats(before, "b")["stats"])
        self.assertAlmostEqual(after["total"]["ru_total"],
                               before["total"]["ru_total"]
                               - table_stats(before, "a")["stats"]["ru_total"], places=1)
        # a per-test RU budget: what one test's statements cost, from zero
        traffic("a", 3)
        self.assertEqual(table_stats(stats(), "a")["stats"]["count"], 4)  # 3 inserts + 1 read

        status, _, body = http(EMU.admin, "/stats/reset", method="POST")
        self.assertEqual((status, json.loads(body)), (200, {"reset": "all"}))
        after = stats()
        self.assertEqual(after["total"]["count"], 0)
        self.assertEqual([t["stats"]["count"] for t in after["tables"]], [0] * len(after["tables"]))
        self.assertEqual(after["shapes"], [])
        self.assertEqual([t["peak_ru_s"] for t in after["tables"]], [0] * len(after["tables"]))
        # what the estimate sizes throughput from starts again too (peaks, demand)
        est = json.loads(http(EMU.admin, "/estimate")[2])["estimate"]
        self.assertEqual([(t["peak_ru_s"], t["ops_s"]) for t in est["tables"]],
                         [(0, 0)] * len(est["tables"]))
        _, samples = parse_metrics(http(EMU.admin, "/metrics")[2].decode())
        self.assertEqual(values(samples, "cosmos_emulator_ru_consumed_total", keyspace="ops",
                                table="b", partition="0"), [0])
        self.assertEqual(values(samples, "cosmos_emulator_requests_total", opcode="EXECUTE"), [])


class Health(unittest.TestCase):
    def test_health_command_before_ready_after_ready_and_after_stop(self):
        for durable, state in ((False, "starting"), (True, "recovering")):
            with self.subTest(state=state):
                emu = OpsEmulator(args=["--storage", "durable"] if durable else [],
                                  env={START_DELAY_ENV: "3000"}, wait_ready=False)
                emu.start()
                try:
                    status, _, body = http(emu.admin, "/healthz")
                    self.assertEqual((status, json.loads(body)), (503, {"status": state}))
                    r = health(emu.admin)
                    self.assertEqual(r.returncode, 1, r)
                    self.assertIn('answered 503: {"status":"%s"}' % state, r.stderr)
                    status, _, body = http(emu.admin, "/stats")
                    self.assertEqual(status, 503)
                    self.assertIn(state.encode(), body)
                    status, _, body = http(emu.admin, "/metrics")
                    self.assertEqual(status, 200)
                    _, samples = parse_metrics(body.decode())
                    self.assertEqual(values(samples, "cosmos_emulator_ready"), [0])
                    self.assertEqual(json.loads(http(emu.admin, "/status")[2])["state"], state)
                finally:
                    # SIGTERM during start-up: a clean exit (0, no sanitizer report) once the
                    # worker is done, never serving CQL
                    emu.stop()

        emu = OpsEmulator(env={START_DELAY_ENV: "1"}).start()
        admin = emu.admin
        r = health(admin)
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(r.stdout.strip(), 'ready: {"status":"ok"}')
        self.assertEqual(health("http://%s/" % admin, None, "--timeout", "5").returncode, 0)
        # the default address comes from the environment, as in the container
        port = admin.rsplit(":", 1)[1]
        self.assertEqual(health(None, {"COSMOS_EMULATOR_ADMIN_PORT": port,
                                       "COSMOS_EMULATOR_ADMIN_BIND": "0.0.0.0"}).returncode, 0)
        emu.stop()
        r = health(admin)
        self.assertEqual(r.returncode, 1, r)
        self.assertIn("no answer from the admin endpoint", r.stderr)

    def test_durable_storage_figures_in_metrics(self):
        emu = OpsEmulator(args=["--storage", "durable"]).start()
        try:
            cluster = emu.cluster()
            try:
                session = cluster.connect()
                session.execute("CREATE KEYSPACE d WITH replication = "
                                "{'class': 'SimpleStrategy', 'replication_factor': 1}")
                session.execute("CREATE TABLE d.t (k int PRIMARY KEY, v text)")
                for i in range(10):
                    session.execute("INSERT INTO d.t (k, v) VALUES (%s, 'x')", (i,))
            finally:
                cluster.shutdown()
            _, samples = parse_metrics(http(emu.admin, "/metrics")[2].decode())
            self.assertEqual(values(samples, "cosmos_emulator_storage_durable"), [1])
            self.assertGreater(values(samples, "cosmos_emulator_commitlog_bytes")[0], 0)
            self.assertEqual(values(samples, "cosmos_emulator_checkpoints_total"), [0])
            self.assertEqual(values(samples, "cosmos_emulator_checkpoint_failures_total"), [0])
        finally:
            emu.stop()

    def test_health_command_usage_errors_exit_2(self):
        for args in (["--bogus"], ["--timeout", "0"], ["--admin"], ["--admin", "ftp://x:1"]):
            r = subprocess.run([binary(), "health"] + args, capture_output=True, text=True,
                               timeout=30)
            self.assertEqual(r.returncode, 2, (args, r))
        r = subprocess.run([binary(), "health", "--help"], capture_output=True, text=True,
                           timeout=30)
        self.assertEqual(r.returncode, 0)
        self.assertIn("--timeout S", r.stdout)


class ConfigAndLogs(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="emu-ops-cfg-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def write(self, doc):
        path = os.path.join(self.dir, "emulator.json")
        with open(path, "w") as f:
            f.write(doc if isinstance(doc, str) else json.dumps(doc))
        return path

    def test_config_file_precedence_end_to_end(self):
        path = self.write({"port": 1, "admin-port": 2, "profile": "cassandra",
                           "region": "File Region", "account": "file-account",
                           "rate-limiting": "on", "default-throughput": 500})
        emu = OpsEmulator(args=["--config", path, "--account", "flag-account"],
                          env={"COSMOS_EMULATOR_REGION": "Env Region",
                               "COSMOS_EMULATOR_ACCOUNT": "env-account"}).start()
        try:
            # flags (--port 0, --admin-port 0, --account) > env (region) > file (profile,
            # rate limiting, default throughput) > defaults (consistency)
            self.assertNotEqual(emu.port, 1)
            self.assertNotEqual(emu.admin.rsplit(":", 1)[1], "2")
            emu.wait_for_log(r'account flag-account, data center "Env Region", profile cassandra')
            emu.wait_for_log(r"rate limiting on, consistency Session, table default 500 RU/s")
            doc = json.loads(http(emu.admin, "/status")[2])
            self.assertEqual((doc["profile"], doc["rate_limiting"]), ("cassandra", True))
            from cassandra.auth import PlainTextAuthProvider
            from cassandra.cluster import EXEC_PROFILE_DEFAULT, ExecutionProfile
            from cassandra.policies import DCAwareRoundRobinPolicy
            from emulator import KEY
            profile = ExecutionProfile(
                load_balancing_policy=DCAwareRoundRobinPolicy(local_dc="Env Region"))
            cluster = emu.cluster(auth_provider=PlainTextAuthProvider("flag-account", KEY),
                                  execution_profiles={EXEC_PROFILE_DEFAULT: profile})
            try:
                row = cluster.connect().execute("SELECT data_center FROM system.local").one()
                self.assertEqual(row.data_center, "Env Region")
            finally:
                cluster.shutdown()
        finally:
            emu.stop()

    def test_config_file_errors_stop_start_up_with_one_line(self):
        cases = [({"prot": 10350}, 'unknown option "prot"'),
                 ({"port": "10350"}, '"port" must be a whole number'),
                 ({"serverless": "yes"}, '"serverless" must be true or false'),
                 ("{not json", "is not valid JSON")]
        for doc, want in cases:
            path = self.write(doc)
            r = subprocess.run([binary(), "--config", path, "--port", "0", "--admin-port", "off",
                                "--data-dir", self.dir], capture_output=True, text=True,
                               timeout=60)
            self.assertEqual(r.returncode, 2, r)
            first = r.stderr.splitlines()[0]
            self.assertIn(want, first)
            self.assertTrue(first.startswith("cosmos-cassandra-emulator: --config %s" % path))

    def test_json_log_lines(self):
        emu = OpsEmulator(args=["--log-format", "json", "--log-level", "debug"]).start()
        try:
            cluster = emu.cluster()
            try:
                cluster.connect().execute("SELECT release_version FROM system.local")
            finally:
                cluster.shutdown()
            emu.wait_for_log(r'"conn":\d+,"msg":"authenticated ')
        finally:
            emu.stop()
        lines = emu.log().splitlines()
        self.assertGreater(len(lines), 5)
        docs = [json.loads(l) for l in lines]  # every line is one JSON object
        for d in docs:
            self.assertLessEqual({"ts", "level", "msg"}, set(d))
            self.assertIn(d["level"], ("error", "warn", "info", "debug"))
            self.assertRegex(d["ts"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
        msgs = [d["msg"] for d in docs]
        self.assertIn("ready", msgs)
        self.assertIn("stopped", msgs)
        self.assertTrue(any(m.startswith("listening on 127.0.0.1:") for m in msgs))
        self.assertTrue(any("conn" in d and isinstance(d["conn"], int) for d in docs))

    def test_log_file_and_environment_format(self):
        log = os.path.join(self.dir, "emulator.log")
        emu = OpsEmulator(args=["--admin-port", "0"], env={"COSMOS_EMULATOR_LOG_FORMAT": "json",
                                                            "COSMOS_EMULATOR_LOG_FILE": log},
                          wait_ready=False)
        # nothing goes to stderr: follow the file for the port lines instead
        emu.wait_for_log = lambda pattern, timeout=10: wait_in_file(log, pattern, timeout)
        emu.start()
        try:
            emu.wait_ready_line()
            self.assertEqual(health(emu.admin).returncode, 0)
        finally:
            emu.stop()
        with open(log) as f:
            msgs = [json.loads(l)["msg"] for l in f]
        self.assertIn("ready", msgs)
        self.assertEqual(msgs[-1], "stopped")


def wait_in_file(path, pattern, timeout):
    import time
    rx = re.compile(pattern)
    deadline = time.monotonic() + timeout
    while True:
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    m = rx.search(line)
                    if m:
                        return m
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for %r in %s" % (pattern, path))
        time.sleep(0.05)


class Docker(unittest.TestCase):
    """The image's pieces outside a container: its entrypoint with the image's
    environment serves, and its HEALTHCHECK command passes once ready."""

    def test_entrypoint_serves_and_the_healthcheck_passes(self):
        with open(os.path.join(ROOT, "docker", "Dockerfile")) as f:
            dockerfile = f.read().replace("\\\n", " ")
        m = re.search(r"^HEALTHCHECK .*?CMD (\[.*\])\s*$", dockerfile, re.M)
        self.assertIsNotNone(m, "the Dockerfile has a HEALTHCHECK CMD [...]")
        check = json.loads(m.group(1))
        self.assertEqual(check[0], "/usr/local/bin/cosmos-cassandra-emulator")
        check[0] = binary()
        env = {"COSMOS_EMULATOR_BIN": binary(), "COSMOS_EMULATOR_BIND": "127.0.0.1",
               "COSMOS_EMULATOR_ADMIN_BIND": "127.0.0.1",
               "COSMOS_EMULATOR_CERT_HOSTS": "emulator.ci.test,10.11.12.13"}
        emu = OpsEmulator(env=env, command=["sh", os.path.join(ROOT, "docker", "entrypoint.sh")])
        emu.start()
        try:
            port = emu.admin.rsplit(":", 1)[1]
            r = subprocess.run(check, capture_output=True, text=True, timeout=60,
                               env=dict(os.environ, COSMOS_EMULATOR_ADMIN_PORT=port,
                                        COSMOS_EMULATOR_ADMIN_BIND="0.0.0.0"))
            self.assertEqual(r.returncode, 0, r)
            # the entrypoint turned the host list into --cert-host flags
            pem = subprocess.run(["openssl", "x509", "-noout", "-ext", "subjectAltName", "-in",
                                  os.path.join(emu.data_dir, "certs", "server.pem")],
                                 capture_output=True, check=True, timeout=30).stdout.decode()
            self.assertIn("DNS:emulator.ci.test", pem)
            self.assertIn("IP Address:10.11.12.13", pem)
            # and passes the commands through
            r = subprocess.run(["sh", os.path.join(ROOT, "docker", "entrypoint.sh"), "health",
                                "--admin", emu.admin], capture_output=True, text=True,
                               timeout=60, env=dict(os.environ, **env))
            self.assertEqual(r.returncode, 0, r)
        finally:
            emu.stop()

    def test_readme_health_commands_are_the_binarys(self):
        """The health-cmd the README gives CI authors is one the binary takes."""
        with open(os.path.join(ROOT, "README.md")) as f:
            readme = f.read()
        cmds = re.findall(r'--health-cmd[ =]"([^"]+)"', readme)
        self.assertTrue(cmds, "the README shows a --health-cmd")
        for cmd in cmds:
            words = shlex.split(cmd)
            self.assertEqual(words[:2], ["cosmos-cassandra-emulator", "health"], cmd)
            r = subprocess.run([binary()] + words[1:] + ["--help"], capture_output=True,
                               timeout=30)
            self.assertEqual(r.returncode, 0, cmd)


if __name__ == "__main__":
    unittest.main()
