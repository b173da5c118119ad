"""kill -9 across the whole data model, bounded for CI: where test_crash_loop
hammers two plain tables, this one runs, one statement at a time through the
Python driver, writes whose replay is easy to get wrong: counter increments and
list appends (applied twice or not at all, they show), set and map element
changes, static cells, range and partition deletions, a non-frozen UDT's field
updates, TTLs (some expiring while the server is down), lightweight
transactions, batches over three tables, and schema changes between the writes:
tables dropped and created again under the same name with another column type,
columns dropped and added again, truncations, a keyspace dropped and created
again. The server is killed at a random moment or in a checkpoint's first
milliseconds, or now and then stopped cleanly (a checkpoint at exit); it runs
with --checkpoint-log-mb 1 and some large values, so snapshots are taken and
loaded too.

A model holds the database as acknowledged. Since one statement is in flight
at a time, after a restart the stored schema and rows must equal the model
either before or after that statement, as a whole. CRASH_TYPES_CYCLES sets the
number of restarts (default 12). Prints "crash types: N restarts (...), M
acknowledged statements checked, 0 lost"."""

import copy
import logging
import os
import random
import subprocess
import threading
import time
import unittest

from crash import CheckpointKiller, CrashTestCase

logging.getLogger("cassandra").setLevel(logging.CRITICAL)
KS = "crash_types"
KS2 = "crash_types_k2"  # a keyspace created and dropped during the run, with a table
SEED = int(os.environ.get("CRASH_TYPES_SEED", "0")) or random.randrange(1, 1 << 30)
CYCLES = int(os.environ.get("CRASH_TYPES_CYCLES", "12"))
KEYS = 12        # keys per fixed table: small, so rows are rewritten often
DYN = ("d0", "d1", "d2")  # tables created and dropped during the run
EXTRA = ("w0", "w1", "w2")  # columns added to and dropped from them
BIG = "x" * 20000  # some values: the log passes --checkpoint-log-mb 1 within a cycle

FIXED = {
    "kv": "CREATE TABLE %s.kv (k int PRIMARY KEY, v text)",
    "ctr": "CREATE TABLE %s.ctr (k int PRIMARY KEY, n counter)",
    "coll": "CREATE TABLE %s.coll (k int PRIMARY KEY, l list<int>, s set<text>, "
            "m map<text, int>)",
    "ev": "CREATE TABLE %s.ev (p int, c int, s int static, v text, PRIMARY KEY (p, c))",
    "ut": "CREATE TABLE %s.ut (k int PRIMARY KEY, a addr)",
    "short": "CREATE TABLE %s.short (k int PRIMARY KEY, v int)",
}


def fresh_model():
    """The database as acknowledged: per table, its rows in the form read() gives."""
    return {"kv": {}, "ctr": {}, "coll": {}, "ev": {}, "ut": {}, "short": {}, "dyn": {},
            "k2": None}


