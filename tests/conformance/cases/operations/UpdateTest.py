"""Cases ported from Apache Cassandra's UpdateTest (cql3/validation/operations, 3.11 line).

Left out: the COMPACT STORAGE halves of each method (no compact tables in the emulator), the
flush() calls (no CQL-visible effect), testUpdateColumnType (ALTER ... TYPE, refused since 3.0.11
and gone from 4.0). Undefined-column messages differ between 3.11 ("Unknown identifier x",
"Undefined name x in where clause") and 4.0 ("Undefined column name x"): the cases match the
column name only. ttl() reads of a default_time_to_live are checked within the TTL, as the
original does (>= 9 minutes).
"""
from cassandra.query import UNSET_VALUE

from conformance import case, q, rows, rows_any_order, ok, error, approx

SRC = "cql3/validation/operations/UpdateTest.java#%s (3.11)"
DISTINCT_SRC = "cosmos-cassandra-api-facts.md §5: DISTINCT is not supported"
IDX_SRC = "cosmos-cassandra-api-facts.md §5 (secondary-indexing.md): no index on clustering keys"

CASES = []


def add(name, steps, method=None, **kw):
    CASES.append(case("UpdateTest." + name, origin=SRC % (method or name.split(".")[0]), steps=steps, **kw))


def inv(text, *values, msg=None):
    return q(text, *values, expect=error("Invalid", msg))


add("testTypeCasts", [
    q("CREATE TABLE %s (k int PRIMARY KEY, t text, a ascii, d double, i int)"),
    q("UPDATE %s SET t = 'foo' WHERE k = ?", 0),
    q("UPDATE %s SET t = (ascii)'foo' WHERE k = ?", 0),
    q("UPDATE %s SET t = (text)(ascii)'foo' WHERE k = ?", 0),
    q("UPDATE %s SET a = 'foo' WHERE k = ?", 0),
    q("UPDATE %s SET a = (ascii)'foo' WHERE k = ?", 0),
    inv("UPDATE %s SET a = (text)'foo' WHERE k = ?", 0),
    q("UPDATE %s SET i = 3 WHERE k = ?", 0),
    q("UPDATE %s SET i = (int)3 WHERE k = ?", 0),
    q("UPDATE %s SET d = 3 WHERE k = ?", 0),
    q("UPDATE %s SET d = (double)3 WHERE k = ?", 0),
    inv("UPDATE %s SET d = (int)3 WHERE k = ?", 0),
    inv("UPDATE %s SET i = (double)3 WHERE k = ?", 0),
    q("SELECT t, a, d, i FROM %s WHERE k = 0", expect=rows(["foo", "foo", 3.0, 3])),
])

ONE = "CREATE TABLE %s (partitionKey int, clustering_1 int, value int, PRIMARY KEY (partitionKey, clustering_1))"
add("testUpdate", [
    q(ONE),
    q("INSERT INTO %s (partitionKey, clustering_1, value) VALUES (0, 0, 0)"),
    q("INSERT INTO %s (partitionKey, clustering_1, value) VALUES (0, 1, 1)"),
    q("INSERT INTO %s (partitionKey, clustering_1, value) VALUES (0, 2, 2)"),
    q("INSERT INTO %s (partitionKey, clustering_1, value) VALUES (0, 3, 3)"),
    q("INSERT INTO %s (partitionKey, clustering_1, value) VALUES (1, 0, 4)"),
    q("UPDATE %s SET value = ? WHERE partitionKey = ? AND clustering_1 = ?", 7, 0, 1),
    q("SELECT value FROM %s WHERE partitionKey = ? AND clustering_1 = ?", 0, 1, expect=rows([7])),
    q("UPDATE %s SET value = ? WHERE partitionKey = ? AND (clustering_1) = (?)", 8, 0, 2),
    q("SELECT value FROM %s WHERE partitionKey = ? AND clustering_1 = ?", 0, 2, expect=rows([8])),
    q("UPDATE %s SET value = ? WHERE partitionKey IN (?, ?) AND clustering_1 = ?", 9, 0, 1, 0),
    q("SELECT * FROM %s WHERE partitionKey IN (?, ?) AND clustering_1 = ?", 0, 1, 0, expect=rows([0, 0, 9], [1, 0, 9])),
    q("UPDATE %s SET value = ? WHERE partitionKey IN ? AND clustering_1 = ?", 19, [0, 1], 0),
    q("SELECT * FROM %s WHERE partitionKey IN ? AND clustering_1 = ?", [0, 1], 0, expect=rows([0, 0, 19], [1, 0, 19])),
    q("UPDATE %s SET value = ? WHERE partitionKey = ? AND clustering_1 IN (?, ?)", 10, 0, 1, 0),
    q("SELECT * FROM %s WHERE partitionKey = ? AND clustering_1 IN (?, ?)", 0, 1, 0, expect=rows([0, 0, 10], [0, 1, 10])),
    q("UPDATE %s SET value = ? WHERE partitionKey = ? AND (clustering_1) IN ((?), (?))", 20, 0, 0, 1),
    q("SELECT * FROM %s WHERE partitionKey = ? AND (clustering_1) IN ((?), (?))", 0, 0, 1,
      expect=rows([0, 0, 20], [0, 1, 20])),
    q("UPDATE %s SET value = ? WHERE partitionKey = ? AND clustering_1 = ?", None, 0, 0),
    q("SELECT * FROM %s WHERE partitionKey = ? AND (clustering_1) IN ((?), (?))", 0, 0, 1,
      expect=rows([0, 0, None], [0, 1, 20])),
])

