"""Cases ported from Apache Cassandra's SelectOrderByTest (cql3/validation/operations, 4.0 line).

CQLTester's execute() does not page. Through a driver, Cassandra refuses a paged query that
combines ORDER BY with IN on the partition key ("Cannot page queries with both ORDER BY and a IN
restriction on the partition key"), so such steps here run with page_size=0 (paging off), and
testOrderByForInClause.paged checks the refusal. beforeAndAfterFlush() blocks run once.
The writetime ordering check of testInOrderByWithoutSelecting is left out (write times unknown).
"""
import re

from conformance import case, q as _q, rows, rows_any_order, ok, error

SRC = "cql3/validation/operations/SelectOrderByTest.java#%s (4.0)"
_IN_ORDER = re.compile(r"\bIN\b.*\bORDER BY\b|\bORDER BY\b.*\bIN\b", re.I | re.S)


def q(text, *values, **kw):
    if _IN_ORDER.search(text) and "page_size" not in kw:
        kw["page_size"] = 0
    return _q(text, *values, **kw)


def inv(text, *values, msg=None):
    return q(text, *values, expect=error("Invalid", msg))


CASES = []


def add(name, steps, method=None, **kw):
    CASES.append(case("SelectOrderByTest." + name, origin=SRC % (method or name.split(".")[0]), steps=steps, **kw))


