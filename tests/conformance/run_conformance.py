#!/usr/bin/python3
"""Runs the conformance suite (Apache Cassandra's CQL validation tests, ported
as data under cases/) against the built emulator, in one or both profiles.

    run_conformance.py [--profile cassandra|cosmos|both] [--emulator BIN]
                       [--filter SUBSTR] [--results DIR] [--write-md CONFORMANCE.md]
                       [--check BASELINE] [--update-baseline BASELINE] [-v]

Per profile it starts one emulator (tests/integration/emulator.py, --profile P),
connects one python-driver session (TLS verified, PasswordAuthenticator,
protocol v4, no schema metadata, no schema-agreement wait, no retries) and runs
every case in a keyspace of its own. A lost connection or a statement without
an answer within --timeout seconds fails the case ("server crashed" /
"timeout"); the emulator is then restarted and the run goes on.

Results go to DIR/<profile>.json; --write-md renders CONFORMANCE.md from the
profiles run now (and, for a profile not run now, from DIR/<profile>.json when
present). --check exits 1 when a case the baseline lists as passing does not
pass; --update-baseline writes the passing ids.
"""

import argparse
import glob
import importlib.util
import json
import logging
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "tests", "integration"))

import conformance  # noqa: E402

PROFILES = ("cassandra", "cosmos")

# Cassandra's validation classes (3.11/4.0) the suite does not port, and why.
LEFT_OUT = [
    ("validation/entities/UFTest, UFAuthTest, UFIdentificationTest, UFJavaTest, UFScriptTest, "
     "UFPureScriptTest*, UFSecurityTest, UFSecurityManagerTest, UFSandboxTest, UFTypesTest, "
     "UFVerifierTest, UFInsecure*Test", "user-defined functions and aggregates: neither "
     "Cosmos DB's Cassandra API nor the emulator offers UDF/UDA"),
    ("validation/entities/VirtualTableTest", "tests virtual tables the test registers through "
     "Cassandra's Java API (no CQL to create them); the system tables drivers read are covered "
     "by the schema cases"),
    ("validation/entities/RowBuilderTest, RowUpdateBuilderTest", "internal Java builders, no CQL"),
    ("validation/entities/CQLVectorTest, VectorsTest", "the vector type is Cassandra 5.0, not "
     "3.11/4.0"),
    ("validation/entities/SecondaryIndexTest (SASI and custom index methods)", "SASI and custom "
     "index classes: not offered by Cosmos DB (refused) and not by the emulator; the built-in "
     "index methods are ported"),
    ("validation/miscellaneous/CrcCheckChanceTest", "compression/crc_check_chance of SSTables: "
     "internal storage, nothing a client sees but the table option, which the schema cases cover"),
    ("validation/miscellaneous/SSTablesIteratedTest, SSTableMetadataTrackingTest",
     "count SSTables read and SSTable metadata: internal storage engine"),
    ("validation/miscellaneous/RoleSyntaxTest", "roles and authorization: neither profile offers "
     "roles (Cosmos DB uses account keys)"),
    ("validation/operations/DropRecreateAndRestoreTest", "restores SSTables from a snapshot: "
     "internal"),
    ("validation/operations/SelectOrderedPartitionerTest", "needs the ByteOrderedPartitioner; "
     "both profiles use Murmur3"),
    ("validation/operations/CompactTableTest, ThriftCompatibilityTest, compact storage parts",
     "COMPACT STORAGE / Thrift: removed in 4.0 and not offered by Cosmos DB"),
    ("materialized views (ViewTest, ViewFilteringTest, ... outside validation/)", "not offered "
     "by either profile"),
    ("triggers (CREATE TRIGGER)", "not offered by either profile"),
]


def load_cases(filter_=None):
    cases = []
    seen = {}
    for path in sorted(glob.glob(os.path.join(HERE, "cases", "*", "*.py"))):
        if os.path.basename(path).startswith("_"):
            continue
        name = "conformance_cases_%s_%s" % (os.path.basename(os.path.dirname(path)),
                                            os.path.splitext(os.path.basename(path))[0])
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        for c in getattr(mod, "CASES", []):
            c.source = os.path.relpath(path, HERE)
            for rid, _ in c.runs():
                if rid in seen:
                    raise SystemExit("duplicate case id %s (%s and %s)" % (rid, seen[rid],
                                                                            c.source))
                seen[rid] = c.source
            cases.append(c)
    runs = []
    for c in cases:
        for rid, variant in c.runs():
            if filter_ and filter_ not in rid:
                continue
            runs.append((rid, variant, c))
    return runs