add("testUpdate.invalid", [
    q(ONE),
    inv("UPDATE %s SET value = ? WHERE clustering_1 = ? ", 7, 1, msg="Some partition key parts are missing: partitionkey"),
    inv("UPDATE %s SET value = ? WHERE partitionKey = ?", 7, 0, msg="Some clustering keys are missing: clustering_1"),
    inv("UPDATE %s SET value = ? WHERE token(partitionKey) = token(?) AND clustering_1 = ?", 7, 0, 1,
        msg="The token function cannot be used in WHERE clauses for UPDATE statements"),
    q("UPDATE %s SET value = ?, value = ? WHERE partitionKey = ? AND clustering_1 = ?", 7, 0, 1, expect=error("Syntax")),
    inv("UPDATE %s SET value = ? WHERE partitionKey = ? AND clustering_1 = ? AND clustering_1 = ?", 7, 0, 1, 1,
        msg="clustering_1 cannot be restricted by more than one relation if it includes an Equal"),
    inv("UPDATE %s SET value1 = ? WHERE partitionKey = ? AND clustering_1 = ?", 7, 0, 1, msg="value1"),
    inv("UPDATE %s SET value = ? WHERE partitionKey1 = ? AND clustering_1 = ?", 7, 0, 1, msg="partitionkey1"),
    inv("UPDATE %s SET value = ? WHERE partitionKey = ? AND clustering_3 = ?", 7, 0, 1, msg="clustering_3"),
    inv("UPDATE %s SET value = ? WHERE partitionKey > ? AND clustering_1 = ?", 7, 0, 1,
        msg="Only EQ and IN relation are supported on the partition key (unless you use the token() function)"),
    inv("UPDATE %s SET value = ? WHERE partitionKey CONTAINS ? AND clustering_1 = ?", 7, 0, 1,
        msg="Cannot use CONTAINS on non-collection column partitionkey"),
    inv("UPDATE %s SET value = ? WHERE partitionKey = ? AND clustering_1 = ? AND value = ?", 7, 0, 1, 3,
        msg="Non PRIMARY KEY columns found in where clause: value"),
    inv("UPDATE %s SET value = ? WHERE partitionKey = ? AND clustering_1 > ?", 7, 0, 1,
        msg="Slice restrictions are not supported on the clustering columns in UPDATE statements"),
], method="testUpdate")

