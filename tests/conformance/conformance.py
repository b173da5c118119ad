"""The conformance suite's case language and the engine that runs it.

Case files (tests/conformance/cases/<area>/<Class>.py) import the helpers
below and define CASES = [case(...), ...]; run_conformance.py loads them,
starts the emulator and calls run_case() for each one. The language is data
only: a case is a list of steps, a step one CQL statement with its bound
values and what it must produce. See README.md in this folder for the
semantics (name expansion, variants, value normalisation).

Invariants: a case always runs in a keyspace of its own (created and dropped
here), so cases never see each other's tables; the first step that does not
meet its expectation ends the case and becomes its reason; nothing here
retries a statement (the cluster's retry policy is FallthroughRetryPolicy).
"""

import datetime
import decimal
import ipaddress
import math
import re
import uuid

__all__ = ["case", "q", "rows", "rows_any_order", "ok", "error", "warning", "approx",
           "udt", "unset", "fmap", "flist", "row_count", "ERROR_CODES"]

# -- expectations -----------------------------------------------------------

ERROR_CODES = {
    "Server": 0x0000,
    "Protocol": 0x000A,
    "Unavailable": 0x1000,
    "Overloaded": 0x1001,
    "Truncate": 0x1003,
    "WriteTimeout": 0x1100,
    "ReadTimeout": 0x1200,
    "ReadFailure": 0x1300,
    "FunctionFailure": 0x1400,
    "WriteFailure": 0x1500,
    "Syntax": 0x2000,
    "Unauthorized": 0x2100,
    "Invalid": 0x2200,
    "Config": 0x2300,
    "AlreadyExists": 0x2400,
}
CODE_NAMES = {v: k for k, v in ERROR_CODES.items()}


class Expectation:
    kind = None

    def describe(self):
        raise NotImplementedError


class Ok(Expectation):
    kind = "ok"

    def describe(self):
        return "ok"


class Rows(Expectation):
    kind = "rows"

    def __init__(self, rs, ordered):
        self.rows = [list(r) for r in rs]
        self.ordered = ordered

    def describe(self):
        body = ", ".join(show(r) for r in self.rows)
        return ("rows(%s)" if self.ordered else "rows_any_order(%s)") % body


class RowCount(Expectation):
    kind = "row_count"

    def __init__(self, n):
        self.n = n

    def describe(self):
        return "row_count(%d)" % self.n


class Error(Expectation):
    kind = "error"

    def __init__(self, name, substring=None):
        if name not in ERROR_CODES:
            raise ValueError("unknown error kind %r (one of %s)" % (name, ", ".join(ERROR_CODES)))
        self.name = name
        self.code = ERROR_CODES[name]
        self.substring = substring

    def describe(self):
        if self.substring is None:
            return "error(%s)" % self.name
        return "error(%s, %r)" % (self.name, self.substring)


class Warning_(Expectation):
    kind = "warning"

    def __init__(self, substring):
        self.substring = substring

    def describe(self):
        return "warning(%r)" % self.substring


def ok():
    """The statement succeeds; its result is not looked at."""
    return Ok()


def rows(*r):
    """Exactly these rows, in this order (rows() = no rows). Each row a list."""
    return Rows(r, True)


def rows_any_order(*r):
    """Exactly these rows, in any order."""
    return Rows(r, False)


def row_count(n):
    """Exactly n rows, whatever they hold (for values no one can predict,
    such as now() or a server-side timestamp)."""
    return RowCount(n)


def error(kind, substring=None):
    """The statement fails with the error code named by kind and, when given,
    a message containing substring (case-sensitive)."""
    return Error(kind, substring)


def warning(substring):
    """The response carries a warning containing substring."""
    return Warning_(substring)


