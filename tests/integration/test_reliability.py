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


if __name__ == "__main__":
    unittest.main()
