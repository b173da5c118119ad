"""Launcher for the integration tests: runs the built emulator on a free port.

Each test module starts its own server (setUpModule/tearDownModule), so the
modules are independent and ctest may run them in any order:

    emu = Emulator()            # binary from $EMULATOR_BIN
    emu.start()                 # --port 0, --admin-port 0 unless args give one,
                                # temp --data-dir, waits for "ready"
    emu.port, emu.ca_path       # the chosen port; the CA from `certs export`
    emu.stop()                  # SIGTERM; asserts a clean exit (exit code 0,
                                # no sanitizer report in the log)
    emu.kill()                  # SIGKILL, as a crash (Emulator(data_dir=d) keeps d)

The server picks the port itself (--port 0) and reports it on its
"listening on HOST:PORT" line, so there is no race for a free port. The admin
endpoint gets a free port too (--admin-port 0) unless the test chose one: a
taken admin port stops the start-up, so parallel modules must never share one.
"""

import os
import re
import shutil
import signal
import ssl
import subprocess
import tempfile
import threading
import time

ACCOUNT = "localhost"
KEY = ("C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/"
       "Jw==")
REGION = "South Central US"
START_TIMEOUT = 60  # sanitizer builds start slower

_SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:",
                    "SUMMARY: UndefinedBehaviorSanitizer")


def binary():
    path = os.environ.get("EMULATOR_BIN")
    if not path:
        raise RuntimeError("set EMULATOR_BIN to the built cosmos-cassandra-emulator")
    return path


class Emulator:
    def __init__(self, tls=True, args=(), data_dir=None, preexec_fn=None):
        self.tls = tls
        self.preexec_fn = preexec_fn  # run in the child before exec (resource limits)
        self.args = list(args)
        self.own_data_dir = data_dir is None
        self.data_dir = data_dir
        self.proc = None
        self.port = None
        self.admin = None  # the admin endpoint's "host:port" once started (None when off)
        self.host = "127.0.0.1"
        self.ca_path = None
        self._lines = []
        self._cond = threading.Condition()
        self._reader = None

    # -- lifecycle ---------------------------------------------------------

    def start(self):
        if self.own_data_dir:
            self.data_dir = tempfile.mkdtemp(prefix="emu-it-")
        cmd = [binary(), "--port", "0", "--data-dir", self.data_dir] + self.args
        if not any(a == "--admin-port" or a.startswith("--admin-port=") for a in self.args):
            cmd += ["--admin-port", "0"]
        if not self.tls:
            cmd.append("--no-tls")
        env = dict(os.environ)
        env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0")
        env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, env=env, text=True, errors="replace",
                                     preexec_fn=self.preexec_fn)
        self._reader = threading.Thread(target=self._read_log, daemon=True)
        self._reader.start()
        m = self.wait_for_log(r"listening on (\S+):(\d+) \((TLS|plaintext)\)", START_TIMEOUT)
        self.port = int(m.group(2))
        self.wait_for_log(r"\bready(\"\})?$", START_TIMEOUT)  # text, or --log-format json
        m = re.search(r"admin endpoint on http://(\S+) \(", self.log())  # logged before ready
        self.admin = m.group(1) if m else None
        if self.tls:
            self.ca_path = os.path.join(self.data_dir, "exported-ca-%d.pem" % self.port)
            with open(self.ca_path, "w") as f:
                subprocess.run([binary(), "certs", "export", "--data-dir", self.data_dir],
                               stdout=f, check=True, env=env, timeout=START_TIMEOUT)
        return self

    def stop(self, sig=signal.SIGTERM, status=0):
        """SIGTERM (or sig), then assert the server exited with status (0)
        and a clean sanitizer log."""
        if self.proc is None:
            return
        try:
            if self.proc.poll() is None:
                self.proc.send_signal(sig)
            try:
                rc = self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise AssertionError("emulator did not exit within 30 s of %s" % sig.name)
            self._reader.join(timeout=10)
            self.proc.stderr.close()
            log = self.log()
            bad = [m for m in _SANITIZER_MARKS if m in log]
            if rc != status or bad:
                raise AssertionError("emulator exited %d%s; log:\n%s"
                                     % (rc, " with sanitizer reports" if bad else "", log[-6000:]))
        finally:
            self.proc = None
            if self.own_data_dir:
                shutil.rmtree(self.data_dir, ignore_errors=True)

    def kill(self):
        """SIGKILL, as a crash: no shutdown, no exit status or sanitizer check
        (a killed process leaves neither). A --data-dir the caller gave is
        kept, so the next Emulator(data_dir=...) starts from what is left."""
        if self.proc is None:
            return
        try:
            self.proc.kill()
            self.proc.wait(timeout=30)
            self._reader.join(timeout=10)
            self.proc.stderr.close()
        finally:
            self.proc = None
            if self.own_data_dir:
                shutil.rmtree(self.data_dir, ignore_errors=True)

    # -- log ---------------------------------------------------------------

    def _read_log(self):
        for line in self.proc.stderr:
            with self._cond:
                self._lines.append(line.rstrip("\n"))
                self._cond.notify_all()
        with self._cond:
            self._lines.append(None)  # end of stream
            self._cond.notify_all()

    def log(self):
        with self._cond:
            return "\n".join(l for l in self._lines if l is not None)

    def wait_for_log(self, pattern, timeout=10):
        """Returns the first match of pattern in any log line, waiting for it."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for line in self._lines:
                    if line is None:
                        continue
                    m = rx.search(line)
                    if m:
                        return m
                if self._lines and self._lines[-1] is None:
                    raise AssertionError("emulator exited before logging %r; log:\n%s"
                                         % (pattern, self.log_unlocked()))
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("timed out waiting for %r; log:\n%s"
                                         % (pattern, self.log_unlocked()))
                self._cond.wait(left)

    def log_unlocked(self):
        return "\n".join(l for l in self._lines if l is not None)

    # -- clients -----------------------------------------------------------

    def ssl_context(self, verify=True):
        """A client context that verifies the server against the exported CA."""
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        if verify:
            ctx.verify_mode = ssl.CERT_REQUIRED
            ctx.check_hostname = True
            ctx.load_verify_locations(self.ca_path)
        else:
            ctx.check_hostname = False
            ctx.verify_mode = ssl.CERT_NONE
        return ctx

    def cluster(self, key=KEY, user=ACCOUNT, verify=True, ssl=None, consistency_level=None,
                **kw):
        """A Python-driver Cluster for this server: TLS verified against the
        exported CA (when the server runs TLS), PasswordAuthenticator with the
        account, local DC = the emulator's region. Keyword args override."""
        from cassandra import ConsistencyLevel
        from cassandra.auth import PlainTextAuthProvider
        from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile
        from cassandra.policies import DCAwareRoundRobinPolicy, TokenAwarePolicy
        profile = ExecutionProfile(
            load_balancing_policy=TokenAwarePolicy(DCAwareRoundRobinPolicy(local_dc=REGION)),
            consistency_level=consistency_level or ConsistencyLevel.LOCAL_ONE,
            request_timeout=30)
        opts = dict(contact_points=[self.host], port=self.port,
                    auth_provider=PlainTextAuthProvider(user, key),
                    execution_profiles={EXEC_PROFILE_DEFAULT: profile},
                    connect_timeout=15, control_connection_timeout=15)
        use_tls = self.tls if ssl is None else ssl
        if use_tls:
            opts["ssl_context"] = self.ssl_context(verify)
        opts.update(kw)
        return Cluster(**opts)