class approx:
    """A float that matches any float within rel (relative) or abs_ of it."""

    def __init__(self, x, rel=1e-6, abs_=0.0):
        self.x = x
        self.rel = rel
        self.abs_ = abs_

    def matches(self, got):
        if not isinstance(got, (float, int)) or isinstance(got, bool):
            return False
        if isinstance(self.x, float) and math.isnan(self.x):
            return isinstance(got, float) and math.isnan(got)
        if math.isinf(self.x) or math.isinf(got):
            return self.x == got
        return abs(got - self.x) <= max(self.rel * abs(self.x), self.abs_)

    def __repr__(self):
        return "approx(%r)" % (self.x,)

    def __hash__(self):
        return hash(round(self.x, 3)) if not math.isnan(self.x) else 0


class udt:
    """A user-type value to bind (or inline) and to expect: udt(a=1, b='x').
    Fields left out are null. As an expected value it equals the dict of its
    fields (missing fields must then be None in the row). For field names
    that are not Python identifiers use udt.of({"Name": 1})."""

    def __init__(self, **fields):
        self.fields = dict(fields)

    @classmethod
    def of(cls, fields):
        u = cls()
        u.fields = dict(fields)
        return u

    # The python driver serialises a UDT by index first, then by attribute.
    def __getitem__(self, i):
        raise TypeError("bind by field name")

    def __getattr__(self, name):
        if name.startswith("__") or name == "fields":
            raise AttributeError(name)
        return self.fields.get(name)

    def __repr__(self):
        return "udt(%s)" % ", ".join("%s=%s" % (k, show(v)) for k, v in self.fields.items())


class fmap(dict):
    """A map that can sit inside a Python set or be a dict key, for expected
    (or bound) set<frozen<map<..>>> elements and map<frozen<map<..>>, ..> keys:
    {fmap({1: 1}): 2}. Otherwise a plain dict."""

    def __hash__(self):
        return hash(frozenset(self.items()))


class flist(list):
    """A list that can sit inside a Python set or be a dict key, for
    set<frozen<list<..>>> elements and map<frozen<list<..>>, ..> keys:
    {flist([1, 2]): 3}. Its literal is a CQL list (a tuple would be a CQL
    tuple); as an expected value a plain tuple matches too."""

    def __hash__(self):
        return hash(tuple(self))


class _Unset:
    def __repr__(self):
        return "unset"


def _driver_unset():
    try:
        from cassandra.query import UNSET_VALUE
        return UNSET_VALUE
    except ImportError:  # the case files load without the driver too
        return _Unset()


unset = _driver_unset()

# -- cases and steps --------------------------------------------------------


class Step:
    def __init__(self, text, values, expect, cosmos, cosmos_source, page_size, cl, prepared):
        self.text = text
        self.values = list(values)
        self.expect = _as_list(expect)
        self.cosmos = None if cosmos is None else _as_list(cosmos)
        self.cosmos_source = cosmos_source
        self.page_size = page_size
        self.cl = cl
        self.prepared = prepared
        if self.cosmos is not None and not cosmos_source:
            raise ValueError("step %r: cosmos= needs cosmos_source=" % text)

    def expectations(self, profile):
        if profile == "cosmos" and self.cosmos is not None:
            return self.cosmos
        return self.expect


def _as_list(e):
    items = list(e) if isinstance(e, (list, tuple)) else [e]
    for x in items:
        if not isinstance(x, Expectation):
            raise TypeError("expected ok()/rows()/error()/warning(), got %r" % (x,))
    return items


def q(text, *values, expect=None, cosmos=None, cosmos_source=None, page_size=None, cl=None,
      prepared=None):
    """One statement. values bind to its ? markers (then it runs prepared,
    unless prepared=False, which inlines them as CQL literals)."""
    return Step(text, values, Ok() if expect is None else expect, cosmos, cosmos_source,
                page_size, cl, prepared)


