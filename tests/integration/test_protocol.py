"""Byte-level protocol tests against the real binary over TLS (with CA
verification): version negotiation, handshake and auth states, framing
(split and batched frames, many streams), oversized and malformed frames,
compression, plaintext on the TLS port, RequestCharge and EVENT pushes."""

import socket
import ssl
import struct
import time
import unittest
import warnings

from cqlwire import (OP, RawClient, Reader, bytes_, long_string, query_body, string_list,
                     string_map)
from emulator import ACCOUNT, KEY, Emulator

EMU = None


def setUpModule():
    global EMU
    EMU = Emulator().start()


def tearDownModule():
    EMU.stop()


def ready_client(**kw):
    return RawClient(EMU, **kw).ready(ACCOUNT, KEY)


class VersionNegotiation(unittest.TestCase):
    def check_refused(self, version, stream=5, header_len=9):
        c = RawClient(EMU)
        try:
            if header_len == 8:  # v1/v2: one-byte stream id
                c.send_raw(struct.pack(">BBbBI", version, 0, stream, OP["OPTIONS"], 0))
            else:
                c.send(OP["OPTIONS"], b"", stream=stream, version=version)
            f = c.recv()
            self.assertEqual(f.version, 0x84)
            self.assertEqual(f.stream, stream)
            code, msg = f.error()
            self.assertEqual(code, 0x000A)
            self.assertEqual(msg, "Invalid or unsupported protocol version (%d); supported "
                                  "versions are (3/v3, 4/v4)" % version)
        finally:
            c.close()

    def test_dse_v2_probe_is_refused_with_a_v4_header_and_the_stream_id(self):
        self.check_refused(0x42, stream=7)

    def test_dse_v1_probe_is_refused(self):
        self.check_refused(0x41)

    def test_v5_is_refused(self):
        self.check_refused(5, stream=300)

    def test_v1_and_v2_are_refused(self):
        self.check_refused(1, header_len=8)
        self.check_refused(2, header_len=8)

    def test_v3_is_served_with_v3_headers(self):
        c = RawClient(EMU, version=3)
        try:
            f = c.startup()
            self.assertEqual(f.version, 0x83)
            self.assertEqual(f.opcode, OP["AUTHENTICATE"])
            f = c.auth(ACCOUNT, KEY)
            self.assertEqual(f.opcode, OP["AUTH_SUCCESS"])
        finally:
            c.close()

    def test_changing_version_mid_connection_is_a_protocol_error(self):
        c = RawClient(EMU)
        try:
            c.request(OP["OPTIONS"])
            c.send(OP["OPTIONS"], version=3, stream=2)
            f = c.recv()
            self.assertEqual(f.error()[0], 0x000A)
            self.assertTrue(c.is_closed())
        finally:
            c.close()