class Ops:
    """Each op picks a statement from the model and returns (cql, params, apply,
    lwt): apply(model) makes the model what the statement leaves; lwt, for a
    conditional statement, says whether the model expects it applied."""

    def __init__(self, rng):
        self.rng = rng
        self.n = 0

    def pick(self, m):
        self.n += 1
        r = self.rng.random()
        ops = ((0.18, self.kv), (0.10, self.ctr), (0.15, self.coll), (0.15, self.ev),
               (0.07, self.ut), (0.07, self.lwt), (0.04, self.short), (0.04, self.batch),
               (0.16, self.ddl_or_dyn), (0.04, self.keyspace), (0.01, self.truncate_kv))
        for weight, op in ops:
            if r < weight:
                return op(m)
            r -= weight
        return self.kv(m)

    # -- plain rows ------------------------------------------------------------

    def kv(self, m):
        k = self.rng.randrange(KEYS)
        r = self.rng.random()
        if r < 0.5:
            v = "v%d%s" % (self.n, BIG if self.rng.random() < 0.5 else "")
            ttl = self.rng.random() < 0.3
            cql = "INSERT INTO %s.kv (k, v) VALUES (%%s, %%s)%s" % (KS, " USING TTL 3600" if ttl
                                                                     else "")
            return cql, (k, v), lambda m: m["kv"].__setitem__(k, (v, ttl)), None
        if r < 0.8:
            v = "u%d" % self.n
            return ("UPDATE %s.kv SET v = %%s WHERE k = %%s" % KS, (v, k),
                    lambda m: m["kv"].__setitem__(k, (v, False)), None)
        return ("DELETE FROM %s.kv WHERE k = %%s" % KS, (k,),
                lambda m: m["kv"].pop(k, None), None)

    def ctr(self, m):
        k = self.rng.randrange(KEYS)
        d = self.rng.randrange(-5, 9)
        return ("UPDATE %s.ctr SET n = n + %%s WHERE k = %%s" % KS, (d, k),
                lambda m: m["ctr"].__setitem__(k, m["ctr"].get(k, 0) + d), None)

    def coll(self, m):
        k = self.rng.randrange(KEYS)
        x = self.n
        r = self.rng.random()

        def change(fn):
            def apply(m):
                row = m["coll"].get(k, ((), frozenset(), ()))
                l, s, mp = list(row[0]), set(row[1]), dict(row[2])
                fn(l, s, mp)
                new = (tuple(l), frozenset(s), tuple(sorted(mp.items())))
                if new == ((), frozenset(), ()):
                    m["coll"].pop(k, None)
                else:
                    m["coll"][k] = new
            return apply

        if r < 0.25:
            return ("UPDATE %s.coll SET l = l + [%%s] WHERE k = %%s" % KS, (x, k),
                    change(lambda l, s, mp: l.append(x)), None)
        if r < 0.35:
            return ("UPDATE %s.coll SET l = [%%s] + l WHERE k = %%s" % KS, (x, k),
                    change(lambda l, s, mp: l.insert(0, x)), None)
        if r < 0.55:
            e = "e%d" % self.rng.randrange(6)
            return ("UPDATE %s.coll SET s = s + {%%s} WHERE k = %%s" % KS, (e, k),
                    change(lambda l, s, mp: s.add(e)), None)
        if r < 0.65:
            e = "e%d" % self.rng.randrange(6)
            return ("UPDATE %s.coll SET s = s - {%%s} WHERE k = %%s" % KS, (e, k),
                    change(lambda l, s, mp: s.discard(e)), None)
        if r < 0.8:
            e = "m%d" % self.rng.randrange(5)
            return ("UPDATE %s.coll SET m[%%s] = %%s WHERE k = %%s" % KS, (e, x, k),
                    change(lambda l, s, mp: mp.__setitem__(e, x)), None)
        if r < 0.9:
            e = "m%d" % self.rng.randrange(5)
            return ("DELETE m[%%s] FROM %s.coll WHERE k = %%s" % KS, (e, k),
                    change(lambda l, s, mp: mp.pop(e, None)), None)
        return ("DELETE FROM %s.coll WHERE k = %%s" % KS, (k,),
                lambda m: m["coll"].pop(k, None), None)

    def ev(self, m):
        p = self.rng.randrange(4)
        r = self.rng.random()

        def part(m):
            return m["ev"].setdefault(p, {"s": None, "rows": {}})

        def tidy(m):
            pt = m["ev"].get(p)
            if pt is not None and pt["s"] is None and not pt["rows"]:
                del m["ev"][p]

        if r < 0.45:
            c, v = self.rng.randrange(20), "r%d" % self.n

            def apply(m):
                part(m)["rows"][c] = v
            return ("INSERT INTO %s.ev (p, c, v) VALUES (%%s, %%s, %%s)" % KS, (p, c, v),
                    apply, None)
        if r < 0.6:
            x = self.n

            def apply(m):
                part(m)["s"] = x
            return "UPDATE %s.ev SET s = %%s WHERE p = %%s" % KS, (x, p), apply, None
        if r < 0.75:
            lo = self.rng.randrange(20)
            hi = lo + self.rng.randrange(1, 8)

            def apply(m):
                pt = m["ev"].get(p)
                if pt is not None:
                    pt["rows"] = {c: v for c, v in pt["rows"].items() if not lo <= c < hi}
                    tidy(m)
            return ("DELETE FROM %s.ev WHERE p = %%s AND c >= %%s AND c < %%s" % KS,
                    (p, lo, hi), apply, None)
        if r < 0.9:
            c = self.rng.randrange(20)

            def apply(m):
                pt = m["ev"].get(p)
                if pt is not None:
                    pt["rows"].pop(c, None)
                    tidy(m)
            return "DELETE FROM %s.ev WHERE p = %%s AND c = %%s" % KS, (p, c), apply, None
        return ("DELETE FROM %s.ev WHERE p = %%s" % KS, (p,),
                lambda m: m["ev"].pop(p, None), None)

    def ut(self, m):
        k = self.rng.randrange(KEYS)
        if self.rng.random() < 0.5:
            street, z = "st%d" % self.n, self.n
            return ("INSERT INTO %s.ut (k, a) VALUES (%%s, {street: %%s, zip: %%s})" % KS,
                    (k, street, z), lambda m: m["ut"].__setitem__(k, (street, z)), None)
        z = self.n

        def apply(m):
            old = m["ut"].get(k, (None, None))
            m["ut"][k] = (old[0], z)
        return "UPDATE %s.ut SET a.zip = %%s WHERE k = %%s" % KS, (z, k), apply, None

    def short(self, m):
        """Rows that expire within seconds: after a restart, those past their TTL
        must be gone and the others there (expiry times survive the log)."""
        k, ttl, x = self.rng.randrange(KEYS), self.rng.randrange(1, 4), self.n
        deadline = time.time() + ttl

        def apply(m):
            m["short"][k] = (x, deadline)
        return ("INSERT INTO %s.short (k, v) VALUES (%%s, %%s) USING TTL %d" % (KS, ttl), (k, x),
                apply, None)

    def batch(self, m):
        """A batch over three tables (unlogged: the service refuses logged ones), which
        the emulator logs as one record: all of it after a restart, or none."""
        k, p, c, x = self.rng.randrange(KEYS), self.rng.randrange(4), self.rng.randrange(20), self.n
        v = "b%d" % x

        def apply(m):
            m["kv"][k] = (v, False)
            row = m["coll"].get(k, ((), frozenset(), ()))
            m["coll"][k] = (row[0] + (x,), row[1], row[2])
            m["ev"].setdefault(p, {"s": None, "rows": {}})["rows"][c] = v
        return ("BEGIN UNLOGGED BATCH "
                "INSERT INTO {0}.kv (k, v) VALUES (%s, %s); "
                "UPDATE {0}.coll SET l = l + [%s] WHERE k = %s; "
                "INSERT INTO {0}.ev (p, c, v) VALUES (%s, %s, %s); "
                "APPLY BATCH".format(KS), (k, v, x, k, p, c, v), apply, None)

    def lwt(self, m):
        k = self.rng.randrange(KEYS)
        if self.rng.random() < 0.5:
            v = "lwt%d" % self.n
            applied = k not in m["kv"]

            def apply(m):
                if applied:
                    m["kv"][k] = (v, False)
            return ("INSERT INTO %s.kv (k, v) VALUES (%%s, %%s) IF NOT EXISTS" % KS, (k, v),
                    apply, applied)
        cur = m["kv"].get(k)
        expect = cur[0] if cur is not None and self.rng.random() < 0.7 else "nope"
        v = "cas%d" % self.n
        applied = cur is not None and cur[0] == expect

        def apply(m):
            if applied:
                m["kv"][k] = (v, False)  # the new cell has no TTL
        return ("UPDATE %s.kv SET v = %%s WHERE k = %%s IF v = %%s" % KS, (v, k, expect),
                apply, applied)

    # -- schema ------------------------------------------------------------------

    def ddl_or_dyn(self, m):
        name = self.rng.choice(DYN)
        t = m["dyn"].get(name)
        r = self.rng.random()
        if t is None:  # v's type changes between incarnations: old records must not apply
            vtype = self.rng.choice(("int", "text"))

            def apply(m):
                m["dyn"][name] = {"cols": [], "vtype": vtype, "rows": {}}
            return ("CREATE TABLE %s.%s (k int PRIMARY KEY, v %s)" % (KS, name, vtype), (),
                    apply, None)
        if r < 0.45:
            k, cols = self.rng.randrange(KEYS), ["v"] + t["cols"]
            vals = [self.n + i for i in range(len(cols))]
            vals[0] = vals[0] if t["vtype"] == "int" else "t%d" % vals[0]

            def apply(m):
                m["dyn"][name]["rows"][k] = dict(zip(cols, vals))
            return ("INSERT INTO %s.%s (k, %s) VALUES (%%s, %s)"
                    % (KS, name, ", ".join(cols), ", ".join(["%s"] * len(cols))),
                    tuple([k] + vals), apply, None)
        if r < 0.6:
            def apply(m):
                del m["dyn"][name]
            return "DROP TABLE %s.%s" % (KS, name), (), apply, None
        if r < 0.75:
            free = [c for c in EXTRA if c not in t["cols"]]
            if free:
                col = self.rng.choice(free)

                def apply(m):
                    m["dyn"][name]["cols"].append(col)
                return "ALTER TABLE %s.%s ADD %s int" % (KS, name, col), (), apply, None
        if r < 0.9 and t["cols"]:
            col = self.rng.choice(t["cols"])

            def apply(m):
                d = m["dyn"][name]
                d["cols"].remove(col)
                for row in d["rows"].values():
                    row.pop(col, None)
            return "ALTER TABLE %s.%s DROP %s" % (KS, name, col), (), apply, None

        def apply(m):
            m["dyn"][name]["rows"] = {}
        return "TRUNCATE %s.%s" % (KS, name), (), apply, None

    def truncate_kv(self, m):
        return "TRUNCATE %s.kv" % KS, (), lambda m: m.__setitem__("kv", {}), None

    def keyspace(self, m):
        """KS2 created, its table created and written, the keyspace dropped."""
        k2 = m["k2"]
        if k2 is None:
            return ("CREATE KEYSPACE %s WITH replication = {'class': 'SimpleStrategy', "
                    "'replication_factor': 1}" % KS2, (),
                    lambda m: m.__setitem__("k2", {"t": None}), None)
        r = self.rng.random()
        if r < 0.15:
            return "DROP KEYSPACE %s" % KS2, (), lambda m: m.__setitem__("k2", None), None
        if k2["t"] is None:
            return ("CREATE TABLE %s.t (k int PRIMARY KEY, v int)" % KS2, (),
                    lambda m: m["k2"].__setitem__("t", {}), None)
        k, x = self.rng.randrange(KEYS), self.n
        return ("INSERT INTO %s.t (k, v) VALUES (%%s, %%s)" % KS2, (k, x),
                lambda m: m["k2"]["t"].__setitem__(k, x), None)