class Case:
    def __init__(self, id, origin, steps, variants, cassandra_version, notes):
        self.id = id
        self.origin = origin
        self.steps = steps
        self.variants = tuple(variants)
        self.cassandra_version = cassandra_version
        self.notes = notes
        self.source = None  # file the case came from, set by the loader
        for v in self.variants:
            if v not in ("prepared", "simple"):
                raise ValueError("case %s: unknown variant %r" % (id, v))
        for s in steps:
            if not isinstance(s, Step):
                raise TypeError("case %s: steps must be q(...), got %r" % (id, s))

    def origin_class(self):
        """'validation/entities/CollectionsTest' from the origin string."""
        path = self.origin.split("#", 1)[0].strip()
        path = re.sub(r"\.java$", "", path)
        path = re.sub(r"^(test/unit/)?(org/apache/cassandra/)?(cql3/)?", "", path)
        return path

    def runs(self):
        """(id, variant) for each run of the case."""
        out = []
        for v in self.variants:
            out.append((self.id if v == self.variants[0] else "%s[%s]" % (self.id, v), v))
        return out


def case(id, origin, steps, variants=("prepared",), cassandra_version=None, notes=None):
    return Case(id, origin, steps, variants, cassandra_version, notes)


# -- names ------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_LITERAL_WORDS = {"true", "false", "null", "nan", "infinity"}


def expand_names(text, keyspace):
    """{ks} -> the keyspace; {name} -> name (unqualified); %s is left alone."""

    def sub(m):
        name = m.group(1)
        if name.lower() in _LITERAL_WORDS:
            return m.group(0)
        return keyspace if name == "ks" else name

    return _PLACEHOLDER.sub(sub, text)


def expand(text, keyspace):
    """%s -> <ks>.t; {ks} -> the keyspace; {name} -> name (unqualified)."""
    return expand_names(text, keyspace).replace("%s", keyspace + ".t")


def expand_value(v, keyspace):
    """An expected value with the names of every string in it expanded (a row
    from system_schema names the case's keyspace as '{ks}')."""
    if isinstance(v, str):
        return expand_names(v, keyspace)
    if isinstance(v, list):
        return [expand_value(x, keyspace) for x in v]
    if isinstance(v, tuple) and type(v) is tuple:
        return tuple(expand_value(x, keyspace) for x in v)
    if isinstance(v, (set, frozenset)):
        return type(v)(expand_names(x, keyspace) if isinstance(x, str) else x for x in v)
    if isinstance(v, dict):
        return {expand_names(k, keyspace) if isinstance(k, str) else k: expand_value(x, keyspace)
                for k, x in v.items()}
    return v


# -- literals (the simple variant and prepared=False) -----------------------


def literal(v):
    """v as a CQL literal: scalars through the driver's Encoder, containers
    recursively (tuples as CQL tuples, udt() as a UDT literal)."""
    from cassandra.encoder import Encoder
    if v is unset or isinstance(v, _Unset):
        raise ValueError("unset has no CQL literal")
    if isinstance(v, udt):
        return "{%s}" % ", ".join("%s: %s" % (_ident(k), literal(x)) for k, x in v.fields.items())
    if isinstance(v, tuple):
        return "(%s)" % ", ".join(literal(x) for x in v)
    if isinstance(v, list):
        return "[%s]" % ", ".join(literal(x) for x in v)
    if isinstance(v, (set, frozenset)):
        return "{%s}" % ", ".join(literal(x) for x in v)
    if isinstance(v, dict):
        return "{%s}" % ", ".join("%s: %s" % (literal(k), literal(x)) for k, x in v.items())
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, datetime.datetime):
        return Encoder().cql_encode_datetime(v)
    return Encoder().cql_encode_all_types(v)


def _ident(name):
    return name if re.fullmatch(r"[a-z_][a-z0-9_]*", name) else '"%s"' % name.replace('"', '""')


