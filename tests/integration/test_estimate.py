"""Cost estimation before deployment: `estimate --replay` on the shipped
workload files (numbers consistent with the traffic they describe, errors
with file:line, the three formats), and a running emulator's admin endpoint
(/status, /stats, /estimate, /report.html) read after traffic from the
Python driver, directly and through `estimate --admin`."""

import json
import logging
import os
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.error
import urllib.request

from emulator import Emulator, binary

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")
MANUAL_RATE = 0.008  # $ per 100 RU/s per hour, list price
HOURS = 730
logging.getLogger("cassandra").setLevel(logging.ERROR)


def estimate(*args):
    return subprocess.run([binary(), "estimate", "--no-progress", *args], capture_output=True,
                          text=True, timeout=120)


def estimate_json(*args):
    r = estimate(*args, "--format", "json")
    if r.returncode != 0:
        raise AssertionError("estimate failed (%d): %s" % (r.returncode, r.stderr))
    return json.loads(r.stdout)


def shape_counts(doc, keyspace):
    """{"INSERT table": count, ...}: requests per statement kind and table."""
    counts = {}
    for s in doc["shapes"]:
        if s["keyspace"] == keyspace:
            key = "%s %s" % (s["shape"].split()[0].upper(), s["table"])
            counts[key] = counts.get(key, 0) + s["stats"]["count"]
    return counts


class Consistency:
    """Checks every estimate figure against the statistics it came from."""

    def check(self, doc):
        est = doc["estimate"]
        self.assertEqual(sum(s["stats"]["count"] for s in doc["shapes"]), doc["total"]["count"])
        self.assertAlmostEqual(sum(s["stats"]["ru_total"] for s in doc["shapes"]),
                               doc["total"]["ru_total"], delta=0.05)
        for s in doc["shapes"]:
            st = s["stats"]
            if st["count"]:
                self.assertAlmostEqual(st["ru_mean"] * st["count"], st["ru_total"],
                                       delta=0.01 * st["count"] + 0.01)
                self.assertLessEqual(st["ru_p50"], st["ru_max"] * 1.04 + 0.01)
        tables = {(t["keyspace"], t["table"]): t for t in doc["tables"]}
        for e in est["tables"]:
            t = tables[(e["keyspace"], e["table"])]
            # throttled requests are demand: offered, not served
            offered = t["stats"]["count"] + t["stats"]["throttled"]
            ops = offered / est["observed_s"] * est["scale"]
            self.assertAlmostEqual(e["ops_s"], ops, delta=0.01)
            demand = t["stats"]["ru_total"] + t["throttled_ru"]
            mean = demand / est["observed_s"] * est["scale"]
            self.assertAlmostEqual(e["mean_ru_s"], mean, delta=0.05)
            self.assertGreaterEqual(e["peak_ru_s"] + 0.01, e["mean_ru_s"])
            self.assertGreaterEqual(e["manual_ru_s"], max(400, e["peak_ru_s"]))
            self.assertEqual(e["manual_ru_s"] % 100, 0)
            self.assertEqual(e["autoscale_max_ru_s"] % 1000, 0)
            self.assertAlmostEqual(e["monthly"]["manual"],
                                   e["manual_ru_s"] / 100 * MANUAL_RATE * HOURS, delta=0.01)
            self.assertAlmostEqual(e["monthly"]["autoscale"],
                                   e["autoscale_billed_ru_s"] / 100 * MANUAL_RATE * 1.5 * HOURS,
                                   delta=0.01)
            self.assertAlmostEqual(e["monthly"]["serverless"],
                                   e["mean_ru_s"] * 3600 * HOURS / 1e6 * 0.25, delta=0.05)
            self.assertIn(e["risk"], ("none", "low", "medium", "high"))
        for k in ("manual", "autoscale", "serverless", "storage"):
            self.assertAlmostEqual(est["monthly"][k],
                                   sum(e["monthly"][k] for e in est["tables"]), delta=0.05)