class Server:
    """One emulator and one driver session for a profile, restartable."""

    def __init__(self, profile, timeout):
        self.profile = profile
        self.timeout = timeout
        self.emu = None
        self.cluster = None
        self.crash_logs = []

    def connect(self, restart=False):
        from emulator import REGION, Emulator
        if restart:
            self._tear(kill=True)
        self.emu = Emulator(args=["--profile", self.profile]).start()
        from cassandra import ConsistencyLevel
        from cassandra.cluster import EXEC_PROFILE_DEFAULT, ExecutionProfile
        from cassandra.policies import DCAwareRoundRobinPolicy, FallthroughRetryPolicy
        from cassandra.query import tuple_factory
        prof = ExecutionProfile(load_balancing_policy=DCAwareRoundRobinPolicy(local_dc=REGION),
                                retry_policy=FallthroughRetryPolicy(),
                                consistency_level=ConsistencyLevel.LOCAL_ONE,
                                request_timeout=self.timeout, row_factory=tuple_factory)
        self.cluster = self.emu.cluster(protocol_version=4, schema_metadata_enabled=False,
                                        token_metadata_enabled=False, max_schema_agreement_wait=0,
                                        execution_profiles={EXEC_PROFILE_DEFAULT: prof})
        return self.cluster.connect()

    def _tear(self, kill):
        if self.cluster is not None:
            try:
                self.cluster.shutdown()
            except Exception:  # noqa: BLE001
                pass
            self.cluster = None
        if self.emu is not None:
            alive = self.emu.proc is not None and self.emu.proc.poll() is None
            if not alive:
                self.crash_logs.append(self.emu.log()[-4000:])
            if kill or not alive:
                self.emu.kill()
                self.emu = None
                return None
            try:
                self.emu.stop()
            except AssertionError as e:
                return str(e)[:4000]
            finally:
                self.emu = None
        return None

    def close(self):
        return self._tear(kill=False)


def run_profile(profile, runs, args):
    server = Server(profile, args.timeout)
    runner = conformance.Runner(profile, server.connect, timeout=args.timeout,
                                verbose=args.verbose, log=print)
    results = {}
    t0 = time.monotonic()
    for rid, variant, c in runs:
        t = time.monotonic()
        r = runner.run_case(c, variant)
        r.update({"origin": c.origin, "class": c.origin_class(), "source": c.source,
                  "variant": variant, "seconds": round(time.monotonic() - t, 3)})
        results[rid] = r
        if args.verbose:
            print("%s %s: %s%s" % (profile, rid, r["status"],
                                   "" if r["status"] == "pass" else " - " + _short(r)))
    exit_problem = server.close()
    passed = sum(1 for r in results.values() if r["status"] == "pass")
    doc = {"profile": profile, "passed": passed, "failed": len(results) - passed,
           "seconds": round(time.monotonic() - t0, 1), "cases": results}
    if exit_problem:
        doc["emulator_exit"] = exit_problem
    if server.crash_logs:
        doc["crash_logs"] = server.crash_logs
    return doc


def _short(r):
    s = r.get("reason", "")
    if "step" in r:
        s = "step %d `%s`: %s" % (r["step"], r.get("statement", ""), s)
    return s if len(s) < 600 else s[:600] + "..."