def inline(text, values):
    """Replaces the ? markers of text (outside strings, quoted names and
    comments) with the literals of values."""
    out = []
    i = 0
    n = len(text)
    vi = 0
    while i < n:
        c = text[i]
        if c in "'\"":
            j = i + 1
            while j < n:
                if text[j] == c:
                    if j + 1 < n and text[j + 1] == c:
                        j += 2
                        continue
                    break
                j += 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("$$", i):
            j = text.find("$$", i + 2)
            j = n if j < 0 else j + 2
            out.append(text[i:j])
            i = j
        elif text.startswith("--", i) or text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(text[i:j])
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(text[i:j])
            i = j
        elif c == "?":
            if vi >= len(values):
                raise ValueError("more ? markers than values")
            v = values[vi]
            if isinstance(v, (list, tuple)) and re.search(r"\bIN\s*$", "".join(out), re.I):
                out.append("(%s)" % ", ".join(literal(x) for x in v))  # IN ? takes a value list
            else:
                out.append(literal(v))
            vi += 1
            i += 1
        else:
            out.append(c)
            i += 1
    if vi != len(values):
        raise ValueError("%d values for %d ? markers" % (len(values), vi))
    return "".join(out)


# -- normalisation of what the driver returns -------------------------------


class SetValue(list):
    """A CQL set as returned (elements normalised, server order kept)."""

    def __repr__(self):
        return "{%s}" % ", ".join(show(x) for x in self)


class MapValue(list):
    """A CQL map as returned: a list of (key, value) pairs, server order."""

    def __repr__(self):
        return "{%s}" % ", ".join("%s: %s" % (show(k), show(v)) for k, v in self)


class UdtValue(dict):
    def __repr__(self):
        return "{%s}" % ", ".join("%s: %s" % (k, show(v)) for k, v in self.items())


def normalise(value, ctype=None):
    """The driver's value as plain Python (see README.md): sets -> SetValue,
    maps -> MapValue, UDTs -> UdtValue (field -> value), lists, tuples."""
    if value is None:
        return None
    typename = getattr(ctype, "typename", None) if ctype is not None else None
    subtypes = getattr(ctype, "subtypes", ()) if ctype is not None else ()
    fieldnames = getattr(ctype, "fieldnames", None) if ctype is not None else None
    if fieldnames is not None and isinstance(value, tuple):
        return UdtValue((f, normalise(v, t)) for f, v, t in zip(fieldnames, value, subtypes))
    if hasattr(value, "_fields") and isinstance(value, tuple):  # UDT without type info
        return UdtValue((f, normalise(v)) for f, v in zip(value._fields, value))
    if typename == "set" or type(value).__name__ in ("SortedSet", "sortedset") or isinstance(
            value, (set, frozenset)):
        st = subtypes[0] if subtypes else None
        return SetValue(normalise(v, st) for v in value)
    if typename == "map" or hasattr(value, "items"):
        kt = subtypes[0] if len(subtypes) > 0 else None
        vt = subtypes[1] if len(subtypes) > 1 else None
        return MapValue((normalise(k, kt), normalise(v, vt)) for k, v in value.items())
    if isinstance(value, list):
        st = subtypes[0] if subtypes else None
        return [normalise(v, st) for v in value]
    if isinstance(value, tuple):
        ts = list(subtypes) + [None] * (len(value) - len(subtypes))
        return tuple(normalise(v, t) for v, t in zip(value, ts))
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    return value