add("testUpdateWithSecondaryIndices", [
    q("CREATE TABLE %s (partitionKey int, clustering_1 int, value int, values set<int>, PRIMARY KEY (partitionKey, clustering_1))"),
    q("CREATE INDEX ON %s (value)"),
    q("CREATE INDEX ON %s (clustering_1)", cosmos=error("Invalid"), cosmos_source=IDX_SRC),
    q("CREATE INDEX ON %s (values)"),
    q("INSERT INTO %s (partitionKey, clustering_1, value, values) VALUES (0, 0, 0, {0})"),
    q("INSERT INTO %s (partitionKey, clustering_1, value, values) VALUES (0, 1, 1, {0, 1})"),
    q("INSERT INTO %s (partitionKey, clustering_1, value, values) VALUES (1, 0, 4, {0, 1, 2, 3, 4})"),
    inv("UPDATE %s SET values= {6} WHERE partitionKey = ? AND clustering_1 = ? AND value = ?", 3, 3, 3,
        msg="Non PRIMARY KEY columns found in where clause: value"),
    inv("UPDATE %s SET value= ? WHERE partitionKey = ? AND clustering_1 = ? AND values CONTAINS ?", 6, 3, 3, 3,
        msg="Non PRIMARY KEY columns found in where clause: values"),
    inv("UPDATE %s SET values= {6} WHERE partitionKey = ? AND value = ?", 3, 3, msg="Some clustering keys are missing: clustering_1"),
    inv("UPDATE %s SET value= ? WHERE partitionKey = ? AND values CONTAINS ?", 6, 3, 3,
        msg="Some clustering keys are missing: clustering_1"),
    inv("UPDATE %s SET values= {6} WHERE clustering_1 = ?", 3, msg="Some partition key parts are missing: partitionkey"),
    inv("UPDATE %s SET values= {6} WHERE value = ?", 3, msg="Some partition key parts are missing: partitionkey"),
    inv("UPDATE %s SET value= ? WHERE values CONTAINS ?", 6, 3, msg="Some partition key parts are missing: partitionkey"),
])

TWO = ("CREATE TABLE %s (partitionKey int, clustering_1 int, clustering_2 int, value int,"
       " PRIMARY KEY (partitionKey, clustering_1, clustering_2))")
C2 = "INSERT INTO %s (partitionKey, clustering_1, clustering_2, value) VALUES (?, ?, ?, ?)"
add("testUpdateWithTwoClusteringColumns", [
    q(TWO),
    *[q(C2, *r) for r in ((0, 0, 0, 0), (0, 0, 1, 1), (0, 0, 2, 2), (0, 0, 3, 3), (0, 1, 1, 4), (0, 1, 2, 5), (1, 0, 0, 6))],
    q("UPDATE %s SET value = ? WHERE partitionKey = ? AND clustering_1 = ? AND clustering_2 = ?", 7, 0, 1, 1),
    q("SELECT value FROM %s WHERE partitionKey = ? AND clustering_1 = ? AND clustering_2 = ?", 0, 1, 1, expect=rows([7])),
    q("UPDATE %s SET value = ? WHERE partitionKey = ? AND (clustering_1, clustering_2) = (?, ?)", 8, 0, 1, 2),
    q("SELECT value FROM %s WHERE partitionKey = ? AND clustering_1 = ? AND clustering_2 = ?", 0, 1, 2, expect=rows([8])),
    q("UPDATE %s SET value = ? WHERE partitionKey IN (?, ?) AND clustering_1 = ? AND clustering_2 = ?", 9, 0, 1, 0, 0),
    q("SELECT * FROM %s WHERE partitionKey IN (?, ?) AND clustering_1 = ? AND clustering_2 = ?", 0, 1, 0, 0,
      expect=rows([0, 0, 0, 9], [1, 0, 0, 9])),
    q("UPDATE %s SET value = ? WHERE partitionKey IN ? AND clustering_1 = ? AND clustering_2 = ?", 9, [0, 1], 0, 0),
    q("SELECT * FROM %s WHERE partitionKey IN ? AND clustering_1 = ? AND clustering_2 = ?", [0, 1], 0, 0,
      expect=rows([0, 0, 0, 9], [1, 0, 0, 9])),
    q("UPDATE %s SET value = ? WHERE partitionKey = ? AND clustering_1 = ? AND clustering_2 IN (?, ?)", 12, 0, 1, 1, 2),
    q("SELECT * FROM %s WHERE partitionKey = ? AND clustering_1 = ? AND clustering_2 IN (?, ?)", 0, 1, 1, 2,
      expect=rows([0, 1, 1, 12], [0, 1, 2, 12])),
    q("UPDATE %s SET value = ? WHERE partitionKey = ? AND clustering_1 IN (?, ?) AND clustering_2 IN (?, ?)", 10, 0, 1, 0, 1, 2),
    q("SELECT * FROM %s WHERE partitionKey = ? AND clustering_1 IN (?, ?) AND clustering_2 IN (?, ?)", 0, 1, 0, 1, 2,
      expect=rows([0, 0, 1, 10], [0, 0, 2, 10], [0, 1, 1, 10], [0, 1, 2, 10])),
    q("UPDATE %s SET value = ? WHERE partitionKey = ? AND (clustering_1, clustering_2) IN ((?, ?), (?, ?))", 20, 0, 0, 2, 1, 2),
    q("SELECT * FROM %s WHERE partitionKey = ? AND (clustering_1, clustering_2) IN ((?, ?), (?, ?))", 0, 0, 2, 1, 2,
      expect=rows([0, 0, 2, 20], [0, 1, 2, 20])),
    q("UPDATE %s SET value = ? WHERE partitionKey = ? AND clustering_1 = ? AND clustering_2 = ?", None, 0, 0, 2),
    q("SELECT * FROM %s WHERE partitionKey = ? AND (clustering_1, clustering_2) IN ((?, ?), (?, ?))", 0, 0, 2, 1, 2,
      expect=rows([0, 0, 2, None], [0, 1, 2, 20])),
])

