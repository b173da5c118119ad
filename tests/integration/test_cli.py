"""The executable as an operator meets it: --help/--version, bad flags (exit
2), `certs export`, certificates reused across restarts, --cert-host,
--cert/--key with the user's own files, --no-tls, a port already in use,
the account flags, and a clean SIGTERM shutdown."""

import os
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import unittest

from cqlwire import OP, RawClient
from emulator import ACCOUNT, KEY, Emulator, binary


def run(*args, env=None):
    return subprocess.run([binary(), *args], capture_output=True, text=True, timeout=60,
                          env=env)


class CommandLine(unittest.TestCase):
    def test_help_and_version_exit_zero(self):
        r = run("--help")
        self.assertEqual(r.returncode, 0)
        for flag in ("--bind", "--port", "--no-tls", "--data-dir", "--cert", "--key",
                     "--cert-host", "--account", "--region", "--profile", "--max-frame-mb",
                     "--log-level", "COSMOS_EMULATOR_KEY", "certs export",
                     "--unlogged-batch-across-partitions-warn-threshold N",
                     "--compaction-large-partition-warning-threshold-mb N"):
            self.assertIn(flag, r.stdout)  # whole, however long (cassandra.yaml's names)
        r = run("--version")
        self.assertEqual(r.returncode, 0)
        self.assertRegex(r.stdout, r"^cosmos-cassandra-emulator \d+\.\d+\.\d+\n$")

    def test_bad_flags_exit_2_with_a_clear_message(self):
        for args, text in ((["--bogus"], "unknown option '--bogus'"),
                           (["--port", "99999"], "--port: '99999' is not a port number"),
                           (["--profile", "dse"], "not a profile"),
                           (["--cert", "x.pem"], "--tls-key"),
                           (["certs"], "unknown command")):
            with self.subTest(args=args):
                r = run(*args)
                self.assertEqual(r.returncode, 2)
                self.assertIn(text, r.stderr)
                self.assertEqual(r.stdout, "")

    def test_bad_environment_exits_2(self):
        env = dict(os.environ, COSMOS_EMULATOR_PORT="ten")
        r = run("--help", env=env)  # the environment is read before the flags
        self.assertEqual(r.returncode, 2)
        self.assertIn("COSMOS_EMULATOR_PORT", r.stderr)