def equal(exp, got, loose=False):
    """Strict comparison of an expected value with a normalised one: types
    matter (1 is not 1.0, True is not 1). loose: inside sets and map keys a
    Python tuple also matches a frozen list."""
    if isinstance(exp, approx):
        return exp.matches(got)
    if exp is None or got is None:
        return exp is None and got is None
    if isinstance(exp, udt):
        exp = exp.fields
        if not isinstance(got, dict):
            return False
        return all(equal(exp.get(k), got.get(k)) for k in set(exp) | set(got))
    if isinstance(exp, bool) or isinstance(got, bool):
        return type(exp) is bool and type(got) is bool and exp == got
    if isinstance(exp, int):
        return type(got) is int and exp == got
    if isinstance(exp, float):
        if not isinstance(got, float):
            return False
        return (math.isnan(exp) and math.isnan(got)) or exp == got
    if isinstance(exp, (set, frozenset)):
        return isinstance(got, SetValue) and _match_all(list(exp), list(got), True)
    if isinstance(exp, dict):
        if isinstance(got, UdtValue):
            return set(exp) == set(got) and all(equal(exp[k], got[k]) for k in exp)
        if not isinstance(got, MapValue) or len(got) != len(exp):
            return False
        for k, v in exp.items():
            hit = [gv for gk, gv in got if equal(k, gk, True)]
            if len(hit) != 1 or not equal(v, hit[0]):
                return False
        return True
    if isinstance(exp, tuple):
        if isinstance(got, tuple) or (loose and isinstance(got, list)):
            return len(exp) == len(got) and all(equal(a, b, loose) for a, b in zip(exp, got))
        return False
    if isinstance(exp, list):
        return (type(got) is list and len(exp) == len(got)
                and all(equal(a, b, loose) for a, b in zip(exp, got)))
    if isinstance(exp, str):
        return isinstance(got, str) and exp == got
    if isinstance(exp, bytes):
        return isinstance(got, bytes) and exp == got
    if isinstance(exp, decimal.Decimal):
        return isinstance(got, decimal.Decimal) and exp == got
    if isinstance(exp, uuid.UUID):
        return isinstance(got, uuid.UUID) and exp == got
    if isinstance(exp, (ipaddress.IPv4Address, ipaddress.IPv6Address)):
        return str(exp) == str(got)
    return type(exp) == type(got) and exp == got


def _match_all(exp, got, loose):
    """Every expected element pairs with one distinct got element."""
    if len(exp) != len(got):
        return False
    used = [False] * len(got)
    for e in exp:
        for i, g in enumerate(got):
            if not used[i] and equal(e, g, loose):
                used[i] = True
                break
        else:
            return False
    return True


def rows_equal(exp_rows, got_rows, ordered):
    if len(exp_rows) != len(got_rows):
        return False
    if ordered:
        return all(_row_equal(e, g) for e, g in zip(exp_rows, got_rows))
    used = [False] * len(got_rows)
    for e in exp_rows:
        for i, g in enumerate(got_rows):
            if not used[i] and _row_equal(e, g):
                used[i] = True
                break
        else:
            return False
    return True


def _row_equal(e, g):
    return len(e) == len(g) and all(equal(a, b) for a, b in zip(e, g))


def show(v):
    """A short readable form of a value for reasons (sets sorted, so a report
    reads the same from run to run)."""
    if isinstance(v, (set, frozenset)):
        return "{%s}" % ", ".join(sorted(show(x) for x in v))
    if isinstance(v, dict) and not isinstance(v, UdtValue):
        return "{%s}" % ", ".join("%s: %s" % (show(k), show(x)) for k, x in v.items())
    if isinstance(v, (list, tuple)) and not isinstance(v, (SetValue, MapValue)):
        inner = ", ".join(show(x) for x in v)
        return "[%s]" % inner if isinstance(v, list) else "(%s%s)" % (inner, "," if len(v) == 1
                                                                      else "")
    if isinstance(v, bytes):
        return "0x" + v.hex() if len(v) <= 64 else "0x%s...(%d bytes)" % (v[:32].hex(), len(v))
    if isinstance(v, str) and len(v) > 200:
        return repr(v[:200] + "...")
    return repr(v)


def show_rows(rs, limit=20):
    body = ", ".join(show(list(r)) for r in rs[:limit])
    if len(rs) > limit:
        body += ", ... (%d rows)" % len(rs)
    return "rows(%s)" % body


# -- running ----------------------------------------------------------------