def write_md(path, docs, runs_all):
    """CONFORMANCE.md: per origin class, cases ported / passing per profile,
    then every case that does not pass, then the classes left out."""
    by_class = {}
    for rid, _, c in runs_all:
        by_class.setdefault(c.origin_class(), []).append(rid)
    profiles = [p for p in PROFILES if p in docs]
    lines = ["# CQL conformance", "",
             "Apache Cassandra's CQL validation tests (`test/unit/org/apache/cassandra/cql3/`, "
             "3.11 and 4.0), ported as data under `tests/conformance/cases/` and run against the "
             "emulator by `tests/conformance/run_conformance.py` with the DataStax Python driver "
             "over TLS. A case passes when every step gives what Apache Cassandra gives (or, "
             "under `--profile cosmos`, what Cosmos DB documents, where a step says so). "
             "Generated by `run_conformance.py --write-md`; do not edit by hand.", ""]
    total = len(runs_all)
    head = "| profile | cases | passing | % |"
    lines += [head, "|---|---:|---:|---:|"]
    for p in profiles:
        cs = docs[p]["cases"]
        n = sum(1 for rid, _, _ in runs_all if cs.get(rid, {}).get("status") == "pass")
        lines.append("| %s | %d | %d | %.1f |" % (p, total, n, 100.0 * n / total if total else 0))
    lines += ["", "## Per origin class", "",
              "| class | cases | " + " | ".join("%s passing" % p for p in profiles) + " |",
              "|---|---:|" + "---:|" * len(profiles)]
    for cls in sorted(by_class):
        ids = by_class[cls]
        cells = []
        for p in profiles:
            cs = docs[p]["cases"]
            cells.append(str(sum(1 for i in ids if cs.get(i, {}).get("status") == "pass")))
        lines.append("| %s | %d | %s |" % (cls, len(ids), " | ".join(cells)))
    for p in profiles:
        cs = docs[p]["cases"]
        bad = [(rid, c) for rid, _, c in runs_all if cs.get(rid, {}).get("status") != "pass"]
        lines += ["", "## Not passing under --profile %s (%d)" % (p, len(bad)), ""]
        for rid, c in bad:
            r = cs.get(rid)
            why = "not run" if r is None else _short(r)
            lines.append("- `%s` (%s): %s" % (rid, c.origin, why.replace("\n", " ")))
    lines += ["", "## Validation classes left out", ""]
    for what, why in LEFT_OUT:
        lines.append("- %s: %s." % (what, why))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--profile", choices=PROFILES + ("both",), default="both")
    ap.add_argument("--emulator", help="the emulator binary (default $EMULATOR_BIN, then "
                    "build/cosmos-cassandra-emulator)")
    ap.add_argument("--filter", help="run only the cases whose id contains this")
    ap.add_argument("--results", default=os.path.join(REPO, "build", "conformance-results"))
    ap.add_argument("--write-md", metavar="CONFORMANCE.md")
    ap.add_argument("--check", metavar="BASELINE")
    ap.add_argument("--baseline-optional", action="store_true",
                    help="with --check: a missing BASELINE file means nothing to check")
    ap.add_argument("--update-baseline", metavar="BASELINE")
    ap.add_argument("--timeout", type=float, default=10.0, help="driver timeout per statement")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    binary = args.emulator or os.environ.get("EMULATOR_BIN") or os.path.join(
        REPO, "build", "cosmos-cassandra-emulator")
    os.environ["EMULATOR_BIN"] = os.path.abspath(binary)
    logging.getLogger("cassandra").setLevel(logging.CRITICAL)

    runs = load_cases(args.filter)
    profiles = PROFILES if args.profile == "both" else (args.profile,)
    os.makedirs(args.results, exist_ok=True)
    docs = {}
    for p in profiles:
        doc = run_profile(p, runs, args)
        docs[p] = doc
        if not args.filter:
            with open(os.path.join(args.results, "%s.json" % p), "w") as f:
                json.dump(doc, f, indent=1, sort_keys=True)
        if not args.verbose:
            for rid, r in doc["cases"].items():
                if r["status"] != "pass" and args.filter:
                    print("%s %s: FAIL %s" % (p, rid, _short(r)))
        if doc.get("emulator_exit"):
            print("conformance %s: emulator exit problem: %s" % (p, doc["emulator_exit"][:500]))
        print("conformance %s: %d passed, %d failed" % (p, doc["passed"], doc["failed"]))

    status = 0
    if args.write_md:
        all_docs = dict(docs)
        for p in PROFILES:
            path = os.path.join(args.results, "%s.json" % p)
            if p not in all_docs and os.path.exists(path):
                with open(path) as f:
                    all_docs[p] = json.load(f)
        write_md(args.write_md, all_docs, load_cases(None) if args.filter else runs)
    if args.update_baseline:
        base = {}
        if os.path.exists(args.update_baseline):
            with open(args.update_baseline) as f:
                base = json.load(f)
        for p, doc in docs.items():
            base[p] = sorted(rid for rid, r in doc["cases"].items() if r["status"] == "pass")
        with open(args.update_baseline, "w") as f:
            json.dump(base, f, indent=1, sort_keys=True)
            f.write("\n")
    if args.check and args.baseline_optional and not os.path.exists(args.check):
        print("conformance: no baseline at %s, nothing to check" % args.check)
    elif args.check:
        with open(args.check) as f:
            base = json.load(f)
        regressions = 0
        for p, doc in docs.items():
            for rid in base.get(p, []):
                r = doc["cases"].get(rid)
                if r is None:
                    if args.filter:
                        continue
                    print("REGRESSION %s %s: case no longer exists" % (p, rid))
                    regressions += 1
                elif r["status"] != "pass":
                    print("REGRESSION %s %s: %s" % (p, rid, _short(r)))
                    regressions += 1
        if regressions:
            print("conformance: %d regressions against %s" % (regressions, args.check))
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