def read(session, m):
    """The stored database in the model's form (the tables the model says exist)."""
    got = fresh_model()
    for r in session.execute("SELECT k, v, ttl(v) AS t FROM %s.kv" % KS):
        got["kv"][r.k] = (r.v, r.t is not None)
    for r in session.execute("SELECT k, n FROM %s.ctr" % KS):
        got["ctr"][r.k] = r.n
    for r in session.execute("SELECT k, l, s, m FROM %s.coll" % KS):
        got["coll"][r.k] = (tuple(r.l or ()), frozenset(r.s or ()),
                            tuple(sorted((r.m or {}).items())))
    for r in session.execute("SELECT p, c, s, v FROM %s.ev" % KS):
        pt = got["ev"].setdefault(r.p, {"s": r.s, "rows": {}})
        if r.c is not None:
            pt["rows"][r.c] = r.v
    for r in session.execute("SELECT k, a FROM %s.ut" % KS):
        got["ut"][r.k] = (r.a.street, r.a.zip) if r.a is not None else (None, None)
    for r in session.execute("SELECT k, v FROM %s.short" % KS):
        got["short"][r.k] = r.v
    tables = {r.table_name for r in session.execute(
        "SELECT table_name FROM system_schema.tables WHERE keyspace_name = %s", (KS,))}
    for name in DYN:
        if name not in tables:
            continue
        cols = {r.column_name for r in session.execute(
            "SELECT column_name FROM system_schema.columns WHERE keyspace_name = %s AND "
            "table_name = %s", (KS, name))}
        extra = [c for c in EXTRA if c in cols]
        vtype = session.execute(
            "SELECT type FROM system_schema.columns WHERE keyspace_name = %s AND "
            "table_name = %s AND column_name = 'v'", (KS, name)).one().type
        d = got["dyn"][name] = {"cols": extra, "vtype": vtype, "rows": {}}
        for r in session.execute("SELECT * FROM %s.%s" % (KS, name)):
            row = r._asdict()
            k = row.pop("k")
            d["rows"][k] = {c: v for c, v in row.items() if v is not None}
    if session.execute("SELECT keyspace_name FROM system_schema.keyspaces WHERE "
                       "keyspace_name = %s", (KS2,)).one() is not None:
        got["k2"] = {"t": None}
        if session.execute("SELECT table_name FROM system_schema.tables WHERE keyspace_name = %s "
                           "AND table_name = 't'", (KS2,)).one() is not None:
            got["k2"]["t"] = {r.k: r.v for r in session.execute("SELECT k, v FROM %s.t" % KS2)}
    return got