class Crash(Exception):
    """The connection was lost or the server stopped answering."""


class Outcome:
    def __init__(self):
        self.error_code = None
        self.error_message = None
        self.rows = None
        self.warnings = []


def error_of(exc):
    """(code, message) of a server error the driver raised, or None."""
    from cassandra import AlreadyExists
    if isinstance(exc, AlreadyExists):  # the driver keeps only the names of an ALREADY_EXISTS
        return 0x2400, str(exc)
    code = getattr(exc, "code", None)
    message = getattr(exc, "message", None)
    if isinstance(code, int) and isinstance(message, str):
        return code, message
    m = re.search(r'code=([0-9a-fA-F]{4}) \[[^\]]*\] message="(.*)"', str(exc), re.S)
    if m:
        return int(m.group(1), 16), m.group(2)
    return None


_DDL = re.compile(r"\s*(CREATE|ALTER|DROP|USE)\b", re.I)


class Runner:
    """Runs cases on one session. connect() gives (session, alive()) and is
    called again after a crash."""

    def __init__(self, profile, connect, timeout=10.0, verbose=False, log=print):
        self.profile = profile
        self.connect = connect
        self.timeout = timeout
        self.verbose = verbose
        self.log = log
        self.session = None
        self.counter = 0
        self.prepared = {}

    def ensure(self):
        if self.session is None:
            self.session = self.connect(restart=False)
            self.prepared = {}

    def restart(self):
        self.session = self.connect(restart=True)
        self.prepared = {}

    def run_case(self, c, variant):
        from cassandra import OperationTimedOut
        self.ensure()
        self.counter += 1
        ks = "cf_%05d" % self.counter
        result = {"status": "pass"}
        try:
            self._execute_raw("CREATE KEYSPACE %s WITH replication = {'class': 'SimpleStrategy', "
                              "'replication_factor': 1}" % ks)
            self.session.set_keyspace(ks)
        except Crash as e:
            self.restart()
            return {"status": "fail", "reason": "harness: %s creating the keyspace" % e}
        except Exception as e:  # noqa: BLE001 - any failure here is the harness's
            return {"status": "fail", "reason": "harness: cannot create keyspace: %s" % e}
        try:
            for i, step in enumerate(c.steps):
                failure = self._run_step(step, ks, variant)
                if failure is not None:
                    failure["step"] = i
                    failure["status"] = "fail"
                    result = failure
                    break
        except Crash as e:
            result = {"status": "fail", "step": i, "statement": expand(step.text, ks),
                      "reason": str(e)}
            self.log("  %s: %s, restarting the emulator" % (c.id, e))
            self.restart()
            return _unname(result, ks)
        result = _unname(result, ks)
        try:
            self._execute_raw("DROP KEYSPACE IF EXISTS %s" % ks)
        except Crash as e:
            self.restart()
        except (OperationTimedOut, Exception):  # noqa: BLE001 - cleanup only
            pass
        return result

    def _execute_raw(self, text):
        from cassandra.query import SimpleStatement
        try:
            return self.session.execute(SimpleStatement(text), timeout=self.timeout)
        except Exception as e:  # noqa: BLE001
            self._raise_if_crash(e)
            raise

    def _raise_if_crash(self, e):
        from cassandra import OperationTimedOut
        from cassandra.cluster import NoHostAvailable
        from cassandra.connection import ConnectionException
        if isinstance(e, OperationTimedOut):
            raise Crash("timeout (no answer within %g s)" % self.timeout)
        if isinstance(e, (NoHostAvailable, ConnectionException)):
            raise Crash("server crashed (connection lost: %s)" % e)

    def _run_step(self, step, ks, variant):
        from cassandra import ConsistencyLevel
        from cassandra.query import SimpleStatement
        text = expand(step.text, ks)
        expects = step.expectations(self.profile)
        out = Outcome()
        kw = {}
        if step.page_size is not None:
            kw["fetch_size"] = step.page_size or None  # 0: no paging at all
        if step.cl is not None:
            kw["consistency_level"] = getattr(ConsistencyLevel, step.cl.upper())
        mode = "simple"
        if step.values or step.prepared:
            mode = "prepared"
        if step.values and (variant == "simple" or step.prepared is False):
            mode = "inline"
        shown = text
        try:
            if mode == "inline":
                shown = text = inline(text, step.values)
            if mode == "prepared":
                ps = self.prepared.get(text)
                if ps is None:
                    ps = self.session.prepare(text)
                    self.prepared[text] = ps
                if step.page_size is not None:
                    ps.fetch_size = step.page_size or None
                else:
                    ps.fetch_size = 5000
                if step.cl is not None:
                    ps.consistency_level = kw["consistency_level"]
                stmt = ps.bind(step.values)
            else:
                stmt = SimpleStatement(text, **kw)
            rs = self.session.execute(stmt, timeout=self.timeout)
            out.warnings = list(rs.response_future.warnings or [])
            types = list(rs.column_types or [])
            got = []
            for r in rs:  # fetches every page
                got.append([normalise(v, types[j] if j < len(types) else None)
                            for j, v in enumerate(r)])
            out.rows = got
            out.warnings = list(rs.response_future.warnings or out.warnings)
        except Exception as e:  # noqa: BLE001 - the outcome is checked below
            self._raise_if_crash(e)
            err = error_of(e)
            if err is None:
                return {"statement": shown, "expected": _describe(expects),
                        "got": "client-side exception %s: %s" % (type(e).__name__, e),
                        "reason": "client-side exception %s: %s" % (type(e).__name__, e)}
            out.error_code, out.error_message = err
        if _DDL.match(text):
            self.prepared.clear()  # schema (a UDT's fields) or the USE keyspace changed
        return self._check(expects, out, shown, mode, ks)

    def _check(self, expects, out, shown, mode, ks):
        got = _describe_outcome(out)
        for e in expects:
            bad = None
            # {ks} and the other names read in expected messages and values as in statements
            sub = expand_names(e.substring, ks) if getattr(e, "substring", None) else None
            if e.kind == "error":
                if out.error_code is None:
                    bad = "expected %s, got success: %s" % (e.describe(), got)
                elif out.error_code != e.code:
                    bad = "expected %s, got %s" % (e.describe(), got)
                elif sub is not None and sub not in out.error_message:
                    bad = "expected %s, got %s" % (e.describe(), got)
            elif out.error_code is not None:
                bad = "expected %s, got %s" % (e.describe(), got)
            elif e.kind == "rows":
                if not rows_equal(expand_value(e.rows, ks), out.rows, e.ordered):
                    bad = "expected %s, got %s" % (e.describe(), got)
            elif e.kind == "row_count":
                if len(out.rows) != e.n:
                    bad = "expected %s, got %d rows: %s" % (e.describe(), len(out.rows), got)
            elif e.kind == "warning":
                if not any(sub in w for w in out.warnings):
                    bad = "expected %s, got warnings %r" % (e.describe(), out.warnings)
            if bad:
                return {"statement": shown, "mode": mode, "expected": _describe(expects),
                        "got": got, "reason": bad}
        return None


def _unname(result, ks):
    """The case's generated keyspace name reads as "ks" in reasons, so
    reports do not change from run to run."""
    rx = re.compile(r"\b%s\b" % re.escape(ks))
    return {k: rx.sub("ks", v) if isinstance(v, str) else v for k, v in result.items()}


def _describe(expects):
    return " + ".join(e.describe() for e in expects)


def _describe_outcome(out):
    if out.error_code is not None:
        return "error(%s, %r)" % (CODE_NAMES.get(out.error_code, "0x%04x" % out.error_code),
                                  out.error_message)
    return show_rows(out.rows or [])
