"""The live dashboard (/dashboard on the admin port) in a real browser:
headless Chromium (Debian's chromium) loads it while a workload runs, and
the DOM shows each table's RU/s chart moving from one load to the next, the
throttled requests and hottest partitions, the self-refresh, and a page that
fits a 1,400 px window. A screenshot is left in the build tree to look at.

The page itself has no script; to read its DOM the test serves a wrapper
page that frames the dashboard from the same origin (a small proxy) and
writes what it measured into its own DOM, which --dump-dom prints."""

import http.server
import json
import logging
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.request

from emulator import Emulator

logging.getLogger("cassandra").setLevel(logging.CRITICAL)
WIDTH = 1400
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

WRAPPER = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="/dash" style="width:%dpx;height:900px;border:0"></iframe>
<pre id="out">pending</pre>
<script>
document.getElementById('f').addEventListener('load', function () {
  var d = this.contentDocument;
  var charts = {};
  d.querySelectorAll('svg.live').forEach(function (s) {
    var ru = s.querySelector('polyline.ru'), budget = s.querySelector('polyline.budget');
    charts[s.getAttribute('data-table')] = {
      ru: ru ? ru.getAttribute('points') : null,
      budget: budget ? budget.getAttribute('points') : null,
      throttled: s.querySelectorAll('rect.throttled').length};
  });
  var refresh = d.querySelector('meta[http-equiv="refresh"]');
  document.getElementById('out').textContent = JSON.stringify({
    charts: charts,
    refresh: refresh ? refresh.getAttribute('content') : null,
    scrollWidth: d.documentElement.scrollWidth,
    hotRows: d.querySelectorAll('table.hotnow tr').length - 1,
    title: d.title});
});
</script></body></html>""" % WIDTH


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Proxy(http.server.BaseHTTPRequestHandler):
    admin = None

    def do_GET(self):
        if self.path == "/":
            body, ctype = WRAPPER.encode(), "text/html"
        else:
            # a long refresh, so the page does not reload under the measurement
            url = "http://%s/dashboard?refresh=600" % self.admin
            with urllib.request.urlopen(url, timeout=30) as r:
                body, ctype = r.read(), r.headers.get("Content-Type")
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def chromium(*args):
    profile = tempfile.mkdtemp(prefix="emu-chromium-")
    try:
        return subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--hide-scrollbars", "--user-data-dir=" + profile, "--window-size=%d,1000" % WIDTH,
             *args], capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


class Dashboard(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if CHROMIUM is None:
            raise RuntimeError("chromium is not installed: run scripts/setup.sh")
        cls.admin_port = free_port()
        cls.emu = Emulator(args=["--admin-port", str(cls.admin_port), "--rate-limiting",
                                 "on"]).start()
        cls.emu.wait_for_log(r"admin endpoint on http://127\.0\.0\.1:%d" % cls.admin_port)
        cls.admin = "127.0.0.1:%d" % cls.admin_port
        Proxy.admin = cls.admin
        cls.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
        cls.url = "http://127.0.0.1:%d/" % cls.httpd.server_address[1]
        threading.Thread(target=cls.httpd.serve_forever, daemon=True).start()
        cls.cluster = cls.emu.cluster()
        cls.session = cls.cluster.connect()
        cls.session.execute("CREATE KEYSPACE dash WITH replication = "
                            "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        cls.session.execute("CREATE TABLE dash.events (k int PRIMARY KEY, v text)")
        cls.stop = threading.Event()
        cls.load = threading.Thread(target=cls.workload, daemon=True)
        cls.load.start()

    @classmethod
    def workload(cls):
        """Bursts over the table's 400 RU/s, for at most 30 s."""
        ins = cls.session.prepare("INSERT INTO dash.events (k, v) VALUES (?, ?)")
        value, i, deadline = "x" * 4000, 0, time.time() + 30
        while not cls.stop.is_set() and time.time() < deadline:
            futures = [cls.session.execute_async(ins, (i + j, value)) for j in range(60)]
            for f in futures:
                try:
                    f.result()
                except Exception:
                    pass  # throttled: what the chart shows
            i += 60
            time.sleep(0.3)

    @classmethod
    def tearDownClass(cls):
        cls.stop.set()
        cls.load.join(timeout=60)
        cls.cluster.shutdown()
        cls.httpd.shutdown()
        cls.emu.stop()

    def measure(self):
        r = chromium("--virtual-time-budget=5000", "--dump-dom", self.url)
        m = re.search(r'<pre id="out">(.*?)</pre>', r.stdout, re.S)
        self.assertIsNotNone(m, "no DOM from chromium: %s" % r.stderr[-2000:])
        self.assertNotEqual(m.group(1), "pending", r.stderr[-2000:])
        return json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&"))

    def test_charts_move_while_traffic_runs(self):
        time.sleep(2)
        first = self.measure()
        time.sleep(3)
        second = self.measure()
        for doc in (first, second):
            self.assertIn("dash.events", doc["charts"])
            self.assertEqual(doc["refresh"], "600")
            self.assertEqual(doc["title"], "Azure Cosmos DB for Apache Cassandra: RU dashboard")
            self.assertGreater(doc["hotRows"], 0)
            self.assertLessEqual(doc["scrollWidth"], WIDTH, "the page is wider than the window")
        a, b = first["charts"]["dash.events"], second["charts"]["dash.events"]
        self.assertEqual(len(a["ru"].split()), 300)
        self.assertNotEqual(a["ru"], b["ru"], "the RU/s chart did not move")
        self.assertGreater(b["throttled"], 0, "throttled requests are not drawn")
        budget_y = {p.split(",")[1] for p in b["budget"].split()[-5:]}
        self.assertEqual(len(budget_y), 1)  # a flat 400 RU/s line at the end

    def test_dashboard_refreshes_itself_and_takes_estimate_parameters(self):
        with urllib.request.urlopen("http://%s/dashboard" % self.admin, timeout=30) as r:
            page = r.read().decode()
        self.assertIn('<meta http-equiv="refresh" content="2">', page)
        self.assertNotIn("<script", page)
        with urllib.request.urlopen("http://%s/dashboard?refresh=5&scale=10x&peak_hours=4"
                                    % self.admin, timeout=30) as r:
            self.assertIn('content="5"', r.read().decode())
        with self.assertRaises(urllib.error.HTTPError) as cm:
            urllib.request.urlopen("http://%s/dashboard?refresh=0" % self.admin, timeout=30)
        self.assertEqual(cm.exception.code, 400)

    def test_screenshot_at_1400_px(self):
        out = os.path.join(os.environ.get("EMU_ARTIFACTS", tempfile.gettempdir()),
                           "dashboard-%d.png" % os.getpid())
        r = chromium("--screenshot=" + out, "http://%s/dashboard?refresh=600" % self.admin)
        self.assertTrue(os.path.exists(out), r.stderr[-2000:])
        with open(out, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        self.assertGreater(os.path.getsize(out), 10000)  # not a blank page
        print("dashboard screenshot:", out)


if __name__ == "__main__":
    unittest.main()