def normal(m, when, model=None):
    """What comparison sees: extra columns as a set, rows without null cells, and only
    the short-lived rows whose fate at the read (when: the times before and after it) is
    sure. The server counts a TTL from its whole second, so a row may go up to a second
    before the model's deadline; half a second after it is left to the clocks. m is a
    model, or what read() gave, to compare with model."""
    ttls = m["short"] if model is None else model["short"]
    unsure = {k for k, (x, dl) in ttls.items() if dl - 1.5 <= when[1] and dl + 0.5 >= when[0]}
    if model is None:
        short = {k: x for k, (x, dl) in ttls.items() if k not in unsure and dl > when[1]}
    else:
        short = {k: x for k, x in m["short"].items() if k not in unsure}
    m = copy.deepcopy(m)
    m["short"] = short
    for d in m["dyn"].values():
        d["cols"] = sorted(d["cols"])
        for k, row in d["rows"].items():
            d["rows"][k] = {c: v for c, v in row.items() if v is not None}
    return m


def diff(want, got):
    out = []
    for table in want:
        if want[table] != got[table]:
            w, g = want[table], got[table]
            if not isinstance(w, dict) or not isinstance(g, dict):
                out.append("%s: stored %.200r, model %.200r" % (table, g, w))
                continue
            for key in sorted(set(w) | set(g), key=repr):
                if w.get(key) != g.get(key):
                    out.append("%s[%r]: stored %.200r, model %.200r"
                               % (table, key, g.get(key), w.get(key)))
    return out[:12]