class Handshake(unittest.TestCase):
    def setUp(self):
        self.c = RawClient(EMU)

    def tearDown(self):
        self.c.close()

    def test_options_lists_cql_version_compression_and_protocol_versions(self):
        f = self.c.request(OP["OPTIONS"], stream=3)
        self.assertEqual(f.opcode, OP["SUPPORTED"])
        self.assertEqual(f.stream, 3)
        opts = Reader(f.body).string_multimap()
        self.assertEqual(opts["CQL_VERSION"], ["3.4.4"])
        self.assertEqual(opts["COMPRESSION"], ["lz4"])
        self.assertEqual(opts["PROTOCOL_VERSIONS"], ["3/v3", "4/v4"])

    def test_startup_with_driver_keys_asks_for_the_password_authenticator(self):
        f = self.c.startup({"CQL_VERSION": "3.0.0", "DRIVER_NAME": "x", "DRIVER_VERSION": "1",
                            "CLIENT_ID": "abc", "APPLICATION_NAME": "t", "NO_COMPACT": "true"})
        self.assertEqual(f.opcode, OP["AUTHENTICATE"])
        self.assertEqual(Reader(f.body).string(),
                         "org.apache.cassandra.auth.PasswordAuthenticator")

    def test_wrong_key_gets_bad_credentials_and_the_connection_can_retry(self):
        self.c.startup()
        f = self.c.auth(ACCOUNT, "not-the-key", stream=9)
        self.assertEqual(f.stream, 9)
        self.assertEqual(f.error(), (0x0100, "Provided username localhost and/or password are "
                                             "incorrect"))
        f = self.c.query("SELECT * FROM system.local")
        self.assertEqual(f.error()[0], 0x000A)  # still not authenticated
        f = self.c.auth(ACCOUNT, KEY)
        self.assertEqual(f.opcode, OP["AUTH_SUCCESS"])
        self.assertEqual(struct.unpack(">i", f.body[:4])[0], -1)  # a null token

    def test_wrong_account_name_is_refused(self):
        self.c.startup()
        code, msg = self.c.auth("someone", KEY).error()
        self.assertEqual(code, 0x0100)
        self.assertIn("someone", msg)

    def test_requests_before_startup_are_protocol_errors(self):
        for op, body in (("QUERY", query_body("SELECT * FROM system.local")),
                         ("PREPARE", b"\0\0\0\1x"), ("REGISTER", string_list(["SCHEMA_CHANGE"])),
                         ("AUTH_RESPONSE", bytes_(b"\0a\0b"))):
            f = self.c.request(OP[op], body, stream=4)
            self.assertEqual(f.stream, 4)
            code, msg = f.error()
            self.assertEqual(code, 0x000A, op)
            self.assertIn("Unexpected message " + op, msg)

    def test_queries_before_authentication_are_refused(self):
        self.c.startup()
        code, msg = self.c.query("SELECT * FROM system.local").error()
        self.assertEqual(code, 0x000A)
        self.assertIn("not authenticated", msg)

    def test_second_startup_is_a_protocol_error(self):
        self.c.ready(ACCOUNT, KEY)
        code, _ = self.c.startup().error()
        self.assertEqual(code, 0x000A)

    def test_unknown_compression_is_refused(self):
        code, msg = self.c.startup({"CQL_VERSION": "3.4.4", "COMPRESSION": "snappy"}).error()
        self.assertEqual(code, 0x000A)
        self.assertEqual(msg, "Unknown compression algorithm: snappy")

    def test_missing_cql_version_is_refused(self):
        code, msg = self.c.startup({"DRIVER_NAME": "x"}).error()
        self.assertEqual(code, 0x000A)
        self.assertIn("CQL_VERSION", msg)

    def test_register_answers_ready_and_rejects_unknown_events(self):
        self.c.ready(ACCOUNT, KEY)
        f = self.c.request(OP["REGISTER"], string_list(["TOPOLOGY_CHANGE", "STATUS_CHANGE",
                                                        "SCHEMA_CHANGE"]))
        self.assertEqual(f.opcode, OP["READY"])
        code, msg = self.c.request(OP["REGISTER"], string_list(["NOPE"])).error()
        self.assertEqual(code, 0x000A)
        self.assertIn("NOPE", msg)


class Framing(unittest.TestCase):
    def test_a_frame_sent_one_byte_at_a_time_is_reassembled(self):
        c = RawClient(EMU)
        try:
            data = c.frame_bytes(OP["OPTIONS"], stream=11)
            for i in range(len(data)):
                c.send_raw(data[i:i + 1])
                time.sleep(0.002)
            f = c.recv()
            self.assertEqual((f.opcode, f.stream), (OP["SUPPORTED"], 11))
        finally:
            c.close()

    def test_many_frames_in_one_write_are_all_answered_in_order(self):
        c = RawClient(EMU)
        try:
            streams = list(range(1, 200)) + [32767, -5 & 0x7fff]
            c.send_raw(b"".join(c.frame_bytes(OP["OPTIONS"], stream=s) for s in streams))
            got = [c.recv() for _ in streams]
            self.assertEqual([f.stream for f in got], streams)
            self.assertTrue(all(f.opcode == OP["SUPPORTED"] for f in got))
        finally:
            c.close()

    def test_frame_over_the_maximum_is_a_protocol_error_then_close(self):
        c = RawClient(EMU)
        try:
            c.send_raw(struct.pack(">BBhBI", 4, 0, 12, OP["QUERY"], 300 * 1024 * 1024))
            f = c.recv()
            self.assertEqual(f.stream, 12)
            self.assertEqual(f.error()[0], 0x000A)
            self.assertTrue(c.is_closed())
        finally:
            c.close()

    def test_malformed_bodies_get_protocol_errors_and_the_connection_lives_on(self):
        c = RawClient(EMU)
        try:
            bad = [(OP["STARTUP"], b"\x00\x05\x00\x01a"),         # truncated map
                   (OP["STARTUP"], string_map({"A": "b"}) + b"x"),  # trailing garbage
                   (OP["RESULT"], b""),                            # not a request
                   (0x7f, b"")]                                    # no such opcode
            for i, (op, body) in enumerate(bad):
                f = c.request(op, body, stream=20 + i)
                self.assertEqual(f.stream, 20 + i)
                self.assertEqual(f.error()[0], 0x000A, (op, body))
            self.assertEqual(c.request(OP["OPTIONS"]).opcode, OP["SUPPORTED"])
            c.ready(ACCOUNT, KEY)
            f = c.request(OP["QUERY"], b"\x00\x00\x00\x10abc", stream=30)  # short long-string
            self.assertEqual(f.error()[0], 0x000A)
            self.assertEqual(f.stream, 30)
        finally:
            c.close()

    def test_a_compressed_frame_without_negotiation_is_refused(self):
        c = RawClient(EMU)
        try:
            c.send(OP["OPTIONS"], b"\0\0\0\0", flags=0x01)
            self.assertEqual(c.recv().error()[0], 0x000A)
        finally:
            c.close()

    def test_a_response_frame_from_a_client_is_refused(self):
        c = RawClient(EMU)
        try:
            c.send(OP["OPTIONS"], version=0x84, stream=3)
            f = c.recv()
            self.assertEqual(f.error()[0], 0x000A)
            self.assertTrue(c.is_closed())
        finally:
            c.close()


