"""A minimal CQL native-protocol client for byte-level integration tests.

Drivers hide the frames; these tests need to see them (version probes,
split frames, oversized headers, flags). Only what the tests use is here.
"""

import socket
import struct

OP = dict(ERROR=0x00, STARTUP=0x01, READY=0x02, AUTHENTICATE=0x03, OPTIONS=0x05, SUPPORTED=0x06,
          QUERY=0x07, RESULT=0x08, PREPARE=0x09, EXECUTE=0x0A, REGISTER=0x0B, EVENT=0x0C,
          BATCH=0x0D, AUTH_CHALLENGE=0x0E, AUTH_RESPONSE=0x0F, AUTH_SUCCESS=0x10)

FLAG_COMPRESSION = 0x01
FLAG_TRACING = 0x02
FLAG_CUSTOM_PAYLOAD = 0x04
FLAG_WARNING = 0x08


def string(s):
    b = s.encode()
    return struct.pack(">H", len(b)) + b


def long_string(s):
    b = s.encode()
    return struct.pack(">i", len(b)) + b


def string_map(d):
    return struct.pack(">H", len(d)) + b"".join(string(k) + string(v) for k, v in d.items())


def string_list(items):
    return struct.pack(">H", len(items)) + b"".join(string(i) for i in items)


def bytes_(b):
    return struct.pack(">i", -1) if b is None else struct.pack(">i", len(b)) + b


def query_body(q, consistency=0x0001, flags=0, extra=b""):
    return long_string(q) + struct.pack(">HB", consistency, flags) + extra


class Reader:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def take(self, n):
        if self.pos + n > len(self.data):
            raise ValueError("truncated")
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def byte(self):
        return self.take(1)[0]

    def short(self):
        return struct.unpack(">H", self.take(2))[0]

    def int(self):
        return struct.unpack(">i", self.take(4))[0]

    def string(self):
        return self.take(self.short()).decode()

    def long_string(self):
        return self.take(self.int()).decode()

    def bytes(self):
        n = self.int()
        return None if n < 0 else self.take(n)

    def string_list(self):
        return [self.string() for _ in range(self.short())]

    def string_multimap(self):
        return {self.string(): self.string_list() for _ in range(self.short())}

    def bytes_map(self):
        return {self.string(): self.bytes() for _ in range(self.short())}

    def rest(self):
        return self.data[self.pos:]


class Frame:
    def __init__(self, version, flags, stream, opcode, body):
        self.version, self.flags, self.stream, self.opcode = version, flags, stream, opcode
        self.warnings = []
        self.custom_payload = {}
        r = Reader(body)
        if flags & FLAG_TRACING:
            r.take(16)
        if flags & FLAG_WARNING:
            self.warnings = r.string_list()
        if flags & FLAG_CUSTOM_PAYLOAD:
            self.custom_payload = r.bytes_map()
        self.body = r.rest()

    def error(self):
        """(code, message) of an ERROR frame."""
        assert self.opcode == OP["ERROR"], "expected ERROR, got opcode 0x%02x" % self.opcode
        r = Reader(self.body)
        return r.int(), r.string()

    def request_charge(self):
        return struct.unpack(">d", self.custom_payload["RequestCharge"])[0]

    def __repr__(self):
        return "Frame(v=0x%02x flags=0x%02x stream=%d op=0x%02x len=%d)" % (
            self.version, self.flags, self.stream, self.opcode, len(self.body))


class RawClient:
    def __init__(self, emu, tls=None, version=4, timeout=10, ssl_context=None,
                 server_hostname="localhost"):
        tls = emu.tls if tls is None else tls
        sock = socket.create_connection((emu.host, emu.port), timeout=timeout)
        if tls:
            ctx = ssl_context or emu.ssl_context()
            sock = ctx.wrap_socket(sock, server_hostname=server_hostname)
        self.sock = sock
        self.version = version
        self.compress = False
        self.buf = b""

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    # -- sending -----------------------------------------------------------

    def frame_bytes(self, opcode, body=b"", stream=0, version=None, flags=0):
        version = self.version if version is None else version
        if self.compress and body:
            import lz4.block
            body = struct.pack(">I", len(body)) + lz4.block.compress(body, store_size=False)
            flags |= FLAG_COMPRESSION
        return struct.pack(">BBhBI", version, flags, stream, opcode, len(body)) + body

    def send(self, opcode, body=b"", stream=0, version=None, flags=0):
        self.sock.sendall(self.frame_bytes(opcode, body, stream, version, flags))

    def send_raw(self, data):
        self.sock.sendall(data)

    # -- receiving ---------------------------------------------------------

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("connection closed by the server")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        version, flags, stream, opcode, length = struct.unpack(">BBhBI", self._read(9))
        body = self._read(length)
        if flags & FLAG_COMPRESSION:
            import lz4.block
            size = struct.unpack(">I", body[:4])[0]
            body = lz4.block.decompress(body[4:], uncompressed_size=size)
        return Frame(version, flags, stream, opcode, body)

    def is_closed(self, timeout=5):
        """True when the server closes the connection (after draining frames)."""
        self.sock.settimeout(timeout)
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except (socket.timeout, TimeoutError):
            return False
        except OSError:
            return True

    # -- conversations -----------------------------------------------------

    def request(self, opcode, body=b"", stream=0):
        self.send(opcode, body, stream)
        return self.recv()

    def startup(self, options=None, stream=0):
        opts = {"CQL_VERSION": "3.4.4"} if options is None else options
        return self.request(OP["STARTUP"], string_map(opts), stream)

    def auth(self, user, password, stream=0):
        token = b"\0" + user.encode() + b"\0" + password.encode()
        return self.request(OP["AUTH_RESPONSE"], bytes_(token), stream)

    def ready(self, user, password, options=None):
        f = self.startup(options)
        assert f.opcode == OP["AUTHENTICATE"], f
        if options and options.get("COMPRESSION") == "lz4":
            self.compress = True
        f = self.auth(user, password)
        assert f.opcode == OP["AUTH_SUCCESS"], (f, f.body)
        return self

    def query(self, q, consistency=0x0001, stream=0):
        return self.request(OP["QUERY"], query_body(q, consistency), stream)
