"""Cases ported from Apache Cassandra's InsertUpdateIfConditionCollectionsTest
(cql3/validation/operations, 4.0 line; split out of InsertUpdateIfConditionTest by CASSANDRA-16670).

Only the methods not already ported from InsertUpdateIfConditionTest are here (bind-marker
forms). Left out: the CONTAINS / CONTAINS KEY conditions of the stored version (a 5.0
addition; 3.11/4.0 refuse them), the clusterMinVersion parameterisation.
"""
from cassandra.query import UNSET_VALUE

from conformance import case, q, rows, rows_any_order, ok, error, udt

SRC = "cql3/validation/operations/InsertUpdateIfConditionCollectionsTest.java#%s (4.0)"
ROWDEL = "cosmos-cassandra-api-facts.md §5/§5.1: Conditional delete of an entire row is not supported"
ROWDEL_ERR = error("Invalid", "Conditional delete of an entire row is not supported")
CASES = []


def add(name, steps, method=None):
    CASES.append(case("InsertUpdateIfConditionCollectionsTest." + name, origin=SRC % (method or name.split(".")[0]), steps=steps))


add("testFrozenWithNullValues", [
    q("CREATE TABLE %s (k int PRIMARY KEY, m frozen<list<text>>)"),
    q("INSERT INTO %s (k, m) VALUES (0, null)"),
    q("UPDATE %s SET m = ? WHERE k = 0 IF m = ?", ["test"], ["comparison"], expect=rows([False, None])),
    q("CREATE TABLE {ks}.{t2} (k int PRIMARY KEY, m frozen<map<text,int>>)"),
    q("INSERT INTO {ks}.{t2} (k, m) VALUES (0, null)"),
    q("UPDATE {ks}.{t2} SET m = ? WHERE k = 0 IF m = ?", {"test": 3}, {"comparison": 2}, expect=rows([False, None])),
    q("CREATE TABLE {ks}.{t3} (k int PRIMARY KEY, m frozen<set<text>>)"),
    q("INSERT INTO {ks}.{t3} (k, m) VALUES (0, null)"),
    q("UPDATE {ks}.{t3} SET m = ? WHERE k = 0 IF m = ?", {"test"}, {"comparison"}, expect=rows([False, None])),
])