add("testUpdateWithTwoClusteringColumns.invalid", [
    q(TWO),
    inv("UPDATE %s SET value = ? WHERE clustering_1 = ? AND clustering_2 = ?", 7, 1, 1,
        msg="Some partition key parts are missing: partitionkey"),
    inv("UPDATE %s SET value = ? WHERE partitionKey = ? AND clustering_2 = ?", 7, 0, 1,
        msg="Some clustering keys are missing: clustering_1"),
    inv("UPDATE %s SET value = ? WHERE partitionKey = ?", 7, 0,
        msg="Some clustering keys are missing: clustering_1, clustering_2"),
    inv("UPDATE %s SET value = ? WHERE token(partitionKey) = token(?) AND clustering_1 = ? AND clustering_2 = ?", 7, 0, 1, 1,
        msg="The token function cannot be used in WHERE clauses for UPDATE statements"),
    q("UPDATE %s SET value = ?, value = ? WHERE partitionKey = ? AND clustering_1 = ? AND clustering_2 = ?", 7, 0, 1, 1,
      expect=error("Syntax")),
    inv("UPDATE %s SET value = ? WHERE partitionKey = ? AND clustering_1 = ? AND clustering_2 = ? AND clustering_1 = ?",
        7, 0, 1, 1, 1, msg="clustering_1 cannot be restricted by more than one relation if it includes an Equal"),
    inv("UPDATE %s SET value1 = ? WHERE partitionKey = ? AND clustering_1 = ? AND clustering_2 = ?", 7, 0, 1, 1, msg="value1"),
    inv("UPDATE %s SET value = ? WHERE partitionKey1 = ? AND clustering_1 = ? AND clustering_2 = ?", 7, 0, 1, 1,
        msg="partitionkey1"),
    inv("UPDATE %s SET value = ? WHERE partitionKey = ? AND clustering_1 = ? AND clustering_3 = ?", 7, 0, 1, 1,
        msg="clustering_3"),
    inv("UPDATE %s SET value = ? WHERE partitionKey > ? AND clustering_1 = ? AND clustering_2 = ?", 7, 0, 1, 1,
        msg="Only EQ and IN relation are supported on the partition key (unless you use the token() function)"),
    inv("UPDATE %s SET value = ? WHERE partitionKey CONTAINS ? AND clustering_1 = ? AND clustering_2 = ?", 7, 0, 1, 1,
        msg="Cannot use CONTAINS on non-collection column partitionkey"),
    inv("UPDATE %s SET value = ? WHERE partitionKey = ? AND clustering_1 = ? AND clustering_2 = ? AND value = ?", 7, 0, 1, 1, 3,
        msg="Non PRIMARY KEY columns found in where clause: value"),
    inv("UPDATE %s SET value = ? WHERE partitionKey = ? AND clustering_1 > ?", 7, 0, 1,
        msg="Slice restrictions are not supported on the clustering columns in UPDATE statements"),
    inv("UPDATE %s SET value = ? WHERE partitionKey = ? AND (clustering_1, clustering_2) > (?, ?)", 7, 0, 1, 1,
        msg="Slice restrictions are not supported on the clustering columns in UPDATE statements"),
], method="testUpdateWithTwoClusteringColumns")