class PlaintextOnTheTlsPort(unittest.TestCase):
    def test_plaintext_client_is_refused_with_a_log_line_and_the_server_carries_on(self):
        c = RawClient(EMU, tls=False)
        try:
            c.send(OP["OPTIONS"], stream=1)
            try:
                f = c.recv()
                code, msg = f.error()
                self.assertEqual(code, 0x000A)
                self.assertIn("TLS", msg)
            except ConnectionError:
                pass  # the error frame is best effort; the close is not
            self.assertTrue(c.is_closed())
        finally:
            c.close()
        EMU.wait_for_log(r"refused plaintext connection from 127\.0\.0\.1:\d+ on the TLS port: "
                         r"use TLS or --no-tls")
        ok = RawClient(EMU)
        try:
            self.assertEqual(ok.request(OP["OPTIONS"]).opcode, OP["SUPPORTED"])
        finally:
            ok.close()

    def test_silent_plaintext_garbage_is_closed(self):
        s = socket.create_connection((EMU.host, EMU.port), timeout=5)
        try:
            s.sendall(b"GET / HTTP/1.1\r\n\r\n")
            self.assertEqual(s.recv(100), b"")
        finally:
            s.close()

    def test_tls_with_wrong_hostname_fails_verification(self):
        with self.assertRaises(ssl.SSLCertVerificationError):
            RawClient(EMU, server_hostname="not-this-host.example")

    def test_tls_1_1_is_refused(self):
        ctx = EMU.ssl_context()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            ctx.minimum_version = ssl.TLSVersion.TLSv1
            ctx.maximum_version = ssl.TLSVersion.TLSv1_1
        with self.assertRaises(ssl.SSLError):
            RawClient(EMU, ssl_context=ctx)

    def test_tls_1_2_and_1_3_are_served(self):
        for v in (ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3):
            ctx = EMU.ssl_context()
            ctx.minimum_version = ctx.maximum_version = v
            c = RawClient(EMU, ssl_context=ctx)
            try:
                self.assertEqual(c.request(OP["OPTIONS"]).opcode, OP["SUPPORTED"])
            finally:
                c.close()


class Compression(unittest.TestCase):
    def test_lz4_is_used_both_ways_after_startup(self):
        c = RawClient(EMU)
        try:
            c.ready(ACCOUNT, KEY, {"CQL_VERSION": "3.4.4", "COMPRESSION": "lz4"})
            f = c.query("SELECT key, release_version FROM system.local WHERE key = 'local'")
            self.assertEqual(f.opcode, OP["RESULT"])
            self.assertTrue(f.flags & 0x01, "the response should be compressed")
            self.assertIn("RequestCharge", f.custom_payload)
        finally:
            c.close()


