"""Cases ported from Apache Cassandra's InsertUpdateIfConditionTest (cql3/validation/operations,
3.11/4.0 line).

Left out: testCompactStorage (COMPACT STORAGE), the Thread.sleep TTL-expiry steps of
testConditionalDelete / testCasAndTTL (kept with the expiry replaced by an explicit delete
where that preserves what is checked), system."IndexInfo" reads of testDropCreateIndexIfNotExists.
The follow-up SELECT of each checkApplies/checkDoesNotApply helper is checked once per case.
Cosmos expectations (cosmos-cassandra-api-facts.md §5/§5.1): a conditional DELETE of a whole
row is refused ("Conditional delete of an entire row is not supported."); conditions and
assignments mixing static and regular columns are refused; logged batches are refused.
"""
from conformance import case, q, rows, rows_any_order, ok, error, udt

SRC = "cql3/validation/operations/InsertUpdateIfConditionTest.java#%s (4.0)"
ROWDEL = "cosmos-cassandra-api-facts.md §5/§5.1: Conditional delete of an entire row is not supported"
MIXED = ("cosmos-cassandra-api-facts.md §5: Conditions and assignments containing combination of Static and "
         "Regular columns are not supported")
LOGGED = "cosmos-cassandra-api-facts.md §5.1/§8: logged batches are not supported"
ROWDEL_ERR = error("Invalid", "Conditional delete of an entire row is not supported")
MIXED_ERR = error("Invalid", "combination of Static and Regular columns")
LOGGED_ERR = error("Server", "Logged batches are not supported")
CASES = []


def add(name, steps, method=None, **kw):
    CASES.append(case("InsertUpdateIfConditionTest." + name, origin=SRC % (method or name.split(".")[0]), steps=steps, **kw))


def whole_row_delete(text, expect, cosmos_rows=None):
    return q(text, expect=expect, cosmos=ROWDEL_ERR, cosmos_source=ROWDEL)


add("testSimpleCas", [q("CREATE TABLE %s (tkn int, consumed boolean, PRIMARY KEY (tkn))")] + [
    s for i in range(10) for s in (
        q("INSERT INTO %s (tkn, consumed) VALUES (?, FALSE)", i),
        q("UPDATE %s SET consumed = TRUE WHERE tkn = ? IF consumed = FALSE", i, expect=rows([True])),
        q("UPDATE %s SET consumed = TRUE WHERE tkn = ? IF consumed = FALSE", i, expect=rows([False, True])))])