MP = "INSERT INTO %s (partitionKey_1, partitionKey_2, clustering_1, clustering_2, value) VALUES (?, ?, ?, ?, ?)"
add("testUpdateWithMultiplePartitionKeyComponents", [
    q("CREATE TABLE %s (partitionKey_1 int, partitionKey_2 int, clustering_1 int, clustering_2 int, value int,"
      " PRIMARY KEY ((partitionKey_1, partitionKey_2), clustering_1, clustering_2))"),
    *[q(MP, *r) for r in ((0, 0, 0, 0, 0), (0, 1, 0, 1, 1), (0, 1, 1, 1, 2), (1, 0, 0, 1, 3), (1, 1, 0, 1, 3))],
    q("UPDATE %s SET value = ? WHERE partitionKey_1 = ? AND partitionKey_2 = ? AND clustering_1 = ? AND clustering_2 = ?", 7, 0, 0, 0, 0),
    q("SELECT value FROM %s WHERE partitionKey_1 = ? AND partitionKey_2 = ? AND clustering_1 = ? AND clustering_2 = ?",
      0, 0, 0, 0, expect=rows([7])),
    q("UPDATE %s SET value = ? WHERE partitionKey_1 IN (?, ?) AND partitionKey_2 = ? AND clustering_1 = ? AND clustering_2 = ?",
      9, 0, 1, 1, 0, 1),
    q("SELECT * FROM %s WHERE partitionKey_1 IN (?, ?) AND partitionKey_2 = ? AND clustering_1 = ? AND clustering_2 = ?",
      0, 1, 1, 0, 1, expect=rows([0, 1, 0, 1, 9], [1, 1, 0, 1, 9])),
    q("UPDATE %s SET value = ? WHERE partitionKey_1 IN (?, ?) AND partitionKey_2 IN (?, ?) AND clustering_1 = ? AND clustering_2 = ?",
      10, 0, 1, 0, 1, 0, 1),
    q("SELECT * FROM %s", expect=rows([0, 0, 0, 0, 7], [0, 0, 0, 1, 10], [0, 1, 0, 1, 10], [0, 1, 1, 1, 2],
                                      [1, 0, 0, 1, 10], [1, 1, 0, 1, 10])),
    inv("UPDATE %s SET value = ? WHERE partitionKey_1 = ? AND clustering_1 = ? AND clustering_2 = ?", 7, 1, 1,
        msg="Some partition key parts are missing: partitionkey_2"),
])

add("testUpdateWithAStaticColumn", [
    q("CREATE TABLE %s (partitionKey int, clustering_1 int, clustering_2 int, value int, staticValue text static,"
      " PRIMARY KEY (partitionKey, clustering_1, clustering_2))"),
    q("INSERT INTO %s (partitionKey, clustering_1, clustering_2, value, staticValue) VALUES (0, 0, 0, 0, 'A')"),
    q("INSERT INTO %s (partitionKey, clustering_1, clustering_2, value) VALUES (0, 0, 1, 1)"),
    q("INSERT INTO %s (partitionKey, clustering_1, clustering_2, value, staticValue) VALUES (1, 0, 0, 6, 'B')"),
    q("UPDATE %s SET staticValue = ? WHERE partitionKey = ?", "A2", 0),
    q("SELECT DISTINCT staticValue FROM %s WHERE partitionKey = ?", 0, expect=rows(["A2"]),
      cosmos=error("Invalid"), cosmos_source=DISTINCT_SRC),
    inv("UPDATE %s SET staticValue = ?, value = ? WHERE partitionKey = ?", "A2", 7, 0,
        msg="Some clustering keys are missing: clustering_1, clustering_2"),
    q("UPDATE %s SET staticValue = ?, value = ?  WHERE partitionKey = ? AND clustering_1 = ? AND clustering_2 = ?",
      "A3", 7, 0, 0, 1),
    q("SELECT * FROM %s WHERE partitionKey = ? AND clustering_1 = ? AND clustering_2 = ?", 0, 0, 1,
      expect=rows([0, 0, 1, "A3", 7])),
    inv("UPDATE %s SET staticValue = ? WHERE partitionKey = ? AND clustering_1 = ? AND clustering_2 = ?", "A3", 0, 0, 1,
        msg="Invalid restrictions on clustering columns since the UPDATE statement modifies only static columns"),
])

