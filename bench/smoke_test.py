#!/usr/bin/env python3
"""smoke_test.py - ctest bench.smoke: the benchmark tools still work. cosmos-bench
runs a few hundred requests of each workload against the emulator and against
null-responder (both started here on --port 0) and must exit 0 with zero errors
and a parsable JSON line. Behaviour only, never speed.

    EMULATOR_BIN=... COSMOS_BENCH=... NULL_RESPONDER=... /usr/bin/python3 bench/smoke_test.py
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "integration"))
from emulator import _SANITIZER_MARKS, Emulator  # noqa: E402

REQUESTS = 200


def bench(port, *args, ca=None, expect_rc=0, stderr_too=False):
    cmd = [os.environ["COSMOS_BENCH"], "--port", str(port), "--requests", str(REQUESTS),
           "--keys", "300"] + list(args)
    if ca:
        cmd += ["--ca", ca]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=120)
    if p.returncode != expect_rc:
        raise AssertionError("%s exited %d\nstdout:\n%s\nstderr:\n%s"
                             % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    for bad in _SANITIZER_MARKS:
        if bad in p.stderr:
            raise AssertionError("sanitizer report from cosmos-bench:\n" + p.stderr)
    if expect_rc != 0:
        return p
    last = p.stdout.strip().splitlines()[-1]
    return (json.loads(last), p.stderr) if stderr_too else json.loads(last)


class NullResponder:
    def __init__(self, tls=True):
        self.dir = tempfile.mkdtemp(prefix="null-resp-")
        cmd = [os.environ["NULL_RESPONDER"], "--port", "0", "--data-dir", self.dir]
        if not tls:
            cmd.append("--no-tls")
        self.log_path = os.path.join(self.dir, "log")
        self.log = open(self.log_path, "w+")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=self.log)
        self.port = None
        for _ in range(600):
            self.log.seek(0)
            m = re.search(r"listening on \S+:(\d+) \((TLS|plaintext)\)", self.log.read())
            if m:
                self.port = int(m.group(1))
                break
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        if self.port is None:
            self.log.seek(0)
            raise AssertionError("null-responder did not start:\n" + self.log.read())
        self.ca_path = os.path.join(self.dir, "certs", "ca.pem")

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        rc = self.proc.wait(timeout=30)
        self.log.seek(0)
        log = self.log.read()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)
        bad = [m for m in _SANITIZER_MARKS if m in log]
        if rc != 0 or bad:
            raise AssertionError("null-responder exited %d; log:\n%s" % (rc, log))


class CommonChecks:
    ru = True  # the emulator charges RU; the null responder does not

    def check(self, r, workload, reads=None):
        self.assertEqual(r["tool"], "cosmos-bench")
        self.assertEqual(r["workload"], workload)
        self.assertEqual(r["errors"], 0)
        self.assertEqual(r["errors_by_code"], {})
        self.assertEqual(r["ops"], REQUESTS)
        self.assertGreater(r["ops_per_s"], 0)
        lat = r["latency_us"]
        self.assertLessEqual(lat["p50"], lat["p99"])
        self.assertLessEqual(lat["p99"], lat["p999"])
        self.assertLessEqual(lat["p999"], lat["max"])
        if reads is not None:
            self.assertEqual(r["reads"], reads)
        if self.ru and workload != "null":
            self.assertGreater(r["ru_per_op"], 0)
        else:
            self.assertIsNone(r["ru_per_op"])

    def test_insert_over_tls_verified(self):
        r = bench(self.port, "--workload", "insert", "--value-size", "1024", ca=self.ca)
        self.check(r, "insert", reads=0)
        self.assertEqual(r["writes"], REQUESTS)

    def test_select_after_preload_finds_every_key(self):
        r = bench(self.port, "--workload", "select", "--connections", "2", "--inflight", "8")
        self.check(r, "select", reads=REQUESTS)
        self.assertEqual(r["empty_reads"], 0)

    def test_mixed_with_lz4(self):
        r = bench(self.port, "--workload", "mixed", "--lz4", "--read-pct", "30")
        self.check(r, "mixed")
        self.assertEqual(r["reads"] + r["writes"], REQUESTS)
        self.assertTrue(r["lz4"])

    def test_ycsb_a_zipfian(self):
        r = bench(self.port, "--workload", "ycsb-a", "--dist", "zipfian", "--value-size", "1000")
        self.check(r, "ycsb-a")
        self.assertEqual(r["reads"] + r["writes"], REQUESTS)
        self.assertEqual(r["empty_reads"], 0)

    def test_ycsb_c_open_loop(self):
        r = bench(self.port, "--workload", "ycsb-c", "--rate", "2000")
        self.check(r, "ycsb-c", reads=REQUESTS)
        self.assertEqual(r["empty_reads"], 0)
        self.assertEqual(r["rate"], 2000)

    def test_slow_responses_are_reported_once_per_stall(self):
        # A threshold every response passes: with one request in flight each
        # is a stall of its own; with many, overlapping ones are one line.
        slow_line = re.compile(r"^cosmos-bench: slow: (\d+) responses over 0\.001 ms, worst "
                               r"[\d.]+ ms, the first sent at \d\d:\d\d:\d\d\.\d{3}Z "
                               r"\(\+[\d.]+ s\)(; meanwhile the pause probe woke [\d.]+ ms late)?"
                               r"(; the host's steal meanwhile \d+ ms)?$")
        for inflight, stalls in (("1", REQUESTS), ("16", None)):
            r, err = bench(self.port, "--workload", "insert", "--connections", "1",
                           "--inflight", inflight, "--slow-ms", "0.001", stderr_too=True)
            self.check(r, "insert", reads=0)
            counts = [int(m.group(1)) for m in map(slow_line.match, err.splitlines()) if m]
            self.assertEqual(sum(counts), REQUESTS, err)
            if stalls is not None:
                self.assertEqual(len(counts), stalls)
            else:
                self.assertLess(len(counts), REQUESTS)
        r, err = bench(self.port, "--workload", "insert", "--slow-ms", "60000", stderr_too=True)
        self.assertNotIn("slow:", err)

    def test_a_pause_of_the_client_is_told_from_one_of_the_server(self):
        # The client stopped for 300 ms: its stall names the pause probe's lateness,
        # which covers it. The server stopped: the probe was not late (or, should the
        # machine hiccup meanwhile, by far less than the stall).
        probe = re.compile(r"worst ([\d.]+) ms, .*?(?:; meanwhile the pause probe woke "
                           r"([\d.]+) ms late)?(?:; the host's steal meanwhile \d+ ms)?$")
        for who in ("client", "server"):
            p = subprocess.Popen(
                [os.environ["COSMOS_BENCH"], "--port", str(self.port), "--ca", self.ca,
                 "--workload", "insert", "--connections", "1", "--inflight", "4",
                 "--keys", "300", "--duration", "5", "--warmup", "0", "--slow-ms", "100"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            # Well into the measured phase: under ASan beside other tests, connecting and
            # preparing once took longer than the 1.2 s this waited, and a pause before
            # the measurement starts makes no stall line.
            time.sleep(2.5)
            stopped = p if who == "client" else self.server_proc()
            stopped.send_signal(signal.SIGSTOP)
            time.sleep(0.3)
            stopped.send_signal(signal.SIGCONT)
            out, err = p.communicate(timeout=120)
            self.assertEqual(p.returncode, 0, err)
            stalls = [m for m in map(probe.search, err.splitlines())
                      if m and "slow:" in m.string]
            worst = max(stalls, key=lambda m: float(m.group(1)), default=None)
            self.assertIsNotNone(worst, err)
            self.assertGreaterEqual(float(worst.group(1)), 250, err)
            late = float(worst.group(2) or 0)
            if who == "client":
                self.assertGreaterEqual(late, 250, err)
            else:
                self.assertLess(late, 100, err)
            self.assertRegex(err, r"pause probe: \d+ wake-ups? 5\.0 ms or more late")

    def test_cpu_per_operation_is_reported(self):
        # The client's always; the server's only when its pid is given, and then the
        # pid's CPU time, which a server that answered REQUESTS requests has used.
        r = bench(self.port, "--workload", "insert")
        self.check(r, "insert", reads=0)
        self.assertGreater(r["client_cpu_us_per_op"], 0)
        self.assertIsNone(r["server_cpu_us_per_op"])
        r = bench(self.port, "--workload", "insert", "--requests", "100000", "--server-pid",
                  str(self.server_proc().pid))
        self.assertGreater(r["server_cpu_us_per_op"], 0)
        self.assertGreater(r["client_cpu_us_per_op"], 0)
        p = bench(self.port, "--server-pid", "0", expect_rc=2)
        self.assertIn("--server-pid", p.stderr)

    def test_null_workload_plaintext_inflight_one(self):
        r = bench(self.plain_port, "--workload", "null", "--tls", "off", "--inflight", "1",
                  "--connections", "1")
        self.check(r, "null")


class AgainstEmulator(CommonChecks, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.emu = Emulator(args=["--admin-port", "0"]).start()
        cls.plain = Emulator(tls=False, args=["--admin-port", "0"]).start()
        cls.port, cls.ca, cls.plain_port = cls.emu.port, cls.emu.ca_path, cls.plain.port

    @classmethod
    def tearDownClass(cls):
        cls.emu.stop()
        cls.plain.stop()

    def server_proc(self):
        return self.emu.proc

    def test_bad_key_is_a_setup_failure(self):
        p = bench(self.port, "--key", "wrong", expect_rc=2)
        self.assertIn("0x0100", p.stderr)


class AgainstNullResponder(CommonChecks, unittest.TestCase):
    ru = False

    @classmethod
    def setUpClass(cls):
        cls.nr = NullResponder()
        cls.nr_plain = NullResponder(tls=False)
        cls.port, cls.ca, cls.plain_port = cls.nr.port, cls.nr.ca_path, cls.nr_plain.port

    @classmethod
    def tearDownClass(cls):
        cls.nr.stop()
        cls.nr_plain.stop()

    def server_proc(self):
        return self.nr.proc


if __name__ == "__main__":
    unittest.main(verbosity=2)