class CrashTypesTest(CrashTestCase):
    ARGS = ["--checkpoint-log-mb", "1", "--log-level", "debug"]

    def run_until_killed(self, session, model, ops, stop):
        """Statements until the server dies; returns (model, the model after the
        statement in flight or None, acknowledged count)."""
        acked = 0
        while not stop.is_set():
            cql, params, apply, lwt = ops.pick(model)
            after = copy.deepcopy(model)
            apply(after)
            try:
                rs = session.execute(cql, params)
            except Exception:  # the kill: this statement may or may not have landed
                try:  # the client may see the reset a moment before the process is gone
                    self.emu.proc.wait(timeout=3)
                except subprocess.TimeoutExpired:
                    raise AssertionError("%s %r failed with the server up (seed %d)"
                                         % (cql, params, SEED)) from None
                return model, after, acked
            if lwt is not None:
                self.assertEqual(rs.was_applied, lwt, "%s %r (seed %d)" % (cql, params, SEED))
            model = after
            acked += 1
        return model, None, acked

    def test_every_acknowledged_statement_survives_kill_9(self):
        rng = random.Random(SEED)
        ops = Ops(rng)
        model = fresh_model()
        session = self.start(self.ARGS)
        session.execute("CREATE KEYSPACE %s WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}" % KS)
        session.execute("CREATE TYPE %s.addr (street text, zip int)" % KS)
        for cql in FIXED.values():
            session.execute(cql % KS)
        checked, kills, checkpoints, aimed, lost = 0, 0, 0, 0, []
        for cycle in range(CYCLES):
            clean = cycle % 4 == 3
            stop = threading.Event()
            if clean:
                timer = threading.Timer(rng.uniform(0.3, 1.2), stop.set)
            elif cycle % 2:  # at a random moment
                timer = threading.Timer(rng.uniform(0.3, 1.5), self.emu.proc.kill)
                kills += 1
            else:  # in a checkpoint's first milliseconds, if one starts
                timer = CheckpointKiller(self.emu, rng.uniform(0, 0.02), rng.uniform(0.3, 1.5))
                kills += 1
            timer.start()
            model, after, acked = self.run_until_killed(session, model, ops, stop)
            timer.join()
            checked += acked
            checkpoints += self.emu.log().count("background checkpoint started")
            aimed += isinstance(timer, CheckpointKiller) and timer.in_checkpoint
            self.down(clean)
            session = self.start(self.ARGS)
            t0 = time.time()
            stored = read(session, model)
            when = (t0, time.time())
            got = normal(stored, when, model)
            if got == normal(model, when):
                continue
            if after is not None and normal(stored, when, after) == normal(after, when):
                model = after
                continue
            lost.append("restart %d (%s):\n  %s" % (cycle, "stop" if clean else "kill -9",
                                                    "\n  ".join(diff(normal(model, when), got))))
            break
        self.down(True)
        self.assertGreater(checkpoints, 0, "no checkpoint started: the snapshots went untested")
        print("crash types: %d restarts (%d kill -9, %d of them in a checkpoint), %d checkpoints, "
              "%d acknowledged statements checked, %d lost (seed %d)"
              % (CYCLES, kills, aimed, checkpoints, checked, len(lost), SEED), flush=True)
        self.assertEqual(lost, [], "seed %d" % SEED)


if __name__ == "__main__":
    unittest.main()
