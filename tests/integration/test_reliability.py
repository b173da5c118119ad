"""Reliability of the network side (issue 10): no hostile or unlucky client
can stop the server.

Start-up errors (a taken admin port, storage that cannot be opened) leave
nothing accepting; descriptor exhaustion and --max-connections are refused
without spinning; half-open connections time out; memory stays bounded with
a client that never reads; TLS 1.2 offers AEAD suites only; SIGHUP reopens
the log file. Every emulator runs on free ports (--port 0, --admin-port 0).
Bounds are generous: the tests check behaviour (a closed connection, a flat
CPU time, a bounded RSS), never how fast.
"""

import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import unittest

from emulator import ACCOUNT, KEY, START_TIMEOUT, Emulator, binary

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def run(*args, env=None, timeout=60):
    return subprocess.run([binary(), *args], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=timeout, env=dict(os.environ, **(env or {})))


def refused(port, host="127.0.0.1"):
    """True when a TCP connect to port is refused (nothing listens)."""
    s = socket.socket()
    s.settimeout(5)
    try:
        s.connect((host, port))
        return False
    except ConnectionRefusedError:
        return True
    finally:
        s.close()


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class StartUp(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="emu-rel-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_a_taken_admin_port_is_a_startup_error(self):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        try:
            r = run("--port", "0", "--admin-port", str(port), "--data-dir", self.dir, "--no-tls")
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("cannot start the admin endpoint: cannot listen on 127.0.0.1:%d" % port,
                          r.stderr)
            self.assertIn("--admin-port 0 picks a free port", r.stderr)
            self.assertNotRegex(r.stderr, r"(?m) ready$")
        finally:
            s.close()

    def test_admin_port_off_and_zero_start(self):
        for value in ("off", "0"):
            with self.subTest(admin_port=value):
                emu = Emulator(tls=False, args=["--admin-port", value]).start()
                try:
                    if value == "0":
                        emu.wait_for_log(r"admin endpoint on http://127\.0\.0\.1:\d+ ")
                    else:
                        self.assertNotIn("admin endpoint", emu.log())
                finally:
                    emu.stop()

    def test_storage_that_cannot_be_opened_leaves_nothing_accepting(self):
        # <data-dir>/data is a file: durable storage cannot open it. The start-up
        # worker waits 1.5 s first, so the test sees the window in which the
        # port used to accept into its backlog before the process gave up.
        with open(os.path.join(self.dir, "data"), "w") as f:
            f.write("not a directory")
        log_path = os.path.join(self.dir, "log")
        with open(log_path, "w") as log:
            p = subprocess.Popen([binary(), "--port", "0", "--admin-port", "0", "--no-tls",
                                  "--data-dir", self.dir, "--storage", "durable"],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                                 env=dict(os.environ, COSMOS_EMULATOR_TEST_START_DELAY_MS="1500"))
        try:
            port = None
            deadline = time.monotonic() + START_TIMEOUT
            while port is None and time.monotonic() < deadline and p.poll() is None:
                m = re.search(r"listening on \S+:(\d+) ", read(log_path))
                port = int(m.group(1)) if m else None
                time.sleep(0.02)
            self.assertIsNotNone(port, read(log_path))
            while p.poll() is None:  # during the start-up and as it fails
                self.assertTrue(refused(port), "the CQL port accepted before storage was open")
                time.sleep(0.05)
            self.assertEqual(p.wait(timeout=START_TIMEOUT), 1)
            self.assertTrue(refused(port))
            text = read(log_path)
            self.assertIn("cannot open durable storage", text)
            self.assertNotRegex(text, r"(?m) ready$")
        finally:
            if p.poll() is None:
                p.kill()
            p.wait()


if __name__ == "__main__":
    unittest.main()