class Replay(Consistency, unittest.TestCase):
    def test_ecommerce_model_counts_match_its_repeats(self):
        doc = estimate_json("--replay", os.path.join(EXAMPLES, "ecommerce_orders.cql"))
        self.assertEqual(shape_counts(doc, "shop"), {
            "BEGIN user_orders": 1500,   # a batch's shape is its first table's
            "SELECT orders_by_id": 1500,
            "SELECT user_orders": 1000,
            "UPDATE orders_by_id": 500,
        })
        self.assertEqual(doc["total"]["count"], 4500)
        self.assertEqual(doc["total"]["failed"], 0)
        self.assertAlmostEqual(doc["estimate"]["observed_s"], 1.0)
        self.assertAlmostEqual(doc["estimate"]["scale"], 1.0)
        self.assertTrue(all(t["storage_bytes"] > 0 for t in doc["tables"]))
        self.check(doc)

    def test_iot_model_scaled_to_a_target_rate(self):
        doc = estimate_json("--replay", os.path.join(EXAMPLES, "iot_sensor_data.cql"),
                            "--ops-per-sec", "720")
        counts = shape_counts(doc, "iot")
        self.assertEqual(counts["INSERT sensor_data"], 3000)
        self.assertEqual(counts["UPDATE sensor_status"], 3000)
        self.assertEqual(counts["SELECT sensor_data"], 800)
        self.assertEqual(counts["SELECT sensor_status"], 400)
        self.assertAlmostEqual(doc["estimate"]["scale"], 720 / 7200, places=4)
        self.assertAlmostEqual(sum(e["ops_s"] for e in doc["estimate"]["tables"]), 720,
                               delta=0.05)
        self.check(doc)

    def test_duration_and_scale_change_the_rates_not_the_counts(self):
        path = os.path.join(EXAMPLES, "ecommerce_orders.cql")
        one = estimate_json("--replay", path)
        ten = estimate_json("--replay", path, "--duration", "10", "--scale", "200x")
        self.assertEqual(one["total"]["count"], ten["total"]["count"])
        self.assertAlmostEqual(ten["estimate"]["observed_s"], 10.0)
        self.assertAlmostEqual(ten["estimate"]["scale"], 200.0)
        by_table = {e["table"]: e for e in one["estimate"]["tables"]}
        for e in ten["estimate"]["tables"]:
            self.assertAlmostEqual(e["mean_ru_s"], by_table[e["table"]]["mean_ru_s"] * 20,
                                   delta=0.5)
        self.check(ten)

    def test_statement_errors_name_file_and_line_and_stop_on_request(self):
        with tempfile.NamedTemporaryFile("w", suffix=".cql", delete=False) as f:
            f.write("CREATE KEYSPACE k WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1};\n"
                    "CREATE TABLE k.t (a int PRIMARY KEY, b text);\n"
                    "INSERT INTO k.missing (a) VALUES (1);\n"
                    "-- @repeat 10\n"
                    "INSERT INTO k.t (a, b) VALUES ({{i}}, 'x;y');\n")
        try:
            r = estimate("--replay", f.name, "--format", "json")
            # the report is written, and the failure shows in the exit status
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("%s:3: unconfigured table missing" % f.name, r.stderr)
            self.assertIn("1 statement executions failed", r.stderr)
            self.assertEqual(json.loads(r.stdout)["total"]["count"], 10)
            r = estimate("--replay", f.name, "--stop-on-error")
            self.assertEqual(r.returncode, 1)
            self.assertIn("stopped at the first error", r.stderr)
            self.assertEqual(r.stdout, "")
        finally:
            os.unlink(f.name)

    def test_help_documents_the_replay_file_and_the_planner_inputs(self):
        r = estimate("--help")
        self.assertEqual(r.returncode, 0)
        for text in ("@repeat N", "{{i}}", "{{uuid}}", "{{rand:N}}", "{{text:N}}", "--seed",
                     "--regions", "--multi-region-writes", "--peak-hours",
                     "--reserved-discount", "--free-tier", "exits with status 1"):
            self.assertIn(text, r.stdout)

    def test_an_assumed_period_is_said_plainly(self):
        path = os.path.join(EXAMPLES, "ecommerce_orders.cql")
        r = estimate("--replay", path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("no --duration: the 4503 statement executions are priced as 1 s of "
                      "traffic, 4503 requests/s", r.stderr)  # 4500 + 3 DDL
        self.assertIn("ASSUMED", r.stdout)
        self.assertTrue(estimate_json("--replay", path)["estimate"]["observed_assumed"])
        r = estimate("--replay", path, "--duration", "3600", "--format", "json")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("no --duration", r.stderr)
        self.assertFalse(json.loads(r.stdout)["estimate"]["observed_assumed"])
        r = estimate("--replay", path, "--ops-per-sec", "100")  # the rate is given: no guess
        self.assertNotIn("no --duration", r.stderr)

    def test_planner_inputs_price_regions_terms_and_peak_hours(self):
        path = os.path.join(EXAMPLES, "ecommerce_orders.cql")
        base = estimate_json("--replay", path, "--duration", "60")
        manual = sum(e["manual_ru_s"] for e in base["estimate"]["tables"])
        self.assertAlmostEqual(base["estimate"]["monthly"]["manual"],
                               manual / 100 * MANUAL_RATE * HOURS, delta=0.05)
        multi = estimate_json("--replay", path, "--duration", "60", "--regions", "3",
                              "--multi-region-writes")
        self.assertAlmostEqual(multi["estimate"]["monthly"]["manual"],
                               manual / 100 * MANUAL_RATE * 2 * HOURS * 3, delta=0.05)
        self.assertEqual(multi["estimate"]["prices"]["regions"], 3)
        reserved = estimate_json("--replay", path, "--duration", "60", "--reserved-discount", "20")
        self.assertAlmostEqual(reserved["estimate"]["monthly"]["manual"],
                               base["estimate"]["monthly"]["manual"] * 0.8, delta=0.05)
        free = estimate_json("--replay", path, "--duration", "60", "--free-tier")
        credit = min(manual, 1000) / 100 * MANUAL_RATE * HOURS
        self.assertAlmostEqual(free["estimate"]["free_tier_credit"], credit, delta=0.05)
        self.assertAlmostEqual(free["estimate"]["monthly"]["manual"],
                               base["estimate"]["monthly"]["manual"] - credit, delta=0.05)
        short = estimate_json("--replay", path, "--duration", "60", "--peak-hours", "2")
        self.assertLessEqual(short["estimate"]["monthly"]["autoscale"],
                             base["estimate"]["monthly"]["autoscale"])
        for args, text in ((["--regions", "0"], "number of regions"),
                           (["--peak-hours", "25"], "hours from 0 to 24"),
                           (["--reserved-discount", "100"], "percentage below 100")):
            r = estimate("--replay", path, *args)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn(text, r.stderr)

    def test_formats_and_output_file(self):
        path = os.path.join(EXAMPLES, "ecommerce_orders.cql")
        r = estimate("--replay", path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("Per statement shape", r.stdout)
        self.assertIn("Total per month", r.stdout)
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "report.html")
            r = estimate("--replay", path, "--output", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out) as f:
                html = f.read()
            self.assertTrue(html.startswith("<!DOCTYPE html>"))
            self.assertIn("<svg", html)
            self.assertNotIn("<script", html)

    def test_bad_usage_exits_2(self):
        for args, text in ((["--scale", "abc"], "not a multiplier"),
                           (["--format", "pdf"], "not text, json or html"),
                           (["--replay", "a.cql", "--admin", "x:1"], "choose one"),
                           (["--consistency", "Sloppy"], "not a consistency level")):
            r = estimate(*args)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn(text, r.stderr)
        r = estimate("--replay", "/nonexistent.cql")
        self.assertEqual(r.returncode, 1)
        self.assertIn("cannot open /nonexistent.cql", r.stderr)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Live(Consistency, unittest.TestCase):
    N_WRITES = 60
    N_READS = 40

    @classmethod
    def setUpClass(cls):
        cls.admin_port = free_port()
        cls.emu = Emulator(args=["--admin-port", str(cls.admin_port)]).start()
        cls.emu.wait_for_log(r"admin endpoint on http://127\.0\.0\.1:%d" % cls.admin_port)
        cls.admin = "127.0.0.1:%d" % cls.admin_port
        cluster = cls.emu.cluster()
        try:
            session = cluster.connect()
            session.execute("CREATE KEYSPACE est WITH replication = "
                            "{'class': 'SimpleStrategy', 'replication_factor': 1}")
            session.execute("CREATE TABLE est.readings (sensor text, ts int, v double, "
                            "PRIMARY KEY (sensor, ts))")
            ins = session.prepare("INSERT INTO est.readings (sensor, ts, v) VALUES (?, ?, ?)")
            sel = session.prepare("SELECT * FROM est.readings WHERE sensor = ? AND ts = ?")
            for i in range(cls.N_WRITES):
                session.execute(ins, ("s%d" % (i % 7), i, i * 0.5))
            for i in range(cls.N_READS):
                session.execute(sel, ("s%d" % (i % 7), i))
            session.execute("CREATE KEYSPACE ttlks WITH replication = "
                            "{'class': 'SimpleStrategy', 'replication_factor': 1}")
            session.execute("CREATE TABLE ttlks.sessions (id int PRIMARY KEY, secret text)")
            for i in range(5):
                session.execute("INSERT INTO ttlks.sessions (id, secret) VALUES (%d, 'x') "
                                "USING TTL 3600" % i)
        finally:
            cluster.shutdown()

    @classmethod
    def tearDownClass(cls):
        cls.emu.stop()

    def get(self, path):
        with urllib.request.urlopen("http://%s%s" % (self.admin, path), timeout=30) as r:
            return r.status, r.headers.get("Content-Type"), r.read().decode()

    def test_status_names_the_endpoints(self):
        status, ctype, body = self.get("/status")
        self.assertEqual(status, 200)
        self.assertEqual(ctype, "application/json")
        doc = json.loads(body)
        self.assertEqual(doc["listening"], "127.0.0.1:%d" % self.emu.port)
        self.assertEqual(doc["admin"], self.admin)
        self.assertEqual(doc["profile"], "cosmos")
        self.assertRegex(doc["version"], r"^\d+\.\d+\.\d+$")
        self.assertGreater(doc["uptime_s"], 0)

    def test_stats_count_what_the_driver_sent(self):
        _, _, body = self.get("/stats")
        doc = json.loads(body)
        self.assertNotIn("estimate", doc)
        self.assertEqual(shape_counts(doc, "est"),
                         {"INSERT readings": self.N_WRITES, "SELECT readings": self.N_READS})
        t = [t for t in doc["tables"] if t["keyspace"] == "est"][0]
        self.assertEqual(t["stats"]["count"], self.N_WRITES + self.N_READS)
        self.assertEqual(len(doc["token_slices"]), len(doc["tables"]))

    def test_rows_written_with_a_ttl_book_their_expiry(self):
        _, _, body = self.get("/stats")
        doc = json.loads(body)
        expiry = [s for s in doc["shapes"]
                  if s["keyspace"] == "ttlks" and s["shape"].startswith("(TTL expiry")]
        self.assertEqual(len(expiry), 1)
        self.assertEqual(expiry[0]["stats"]["count"], 5)
        self.assertGreater(expiry[0]["stats"]["ru_total"], 0)

    def test_estimate_command_reads_the_admin_endpoint(self):
        doc = estimate_json("--admin", self.admin, "--scale", "10x")
        self.assertEqual(shape_counts(doc, "est"),
                         {"INSERT readings": self.N_WRITES, "SELECT readings": self.N_READS})
        self.assertAlmostEqual(doc["estimate"]["scale"], 10.0)
        self.check(doc)
        doc = estimate_json("--admin", "http://%s/" % self.admin, "--ops-per-sec", "5000")
        total = doc["total"]["count"] / doc["estimate"]["observed_s"] * doc["estimate"]["scale"]
        self.assertAlmostEqual(total, 5000, delta=0.5)

    def test_estimate_and_reports_over_http(self):
        _, ctype, body = self.get("/estimate?scale=200x")
        doc = json.loads(body)
        self.assertAlmostEqual(doc["estimate"]["scale"], 200.0)
        self.check(doc)
        _, ctype, body = self.get("/report?ops=100")
        self.assertTrue(ctype.startswith("text/plain"))
        self.assertIn("est.readings", body)
        _, ctype, body = self.get("/report.html")
        self.assertTrue(ctype.startswith("text/html"))
        self.assertIn("<svg", body)
        with self.assertRaises(urllib.error.HTTPError) as cm:
            self.get("/estimate?scale=-2")
        self.assertEqual(cm.exception.code, 400)
        with self.assertRaises(urllib.error.HTTPError) as cm:
            self.get("/nothing")
        self.assertEqual(cm.exception.code, 404)

    def test_estimate_without_an_endpoint_fails_clearly(self):
        r = estimate("--admin", "127.0.0.1:%d" % free_port())
        self.assertEqual(r.returncode, 1)
        self.assertIn("no answer from the admin endpoint", r.stderr)


class Throttled(Consistency, unittest.TestCase):
    """A 400 RU/s table offered far more with rate limiting on: the estimate
    sizes it for what was offered, and idle time after the burst does not
    thin the figures out."""

    @classmethod
    def setUpClass(cls):
        cls.admin_port = free_port()
        cls.emu = Emulator(args=["--admin-port", str(cls.admin_port), "--rate-limiting",
                                 "on"]).start()
        cls.emu.wait_for_log(r"admin endpoint on http://127\.0\.0\.1:%d" % cls.admin_port)
        cls.admin = "127.0.0.1:%d" % cls.admin_port
        cluster = cls.emu.cluster()
        cls.throttled = 0
        try:
            session = cluster.connect()
            session.execute("CREATE KEYSPACE flood WITH replication = "
                            "{'class': 'SimpleStrategy', 'replication_factor': 1}")
            session.execute("CREATE TABLE flood.t (k int PRIMARY KEY, v text)")
            ins = session.prepare("INSERT INTO flood.t (k, v) VALUES (?, ?)")
            value = "x" * 8000
            futures = [session.execute_async(ins, (i, value)) for i in range(400)]
            for f in futures:
                try:
                    f.result()
                except Exception:  # Overloaded (0x1001), possibly wrapped by the driver
                    cls.throttled += 1
        finally:
            cluster.shutdown()

    @classmethod
    def tearDownClass(cls):
        cls.emu.stop()

    def table(self, doc):
        return [e for e in doc["estimate"]["tables"] if e["table"] == "t"][0]

    def test_throttled_requests_are_demand(self):
        self.assertGreater(self.throttled, 0)
        doc = estimate_json("--admin", self.admin)
        self.check(doc)
        t = [t for t in doc["tables"] if t["table"] == "t"][0]
        self.assertEqual(t["stats"]["throttled"], self.throttled)
        self.assertGreater(t["throttled_ru"], 0)
        self.assertGreater(t["peak_demand_ru_s"], t["peak_ru_s"])
        e = self.table(doc)
        self.assertGreaterEqual(e["peak_ru_s"] + 0.01, t["peak_demand_ru_s"])
        self.assertGreaterEqual(e["manual_ru_s"], t["peak_demand_ru_s"])
        self.assertGreater(e["manual_ru_s"], 400)

    def test_idle_time_does_not_shrink_the_estimate(self):
        before = estimate_json("--admin", self.admin)
        time.sleep(2.5)
        after = estimate_json("--admin", self.admin)
        self.assertEqual(before["estimate"]["observed_s"], after["estimate"]["observed_s"])
        self.assertAlmostEqual(self.table(before)["mean_ru_s"], self.table(after)["mean_ru_s"])
        self.assertGreater(after["idle_s"], before["idle_s"] + 2)


if __name__ == "__main__":
    unittest.main()