add("testConditionalUpdate", [
    q(" CREATE TABLE %s (k int PRIMARY KEY, v1 int, v2 text, v3 int)"),
    q("UPDATE %s SET v1 = 3, v2 = 'bar' WHERE k = 0 IF v1 = 4", expect=rows([False])),
    q("UPDATE %s SET v1 = 3, v2 = 'bar' WHERE k = 0 IF EXISTS", expect=rows([False])),
    q("INSERT INTO %s (k, v1, v2) VALUES (0, 2, 'foo') IF NOT EXISTS", expect=rows([True])),
    q("INSERT INTO %s (k, v1, v2) VALUES (0, 5, 'bar') IF NOT EXISTS", expect=rows([False, 0, 2, "foo", None])),
    q("SELECT * FROM %s", expect=rows([0, 2, "foo", None])),
    q("UPDATE %s SET v1 = 3, v2 = 'bar' WHERE k = 0 IF v1 = 4", expect=rows([False, 2])),
    q("SELECT * FROM %s", expect=rows([0, 2, "foo", None])),
    q("UPDATE %s SET v2 = 'bar', v1 = 3 WHERE k = 0 IF v1 = 2", expect=rows([True])),
    q("UPDATE %s SET v2 = 'bar', v1 = 3 WHERE k = 0 IF EXISTS", expect=rows([True])),
    q("SELECT * FROM %s", expect=rows([0, 3, "bar", None])),
    q("UPDATE %s SET v1 = 5, v2 = 'foobar' WHERE k = 0 IF v1 = 3 AND v2 = 'foo'", expect=rows([False, 3, "bar"])),
    q("SELECT * FROM %s", expect=rows([0, 3, "bar", None])),
    q("UPDATE %s SET v1 = 5, v2 = 'foobar' WHERE k = 0 IF v1 = 3 AND v2 = 'bar'", expect=rows([True])),
    q("SELECT * FROM %s", expect=rows([0, 5, "foobar", None])),
    q("DELETE v2 FROM %s WHERE k = 0 IF v1 = 3", expect=rows([False, 5])),
    q("SELECT * FROM %s", expect=rows([0, 5, "foobar", None])),
    q("DELETE v2 FROM %s WHERE k = 0 IF v1 = null", expect=rows([False, 5])),
    q("SELECT * FROM %s", expect=rows([0, 5, "foobar", None])),
    q("DELETE v2 FROM %s WHERE k = 0 IF v1 = 5", expect=rows([True])),
    q("SELECT * FROM %s", expect=rows([0, 5, None, None])),
    q("DELETE v1 FROM %s WHERE k = 0 IF v3 = 4", expect=rows([False, None])),
    q("DELETE v1 FROM %s WHERE k = 0 IF v3 = null", expect=rows([True])),
    q("SELECT * FROM %s", expect=rows([0, None, None, None])),
    q("DELETE FROM %s WHERE k = 0 IF v1 = null", expect=rows([True]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
    q("SELECT * FROM %s", expect=rows(), cosmos=rows([0, None, None, None]), cosmos_source=ROWDEL + " (the row stays)"),
    q("UPDATE %s SET v1 = 3, v2 = 'bar' WHERE k = 0 IF EXISTS", expect=rows([False]),
      cosmos=rows([True]), cosmos_source=ROWDEL + " (the row stays)"),
    q("DELETE FROM %s WHERE k = 0 IF v1 IN (null)", expect=rows([True]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
])

add("testConditionalUpdate.inClustering", [
    q(" CREATE TABLE %s (k int, c int, v1 text, PRIMARY KEY(k, c))"),
    q("UPDATE %s SET v1 = 'A' WHERE k = 0 AND c IN (1, 2) IF EXISTS",
      expect=error("Invalid", "IN on the clustering key columns is not supported with conditional updates")),
], method="testConditionalUpdate")

add("testNonEqConditionalUpdate", [
    q("CREATE TABLE %s (k int PRIMARY KEY, v1 int, v2 text, v3 int)"),
    q("INSERT INTO %s (k, v1, v2) VALUES (0, 2, 'foo')"),
    *[q("UPDATE %%s SET v2 = 'bar' WHERE k = 0 IF %s" % c, expect=rows([True]))
      for c in ("v1 < 3", "v1 <= 3", "v1 > 1", "v1 >= 1", "v1 != 1", "v1 IN (0, 1, 2)")],
    q("UPDATE %s SET v2 = 'bar' WHERE k = 0 IF v1 != 2", expect=rows([False, 2])),
    q("UPDATE %s SET v2 = 'bar' WHERE k = 0 IF v1 IN (142, 276)", expect=rows([False, 2])),
    q("UPDATE %s SET v2 = 'bar' WHERE k = 0 IF v1 IN ()", expect=rows([False, 2])),
])

add("testConditionalDelete", [
    q("CREATE TABLE %s (k int PRIMARY KEY, v1 int,)"),
    q("DELETE FROM %s WHERE k=1 IF EXISTS", expect=rows([False]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
    q("INSERT INTO %s (k, v1) VALUES (1, 2)"),
    q("DELETE FROM %s WHERE k=1 IF EXISTS", expect=rows([True]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
    q("DELETE FROM %s WHERE k=1"),
    q("SELECT * FROM %s WHERE k=1", expect=rows()),
    q("DELETE FROM %s WHERE k=1 IF EXISTS", expect=rows([False]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
    q("INSERT INTO %s (k, v1) VALUES (3, 2)"),
    q("DELETE v1 FROM %s WHERE k=3 IF EXISTS", expect=rows([True])),
    q("SELECT * FROM %s WHERE k=3", expect=rows([3, None])),
    q("DELETE v1 FROM %s WHERE k=3 IF EXISTS", expect=rows([True])),
    q("DELETE FROM %s WHERE k=3 IF EXISTS", expect=rows([True]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
])

DRP = "DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to use IF conditions"
add("testConditionalDelete.static", [
    q("CREATE TABLE %s (k text, s text static, i int, v text, PRIMARY KEY (k, i) )"),
    q("INSERT INTO %s (k, s, i, v) VALUES ('k', 's', 0, 'v')"),
    q("DELETE v FROM %s WHERE k='k' AND i=0 IF EXISTS", expect=rows([True])),
    q("DELETE FROM %s WHERE k='k' AND i=0 IF EXISTS", expect=rows([True]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
    q("DELETE FROM %s WHERE k='k' AND i=0"),
    q("DELETE v FROM %s WHERE k='k' AND i=0 IF EXISTS", expect=rows([False])),
    q("DELETE FROM %s WHERE k='k' AND i=0 IF EXISTS", expect=rows([False]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
    q("DELETE FROM %s WHERE k = 'k' IF EXISTS", expect=error("Invalid", DRP), cosmos=error("Invalid"), cosmos_source=ROWDEL),
    q("DELETE FROM %s WHERE k = 'k' IF v = 'foo'", expect=error("Invalid", DRP), cosmos=error("Invalid"), cosmos_source=ROWDEL),
    q("DELETE FROM %s WHERE i = 0 IF EXISTS", expect=error("Invalid", "Some partition key parts are missing: k"), cosmos=error("Invalid"), cosmos_source=ROWDEL),
    q("DELETE FROM %s WHERE k = 0 AND i > 0 IF EXISTS", expect=error("Invalid", 'Invalid INTEGER constant (0) for "k" of type text'), cosmos=error("Invalid"), cosmos_source=ROWDEL),
    q("DELETE FROM %s WHERE k = 0 AND i > 0 IF v = 'foo'", expect=error("Invalid", 'Invalid INTEGER constant (0) for "k" of type text'), cosmos=error("Invalid"), cosmos_source=ROWDEL),
    q("DELETE FROM %s WHERE k = 'k' AND i > 0 IF EXISTS", expect=error("Invalid", DRP), cosmos=error("Invalid"), cosmos_source=ROWDEL),
    q("DELETE FROM %s WHERE k = 'k' AND i > 0 IF v = 'foo'", expect=error("Invalid", DRP), cosmos=error("Invalid"), cosmos_source=ROWDEL),
    q("DELETE FROM %s WHERE k = 'k' AND i IN (0, 1) IF v = 'foo'",
      expect=error("Invalid", "IN on the clustering key columns is not supported with conditional deletions"),
      cosmos=error("Invalid"), cosmos_source=ROWDEL),
    q("DELETE FROM %s WHERE k = 'k' AND i IN (0, 1) IF EXISTS",
      expect=error("Invalid", "IN on the clustering key columns is not supported with conditional deletions"),
      cosmos=error("Invalid"), cosmos_source=ROWDEL),
], method="testConditionalDelete")

add("testConditionalDelete.staticCondition", [
    q("CREATE TABLE %s(k int, s int static, i int, v text, PRIMARY KEY(k, i))"),
    q("INSERT INTO %s (k, s, i, v) VALUES ( 1, 1, 2, '1')"),
    q("DELETE v FROM %s WHERE k = 1 AND i = 2 IF s != 1", expect=rows([False, 1]), cosmos=MIXED_ERR, cosmos_source=MIXED),
    q("DELETE v FROM %s WHERE k = 1 AND i = 2 IF s = 1", expect=rows([True]), cosmos=MIXED_ERR, cosmos_source=MIXED),
    q("SELECT * FROM %s WHERE k = 1 AND i = 2", expect=rows([1, 2, 1, None]),
      cosmos=rows([1, 2, 1, "1"]), cosmos_source=MIXED + " (v stays)"),
    q("DELETE FROM %s WHERE  k = 1 AND i = 2 IF s != 1", expect=rows([False, 1]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
    q("DELETE FROM %s WHERE k = 1 AND i = 2 IF s = 1", expect=rows([True]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
    q("SELECT * FROM %s WHERE k = 1 AND i = 2", expect=rows(), cosmos=rows([1, 2, 1, "1"]), cosmos_source=ROWDEL + " (the row stays)"),
    q("SELECT * FROM %s WHERE k = 1", expect=rows([1, None, 1, None]), cosmos=rows([1, 2, 1, "1"]), cosmos_source=ROWDEL + " (the row stays)"),
], method="testConditionalDelete")

M = "testStaticColumnsCas"
SC = "CREATE TABLE %s (id int, k text, version int static, v text, PRIMARY KEY (id, k))"
add(M + ".insert", [
    q(SC),
    q("INSERT INTO %s (id, k, v) VALUES (1, 'foo', 'foo')"),
    q("INSERT INTO %s (id, k, version) VALUES (1, 'foo', 1) IF NOT EXISTS", expect=rows([False, 1, "foo", None, "foo"])),
    q("INSERT INTO %s (id, version) VALUES (1, 1) IF NOT EXISTS", expect=rows([True])),
    q("SELECT * FROM %s", expect=rows([1, "foo", 1, "foo"])),
], method=M)

STAT_ONLY = [0, None, 0, None]
add(M + ".update", [
    q(SC),
    q("INSERT INTO %s(id, version) VALUES (0, 0)"),
    q("UPDATE %s SET v='foo', version=1 WHERE id=0 AND k='k1' IF version = 0", expect=rows([True]), cosmos=MIXED_ERR, cosmos_source=MIXED),
    q("SELECT * FROM %s", expect=rows([0, "k1", 1, "foo"]), cosmos=rows(STAT_ONLY), cosmos_source=MIXED + " (nothing applied)"),
    q("UPDATE %s SET v='bar', version=1 WHERE id=0 AND k='k2' IF version = 0", expect=rows([False, 1]), cosmos=MIXED_ERR, cosmos_source=MIXED),
    q("SELECT * FROM %s", expect=rows([0, "k1", 1, "foo"]), cosmos=rows(STAT_ONLY), cosmos_source=MIXED + " (nothing applied)"),
    q("UPDATE %s SET v='bar', version=2 WHERE id=0 AND k='k2' IF version = 1", expect=rows([True]), cosmos=MIXED_ERR, cosmos_source=MIXED),
    q("SELECT * FROM %s", expect=rows([0, "k1", 2, "foo"], [0, "k2", 2, "bar"]), cosmos=rows(STAT_ONLY),
      cosmos_source=MIXED + " (nothing applied)"),
], method=M)


def lb(body, expect, *values):
    return q("BEGIN BATCH " + body + " APPLY BATCH", *values, expect=expect, cosmos=LOGGED_ERR, cosmos_source=LOGGED)


BASE = [[0, "k1", 2, "foo"], [0, "k2", 2, "bar"]]
add(M + ".batch", [
    q(SC),
    q("INSERT INTO %s (id, k, version, v) VALUES (0, 'k1', 2, 'foo')"),
    q("INSERT INTO %s (id, k, v) VALUES (0, 'k2', 'bar')"),
    lb("UPDATE %s SET v='foobar' WHERE id=0 AND k='k1'; UPDATE %s SET v='barfoo' WHERE id=0 AND k='k2'; "
       "UPDATE %s SET version=3 WHERE id=0 IF version=1; ", rows([False, 0, None, 2])),
    lb("UPDATE %s SET v = 'foobar' WHERE id = 0 AND k = 'k1'; UPDATE %s SET v = 'barfoo' WHERE id = 0 AND k = 'k2'; "
       "UPDATE %s SET version = 3 WHERE id = 0 IF version = 2; ", rows([True])),
    q("SELECT * FROM %s", expect=rows([0, "k1", 3, "foobar"], [0, "k2", 3, "barfoo"]), cosmos=rows(*BASE), cosmos_source=LOGGED),
    lb("UPDATE %s SET version = 4 WHERE id = 0 IF version = 3; UPDATE %s SET v='row1' WHERE id=0 AND k='k1' IF v='foo'; "
       "UPDATE %s SET v='row2' WHERE id=0 AND k='k2' IF v='bar'; ",
       rows([False, 0, "k1", 3, "foobar"], [False, 0, "k2", 3, "barfoo"])),
    lb("UPDATE %s SET version = 4 WHERE id = 0 IF version = 3; UPDATE %s SET v='row1' WHERE id = 0 AND k='k1' IF v='foobar'; "
       "UPDATE %s SET v='row2' WHERE id = 0 AND k='k2' IF v='barfoo'; ", rows([True])),
    q("SELECT * FROM %s", expect=rows([0, "k1", 4, "row1"], [0, "k2", 4, "row2"]), cosmos=rows(*BASE), cosmos_source=LOGGED),
    lb("UPDATE %s SET version=5 WHERE id=0 IF version=4; UPDATE %s SET v='row1' WHERE id=0 AND k='k1'; "
       "UPDATE %s SET v='row2' WHERE id=1 AND k='k2'; ", error("Invalid")),
], method=M, cassandra_version="3.11",
    notes="4.0.x and later put the full primary key in the [applied]=false row of a conditional batch "
          "(row(false, 0, 'k1', 2) for the first batch); this case keeps 3.11's row(false, 0, null, 2)")

add(M + ".batchInsert", [
    q(SC),
    lb("INSERT INTO %s (id, k, v) VALUES (1, 'k1', 'val1') IF NOT EXISTS; INSERT INTO %s (id, k, v) VALUES (1, 'k2', 'val2') IF NOT EXISTS; ",
       rows([True])),
    q("INSERT INTO %s (id, k, v) VALUES (1, 'k1', 'val1') IF NOT EXISTS", expect=rows([False, 1, "k1", None, "val1"]),
      cosmos=rows([True]), cosmos_source=LOGGED + " (the batch wrote nothing)"),
    q("INSERT INTO %s (id, k, v) VALUES (1, 'k2', 'val2') IF NOT EXISTS", expect=rows([False, 1, "k2", None, "val2"]),
      cosmos=rows([True]), cosmos_source=LOGGED + " (the batch wrote nothing)"),
    q("SELECT * FROM %s WHERE id=1", expect=rows([1, "k1", None, "val1"], [1, "k2", None, "val2"])),
    lb("INSERT INTO %s (id, k, v) VALUES (1, 'k2', 'val2') IF NOT EXISTS; INSERT INTO %s (id, k, v) VALUES (1, 'k3', 'val3') IF NOT EXISTS;",
       rows([False, 1, "k2", None, "val2"])),
    lb("UPDATE %s SET v = 'newVal' WHERE id = 1 AND k = 'k2' IF v = 'val0'; INSERT INTO %s (id, k, v) VALUES (1, 'k3', 'val3') IF NOT EXISTS;",
       rows([False, 1, "k2", None, "val2"])),
    q("SELECT * FROM %s WHERE id=1", expect=rows([1, "k1", None, "val1"], [1, "k2", None, "val2"])),
    lb("UPDATE %s SET v = 'newVal' WHERE id = 1 AND k = 'k2' IF v = 'val2'; "
       "INSERT INTO %s (id, k, v, version) VALUES(1, 'k3', 'val3', 1) IF NOT EXISTS;", rows([True])),
    q("SELECT * FROM %s WHERE id=1", expect=rows([1, "k1", 1, "val1"], [1, "k2", 1, "newVal"], [1, "k3", 1, "val3"]),
      cosmos=rows([1, "k1", None, "val1"], [1, "k2", None, "val2"]), cosmos_source=LOGGED),
    lb("UPDATE %s SET v = 'newVal1' WHERE id = 1 AND k = 'k2' IF v = 'val2'; UPDATE %s SET v = 'newVal2' WHERE id = 1 AND k = 'k2' IF v = 'val3';",
       rows([False, 1, "k2", "newVal"])),
], method=M)

add("testInsertSetIfNotExists", [
    q("CREATE TABLE %s (k int PRIMARY KEY, s set<int>)"),
    q("INSERT INTO %s (k, s) VALUES (0, {1, 2, 3}) IF NOT EXISTS", expect=rows([True])),
    q("SELECT * FROM %s ", expect=rows([0, {1, 2, 3}])),
])

add("testCasAndTTL", [
    q("CREATE TABLE %s (k int PRIMARY KEY, v int, lock boolean)"),
    q("INSERT INTO %s (k, v, lock) VALUES (0, 0, false)"),
    q("UPDATE %s USING TTL 100 SET lock=true WHERE k=0"),
    q("UPDATE %s SET v = 1 WHERE k = 0 IF lock = null", expect=rows([False, True])),
    q("DELETE lock FROM %s WHERE k = 0"),
    q("UPDATE %s SET v = 1 WHERE k = 0 IF lock = null", expect=rows([True])),
    q("SELECT v, lock FROM %s WHERE k = 0", expect=rows([1, None])),
])


def udt_conditions(frozen, stored, applies, not_applies, invalid=()):
    v = None if stored is None else udt(**stored)
    steps = [q("CREATE TYPE {ks}.{type1} (a int, b text)"),
             q("CREATE TABLE %%s (k int PRIMARY KEY, v %s)" % ("frozen<{type1}>" if frozen else "{type1}")),
             q("INSERT INTO %s (k, v) VALUES (0, ?)", v)]
    for c in applies:
        steps.append(q("UPDATE %s SET v = ? WHERE k = 0 IF " + c, v, expect=rows([True])))
    for c in not_applies:
        steps.append(q("UPDATE %s SET v = ? WHERE k = 0 IF " + c, v, expect=rows([False, stored])))
    for c, kind in invalid:
        steps.append(q("UPDATE %s SET v = ?  WHERE k = 0 IF " + c, v, expect=error(kind)))
    steps.append(q("SELECT * FROM %s", expect=rows([0, stored])))
    return steps


W = {
    "full": ({"a": 0, "b": "abc"},
             ["v = {a: 0, b: 'abc'}", "v != null", "v != {a: 1, b: 'abc'}", "v != {a: 0, b: 'def'}", "v > {a: -1, b: 'abc'}",
              "v > {a: 0, b: 'aaa'}", "v > {a: 0}", "v >= {a: 0, b: 'aaa'}", "v >= {a: 0, b: 'abc'}", "v < {a: 0, b: 'zzz'}",
              "v < {a: 1, b: 'abc'}", "v < {a: 1}", "v <= {a: 0, b: 'zzz'}", "v <= {a: 0, b: 'abc'}",
              "v IN (null, {a: 0, b: 'abc'}, {a: 1})", "v > {a: -1, b: 'abc'} AND v > {a: 0}", "v != null AND v IN ({a: 0, b: 'abc'})"],
             ["v = {a: 0, b: 'def'}", "v = {a: 1, b: 'abc'}", "v = null", "v != {a: 0, b: 'abc'}", "v > {a: 1, b: 'abc'}",
              "v > {a: 0, b: 'zzz'}", "v >= {a: 1, b: 'abc'}", "v >= {a: 0, b: 'zzz'}", "v < {a: -1, b: 'abc'}", "v < {a: 0, b: 'aaa'}",
              "v <= {a: -1, b: 'abc'}", "v <= {a: 0, b: 'aaa'}", "v IN ({a: 0}, {b: 'abc'}, {a: 0, b: 'def'}, null)", "v IN ()",
              "v IN () AND v IN ({a: 0, b: 'abc'})", "v > {a: 0, b: 'aaa'} AND v < {a: 0, b: 'aaa'}"],
             [("v = {a: 1, b: 'abc', c: 'foo'}", "Invalid"), ("v = {foo: 'foo'}", "Invalid"), ("v < {a: 1, b: 'abc', c: 'foo'}", "Invalid"),
              ("v < null", "Invalid"), ("v <= null", "Invalid"), ("v > null", "Invalid"), ("v >= null", "Invalid"),
              ("v IN null", "Syntax"), ("v IN 367", "Syntax"), ("v CONTAINS KEY 123", "Syntax"), ("v CONTAINS 'bar'", "Syntax")]),
    "nullSuffix": ({"a": 0, "b": None},
                   ["v = {a: 0}", "v = {a: 0, b: null}", "v != null", "v != {a: 1, b: null}", "v != {a: 1}", "v != {a: 0, b: 'def'}",
                    "v > {a: -1, b: 'abc'}", "v > {a: -1}", "v >= {a: 0}", "v >= {a: -1, b: 'abc'}", "v < {a: 0, b: 'zzz'}",
                    "v < {a: 1, b: 'abc'}", "v < {a: 1}", "v <= {a: 0, b: 'zzz'}", "v <= {a: 0}", "v IN (null, {a: 0, b: 'abc'}, {a: 0})",
                    "v > {a: -1, b: 'abc'} AND v >= {a: 0}", "v != null AND v IN ({a: 0}, {a: 0, b: null})"],
                   ["v = {a: 0, b: 'def'}", "v = {a: 1}", "v = {b: 'abc'}", "v = null", "v != {a: 0}", "v != {a: 0, b: null}",
                    "v > {a: 1, b: 'abc'}", "v > {a: 0}", "v >= {a: 1, b: 'abc'}", "v >= {a: 1}", "v < {a: -1, b: 'abc'}", "v < {a: -1}",
                    "v < {a: 0}", "v <= {a: -1, b: 'abc'}", "v <= {a: -1}", "v IN ({a: 1}, {b: 'abc'}, {a: 0, b: 'def'}, null)",
                    "v IN ()", "v IN () AND v IN ({a: 0})", "v > {a: -1} AND v < {a: 0}"], []),
    "nullPrefix": ({"a": None, "b": "abc"},
                   ["v = {a: null, b: 'abc'}", "v = {b: 'abc'}", "v != null", "v != {a: 0, b: 'abc'}", "v != {a: 0}", "v != {b: 'def'}",
                    "v > {a: null, b: 'aaa'}", "v > {b: 'aaa'}", "v >= {a: null, b: 'aaa'}", "v >= {b: 'abc'}", "v < {a: null, b: 'zzz'}",
                    "v < {a: 0, b: 'abc'}", "v < {a: 0}", "v < {b: 'zzz'}", "v <= {a: null, b: 'zzz'}", "v <= {a: 0}", "v <= {b: 'abc'}",
                    "v IN (null, {a: null, b: 'abc'}, {a: 0})", "v IN (null, {a: 0, b: 'abc'}, {b: 'abc'})",
                    "v > {b: 'aaa'} AND v >= {b: 'abc'}", "v != null AND v IN ({a: 0}, {a: null, b: 'abc'})"],
                   ["v = {a: 0, b: 'def'}", "v = {a: 1}", "v = {b: 'def'}", "v = null", "v != {b: 'abc'}", "v != {a: null, b: 'abc'}",
                    "v > {a: 1, b: 'abc'}", "v > {a: null, b: 'zzz'}", "v > {b: 'zzz'}", "v >= {a: null, b: 'zzz'}", "v >= {a: 1}",
                    "v >= {b: 'zzz'}", "v < {a: null, b: 'aaa'}", "v < {b: 'aaa'}", "v <= {a: null, b: 'aaa'}", "v <= {b: 'aaa'}",
                    "v IN ({a: 1}, {a: 1, b: 'abc'}, {a: null, b: 'def'}, null)", "v IN ()", "v IN () AND v IN ({b: 'abc'})",
                    "v IN () AND v IN ({a: null, b: 'abc'})", "v > {a: -1} AND v < {a: 0}"], []),
    "null": (None,
             ["v = null", "v IN (null, {a: null, b: 'abc'}, {a: 0})", "v IN (null, {a: 0, b: 'abc'}, {b: 'abc'})",
              "v = null AND v IN (null, {a: 0}, {a: null, b: 'abc'})"],
             ["v = {a: 0, b: 'def'}", "v = {a: 1}", "v = {b: 'def'}", "v != null", "v > {a: 1, b: 'abc'}", "v > {a: null, b: 'zzz'}",
              "v > {b: 'zzz'}", "v >= {a: null, b: 'zzz'}", "v >= {a: 1}", "v >= {b: 'zzz'}", "v < {a: null, b: 'aaa'}", "v < {b: 'aaa'}",
              "v <= {a: null, b: 'aaa'}", "v <= {b: 'aaa'}", "v IN ({a: 1}, {a: 1, b: 'abc'}, {a: null, b: 'def'})", "v IN ()",
              "v IN () AND v IN ({b: 'abc'})", "v > {a: -1} AND v < {a: 0}"], []),
}
for frozen in (False, True):
    for name, (stored, ap, nap, invd) in W.items():
        add("testWholeUDT.%s.%s" % ("frozen" if frozen else "multicell", name),
            udt_conditions(frozen, stored, ap, nap, invd), method="testWholeUDT")

F = {
    "full": ({"a": 0, "b": "abc"},
             ["v.a = 0", "v.b = 'abc'", "v.a < 1", "v.b < 'zzz'", "v.b <= 'bar'", "v.b > 'aaa'", "v.b >= 'abc'", "v.a != -1",
              "v.b != 'xxx'", "v.a != null", "v.b != null", "v.a IN (null, 0, 1)", "v.b IN (null, 'xxx', 'abc')",
              "v.b > 'aaa' AND v.b < 'zzz'", "v.a = 0 AND v.b > 'aaa'"],
             ["v.a = -1", "v.b = 'xxx'", "v.a < -1", "v.b < 'aaa'", "v.b <= 'aaa'", "v.b > 'zzz'", "v.b >= 'zzz'", "v.a != 0",
              "v.b != 'abc'", "v.a IN (null, -1)", "v.b IN (null, 'xxx')", "v.a IN ()", "v.b IN ()", "v.b != null AND v.b IN ()"],
             [("v.c = null", "Invalid"), ("v.a < null", "Invalid"), ("v.a <= null", "Invalid"), ("v.a > null", "Invalid"),
              ("v.a >= null", "Invalid"), ("v.a IN null", "Syntax"), ("v.a IN 367", "Syntax"), ("v.b IN (1, 2, 3)", "Invalid"),
              ("v.a CONTAINS 367", "Syntax"), ("v.a CONTAINS KEY 367", "Syntax")]),
    "nullSuffix": ({"a": 0, "b": None},
                   ["v.a = 0", "v.b = null", "v.b != 'xxx'", "v.a != null", "v.a IN (null, 0, 1)", "v.b IN (null, 'xxx', 'abc')",
                    "v.a = 0 AND v.b = null"],
                   ["v.b = 'abc'", "v.a < -1", "v.b < 'aaa'", "v.b <= 'aaa'", "v.b > 'zzz'", "v.b >= 'zzz'", "v.a != 0", "v.b != null",
                    "v.a IN (null, -1)", "v.b IN ('xxx', 'abc')", "v.a IN ()", "v.b IN ()", "v.b != null AND v.b IN ()"], []),
    "nullPrefix": ({"a": None, "b": "abc"},
                   ["v.a = null", "v.b = 'abc'", "v.a != 0", "v.b != null", "v.a IN (null, 0, 1)", "v.b IN (null, 'xxx', 'abc')",
                    "v.a = null AND v.b = 'abc'"],
                   ["v.a = 0", "v.a < -1", "v.b >= 'zzz'", "v.a != null", "v.b != 'abc'", "v.a IN (-1, 0)", "v.b IN (null, 'xxx')",
                    "v.a IN ()", "v.b IN ()", "v.b != null AND v.b IN ()"], []),
    "null": (None,
             ["v.a = null", "v.b = null", "v.a != 0", "v.b != 'abc'", "v.a IN (null, 0, 1)", "v.b IN (null, 'xxx', 'abc')",
              "v.a = null AND v.b = null"],
             ["v.a = 0", "v.a < -1", "v.b >= 'zzz'", "v.a != null", "v.b != null", "v.a IN (-1, 0)", "v.b IN ('xxx', 'abc')",
              "v.a IN ()", "v.b IN ()", "v.b != null AND v.b IN ()"], []),
}
for frozen in (False, True):
    for name, (stored, ap, nap, invd) in F.items():
        add("testUDTField.%s.%s" % ("frozen" if frozen else "multicell", name),
            udt_conditions(frozen, stored, ap, nap, invd), method="testUDTField")


def coll_conditions(col, ctype, literal, value, applies, not_applies, invalid):
    steps = [q("CREATE TABLE %%s (k int PRIMARY KEY, %s %s)" % (col, ctype)),
             q("INSERT INTO %%s (k, %s) VALUES (0, %s)" % (col, literal))]
    upd = "UPDATE %%s SET %s = %s WHERE k=0 IF " % (col, literal)
    steps += [q(upd + c, expect=rows([True])) for c in applies]
    steps += [q(upd + c, expect=rows([False, value])) for c in not_applies]
    steps += [q(upd + c, expect=error(kind)) for c, kind in invalid]
    steps.append(q("SELECT * FROM %s", expect=rows([0, value])))
    return steps


LV = ["foo", "bar", "foobar"]
LISTW = (["l = ['foo', 'bar', 'foobar']", "l != ['baz']", "l > ['a']", "l >= ['a']", "l < ['z']", "l <= ['z']",
          "l IN (null, ['foo', 'bar', 'foobar'], ['a'])", "l > ['aaa', 'bbb'] AND l > ['aaa']", "l != null AND l IN (['foo', 'bar', 'foobar'])"],
         ["l = ['baz']", "l != ['foo', 'bar', 'foobar']", "l > ['z']", "l >= ['z']", "l < ['a']", "l <= ['a']", "l IN (['a'], null)",
          "l IN ()", "l IN () AND l IN (['foo', 'bar', 'foobar'])", "l > ['zzz'] AND l < ['zzz']"],
         [("l = [null]", "Invalid"), ("l < null", "Invalid"), ("l <= null", "Invalid"), ("l > null", "Invalid"), ("l >= null", "Invalid"),
          ("l IN null", "Syntax"), ("l IN 367", "Syntax"), ("l CONTAINS KEY 123", "Syntax"), ("m CONTAINS 'bar'", "Syntax")])
LISTX = (["l[1] < 'zzz'", "l[1] <= 'bar'", "l[1] > 'aaa'", "l[1] >= 'bar'", "l[1] != 'xxx'", "l[1] != null", "l[1] IN (null, 'xxx', 'bar')",
          "l[1] > 'aaa' AND l[1] < 'zzz'", "l[3] = null", "l[3] IN (null, 'xxx', 'bar')"],
         ["l[1] < 'aaa'", "l[1] <= 'aaa'", "l[1] > 'zzz'", "l[1] >= 'zzz'", "l[1] != 'bar'", "l[1] IN (null, 'xxx')", "l[1] IN ()",
          "l[1] != null AND l[1] IN ()", "l[3] != null", "l[3] = 'xxx'"],
         [("l[1] < null", "Invalid"), ("l[1] <= null", "Invalid"), ("l[1] > null", "Invalid"), ("l[1] >= null", "Invalid"),
          ("l[1] IN null", "Syntax"), ("l[1] IN 367", "Syntax"), ("l[1] IN (1, 2, 3)", "Invalid"), ("l[1] CONTAINS 367", "Syntax"),
          ("l[1] CONTAINS KEY 367", "Syntax"), ("l[null] = null", "Invalid")])
SETW = (["s = {'bar', 'foo'}", "s = {'foo', 'bar'}", "s != {'baz'}", "s > {'a'}", "s >= {'a'}", "s < {'z'}", "s <= {'z'}",
         "s IN (null, {'bar', 'foo'}, {'a'})", "s > {'a'} AND s < {'z'}",
         "s IN (null, {'bar', 'foo'}, {'a'}) AND s IN ({'a'}, {'bar', 'foo'}, null)"],
        ["s = {'baz'}", "s != {'bar', 'foo'}", "s > {'z'}", "s >= {'z'}", "s < {'a'}", "s <= {'a'}", "s IN ({'a'}, null)", "s IN ()",
         "s != null AND s IN ()"],
        [("s = {null}", "Invalid"), ("s < null", "Invalid"), ("s <= null", "Invalid"), ("s > null", "Invalid"), ("s >= null", "Invalid"),
         ("s IN null", "Syntax"), ("s IN 367", "Syntax"), ("s CONTAINS KEY 123", "Syntax"), ("s['foo'] = 'foobar'", "Invalid"),
         ("m CONTAINS 'bar'", "Syntax")])
MAPW = (["m = {'foo': 'bar'}", "m > {'a': 'a'}", "m >= {'a': 'a'}", "m < {'z': 'z'}", "m <= {'z': 'z'}", "m != {'a': 'a'}",
         "m IN (null, {'a': 'a'}, {'foo': 'bar'})", "m > {'a': 'a'} AND m < {'z': 'z'}", "m != null AND m IN (null, {'a': 'a'}, {'foo': 'bar'})"],
        ["m = {'a': 'a'}", "m > {'z': 'z'}", "m >= {'z': 'z'}", "m < {'a': 'a'}", "m <= {'a': 'a'}", "m != {'foo': 'bar'}",
         "m IN ({'a': 'a'}, null)", "m IN ()", "m = null AND m != null"],
        [("m = {null: null}", "Invalid"), ("m = {'a': null}", "Invalid"), ("m = {null: 'a'}", "Invalid"), ("m < null", "Invalid"),
         ("m IN null", "Syntax"), ("m CONTAINS 'bar'", "Syntax"), ("m CONTAINS KEY 'foo'", "Syntax"), ("m CONTAINS null", "Syntax"),
         ("m CONTAINS KEY null", "Syntax")])
MAPX = (["m['xxx'] = null", "m['foo'] < 'zzz'", "m['foo'] <= 'bar'", "m['foo'] > 'aaa'", "m['foo'] >= 'bar'", "m['foo'] != 'xxx'",
         "m['foo'] != null", "m['foo'] IN (null, 'xxx', 'bar')", "m['xxx'] IN (null, 'xxx', 'bar')", "m['foo'] < 'zzz' AND m['foo'] > 'aaa'"],
        ["m['foo'] < 'aaa'", "m['foo'] <= 'aaa'", "m['foo'] > 'zzz'", "m['foo'] >= 'zzz'", "m['foo'] != 'bar'", "m['xxx'] != null",
         "m['foo'] IN (null, 'xxx')", "m['foo'] IN ()", "m['foo'] != null AND m['foo'] = null"],
        [("m['foo'] < null", "Invalid"), ("m['foo'] <= null", "Invalid"), ("m['foo'] > null", "Invalid"), ("m['foo'] >= null", "Invalid"),
         ("m['foo'] IN null", "Syntax"), ("m['foo'] IN 367", "Syntax"), ("m['foo'] IN (1, 2, 3)", "Invalid"),
         ("m['foo'] CONTAINS 367", "Syntax"), ("m['foo'] CONTAINS KEY 367", "Syntax"), ("m[null] = null", "Invalid")])
for frozen in (False, True):
    fz = "frozen" if frozen else "multicell"
    lt = "frozen<list<text>>" if frozen else "list<text>"
    st = "frozen<set<text>>" if frozen else "set<text>"
    mt = "frozen<map<text, text>>" if frozen else "map<text, text>"
    add("testWholeList." + fz, coll_conditions("l", lt, "['foo', 'bar', 'foobar']", LV, *LISTW), method="testWholeList")
    add("testExpandedListItem." + fz, coll_conditions("l", lt, "['foo', 'bar', 'foobar']", LV, *LISTX), method="testExpandedListItem")
    add("testWholeSet." + fz, coll_conditions("s", st, "{'bar', 'foo'}", {"bar", "foo"}, *SETW), method="testWholeSet")
    add("testWholeMap." + fz, coll_conditions("m", mt, "{'foo': 'bar'}", {"foo": "bar"}, *MAPW), method="testWholeMap")
    add("testExpandedMapItem." + fz, coll_conditions("m", mt, "{'foo': 'bar'}", {"foo": "bar"}, *MAPX), method="testExpandedMapItem")
    add("testListItem." + fz, [
        q("CREATE TABLE %s (k int PRIMARY KEY, l " + lt + ")"),
        q("INSERT INTO %s(k, l) VALUES (0, ['foo', 'bar', 'foobar'])"),
        q("DELETE FROM %s WHERE k=0 IF l[null] = 'foobar'", expect=error("Invalid")),
        q("DELETE FROM %s WHERE k=0 IF l[-2] = 'foobar'", expect=error("Invalid")),
        q("DELETE FROM %s WHERE k=0 IF l[1] = null", expect=rows([False, LV]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
        q("DELETE FROM %s WHERE k=0 IF l[1] = 'foobar'", expect=rows([False, LV]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
        q("SELECT * FROM %s", expect=rows([0, LV])),
        q("DELETE FROM %s WHERE k=0 IF l[1] = 'bar'", expect=rows([True]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
        q("SELECT * FROM %s", expect=rows(), cosmos=rows([0, LV]), cosmos_source=ROWDEL + " (the row stays)"),
    ], method="testListItem")
    add("testMapItem." + fz, [
        q("CREATE TABLE %s (k int PRIMARY KEY, m " + mt + ")"),
        q("INSERT INTO %s (k, m) VALUES (0, {'foo' : 'bar'})"),
        q("DELETE FROM %s WHERE k=0 IF m[null] = 'foo'", expect=error("Invalid")),
        q("DELETE FROM %s WHERE k=0 IF m['foo'] = 'foo'", expect=rows([False, {"foo": "bar"}]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
        q("DELETE FROM %s WHERE k=0 IF m['foo'] = null", expect=rows([False, {"foo": "bar"}]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
        q("SELECT * FROM %s", expect=rows([0, {"foo": "bar"}])),
        q("DELETE FROM %s WHERE k=0 IF m['foo'] = 'bar'", expect=rows([True]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
        q("SELECT * FROM %s WHERE k = 0", expect=rows(), cosmos=rows([0, {"foo": "bar"}]), cosmos_source=ROWDEL + " (the row stays)"),
        q("INSERT INTO %s(k, m) VALUES (1, null)"),
        q("UPDATE %s set m['foo'] = 'bar', m['bar'] = 'foo' WHERE k = 1 IF m['foo'] IN ('blah', null)",
          expect=error("Invalid") if frozen else rows([True])),
    ], method="testMapItem")

add("testCasAndListIndex", [
    q("CREATE TABLE %s ( k int PRIMARY KEY, v text, l list<text>)"),
    q("INSERT INTO %s (k, v, l) VALUES(0, 'foobar', ['foi', 'bar'])"),
    q("UPDATE %s SET l[0] = 'foo' WHERE k = 0 IF v = 'barfoo'", expect=rows([False, "foobar"])),
    q("UPDATE %s SET l[0] = 'foo' WHERE k = 0 IF v = 'foobar'", expect=rows([True])),
    q("SELECT * FROM %s", expect=rows([0, ["foo", "bar"], "foobar"])),
])

add("testDropCreateKeyspaceIfNotExists", [
    q("DROP KEYSPACE IF EXISTS {ks}_pt"),
    q("DROP KEYSPACE IF EXISTS {ks}_pt"),
    q("CREATE KEYSPACE IF NOT EXISTS {ks}_pt WITH replication = { 'class':'SimpleStrategy', 'replication_factor':1} and durable_writes = true "),
    q("select durable_writes from system_schema.keyspaces where keyspace_name = '{ks}_pt'", expect=rows([True])),
    q("CREATE KEYSPACE IF NOT EXISTS {ks}_pt WITH replication = {'class':'SimpleStrategy', 'replication_factor':1} and durable_writes = false "),
    q("select durable_writes from system_schema.keyspaces where keyspace_name = '{ks}_pt'", expect=rows([True])),
    q("DROP KEYSPACE IF EXISTS {ks}_pt"),
    q("select * from system_schema.keyspaces where keyspace_name = '{ks}_pt'", expect=rows()),
])

add("testDropCreateTableIfNotExists", [
    q("DROP TABLE IF EXISTS {ks}.{t2}"),
    q("CREATE TABLE IF NOT EXISTS {ks}.{t2} (id text PRIMARY KEY, value1 blob) with comment = 'foo'"),
    q("select comment from system_schema.tables where keyspace_name = '{ks}' and table_name = '{t2}'", expect=rows(["foo"])),
    q("CREATE TABLE IF NOT EXISTS {ks}.{t2} (id text PRIMARY KEY, value2 blob)with comment = 'bar'"),
    q("select comment from system_schema.tables where keyspace_name = '{ks}' and table_name = '{t2}'", expect=rows(["foo"])),
    q("DROP TABLE IF EXISTS {ks}.{t2}"),
    q("select * from system_schema.tables where keyspace_name = '{ks}' and table_name = '{t2}'", expect=rows()),
])

add("testDropCreateIndexIfNotExists", [
    q("CREATE TABLE %s (id text PRIMARY KEY, value1 blob, value2 blob)with comment = 'foo'"),
    q("use {ks}"),
    q("DROP INDEX IF EXISTS myindex"),
    q("CREATE INDEX IF NOT EXISTS myindex ON %s (value1)"),
    q("CREATE INDEX IF NOT EXISTS myindex ON %s (value1)"),
    q("SELECT index_name FROM system_schema.indexes WHERE keyspace_name = '{ks}' AND table_name = 't'", expect=rows(["myindex"])),
    q("DROP INDEX IF EXISTS myindex"),
    q("SELECT index_name FROM system_schema.indexes WHERE keyspace_name = '{ks}' AND table_name = 't'", expect=rows()),
])

add("testDropCreateTypeIfNotExists", [
    q("use {ks}"),
    q("DROP TYPE IF EXISTS mytype"),
    q("CREATE TYPE IF NOT EXISTS mytype (somefield int)"),
    q("SELECT type_name from system_schema.types where keyspace_name = '{ks}' and type_name = 'mytype'", expect=rows(["mytype"])),
    q("CREATE TYPE IF NOT EXISTS mytype (somefield blob)"),
    q("SELECT field_types from system_schema.types where keyspace_name = '{ks}' and type_name = 'mytype'", expect=rows([["int"]])),
    q("DROP TYPE IF EXISTS mytype"),
    q("SELECT type_name from system_schema.types where keyspace_name = '{ks}' and type_name = 'mytype'", expect=rows()),
])