for frozen in (False, True):
    mt = "frozen<map<text, text>>" if frozen else "map<text, text>"
    add("testMapItem.bindMarkers." + ("frozen" if frozen else "multicell"), [
        q("CREATE TABLE %s (k int PRIMARY KEY, m " + mt + ")"),
        q("INSERT INTO %s (k, m) VALUES (0, {'foo' : 'bar'})"),
        q("DELETE FROM %s WHERE k=0 IF m[?] = ?", None, "foo", expect=error("Invalid", "Invalid null value for map element access")),
        q("DELETE FROM %s WHERE k=0 IF m[?] = ?", "foo", "foo", expect=rows([False, {"foo": "bar"}]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
        q("DELETE FROM %s WHERE k=0 IF m[?] = ?", "foo", None, expect=rows([False, {"foo": "bar"}]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
        q("SELECT * FROM %s", expect=rows([0, {"foo": "bar"}])),
        q("DELETE FROM %s WHERE k=0 IF m[?] = ?", "foo", "bar", expect=rows([True]), cosmos=ROWDEL_ERR, cosmos_source=ROWDEL),
        q("SELECT * FROM %s", expect=rows(), cosmos=rows([0, {"foo": "bar"}]), cosmos_source=ROWDEL + " (the row stays)"),
        q("INSERT INTO %s(k, m) VALUES (1, null)"),
        q("UPDATE %s set m['foo'] = 'bar', m['bar'] = 'foo' WHERE k = 1 IF m[?] IN (?, ?)", "foo", "blah", None,
          expect=error("Invalid", "Invalid operation (m['foo'] = 'bar') for frozen collection column m") if frozen else rows([True])),
    ], method="testMapItem")

V = {"a": 0, "b": "abc"}
for frozen in (False, True):
    tt = "frozen<{type1}>" if frozen else "{type1}"
    U = "UPDATE %s SET v = {a: 0, b: 'bc'} WHERE k = 0 IF "
    add("testInMarkerWithUDTs." + ("frozen" if frozen else "multicell"), [
        q("CREATE TYPE {ks}.{type1} (a int, b text)"),
        q("CREATE TABLE %s (k int PRIMARY KEY, v " + tt + ")"),
        q("INSERT INTO %s (k, v) VALUES (0, ?)", udt(a=0, b="abc")),
        q(U + "v IN (?, ?)", udt(a=1, b="abc"), udt(a=0, b="ac"), expect=rows([False, V])),
        q(U + "v IN (?, ?)", udt(a=1, b="abc"), None, expect=rows([False, V])),
        q(U + "v IN (?, ?)", None, None, expect=rows([False, V])),
        q(U + "v IN (?, ?)", udt(a=1, b="abc"), UNSET_VALUE, expect=rows([False, V])),
        q(U + "v IN (?, ?)", UNSET_VALUE, UNSET_VALUE, expect=rows([False, V])),
        q(U + "v IN ?", [udt(a=1, b="abc"), udt(a=0, b="ac")], expect=rows([False, V])),
        q(U + "v.a IN (?, ?)", 1, 2, expect=rows([False, V])),
        q(U + "v.a IN (?, ?)", 1, None, expect=rows([False, V])),
        q(U + "v.a IN ?", [1, 2], expect=rows([False, V])),
        q(U + "v.a IN (?, ?)", 1, UNSET_VALUE, expect=rows([False, V])),
        q(U + "v IN (?, ?)", udt(a=0, b="abc"), udt(a=0, b="ac"), expect=rows([True])),
        q("UPDATE %s SET v = {a: 1, b: 'bc'} WHERE k = 0 IF v IN (?, ?)", udt(a=0, b="bc"), None, expect=rows([True])),
        q("UPDATE %s SET v = {a: 0, b: 'abc'} WHERE k = 0 IF v IN ?", [udt(a=1, b="bc"), udt(a=0, b="ac")], expect=rows([True])),
        q("UPDATE %s SET v = {a: 1, b: 'bc'} WHERE k = 0 IF v IN (?, ?, ?)", udt(a=1, b="bc"), UNSET_VALUE, udt(a=0, b="abc"),
          expect=rows([True])),
        q(U + "v.a IN (?, ?)", 1, 0, expect=rows([True])),
        q("UPDATE %s SET v = {a: 0, b: 'abc'} WHERE k = 0 IF v.a IN (?, ?)", 0, None, expect=rows([True])),
        q(U + "v.a IN ?", [0, 1], expect=rows([True])),
        q("UPDATE %s SET v = {a: 0, b: 'abc'} WHERE k = 0 IF v.a IN (?, ?, ?)", 1, UNSET_VALUE, 0, expect=rows([True])),
        q(U + "v IN ?", None, expect=error("Invalid", "Invalid null list in IN condition")),
        q(U + "v IN ?", UNSET_VALUE, expect=error("Invalid", "Invalid 'unset' value in condition")),
        q(U + "v.a IN ?", UNSET_VALUE, expect=error("Invalid", "Invalid 'unset' value in condition")),
        q("SELECT * FROM %s", expect=rows([0, {"a": 0, "b": "abc"}])),
    ], method="testInMarkerWithUDTs")


def empty_coll(col, ctype, empty, other, small):
    U = "UPDATE %%s SET %s = null WHERE k = 0 IF %s " % (col, col)
    return [
        q("CREATE TABLE %%s (k int PRIMARY KEY, %s %s)" % (col, ctype)),
        q("INSERT INTO %%s (k, %s) VALUES (0, null)" % col),
        q(U + "= ?", None, expect=rows([True])),
        q(U + "= ?", empty, expect=rows([True])),
        q(U + "!= ?", other, expect=rows([True])),
        q(U + "< ?", small, expect=rows([True])),
        q(U + "<= ?", small, expect=rows([True])),
        q(U + "IN (?, ?)", None, other, expect=rows([True])),
        q(U + "= ?", other, expect=rows([False, None])),
        q(U + "> ?", small, expect=rows([False, None])),
        q(U + ">= ?", small, expect=rows([False, None])),
    ]


add("testNonFrozenEmptyCollection.list", empty_coll("l", "list<text>", [], ["bar"], ["a"]), method="testNonFrozenEmptyCollection")
add("testNonFrozenEmptyCollection.set", empty_coll("s", "set<text>", set(), {"bar"}, {"a"}), method="testNonFrozenEmptyCollection")
add("testNonFrozenEmptyCollection.map", empty_coll("m", "map<text, text>", {}, {"foo": "bar"}, {"a": "a"}),
    method="testNonFrozenEmptyCollection")