add("testUpdateWithStaticList", [
    q("CREATE TABLE %s (k int, clustering int, value int, l list<text> static, PRIMARY KEY (k, clustering))"),
    q("INSERT INTO %s(k, clustering, value, l) VALUES (?, ?, ?, ?)", 0, 0, 0, ["v1", "v2", "v3"]),
    q("SELECT l FROM %s WHERE k = 0", expect=rows([["v1", "v2", "v3"]])),
    q("UPDATE %s SET l[?] = ? WHERE k = ?", 1, "v4", 0),
    q("SELECT l FROM %s WHERE k = 0", expect=rows([["v1", "v4", "v3"]])),
])

add("testUpdateWithDefaultTtl", [
    q("CREATE TABLE %s (a int PRIMARY KEY, b int) WITH default_time_to_live = 600"),
    q("UPDATE %s SET b = 1 WHERE a = 1"),
    q("SELECT ttl(b) FROM %s WHERE a = 1", expect=rows([approx(570, abs_=30)])),
    q("UPDATE %s USING TTL ? SET b = 3 WHERE a = 1", 0),
    q("SELECT ttl(b) FROM %s WHERE a = 1", expect=rows([None])),
    q("UPDATE %s SET b = 3 WHERE a = 1"),
    q("SELECT ttl(b) FROM %s WHERE a = 1", expect=rows([approx(570, abs_=30)])),
    q("UPDATE %s USING TTL ? SET b = 2 WHERE a = 2", UNSET_VALUE),
    q("SELECT ttl(b) FROM %s WHERE a = 2", expect=rows([approx(570, abs_=30)])),
])

# -- methods of the 4.0 line (UpdateTest.java, 4.0) -----------------------------------------
SRC40 = "cql3/validation/operations/UpdateTest.java#%s (4.0)"


def add40(name, steps, method=None):
    CASES.append(case("UpdateTest." + name, origin=SRC40 % (method or name.split(".")[0]), steps=steps))


add40("testUpdateWithDefaultTtl.nullTtl", [
    q("CREATE TABLE %s (a int PRIMARY KEY, b int) WITH default_time_to_live = 600"),
    q("UPDATE %s USING TTL ? SET b = ? WHERE a = ?", None, 3, 3),
    q("SELECT ttl(b) FROM %s WHERE a = 3", expect=rows([None])),
], method="testUpdateWithDefaultTtl")

add40("testUpdateWithTtl", [
    q("CREATE TABLE %s (k int PRIMARY KEY, v int)"),
    q("INSERT INTO %s (k, v) VALUES (1, 1) USING TTL ?", 3600),
    q("INSERT INTO %s (k, v) VALUES (2, 2) USING TTL ?", 3600),
    q("UPDATE %s USING TTL ? SET v = ? WHERE k = ?", UNSET_VALUE, 1, 1),
    q("SELECT ttl(v) FROM %s WHERE k = 1", expect=rows([None])),
    q("UPDATE %s USING TTL ? SET v = ? WHERE k = ?", UNSET_VALUE, 2, 2),
    q("SELECT k, v, TTL(v) FROM %s WHERE k = 2", expect=rows([2, 2, None])),
    inv("UPDATE %s USING TTL ? SET v = ? WHERE k = ?", -5, 1, 1, msg="A TTL must be greater or equal to 0, but was -5"),
    q("UPDATE %s USING TTL ? SET v = ? WHERE k = ?", 630720001, 1, 1, expect=error("Invalid", "ttl is too large."),
      cosmos=ok(), cosmos_source="cosmos-cassandra-api-facts.md §4.2/§8: Maximum TTL value 2147483647"),
])

