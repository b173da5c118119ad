"""Writes the seeds of tests/fuzz/corpus/record/ from a real durable emulator:
runs a small workload (every record kind: CREATE, MUTATION with cells, collections,
TTLs and deletions, TRUNCATE, DROP), kills the server so the commit log stays, and
saves it twice, in the two input forms fuzz_record.c reads:
  log_image  0x00 + the commit log bytes as written
  payloads   0x01 + each record's payload as [u16 length][payload]
Run by hand when the record format changes:
  EMULATOR_BIN=build-release/cosmos-cassandra-emulator \
      /usr/bin/python3 tests/fuzz/make_record_corpus.py"""

import glob
import os
import shutil
import struct
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from emulator import Emulator  # noqa: E402

WORKLOAD = [
    "CREATE KEYSPACE fz WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
    "CREATE TABLE fz.t (k int, c text, v bigint, s int static, l list<int>, m map<text, int>,"
    " st set<text>, PRIMARY KEY (k, c))",
    "INSERT INTO fz.t (k, c, v, l, m, st) VALUES (1, 'a', 10, [1, 2], {'x': 1}, {'p', 'q'})",
    "INSERT INTO fz.t (k, c, v) VALUES (1, 'b', 20) USING TTL 3600",
    "UPDATE fz.t SET s = 7 WHERE k = 1",
    "UPDATE fz.t SET l = l + [3], m['y'] = 2 WHERE k = 1 AND c = 'a'",
    "DELETE st FROM fz.t WHERE k = 1 AND c = 'a'",
    "DELETE FROM fz.t WHERE k = 1 AND c = 'b'",
    "DELETE FROM fz.t WHERE k = 1 AND c > 'x'",
    "INSERT INTO fz.t (k, c) VALUES (2, 'z') USING TIMESTAMP 12345",
    "DELETE FROM fz.t WHERE k = 2",
    "CREATE TABLE fz.u (id int PRIMARY KEY, b blob)",
    "INSERT INTO fz.u (id, b) VALUES (1, 0xcafe)",
    "TRUNCATE fz.u",
    "DROP TABLE fz.u",
]


def payloads(log):
    off = 0
    while off + 8 <= len(log):
        n, _crc = struct.unpack_from(">II", log, off)
        yield log[off + 8:off + 8 + n]
        off += 8 + n


def main():
    data = tempfile.mkdtemp(prefix="emu-fuzz-corpus-")
    emu = Emulator(tls=False, args=["--storage", "durable"], data_dir=data)
    try:
        emu.start()
        cluster = emu.cluster()
        session = cluster.connect()
        for stmt in WORKLOAD:
            session.execute(stmt)
        cluster.shutdown()
        emu.kill()
        logs = sorted(glob.glob(os.path.join(data, "**", "commitlog-*.log"), recursive=True))
        log = b"".join(open(p, "rb").read() for p in logs)
        if not log:
            sys.exit("no commit log written under %s" % data)
        out = os.path.join(HERE, "corpus", "record")
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "log_image"), "wb") as f:
            f.write(b"\x00" + log)
        with open(os.path.join(out, "payloads"), "wb") as f:
            f.write(b"\x01" + b"".join(struct.pack(">H", len(p)) + p for p in payloads(log)
                                       if len(p) < 65536))
        print("%d bytes of commit log, %d records" % (len(log), len(list(payloads(log)))))
    finally:
        emu.kill()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