ONE = [q("CREATE TABLE %s (a int, b int, c int, PRIMARY KEY (a, b))")] + [
    q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", 0, i, i) for i in range(3)]
add("testNormalSelectionOrderSingleClustering", ONE + [
    q("SELECT * FROM %s WHERE a=? ORDER BY b ASC", 0, expect=rows([0, 0, 0], [0, 1, 1], [0, 2, 2])),
    q("SELECT * FROM %s WHERE a=? ORDER BY b DESC", 0, expect=rows([0, 2, 2], [0, 1, 1], [0, 0, 0])),
    q("SELECT b FROM %s WHERE a=? ORDER BY b ASC", 0, expect=rows([0], [1], [2])),
    q("SELECT b FROM %s WHERE a=? ORDER BY b DESC", 0, expect=rows([2], [1], [0])),
    q("SELECT c FROM %s WHERE a=? ORDER BY b ASC", 0, expect=rows([0], [1], [2])),
    q("SELECT c FROM %s WHERE a=? ORDER BY b DESC", 0, expect=rows([2], [1], [0])),
])

add("testFunctionSelectionOrderSingleClustering", ONE + [
    q("SELECT blobAsInt(intAsBlob(b)) FROM %s WHERE a=? ORDER BY b ASC", 0, expect=rows([0], [1], [2])),
    q("SELECT blobAsInt(intAsBlob(b)) FROM %s WHERE a=? ORDER BY b DESC", 0, expect=rows([2], [1], [0])),
    q("SELECT blobAsInt(intAsBlob(c)) FROM %s WHERE a=? ORDER BY b ASC", 0, expect=rows([0], [1], [2])),
    q("SELECT blobAsInt(intAsBlob(c)) FROM %s WHERE a=? ORDER BY b DESC", 0, expect=rows([2], [1], [0])),
    inv("SELECT * FROM %s WHERE a=? ORDER BY c ASC", 0),
    inv("SELECT * FROM %s WHERE a=? ORDER BY c DESC", 0),
])

add("testFieldSelectionOrderSingleClustering", [
    q("CREATE TYPE {ks}.{type1} (a int)"),
    q("CREATE TABLE %s (a int, b int, c frozen<{type1}   >, PRIMARY KEY (a, b))"),
    *[q("INSERT INTO %s (a, b, c) VALUES (?, ?, {a: ?})", 0, i, i) for i in range(3)],
    q("SELECT c.a FROM %s WHERE a=? ORDER BY b ASC", 0, expect=rows([0], [1], [2])),
    q("SELECT c.a FROM %s WHERE a=? ORDER BY b DESC", 0, expect=rows([2], [1], [0])),
    q("SELECT blobAsInt(intAsBlob(c.a)) FROM %s WHERE a=? ORDER BY b DESC", 0, expect=rows([2], [1], [0])),
    q("DROP TABLE %s"),
])

MULTI = [q("CREATE TABLE %s (a int, b int, c int, d int, PRIMARY KEY (a, b, c))")] + [
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", 0, b, c, b * 3 + c) for b in range(2) for c in range(3)]
ASC6 = [[0, b, c, b * 3 + c] for b in range(2) for c in range(3)]
add("testNormalSelectionOrderMultipleClustering", MULTI + [
    q("SELECT * FROM %s WHERE a=? ORDER BY b ASC", 0, expect=rows(*ASC6)),
    q("SELECT * FROM %s WHERE a=? ORDER BY b DESC", 0, expect=rows(*ASC6[::-1])),
    q("SELECT * FROM %s WHERE a=? ORDER BY b DESC, c DESC", 0, expect=rows(*ASC6[::-1])),
    inv("SELECT * FROM %s WHERE a=? ORDER BY c ASC", 0),
    inv("SELECT * FROM %s WHERE a=? ORDER BY c DESC", 0),
    inv("SELECT * FROM %s WHERE a=? ORDER BY b ASC, c DESC", 0),
    inv("SELECT * FROM %s WHERE a=? ORDER BY b DESC, c ASC", 0),
    inv("SELECT * FROM %s WHERE a=? ORDER BY d ASC", 0),
    q("SELECT b FROM %s WHERE a=? ORDER BY b ASC", 0, expect=rows([0], [0], [0], [1], [1], [1])),
    q("SELECT b FROM %s WHERE a=? ORDER BY b DESC", 0, expect=rows([1], [1], [1], [0], [0], [0])),
    q("SELECT c FROM %s WHERE a=? ORDER BY b ASC", 0, expect=rows([0], [1], [2], [0], [1], [2])),
    q("SELECT c FROM %s WHERE a=? ORDER BY b DESC", 0, expect=rows([2], [1], [0], [2], [1], [0])),
    q("SELECT c FROM %s WHERE a=? ORDER BY b ASC, c ASC", 0, expect=rows([0], [1], [2], [0], [1], [2])),
    q("SELECT c FROM %s WHERE a=? ORDER BY b DESC, c DESC", 0, expect=rows([2], [1], [0], [2], [1], [0])),
    q("SELECT d FROM %s WHERE a=? ORDER BY b ASC, c ASC", 0, expect=rows(*[[i] for i in range(6)])),
    q("SELECT d FROM %s WHERE a=? ORDER BY b DESC, c DESC", 0, expect=rows(*[[i] for i in range(5, -1, -1)])),
])

F = "SELECT blobAsInt(intAsBlob(%s)) FROM %%s WHERE a=? ORDER BY %s"
add("testFunctionSelectionOrderMultipleClustering", MULTI + [
    inv(F % ("b", "c ASC"), 0), inv(F % ("b", "c DESC"), 0), inv(F % ("b", "b ASC, c DESC"), 0),
    inv(F % ("b", "b DESC, c ASC"), 0), inv(F % ("b", "d ASC"), 0),
    q(F % ("b", "b ASC"), 0, expect=rows([0], [0], [0], [1], [1], [1])),
    q(F % ("b", "b DESC"), 0, expect=rows([1], [1], [1], [0], [0], [0])),
    q("SELECT b, blobAsInt(intAsBlob(b)) FROM %s WHERE a=? ORDER BY b ASC", 0,
      expect=rows([0, 0], [0, 0], [0, 0], [1, 1], [1, 1], [1, 1])),
    q("SELECT b, blobAsInt(intAsBlob(b)) FROM %s WHERE a=? ORDER BY b DESC", 0,
      expect=rows([1, 1], [1, 1], [1, 1], [0, 0], [0, 0], [0, 0])),
    q(F % ("c", "b ASC"), 0, expect=rows([0], [1], [2], [0], [1], [2])),
    q(F % ("c", "b DESC"), 0, expect=rows([2], [1], [0], [2], [1], [0])),
    q(F % ("c", "b ASC, c ASC"), 0, expect=rows([0], [1], [2], [0], [1], [2])),
    q(F % ("c", "b DESC, c DESC"), 0, expect=rows([2], [1], [0], [2], [1], [0])),
    q(F % ("d", "b ASC, c ASC"), 0, expect=rows(*[[i] for i in range(6)])),
    q(F % ("d", "b DESC, c DESC"), 0, expect=rows(*[[i] for i in range(5, -1, -1)])),
])

add("testInvalidOrderBy", [
    q("CREATE TABLE %s( k1 int, k2 int, v int, PRIMARY KEY (k1, k2))"),
    *[q("INSERT INTO %s (k1, k2, v) VALUES (?, ?, ?)", i, i, i) for i in range(3)],
    inv("SELECT * FROM %s ORDER BY k2"),
])

add("testOrderByForInClause", [
    q("CREATE TABLE %s (my_id varchar, col1 int, value varchar, PRIMARY KEY (my_id, col1))"),
    q("INSERT INTO %s (my_id, col1, value) VALUES ( 'key1', 1, 'a')"),
    q("INSERT INTO %s (my_id, col1, value) VALUES ( 'key2', 3, 'c')"),
    q("INSERT INTO %s (my_id, col1, value) VALUES ( 'key3', 2, 'b')"),
    q("INSERT INTO %s (my_id, col1, value) VALUES ( 'key4', 4, 'd')"),
    q("SELECT col1 FROM %s WHERE my_id in('key1', 'key2', 'key3') ORDER BY col1", expect=rows([1], [2], [3])),
    q("SELECT col1 FROM %s WHERE my_id in('key1', 'key2', 'key3') ORDER BY col1 LIMIT 2", expect=rows([1], [2])),
    q("SELECT col1 FROM %s WHERE my_id in('key1', 'key2', 'key3') ORDER BY col1 LIMIT 10", expect=rows([1], [2], [3])),
    q("SELECT col1, my_id FROM %s WHERE my_id in('key1', 'key2', 'key3') ORDER BY col1",
      expect=rows([1, "key1"], [2, "key3"], [3, "key2"])),
    q("SELECT my_id, col1 FROM %s WHERE my_id in('key1', 'key2', 'key3') ORDER BY col1",
      expect=rows(["key1", 1], ["key3", 2], ["key2", 3])),
])

add("testOrderByForInClause.paged", [
    q("CREATE TABLE %s (my_id varchar, col1 int, value varchar, PRIMARY KEY (my_id, col1))"),
    q("INSERT INTO %s (my_id, col1, value) VALUES ( 'key1', 1, 'a')"),
    q("SELECT col1 FROM %s WHERE my_id in('key1', 'key2', 'key3') ORDER BY col1", page_size=100,
      expect=error("Invalid", "Cannot page queries with both ORDER BY and a IN restriction on the partition key")),
    q("SELECT col1 FROM %s WHERE my_id in('key1', 'key2', 'key3') ORDER BY col1 LIMIT 2", page_size=100,
      expect=rows([1])),
], method="testOrderByForInClause")

add("testOrderByForInClause.compositeOneClustering", [
    q("CREATE TABLE %s (pk1 int, pk2 int, c int, v text, PRIMARY KEY ((pk1, pk2), c) )"),
    q("INSERT INTO %s (pk1, pk2, c, v) VALUES (?, ?, ?, ?)", 1, 1, 2, "A"),
    q("INSERT INTO %s (pk1, pk2, c, v) VALUES (?, ?, ?, ?)", 1, 2, 1, "B"),
    q("INSERT INTO %s (pk1, pk2, c, v) VALUES (?, ?, ?, ?)", 1, 3, 3, "C"),
    q("INSERT INTO %s (pk1, pk2, c, v) VALUES (?, ?, ?, ?)", 1, 1, 4, "D"),
    q("SELECT v, ttl(v), c FROM %s where pk1 = ? AND pk2 IN (?, ?) ORDER BY c; ", 1, 1, 2,
      expect=rows(["B", None, 1], ["A", None, 2], ["D", None, 4])),
    q("SELECT v, ttl(v), c as name_1 FROM %s where pk1 = ? AND pk2 IN (?, ?) ORDER BY c; ", 1, 1, 2,
      expect=rows(["B", None, 1], ["A", None, 2], ["D", None, 4])),
    q("SELECT v FROM %s where pk1 = ? AND pk2 IN (?, ?) ORDER BY c; ", 1, 1, 2, expect=rows(["B"], ["A"], ["D"])),
    q("SELECT v FROM %s where pk1 = ? AND pk2 IN (?, ?) ORDER BY c LIMIT 2; ", 1, 1, 2, expect=rows(["B"], ["A"])),
    q("SELECT v FROM %s where pk1 = ? AND pk2 IN (?, ?) ORDER BY c LIMIT 10; ", 1, 1, 2, expect=rows(["B"], ["A"], ["D"])),
    q("SELECT v as c FROM %s where pk1 = ? AND pk2 IN (?, ?) ORDER BY c; ", 1, 1, 2, expect=rows(["B"], ["A"], ["D"])),
], method="testOrderByForInClause")

add("testOrderByForInClause.compositeTwoClustering", [
    q("CREATE TABLE %s (pk1 int, pk2 int, c1 int, c2 int, v text, PRIMARY KEY ((pk1, pk2), c1, c2) )"),
    q("INSERT INTO %s (pk1, pk2, c1, c2, v) VALUES (?, ?, ?, ?, ?)", 1, 1, 4, 4, "A"),
    q("INSERT INTO %s (pk1, pk2, c1, c2, v) VALUES (?, ?, ?, ?, ?)", 1, 2, 1, 2, "B"),
    q("INSERT INTO %s (pk1, pk2, c1, c2, v) VALUES (?, ?, ?, ?, ?)", 1, 3, 3, 3, "C"),
    q("INSERT INTO %s (pk1, pk2, c1, c2, v) VALUES (?, ?, ?, ?, ?)", 1, 1, 4, 1, "D"),
    q("SELECT v, ttl(v), c1, c2 FROM %s where pk1 = ? AND pk2 IN (?, ?) ORDER BY c1, c2; ", 1, 1, 2,
      expect=rows(["B", None, 1, 2], ["D", None, 4, 1], ["A", None, 4, 4])),
    q("SELECT v, ttl(v), c1 as name_1, c2 as name_2 FROM %s where pk1 = ? AND pk2 IN (?, ?) ORDER BY c1, c2; ", 1, 1, 2,
      expect=rows(["B", None, 1, 2], ["D", None, 4, 1], ["A", None, 4, 4])),
    q("SELECT v FROM %s where pk1 = ? AND pk2 IN (?, ?) ORDER BY c1, c2; ", 1, 1, 2, expect=rows(["B"], ["D"], ["A"])),
    q("SELECT v as c2 FROM %s where pk1 = ? AND pk2 IN (?, ?) ORDER BY c1, c2; ", 1, 1, 2, expect=rows(["B"], ["D"], ["A"])),
    q("SELECT v as c2 FROM %s where pk1 = ? AND pk2 IN (?, ?) ORDER BY c1, c2 LIMIT 2; ", 1, 1, 2, expect=rows(["B"], ["D"])),
    q("SELECT v as c2 FROM %s where pk1 = ? AND pk2 IN (?, ?) ORDER BY c1, c2 LIMIT 10; ", 1, 1, 2,
      expect=rows(["B"], ["D"], ["A"])),
    q("SELECT v as c2 FROM %s where pk1 = ? AND pk2 IN (?, ?) ORDER BY c1 DESC , c2 DESC; ", 1, 1, 2,
      expect=rows(["A"], ["D"], ["B"])),
    q("SELECT v as c2 FROM %s where pk1 = ? AND pk2 IN (?, ?) ORDER BY c1 DESC , c2 DESC LIMIT 2; ", 1, 1, 2,
      expect=rows(["A"], ["D"])),
    q("SELECT v as c2 FROM %s where pk1 = ? AND pk2 IN (?, ?) ORDER BY c1 DESC , c2 DESC LIMIT 10; ", 1, 1, 2,
      expect=rows(["A"], ["D"], ["B"])),
    inv("SELECT v as c2 FROM %s where pk1 = ? AND pk2 IN (?, ?) ORDER BY c1 DESC , c2 DESC LIMIT 0; ", 1, 1, 2,
        msg="LIMIT must be strictly positive"),
], method="testOrderByForInClause")

add("testOrderByForInClauseWithCollectionElementSelection", [
    q("CREATE TABLE %s (pk int, c frozen<set<int>>, v int, PRIMARY KEY (pk, c))"),
    q("INSERT INTO %s (pk, c, v) VALUES (0, {1, 2}, 0)"),
    q("INSERT INTO %s (pk, c, v) VALUES (0, {1, 2, 3}, 1)"),
    q("INSERT INTO %s (pk, c, v) VALUES (1, {2, 3}, 2)"),
    q("SELECT c[2], v FROM %s WHERE pk = 0 ORDER BY c", expect=rows([2, 0], [2, 1])),
    q("SELECT c[2], v FROM %s WHERE pk IN (0, 1) ORDER BY c", expect=rows([2, 0], [2, 1], [2, 2])),
])

N3 = [3, None, None, None, 3]
add("testOrderByForInClauseWithNullValue", [
    q("CREATE TABLE %s (a int, b int, c int, s int static, d int, PRIMARY KEY (a, b, c))"),
    q("INSERT INTO %s (a, b, c, d) VALUES (1, 1, 1, 1)"),
    q("INSERT INTO %s (a, b, c, d) VALUES (1, 1, 2, 1)"),
    q("INSERT INTO %s (a, b, c, d) VALUES (2, 2, 1, 1)"),
    q("INSERT INTO %s (a, b, c, d) VALUES (2, 2, 2, 1)"),
    q("UPDATE %s SET s = 1 WHERE a = 1"),
    q("UPDATE %s SET s = 2 WHERE a = 2"),
    q("UPDATE %s SET s = 3 WHERE a = 3"),
    q("SELECT a, b, c, d, s FROM %s WHERE a IN (1, 2, 3) ORDER BY b DESC",
      expect=rows([2, 2, 2, 1, 2], [2, 2, 1, 1, 2], [1, 1, 2, 1, 1], [1, 1, 1, 1, 1], N3)),
    q("SELECT a, b, c, d, s FROM %s WHERE a IN (1, 2, 3) ORDER BY b ASC",
      expect=rows(N3, [1, 1, 1, 1, 1], [1, 1, 2, 1, 1], [2, 2, 1, 1, 2], [2, 2, 2, 1, 2])),
    q("SELECT a, b, c, d, s FROM %s WHERE a IN (1, 2, 3) ORDER BY b DESC , c DESC",
      expect=rows([2, 2, 2, 1, 2], [2, 2, 1, 1, 2], [1, 1, 2, 1, 1], [1, 1, 1, 1, 1], N3)),
    q("SELECT a, b, c, d, s FROM %s WHERE a IN (1, 2, 3) ORDER BY b ASC, c ASC",
      expect=rows(N3, [1, 1, 1, 1, 1], [1, 1, 2, 1, 1], [2, 2, 1, 1, 2], [2, 2, 2, 1, 2])),
])

add("testReversedComparator.single", [
    q("CREATE TABLE %s (k int, c int, v int, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC);"),
    *[q("INSERT INTO %s (k, c, v) VALUES (0, ?, ?)", i, i) for i in range(10)],
    q("SELECT c, v FROM %s WHERE k = 0 ORDER BY c ASC", expect=rows(*[[i, i] for i in range(10)])),
    q("SELECT c, v FROM %s WHERE k = 0 ORDER BY c DESC", expect=rows(*[[i, i] for i in range(9, -1, -1)])),
], method="testReversedComparator")

add("testReversedComparator.compound", [
    q("CREATE TABLE %s (k int, c1 int, c2 int, v text, PRIMARY KEY (k, c1, c2)) WITH CLUSTERING ORDER BY (c1 ASC, c2 DESC)"),
    *[q("INSERT INTO %s (k, c1, c2, v) VALUES (0, ?, ?, ?)", i, j, "%d%d" % (i, j)) for i in range(10) for j in range(10)],
    inv("SELECT c1, c2, v FROM %s WHERE k = 0 ORDER BY c1 ASC, c2 ASC"),
    inv("SELECT c1, c2, v FROM %s WHERE k = 0 ORDER BY c1 DESC, c2 DESC"),
    q("SELECT c1, c2, v FROM %s WHERE k = 0 ORDER BY c1 ASC",
      expect=rows(*[[i, j, "%d%d" % (i, j)] for i in range(10) for j in range(9, -1, -1)])),
    q("SELECT c1, c2, v FROM %s WHERE k = 0 ORDER BY c1 ASC, c2 DESC",
      expect=rows(*[[i, j, "%d%d" % (i, j)] for i in range(10) for j in range(9, -1, -1)])),
    q("SELECT c1, c2, v FROM %s WHERE k = 0 ORDER BY c1 DESC, c2 ASC",
      expect=rows(*[[i, j, "%d%d" % (i, j)] for i in range(9, -1, -1) for j in range(10)])),
    inv("SELECT c1, c2, v FROM %s WHERE k = 0 ORDER BY c2 DESC, c1 ASC"),
], method="testReversedComparator")

add("testMultiordering", [
    q("CREATE TABLE %s (k text, c1 int, c2 int, PRIMARY KEY (k, c1, c2) ) WITH CLUSTERING ORDER BY (c1 ASC, c2 DESC)"),
    *[q("INSERT INTO %s (k, c1, c2) VALUES ('foo', ?, ?)", i, j) for i in range(2) for j in range(2)],
    q("SELECT c1, c2 FROM %s WHERE k = 'foo'", expect=rows([0, 1], [0, 0], [1, 1], [1, 0])),
    q("SELECT c1, c2 FROM %s WHERE k = 'foo' ORDER BY c1 ASC, c2 DESC", expect=rows([0, 1], [0, 0], [1, 1], [1, 0])),
    q("SELECT c1, c2 FROM %s WHERE k = 'foo' ORDER BY c1 DESC, c2 ASC", expect=rows([1, 0], [1, 1], [0, 0], [0, 1])),
    inv("SELECT c1, c2 FROM %s WHERE k = 'foo' ORDER BY c2 DESC"),
    inv("SELECT c1, c2 FROM %s WHERE k = 'foo' ORDER BY c2 ASC"),
    inv("SELECT c1, c2 FROM %s WHERE k = 'foo' ORDER BY c1 ASC, c2 ASC"),
])

add("testSelectInStatementWithDesc", [
    q("CREATE TABLE %s (k int, c1 int, c2 int, PRIMARY KEY (k, c1, c2))"),
    *[q("INSERT INTO %s(k, c1, c2) VALUES (0, 0, ?)", i) for i in range(3)],
    q("SELECT * FROM %s WHERE k=0 AND c1 = 0 AND c2 IN (2, 0) ORDER BY c1 DESC", expect=rows([0, 0, 2], [0, 0, 0])),
])

add("testInOrderByWithoutSelecting", [
    q("CREATE TABLE %s (k int, c1 int, c2 int, v int, PRIMARY KEY (k, c1, c2))"),
    *[q("INSERT INTO %s (k, c1, c2, v) VALUES (?, ?, ?, ?)", k, k, c, k * 3 + c) for k in range(2) for c in range(3)],
    q("SELECT * FROM %s WHERE k=0 AND c1 = 0 AND c2 IN (2, 0)", expect=rows([0, 0, 0, 0], [0, 0, 2, 2])),
    q("SELECT * FROM %s WHERE k=0 AND c1 = 0 AND c2 IN (2, 0) ORDER BY c1 ASC, c2 ASC", expect=rows([0, 0, 0, 0], [0, 0, 2, 2])),
    q("SELECT v FROM %s WHERE k=0 AND c1 = 0 AND c2 IN (2, 0)", expect=rows([0], [2])),
    q("SELECT v FROM %s WHERE k=0 AND c1 = 0 AND c2 IN (2, 0) ORDER BY c1 ASC", expect=rows([0], [2])),
    q("SELECT v FROM %s WHERE k=0 AND c1 = 0 AND c2 IN (2, 0) ORDER BY c1 DESC", expect=rows([2], [0])),
    q("SELECT v FROM %s WHERE k IN (1, 0)", expect=rows(*[[i] for i in range(6)])),
    q("SELECT v FROM %s WHERE k IN (1, 0) ORDER BY c1 ASC", expect=rows(*[[i] for i in range(6)])),
    q("SELECT writetime(v) FROM %s WHERE k IN (1, 0) ORDER BY c1 ASC"),
])

TWOPK_ASC = [[1, 1, 1], [1, 1, 2], [1, 2, 10], [1, 2, 11], [1, 1, 13]]
for suffix, option in (("asc", ""), ("desc", "WITH CLUSTERING ORDER BY (col_3 DESC)")):
    add("testInOrderByWithTwoPartitionKeyColumns." + suffix, [
        q("CREATE TABLE %s (col_1 int, col_2 int, col_3 int, PRIMARY KEY ((col_1, col_2), col_3)) " + option),
        *[q("INSERT INTO %s (col_1, col_2, col_3) VALUES(?, ?, ?)", *r) for r in
          ((1, 1, 1), (1, 1, 2), (1, 1, 13), (1, 2, 10), (1, 2, 11))],
        q("select * from %s where col_1=? and col_2 IN (?, ?) order by col_3;", 1, 1, 2, expect=rows(*TWOPK_ASC)),
        q("select * from %s where col_1=? and col_2 IN (?, ?) order by col_3 desc;", 1, 1, 2, expect=rows(*TWOPK_ASC[::-1])),
        q("select * from %s where col_2 IN (?, ?) and col_1=? order by col_3;", 1, 2, 1, expect=rows(*TWOPK_ASC)),
        q("select * from %s where col_2 IN (?, ?) and col_1=? order by col_3 desc;", 1, 2, 1, expect=rows(*TWOPK_ASC[::-1])),
    ], method="testInOrderByWithTwoPartitionKeyColumns")

EMSG = "Order by currently only supports the ordering of columns following their declared order in the PRIMARY KEY"
R = {(b, c): [0, b, c, b * 3 + c] for b in range(2) for c in range(3)}
add("testAllowSkippingEqualityAndSingleValueInRestrictedClusteringColumns", MULTI + [
    inv("SELECT * FROM %s WHERE a=? ORDER BY d DESC", 0,
        msg="Order by is currently only supported on the clustered columns of the PRIMARY KEY, got d"),
    inv("SELECT * FROM %s WHERE a=? ORDER BY b ASC, c ASC, d ASC", 0,
        msg="Order by is currently only supported on the clustered columns of the PRIMARY KEY, got d"),
    q("SELECT * FROM %s WHERE a=? AND b=? ORDER BY c", 0, 0, expect=rows(R[0, 0], R[0, 1], R[0, 2])),
    q("SELECT * FROM %s WHERE a=? AND b=? ORDER BY c ASC", 0, 0, expect=rows(R[0, 0], R[0, 1], R[0, 2])),
    q("SELECT * FROM %s WHERE a=? AND b=? ORDER BY c DESC", 0, 0, expect=rows(R[0, 2], R[0, 1], R[0, 0])),
    q("SELECT * FROM %s WHERE a=? AND b=? AND c>=? ORDER BY c ASC", 0, 0, 1, expect=rows(R[0, 1], R[0, 2])),
    q("SELECT * FROM %s WHERE a=? AND b=? AND c>=? ORDER BY c DESC", 0, 0, 1, expect=rows(R[0, 2], R[0, 1])),
    q("SELECT * FROM %s WHERE a=? AND b=? AND c IN (?, ?) ORDER BY c ASC", 0, 0, 1, 2, expect=rows(R[0, 1], R[0, 2])),
    q("SELECT * FROM %s WHERE a=? AND b=? AND c IN (?, ?) ORDER BY c DESC", 0, 0, 1, 2, expect=rows(R[0, 2], R[0, 1])),
    inv("SELECT * FROM %s WHERE a=? AND b<? ORDER BY c DESC", 0, 1, msg=EMSG),
    *[inv("SELECT * FROM %%s WHERE a=? AND (b, c) %s (?, ?) ORDER BY c" % op, 0, 0, 0, msg=EMSG) for op in (">", ">=", "<", "<=")],
    q("SELECT * FROM %s WHERE a=? AND (b, c) = (?, ?) ORDER BY c ASC", 0, 0, 0, expect=rows(R[0, 0])),
    q("SELECT * FROM %s WHERE a=? AND (b, c) = (?, ?) ORDER BY c DESC", 0, 0, 0, expect=rows(R[0, 0])),
    *[inv("SELECT * FROM %%s WHERE a=? AND (b, c) %s ? ORDER BY c" % op, 0, (0, 0), msg=EMSG) for op in (">", ">=", "<", "<=")],
    q("SELECT * FROM %s WHERE a=? AND (b, c) = ? ORDER BY c ASC", 0, (0, 0), expect=rows(R[0, 0])),
    q("SELECT * FROM %s WHERE a=? AND (b, c) = ? ORDER BY c DESC", 0, (0, 0), expect=rows(R[0, 0])),
])

add("testAllowSkippingEqualityAndSingleValueInRestrictedClusteringColumns.in", MULTI + [
    q("SELECT * FROM %s WHERE a IN (?, ?) AND b=? AND c>=? ORDER BY c ASC", 0, 1, 0, 0, expect=rows(R[0, 0], R[0, 1], R[0, 2])),
    q("SELECT * FROM %s WHERE a IN (?, ?) AND b=? AND c>=? ORDER BY c DESC", 0, 1, 0, 0, expect=rows(R[0, 2], R[0, 1], R[0, 0])),
    q("SELECT * FROM %s WHERE a IN (?, ?) AND b=? ORDER BY c ASC", 0, 1, 0, expect=rows(R[0, 0], R[0, 1], R[0, 2])),
    q("SELECT * FROM %s WHERE a IN (?, ?) AND b=? ORDER BY c DESC", 0, 1, 0, expect=rows(R[0, 2], R[0, 1], R[0, 0])),
    q("SELECT * FROM %s WHERE a=? AND b IN (?) ORDER BY c ASC", 0, 1, expect=rows(R[1, 0], R[1, 1], R[1, 2])),
    q("SELECT * FROM %s WHERE a=? AND b IN (?) ORDER BY c DESC", 0, 1, expect=rows(R[1, 2], R[1, 1], R[1, 0])),
    q("SELECT * FROM %s WHERE a=? AND (b, c) IN ((?, ?)) ORDER BY c ASC", 0, 1, 1, expect=rows(R[1, 1])),
    q("SELECT * FROM %s WHERE a=? AND (b, c) IN ((?, ?)) ORDER BY c DESC", 0, 1, 1, expect=rows(R[1, 1])),
    q("SELECT * FROM %s WHERE a=? AND b IN (?, ?) AND c=? ORDER BY b ASC", 0, 0, 1, 2, expect=rows(R[0, 2], R[1, 2])),
    q("SELECT * FROM %s WHERE a=? AND b IN (?, ?) AND c=? ORDER BY b DESC", 0, 0, 1, 2, expect=rows(R[1, 2], R[0, 2])),
    inv("SELECT * FROM %s WHERE a=? AND b IN ? ORDER BY c", 0, [0], msg=EMSG),
    inv("SELECT * FROM %s WHERE a=? AND b IN (?,?) ORDER BY c", 0, 1, 3, msg=EMSG),
    inv("SELECT * FROM %s WHERE a=? AND (b,c) IN ? ORDER BY c", 0, [(0, 0)], msg=EMSG),
    inv("SELECT * FROM %s WHERE a=? AND (b,c) IN ((?,?), (?,?)) ORDER BY c", 0, 0, 0, 0, 1, msg=EMSG),
], method="testAllowSkippingEqualityAndSingleValueInRestrictedClusteringColumns")
