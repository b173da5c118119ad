#!/usr/bin/env python3
"""bench_driver.py - the emulator measured through a real client: the DataStax
Python driver over TLS with auth, as a test suite uses it. Prints figures
(start-up to ready, connect, prepared inserts and point reads with 64 requests
in flight, server memory); asserts nothing.

    EMULATOR_BIN=build/cosmos-cassandra-emulator /usr/bin/python3 bench/bench_driver.py [N] [ARGS...]

ARGS go to the emulator, e.g. --storage durable to measure the commit log.

The Python driver itself is the bottleneck at these rates (one core per
client process), so the figures are a floor for the server.
"""
import os
import ssl
import sys
import time
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "integration"))
from emulator import ACCOUNT, KEY, Emulator  # noqa: E402

from cassandra.auth import PlainTextAuthProvider  # noqa: E402
from cassandra.cluster import Cluster  # noqa: E402
from cassandra.concurrent import execute_concurrent_with_args  # noqa: E402


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    args = sys.argv[1:]
    n = int(args.pop(0)) if args and args[0].isdigit() else 20000  # N may be left out
    emu = Emulator(args=args)
    t0 = time.perf_counter()
    emu.start()
    print(f"start-up to ready (incl. certificate generation): {time.perf_counter() - t0:.3f} s")
    print(f"server memory at start: {rss_mb(emu.proc.pid):.1f} MB")
    try:
        ctx = ssl.create_default_context(cafile=emu.ca_path)
        t0 = time.perf_counter()
        cluster = Cluster([emu.host], port=emu.port, ssl_context=ctx, protocol_version=4,
                          auth_provider=PlainTextAuthProvider(ACCOUNT, KEY))
        session = cluster.connect()
        print(f"driver connect (TLS, auth, metadata): {time.perf_counter() - t0:.3f} s")
        session.execute("CREATE KEYSPACE b WITH replication = {'class': 'SimpleStrategy', "
                        "'replication_factor': 1}")
        session.execute("CREATE TABLE b.kv (id uuid PRIMARY KEY, v text)")
        ins = session.prepare("INSERT INTO b.kv (id, v) VALUES (?, ?)")
        get = session.prepare("SELECT v FROM b.kv WHERE id = ?")
        ids = [(uuid.uuid4(), "x" * 100) for _ in range(n)]
        pid = emu.proc.pid
        for what, stmt, args in (("insert", ins, ids), ("point read", get, [(i,) for i, _ in ids])):
            t0, c0 = time.perf_counter(), cpu_s(pid)
            execute_concurrent_with_args(session, stmt, args, concurrency=64)
            dt, dc = time.perf_counter() - t0, cpu_s(pid) - c0
            print(f"prepared {what}, 64 in flight: {n} in {dt:.2f} s = {n / dt:.0f} ops/s "
                  f"(server CPU {dc:.2f} s = {1e6 * dc / n:.0f} us/op)")
        print(f"server memory after {n} rows: {rss_mb(emu.proc.pid):.1f} MB")
        cluster.shutdown()
    finally:
        emu.stop()


if __name__ == "__main__":
    main()