add40("testUpdateWithEmptyInRestriction.oneClustering", [
    q("CREATE TABLE %s (a int, b int, c int, PRIMARY KEY (a,b))"),
    *[q("INSERT INTO %s (a,b,c) VALUES (?,?,?)", 1, i, i) for i in (1, 2, 3)],
    inv("UPDATE %s SET c = 100 WHERE a IN ();", msg="Some clustering keys are missing: b"),
    q("UPDATE %s SET c = 100 WHERE a IN () AND b IN ();"),
    q("UPDATE %s SET c = 100 WHERE a IN () AND b = 1;"),
    q("UPDATE %s SET c = 100 WHERE a = 1 AND b IN ();"),
    q("SELECT * FROM %s", expect=rows([1, 1, 1], [1, 2, 2], [1, 3, 3])),
], method="testUpdateWithEmptyInRestriction")

add40("testUpdateWithEmptyInRestriction.static", [
    q("CREATE TABLE %s (a int, b int, c int, d int, s int static, PRIMARY KEY ((a,b), c))"),
    *[q("INSERT INTO %s (a,b,c,d,s) VALUES (?,?,?,?,?)", 1, 1, i, i, 1) for i in (1, 2, 3)],
    q("UPDATE %s SET d = 100 WHERE a = 1 AND b = 1 AND c IN ();"),
    q("UPDATE %s SET d = 100 WHERE a = 1 AND b IN () AND c IN ();"),
    q("UPDATE %s SET d = 100 WHERE a IN () AND b IN () AND c IN ();"),
    q("UPDATE %s SET d = 100 WHERE a IN () AND b IN () AND c = 1;"),
    q("UPDATE %s SET d = 100 WHERE a IN () AND b = 1 AND c IN ();"),
    q("SELECT * FROM %s", expect=rows([1, 1, 1, 1, 1], [1, 1, 2, 1, 2], [1, 1, 3, 1, 3])),
    q("UPDATE %s set s = 100 where a = 1 AND b = 1;"),
    q("SELECT * FROM %s", expect=rows([1, 1, 1, 100, 1], [1, 1, 2, 100, 2], [1, 1, 3, 100, 3])),
    q("UPDATE %s set s = 200 where a = 1 AND b IN ();"),
    q("SELECT * FROM %s", expect=rows([1, 1, 1, 100, 1], [1, 1, 2, 100, 2], [1, 1, 3, 100, 3])),
], method="testUpdateWithEmptyInRestriction")

EMPTY_IN_2 = ["UPDATE %s SET e = 100 WHERE a = 1 AND b = 1 AND c = 1 AND d IN ();",
              "UPDATE %s SET e = 100 WHERE a = 1 AND b = 1 AND c IN () AND d IN ();",
              "UPDATE %s SET e = 100 WHERE a = 1 AND b IN () AND c IN () AND d IN ();",
              "UPDATE %s SET e = 100 WHERE a IN () AND b IN () AND c IN () AND d IN ();",
              "UPDATE %s SET e = 100 WHERE a IN () AND b IN () AND c IN () AND d = 1;",
              "UPDATE %s SET e = 100 WHERE a IN () AND b IN () AND c = 1 AND d = 1;",
              "UPDATE %s SET e = 100 WHERE a IN () AND b IN () AND c = 1 AND d IN ();"]
add40("testUpdateWithEmptyInRestriction.twoClustering", [
    q("CREATE TABLE %s (a int, b int, c int, d int, e int, PRIMARY KEY ((a,b), c, d))"),
    *[q("INSERT INTO %s (a,b,c,d,e) VALUES (?,?,?,?,?)", 1, 1, 1, i, i) for i in (1, 2, 3, 4)],
    *[q(t) for t in EMPTY_IN_2],
    q("SELECT * FROM %s", expect=rows(*[[1, 1, 1, i, i] for i in (1, 2, 3, 4)])),
], method="testUpdateWithEmptyInRestriction")

add40("testThatUpdatesWithEmptyInRestrictionDoNotCreateMutations", [
    q("CREATE TABLE %s (a int, b int, c int, PRIMARY KEY (a,b))"),
    q("UPDATE %s SET c = 100 WHERE a IN () AND b = 1;"),
    q("UPDATE %s SET c = 100 WHERE a = 1 AND b IN ();"),
    q("SELECT * FROM %s", expect=rows()),
    q("CREATE TABLE {ks}.{t2} (a int, b int, c int, d int, e int, PRIMARY KEY ((a,b), c, d))"),
    *[q(t.replace("%s", "{ks}.{t2}")) for t in EMPTY_IN_2],
    q("SELECT * FROM {ks}.{t2}", expect=rows()),
])