class Statements(unittest.TestCase):
    def test_every_statement_response_carries_request_charge(self):
        c = ready_client()
        try:
            ok = c.query("SELECT release_version FROM system.local WHERE key = 'local'",
                         stream=40)
            self.assertEqual(ok.opcode, OP["RESULT"])
            self.assertEqual(ok.stream, 40)
            self.assertTrue(ok.flags & 0x04)
            self.assertEqual(len(ok.custom_payload["RequestCharge"]), 8)
            self.assertGreater(ok.request_charge(), 0.0)
            bad = c.query("SELECT * FROM no_such_keyspace.no_such_table", stream=41)
            self.assertEqual(bad.opcode, OP["ERROR"])
            self.assertTrue(bad.flags & 0x04)
            self.assertEqual(len(bad.custom_payload["RequestCharge"]), 8)
            syntax = c.query("SELEKT nonsense", stream=42)
            self.assertEqual(syntax.error()[0], 0x2000)
            self.assertIn("RequestCharge", syntax.custom_payload)
        finally:
            c.close()

    def test_v3_responses_carry_no_payload(self):
        c = RawClient(EMU, version=3).ready(ACCOUNT, KEY)
        try:
            f = c.query("SELECT release_version FROM system.local WHERE key = 'local'")
            self.assertEqual(f.version, 0x83)
            self.assertEqual(f.opcode, OP["RESULT"])
            self.assertFalse(f.flags & 0x04)
        finally:
            c.close()

    def test_many_streams_in_flight_are_answered_with_their_ids(self):
        c = ready_client()
        try:
            streams = list(range(100, 164))
            c.send_raw(b"".join(c.frame_bytes(
                OP["QUERY"], query_body("SELECT key FROM system.local WHERE key = 'local'"),
                stream=s) for s in streams))
            got = [c.recv() for _ in streams]
            self.assertEqual(sorted(f.stream for f in got), streams)
            self.assertTrue(all(f.opcode == OP["RESULT"] for f in got))
        finally:
            c.close()

    def test_pipelined_executes_are_answered_in_order_around_broken_ones(self):
        # One write of many EXECUTEs, large enough to cross TLS records, with a
        # truncated one, an unknown id and an OPTIONS among them: the server
        # looks ahead over waiting frames (to prefetch their partitions), 32 at
        # a time and again once those ran, and that must change no answer.
        c = ready_client()
        try:
            for q in ("CREATE KEYSPACE IF NOT EXISTS pipe WITH replication = "
                      "{'class': 'SimpleStrategy', 'replication_factor': 1}",
                      "CREATE TABLE IF NOT EXISTS pipe.kv (k int, s text, v blob, "
                      "PRIMARY KEY ((k, s)))"):
                self.assertEqual(c.query(q).opcode, OP["RESULT"])
            f = c.request(OP["PREPARE"], long_string(
                "INSERT INTO pipe.kv (k, s, v) VALUES (?, ?, ?)"))
            r = Reader(f.body)
            self.assertEqual(r.int(), 4)
            pid = r.take(r.short())

            def execute(prepared_id, k):
                values = (bytes_(struct.pack(">i", k)) + bytes_(b"s%d" % k) +
                          bytes_(bytes([k]) * 3000))
                return (struct.pack(">H", len(prepared_id)) + prepared_id +
                        struct.pack(">HBH", 0x0001, 0x01, 3) + values)

            frames, want = [], []
            for k in range(120):
                if k == 40:
                    frames.append(c.frame_bytes(OP["EXECUTE"], execute(pid, k)[:-100], 1000 + k))
                    want.append((OP["ERROR"], 0x000A))
                elif k == 41:
                    frames.append(c.frame_bytes(OP["EXECUTE"], execute(b"\x07" * 16, k), 1000 + k))
                    want.append((OP["ERROR"], 0x2500))
                elif k == 42:
                    frames.append(c.frame_bytes(OP["OPTIONS"], b"", 1000 + k))
                    want.append((OP["SUPPORTED"], None))
                else:
                    frames.append(c.frame_bytes(OP["EXECUTE"], execute(pid, k), 1000 + k))
                    want.append((OP["RESULT"], None))
            c.send_raw(b"".join(frames))
            got = [c.recv() for _ in frames]
            self.assertEqual([f.stream for f in got], [1000 + k for k in range(120)])
            self.assertEqual([(f.opcode, f.error()[0] if f.opcode == OP["ERROR"] else None)
                              for f in got], want)
            # Reads too, every frame of one length: each answer is its own key's row (the
            # lookahead's decode of a frame serves that frame, and no other).
            f = c.request(OP["PREPARE"], long_string(
                "SELECT v FROM pipe.kv WHERE k = ? AND s = ?"))
            r = Reader(f.body)
            self.assertEqual(r.int(), 4)
            sid = r.take(r.short())
            keys = [k for k in range(10, 100) if k not in (40, 41, 42)]

            def select(k):
                return (struct.pack(">H", len(sid)) + sid + struct.pack(">HBH", 0x0001, 0x03, 2) +
                        bytes_(struct.pack(">i", k)) + bytes_(b"s%d" % k))

            frames = [c.frame_bytes(OP["EXECUTE"], select(k), 2000 + k) for k in keys]
            frames.insert(5, c.frame_bytes(OP["EXECUTE"], select(10)[:-3], 1999))  # truncated
            frames.insert(9, c.frame_bytes(OP["OPTIONS"], b"", 1998))
            c.send_raw(b"".join(frames))
            for k in keys[:5] + [-1] + keys[5:8] + [-2] + keys[8:]:
                f = c.recv()
                if k < 0:
                    self.assertEqual((f.opcode, f.stream), ((OP["ERROR"], 1999) if k == -1 else
                                                            (OP["SUPPORTED"], 1998)))
                    continue
                self.assertEqual((f.opcode, f.stream), (OP["RESULT"], 2000 + k))
                r = Reader(f.body)
                self.assertEqual((r.int(), r.int(), r.int(), r.int()), (2, 0x0004, 1, 1))
                self.assertEqual(r.bytes(), bytes([k]) * 3000)
        finally:
            c.close()
        cluster = EMU.cluster()
        try:
            session = cluster.connect()
            rows = {(r.k, r.s): r.v for r in session.execute("SELECT k, s, v FROM pipe.kv")}
            self.assertEqual(set(rows), {(k, "s%d" % k) for k in range(120) if k not in (40, 41, 42)})
            self.assertTrue(all(v == bytes([k]) * 3000 for (k, _), v in rows.items()))
        finally:
            cluster.shutdown()

    def test_text_with_a_utf8_surrogate_is_refused_bound_or_literal(self):
        c = ready_client()
        try:
            for ddl in ("CREATE KEYSPACE IF NOT EXISTS utf8_ks WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}",
                        "CREATE TABLE IF NOT EXISTS utf8_ks.texts (k int PRIMARY KEY, t text)"):
                f = c.query(ddl)
                self.assertEqual(f.opcode, OP["RESULT"], f.body)
            insert = "INSERT INTO utf8_ks.texts (k, t) VALUES (?, ?)"
            for k, raw in enumerate([b"\xed\xa0\x80", b"a\xed\xbf\xbfz", b"\xf4\x90\x80\x80",
                                     b"\xe0\x80\xaf"]):
                values = struct.pack(">H", 2) + bytes_(struct.pack(">i", k)) + bytes_(raw)
                f = c.request(OP["QUERY"], query_body(insert, flags=0x01, extra=values))
                self.assertEqual(f.error()[0], 0x2200, raw)
                self.assertIn("didn't validate", f.error()[1])
                literal = b"INSERT INTO utf8_ks.texts (k, t) VALUES (9, '" + raw + b"')"
                f = c.request(OP["QUERY"], struct.pack(">i", len(literal)) + literal +
                              struct.pack(">HB", 1, 0))
                self.assertEqual(f.opcode, OP["ERROR"], raw)
            good = struct.pack(">H", 2) + bytes_(struct.pack(">i", 1)) + bytes_(
                "\ud7ff\ue000\U0010ffff".encode())
            f = c.request(OP["QUERY"], query_body(insert, flags=0x01, extra=good))
            self.assertEqual(f.opcode, OP["RESULT"], f.body)
            f = c.query("SELECT count(*) FROM utf8_ks.texts")
            self.assertEqual(f.body[-8:], struct.pack(">q", 1))
        finally:
            c.close()

    def test_schema_changes_are_pushed_to_registered_connections(self):
        listener = ready_client()
        worker = ready_client()
        try:
            f = listener.request(OP["REGISTER"], string_list(["SCHEMA_CHANGE"]))
            self.assertEqual(f.opcode, OP["READY"])
            f = worker.query("CREATE KEYSPACE IF NOT EXISTS evt_ks WITH replication = "
                             "{'class': 'SimpleStrategy', 'replication_factor': 1}")
            self.assertEqual(f.opcode, OP["RESULT"], f.body)
            ev = listener.recv()
            self.assertEqual(ev.opcode, OP["EVENT"])
            self.assertEqual(ev.stream, -1)
            r = Reader(ev.body)
            self.assertEqual(r.string(), "SCHEMA_CHANGE")
            self.assertEqual(r.string(), "CREATED")
            self.assertEqual(r.string(), "KEYSPACE")
            self.assertEqual(r.string(), "evt_ks")
        finally:
            listener.close()
            worker.close()


if __name__ == "__main__":
    unittest.main(verbosity=2)