class Certificates(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="emu-cli-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_export_creates_the_ca_once_and_prints_it(self):
        first = run("certs", "export", "--data-dir", self.dir)
        self.assertEqual(first.returncode, 0, first.stderr)
        self.assertTrue(first.stdout.startswith("-----BEGIN CERTIFICATE-----"))
        with open(os.path.join(self.dir, "certs", "ca.pem")) as f:
            self.assertEqual(f.read(), first.stdout)
        mode = os.stat(os.path.join(self.dir, "certs", "ca-key.pem")).st_mode & 0o777
        self.assertEqual(mode, 0o600)
        second = run("certs", "export", "--data-dir", self.dir)
        self.assertEqual(second.stdout, first.stdout)

    def test_certificates_are_reused_across_restarts(self):
        emu = Emulator(data_dir=self.dir)
        emu.start()
        emu.wait_for_log(r"TLS certificate .*server\.pem \(new\)")
        emu.stop()
        emu = Emulator(data_dir=self.dir)
        emu.start()
        try:
            emu.wait_for_log(r"TLS certificate .*server\.pem \(reused\)")
            c = RawClient(emu)  # verifies against the CA exported from the same dir
            self.assertEqual(c.request(OP["OPTIONS"]).opcode, OP["SUPPORTED"])
            c.close()
        finally:
            emu.stop()

    def test_cert_host_adds_a_name_clients_can_verify(self):
        emu = Emulator(args=["--cert-host", "emulator.test", "--cert-host", "10.20.30.40"])
        emu.start()
        try:
            c = RawClient(emu, server_hostname="emulator.test")
            self.assertEqual(c.request(OP["OPTIONS"]).opcode, OP["SUPPORTED"])
            c.close()
            with self.assertRaises(ssl.SSLCertVerificationError):
                RawClient(emu, server_hostname="other.test")
        finally:
            emu.stop()

    def test_users_own_certificate_with_cert_and_key(self):
        # Make a CA + server certificate in one data dir and serve them as
        # "the user's own" from another: --key means the TLS key with --cert.
        src = os.path.join(self.dir, "src")
        self.assertEqual(run("certs", "export", "--data-dir", src).returncode, 0)
        seed = Emulator(data_dir=src)
        seed.start()
        seed.stop()
        certs = os.path.join(src, "certs")
        emu = Emulator(args=["--cert", os.path.join(certs, "server.pem"),
                             "--key", os.path.join(certs, "server-key.pem")])
        emu.start()
        try:
            emu.wait_for_log(r"user-provided")
            emu.ca_path = os.path.join(certs, "ca.pem")
            c = RawClient(emu)
            self.assertEqual(c.startup().opcode, OP["AUTHENTICATE"])
            self.assertEqual(c.auth(ACCOUNT, KEY).opcode, OP["AUTH_SUCCESS"])  # default key
            c.close()
        finally:
            emu.stop()

    def test_unreadable_user_certificate_fails_to_start(self):
        r = run("--port", "0", "--data-dir", self.dir, "--cert", "/nonexistent.pem",
                "--tls-key", "/nonexistent.key")
        self.assertEqual(r.returncode, 1)
        self.assertIn("cannot load the TLS certificate", r.stderr)


class Serving(unittest.TestCase):
    def test_no_tls_serves_plaintext_with_the_python_driver(self):
        emu = Emulator(tls=False)
        emu.start()
        try:
            emu.wait_for_log(r"listening on 127\.0\.0\.1:\d+ \(plaintext\)")
            cluster = emu.cluster()
            try:
                row = cluster.connect().execute("SELECT key FROM system.local").one()
                self.assertEqual(row.key, "local")
            finally:
                cluster.shutdown()
        finally:
            emu.stop()

    def test_cassandra_profile_warnings_reach_the_driver(self):
        from cassandra.query import BatchStatement, BatchType
        emu = Emulator(tls=False, args=["--profile", "cassandra"])
        emu.start()
        try:
            cluster = emu.cluster()
            try:
                session = cluster.connect()
                session.execute("CREATE KEYSPACE w WITH replication = "
                                "{'class': 'SimpleStrategy', 'replication_factor': 1}")
                session.execute("CREATE TABLE w.t (k int PRIMARY KEY, v text)")
                insert = session.prepare("INSERT INTO w.t (k, v) VALUES (?, ?)")
                batch = BatchStatement(batch_type=BatchType.UNLOGGED)
                for k in range(10):
                    batch.add(insert, [k, "x" * 1024])
                rs = session.execute(batch)
                warnings = rs.response_future.warnings or []
                self.assertTrue(any("exceeding specified threshold" in w for w in warnings),
                                warnings)
                self.assertIn("RequestCharge", rs.response_future.custom_payload)
            finally:
                cluster.shutdown()
        finally:
            emu.stop()

    def test_account_and_key_flags_replace_the_defaults(self):
        emu = Emulator(tls=False, args=["--account", "myaccount", "--key", "s3cret"])
        emu.start()
        try:
            c = RawClient(emu)
            c.startup()
            self.assertEqual(c.auth(ACCOUNT, KEY).error()[0], 0x0100)
            self.assertEqual(c.auth("myaccount", "s3cret").opcode, OP["AUTH_SUCCESS"])
            c.close()
        finally:
            emu.stop()

    def test_environment_sets_the_account(self):
        old = dict(os.environ)
        os.environ.update(COSMOS_EMULATOR_ACCOUNT="envacct", COSMOS_EMULATOR_KEY="envkey")
        try:
            emu = Emulator(tls=False)
            emu.start()
        finally:
            os.environ.clear()
            os.environ.update(old)
        try:
            c = RawClient(emu)
            c.startup()
            self.assertEqual(c.auth("envacct", "envkey").opcode, OP["AUTH_SUCCESS"])
            c.close()
        finally:
            emu.stop()

    def test_port_in_use_is_a_clear_startup_error(self):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        try:
            r = run("--no-tls", "--port", str(port), "--data-dir", tempfile.gettempdir())
            self.assertEqual(r.returncode, 1)
            self.assertIn("cannot listen on 127.0.0.1:%d" % port, r.stderr)
        finally:
            s.close()

    def test_sigterm_with_open_connections_exits_cleanly(self):
        emu = Emulator(tls=False)
        emu.start()
        clients = [RawClient(emu).ready(ACCOUNT, KEY) for _ in range(3)]
        half = RawClient(emu)
        half.send_raw(b"\x04\x00\x00")  # a partial header left in flight
        emu.stop()  # asserts exit code 0 and no sanitizer report
        for c in clients + [half]:
            self.assertTrue(c.is_closed())
            c.close()
        self.assertIn("shutting down (4 connection(s))", emu.log())

    def test_sigint_exits_cleanly_too(self):
        emu = Emulator()
        emu.start()
        c = RawClient(emu).ready(ACCOUNT, KEY)
        emu.stop(signal.SIGINT)
        self.assertTrue(c.is_closed())
        c.close()
        self.assertIn("SIGINT: shutting down", emu.log())


if __name__ == "__main__":
    unittest.main(verbosity=2)
