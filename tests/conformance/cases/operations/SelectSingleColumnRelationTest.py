"""Cases ported from Apache Cassandra's SelectSingleColumnRelationTest
(cql3/validation/operations, 3.11 line).

Left out: the COMPACT STORAGE variants (testClusteringColumnRelationsWithCompactStorage and the
compact half of testEmptyIN / testINWithDuplicateValue), and the four steps of
testWithUnsetValues that bind unset to the partition key (the Python driver refuses to build a
routing key from unset, so they never reach the server).
Under the cosmos profile, secondary indexes on clustering columns are refused
(secondary-indexing.md), so queries that rely on them need ALLOW FILTERING there.
"""
from cassandra.query import UNSET_VALUE

from conformance import case, q, rows, rows_any_order, ok, error

SRC = "cql3/validation/operations/SelectSingleColumnRelationTest.java#%s (3.11)"
AF = "Cannot execute this query as it might involve data filtering"
IDX_SRC = "cosmos-cassandra-api-facts.md §5 (secondary-indexing.md): no index on clustering keys"
CASES = []


def add(name, steps, method=None):
    CASES.append(case("SelectSingleColumnRelationTest." + name, origin=SRC % (method or name.split(".")[0]), steps=steps))


def inv(text, *values, msg=None, **kw):
    return q(text, *values, expect=error("Invalid", msg), **kw)


def ck_index(text):
    return q(text, cosmos=error("Invalid"), cosmos_source=IDX_SRC)


add("testInvalidCollectionEqualityRelation", [
    q("CREATE TABLE %s (a int PRIMARY KEY, b set<int>, c list<int>, d map<int, int>)"),
    q("CREATE INDEX ON %s (b)"), q("CREATE INDEX ON %s (c)"), q("CREATE INDEX ON %s (d)"),
    inv("SELECT * FROM %s WHERE a = 0 AND b=?", {0}, msg="Collection column 'b' (set<int>) cannot be restricted by a '=' relation"),
    inv("SELECT * FROM %s WHERE a = 0 AND c=?", [0], msg="Collection column 'c' (list<int>) cannot be restricted by a '=' relation"),
    inv("SELECT * FROM %s WHERE a = 0 AND d=?", {0: 0}, msg="Collection column 'd' (map<int, int>) cannot be restricted by a '=' relation"),
])

add("testInvalidCollectionNonEQRelation", [
    q("CREATE TABLE %s (a int PRIMARY KEY, b set<int>, c int)"),
    q("CREATE INDEX ON %s (c)"),
    q("INSERT INTO %s (a, b, c) VALUES (0, {0}, 0)"),
    *[inv("SELECT * FROM %%s WHERE c = 0 AND b %s ?" % op, {0},
          msg="Collection column 'b' (set<int>) cannot be restricted by a '%s' relation" % op) for op in (">", ">=", "<", "<=")],
    inv("SELECT * FROM %s WHERE c = 0 AND b IN (?)", {0}, msg="Collection column 'b' (set<int>) cannot be restricted by a 'IN' relation"),
])

CC = [q("CREATE TABLE %s (a text, b int, c int, d int, primary key(a, b, c))")] + [
    q("insert into %s (a, b, c, d) values (?, ?, ?, ?)", *r) for r in
    (("first", 1, 5, 1), ("first", 2, 6, 2), ("first", 3, 7, 3), ("second", 4, 8, 4))]
F2 = ["first", 2, 6, 2]
F3 = ["first", 3, 7, 3]
add("testClusteringColumnRelations", CC + [
    q("select * from %s where a in (?, ?)", "first", "second", expect=rows(["first", 1, 5, 1], F2, F3, ["second", 4, 8, 4])),
    q("select * from %s where a = ? and b = ? and c in (?, ?)", "first", 2, 6, 7, expect=rows(F2)),
    q("select * from %s where a = ? and b in (?, ?) and c in (?, ?)", "first", 2, 3, 6, 7, expect=rows(F2, F3)),
    q("select * from %s where a = ? and b in (?, ?) and c in (?, ?)", "first", 3, 2, 7, 6, expect=rows(F2, F3)),
    q("select * from %s where a = ? and c in (?, ?) and b in (?, ?)", "first", 7, 6, 3, 2, expect=rows(F2, F3)),
    q("select c, d from %s where a = ? and c in (?, ?) and b in (?, ?)", "first", 7, 6, 3, 2, expect=rows([6, 2], [7, 3])),
    q("select c, d from %s where a = ? and c in (?, ?) and b in (?, ?, ?)", "first", 7, 6, 3, 2, 3, expect=rows([6, 2], [7, 3])),
    q("select * from %s where a = ? and b in (?, ?) and c = ?", "first", 3, 2, 7, expect=rows(F3)),
    q("select * from %s where a = ? and b in ? and c in ?", "first", [3, 2], [7, 6], expect=rows(F2, F3)),
    inv("select * from %s where a = ? and b in ? and c in ?", "first", None, [7, 6], msg="Invalid null value"),
], method="testClusteringColumnRelations")

add("testClusteringColumnRelations.slices", CC + [
    q("select * from %s where a = ? and c >= ? and b in (?, ?)", "first", 6, 3, 2, expect=rows(F2, F3)),
    q("select * from %s where a = ? and c > ? and b in (?, ?)", "first", 6, 3, 2, expect=rows(F3)),
    q("select * from %s where a = ? and c <= ? and b in (?, ?)", "first", 6, 3, 2, expect=rows(F2)),
    q("select * from %s where a = ? and c < ? and b in (?, ?)", "first", 7, 3, 2, expect=rows(F2)),
    q("select * from %s where a = ? and c >= ? and c <= ? and b in (?, ?)", "first", 6, 7, 3, 2, expect=rows(F2, F3)),
    q("select * from %s where a = ? and c > ? and c <= ? and b in (?, ?)", "first", 6, 7, 3, 2, expect=rows(F3)),
    q("select * from %s where a = ? and c > ? and c < ? and b in (?, ?)", "first", 6, 7, 3, 2, expect=rows()),
    inv("select * from %s where a = ? and c > ? and c = ? and b in (?, ?)", "first", 6, 7, 3, 2,
        msg='Column "c" cannot be restricted by both an equality and an inequality relation'),
    inv("select * from %s where a = ? and c = ? and c > ?  and b in (?, ?)", "first", 6, 7, 3, 2,
        msg="c cannot be restricted by more than one relation if it includes an Equal"),
    q("select * from %s where a = ? and c in (?, ?) and b in (?, ?) order by b DESC", "first", 7, 6, 3, 2, expect=rows(F3, F2)),
    inv("select * from %s where a = ? and b > ? and b > ?", "first", 6, 3, msg="More than one restriction was found for the start bound on b"),
    inv("select * from %s where a = ? and b < ? and b <= ?", "first", 6, 3, msg="More than one restriction was found for the end bound on b"),
], method="testClusteringColumnRelations")

add("testPartitionKeyColumnRelations", [
    q("CREATE TABLE %s (a text, b int, c int, d int, primary key((a, b), c))"),
    *[q("insert into %s (a, b, c, d) values (?, ?, ?, ?)", a, b, b, b) for a, b in
      (("first", 1), ("first", 2), ("first", 3), ("first", 4), ("second", 1), ("second", 4))],
    q("select * from %s where a = ? and b = ?", "first", 2, expect=rows(["first", 2, 2, 2])),
    q("select * from %s where a in (?, ?) and b in (?, ?)", "first", "second", 2, 3, expect=rows(["first", 2, 2, 2], ["first", 3, 3, 3])),
    q("select * from %s where a in (?, ?) and b = ?", "first", "second", 4, expect=rows(["first", 4, 4, 4], ["second", 4, 4, 4])),
    q("select * from %s where a = ? and b in (?, ?)", "first", 3, 4, expect=rows(["first", 3, 3, 3], ["first", 4, 4, 4])),
    q("select * from %s where a in (?, ?) and b in (?, ?)", "first", "second", 1, 4,
      expect=rows(["first", 1, 1, 1], ["first", 4, 4, 4], ["second", 1, 1, 1], ["second", 4, 4, 4])),
    # 3.10+ (CASSANDRA-11031): a partial partition key needs filtering, so the refusal is
    # REQUIRES_ALLOW_FILTERING_MESSAGE (StatementRestrictions.processPartitionKeyRestrictions);
    # "Partition key parts: b must be restricted" is the 3.0 text.
    inv("select * from %s where a in (?, ?)", "first", "second", msg=AF),
    inv("select * from %s where a = ?", "first", msg=AF),
    inv("select * from %s where a = ? AND b IN (?, ?) AND b = ?", "first", 2, 2, 3,
        msg="b cannot be restricted by more than one relation if it includes a IN"),
    inv("select * from %s where a = ? AND b = ? AND b IN (?, ?)", "first", 2, 2, 3,
        msg="b cannot be restricted by more than one relation if it includes an Equal"),
    inv("select * from %s where a IN (?, ?) AND a = ? AND b = ?", "first", "second", "first", 3,
        msg="a cannot be restricted by more than one relation if it includes a IN"),
    inv("select * from %s where a = ? AND a IN (?, ?) AND b IN (?, ?)", "first", "second", "first", 2, 3,
        msg="a cannot be restricted by more than one relation if it includes an Equal"),
])

add("testClusteringColumnRelationsWithClusteringOrder", [
    q("CREATE TABLE %s (a text, b int, c int, d int, primary key(a, b, c)) WITH CLUSTERING ORDER BY (b DESC);"),
    *CC[1:],
    q("select * from %s where a = ? and c in (?, ?) and b in (?, ?) order by b DESC", "first", 7, 6, 3, 2, expect=rows(F3, F2)),
    q("select * from %s where a = ? and c in (?, ?) and b in (?, ?) order by b ASC", "first", 7, 6, 3, 2, expect=rows(F2, F3)),
])

add("testAllowFilteringWithClusteringColumn", [
    q("CREATE TABLE %s (k int, c int, v int, PRIMARY KEY (k, c))"),
    q("INSERT INTO %s (k, c, v) VALUES(?, ?, ?)", 1, 2, 1),
    q("INSERT INTO %s (k, c, v) VALUES(?, ?, ?)", 1, 3, 2),
    q("INSERT INTO %s (k, c, v) VALUES(?, ?, ?)", 2, 2, 3),
    q("SELECT * FROM %s WHERE k = ?", 1, expect=rows([1, 2, 1], [1, 3, 2])),
    q("SELECT * FROM %s WHERE k = ? AND c > ?", 1, 2, expect=rows([1, 3, 2])),
    q("SELECT * FROM %s WHERE k = ? AND c = ?", 1, 2, expect=rows([1, 2, 1])),
    q("SELECT * FROM %s WHERE k = ? ALLOW FILTERING", 1, expect=rows([1, 2, 1], [1, 3, 2])),
    q("SELECT * FROM %s WHERE k = ? AND c > ? ALLOW FILTERING", 1, 2, expect=rows([1, 3, 2])),
    q("SELECT * FROM %s WHERE k = ? AND c = ? ALLOW FILTERING", 1, 2, expect=rows([1, 2, 1])),
    inv("SELECT * FROM %s WHERE c = ?", 2, msg=AF),
    inv("SELECT * FROM %s WHERE c > ? AND c <= ?", 2, 4, msg=AF),
    q("SELECT * FROM %s WHERE c = ? ALLOW FILTERING", 2, expect=rows([1, 2, 1], [2, 2, 3])),
    q("SELECT * FROM %s WHERE c > ? AND c <= ? ALLOW FILTERING", 2, 4, expect=rows([1, 3, 2])),
])

add("testAllowFilteringWithIndexedColumn", [
    q("CREATE TABLE %s (k int PRIMARY KEY, a int, b int)"),
    q("CREATE INDEX ON %s(a)"),
    *[q("INSERT INTO %s(k, a, b) VALUES(?, ?, ?)", i, i * 10, i * 100) for i in range(1, 5)],
    q("SELECT * FROM %s WHERE k = ?", 1, expect=rows([1, 10, 100])),
    q("SELECT * FROM %s WHERE a = ?", 20, expect=rows([2, 20, 200])),
    q("SELECT * FROM %s WHERE k = ? ALLOW FILTERING", 1, expect=rows([1, 10, 100])),
    q("SELECT * FROM %s WHERE a = ? ALLOW FILTERING", 20, expect=rows([2, 20, 200])),
    inv("SELECT * FROM %s WHERE a = ? AND b = ?", 20, 200, msg=AF),
    q("SELECT * FROM %s WHERE a = ? AND b = ? ALLOW FILTERING", 20, 200, expect=rows([2, 20, 200])),
])

NEEDS_AF_COSMOS = dict(cosmos=error("Invalid"), cosmos_source=IDX_SRC)
add("testIndexQueriesOnComplexPrimaryKey", [
    q("CREATE TABLE %s (pk0 int, pk1 int, ck0 int, ck1 int, ck2 int, value int, PRIMARY KEY ((pk0, pk1), ck0, ck1, ck2))"),
    ck_index("CREATE INDEX ON %s (ck1)"),
    ck_index("CREATE INDEX ON %s (ck2)"),
    q("CREATE INDEX ON %s (pk0)"),
    ck_index("CREATE INDEX ON %s (ck0)"),
    *[q("INSERT INTO %s (pk0, pk1, ck0, ck1, ck2, value) VALUES (?, ?, ?, ?, ?, ?)", *[(i + j) % 6 for j in range(6)]) for i in range(6)],
    q("SELECT value FROM %s WHERE pk0 = 2", expect=rows([1])),
    q("SELECT value FROM %s WHERE ck0 = 0", expect=rows([3]), **NEEDS_AF_COSMOS),
    q("SELECT value FROM %s WHERE pk0 = 3 AND pk1 = 4 AND ck1 = 0", expect=rows([2]), **NEEDS_AF_COSMOS),
    q("SELECT value FROM %s WHERE pk0 = 5 AND pk1 = 0 AND ck0 = 1 AND ck2 = 3 ALLOW FILTERING", expect=rows([4])),
])

add("testIndexOnClusteringColumns", [
    q("CREATE TABLE %s (id1 int, id2 int, author text, time bigint, v1 text, v2 text, PRIMARY KEY ((id1, id2), author, time))"),
    ck_index("CREATE INDEX ON %s(time)"),
    q("CREATE INDEX ON %s(id2)"),
    q("INSERT INTO %s(id1, id2, author, time, v1, v2) VALUES(0, 0, 'bob', 0, 'A', 'A')"),
    q("INSERT INTO %s(id1, id2, author, time, v1, v2) VALUES(0, 0, 'bob', 1, 'B', 'B')"),
    q("INSERT INTO %s(id1, id2, author, time, v1, v2) VALUES(0, 1, 'bob', 2, 'C', 'C')"),
    q("INSERT INTO %s(id1, id2, author, time, v1, v2) VALUES(0, 0, 'tom', 0, 'D', 'D')"),
    q("INSERT INTO %s(id1, id2, author, time, v1, v2) VALUES(0, 1, 'tom', 1, 'E', 'E')"),
    q("SELECT v1 FROM %s WHERE time = 1", expect=rows(["B"], ["E"]), **NEEDS_AF_COSMOS),
    q("SELECT v1 FROM %s WHERE id2 = 1", expect=rows(["C"], ["E"])),
    q("SELECT v1 FROM %s WHERE id1 = 0 AND id2 = 0 AND author = 'bob' AND time = 0", expect=rows(["A"])),
    q("UPDATE %s SET v2 = null WHERE id1 = 0 AND id2 = 0 AND author = 'bob' AND time = 1"),
    q("SELECT v1 FROM %s WHERE id2 = 0", expect=rows(["A"], ["B"], ["D"])),
    q("SELECT v1 FROM %s WHERE time = 1", expect=rows(["B"], ["E"]), **NEEDS_AF_COSMOS),
    inv("SELECT v1 FROM %s WHERE id2 = 0 and time IN (1, 2) ALLOW FILTERING", msg="IN restrictions are not supported on indexed columns",
        cosmos=rows(["B"]), cosmos_source=IDX_SRC + " (time is then plainly filtered)"),
])

add("testCompositeIndexWithPrimaryKey", [
    q("CREATE TABLE %s (blog_id int, time1 int, time2 int, author text, content text, PRIMARY KEY (blog_id, time1, time2))"),
    q("CREATE INDEX ON %s(author)"),
    *[q("INSERT INTO %s (blog_id, time1, time2, author, content) VALUES (?, ?, ?, ?, ?)", *r) for r in
      ((1, 0, 0, "foo", "bar1"), (1, 0, 1, "foo", "bar2"), (2, 1, 0, "foo", "baz"), (3, 0, 1, "gux", "qux"))],
    q("SELECT blog_id, content FROM %s WHERE author='foo'", expect=rows([1, "bar1"], [1, "bar2"], [2, "baz"])),
    q("SELECT blog_id, content FROM %s WHERE time1 > 0 AND author='foo' ALLOW FILTERING", expect=rows([2, "baz"])),
    q("SELECT blog_id, content FROM %s WHERE time1 = 1 AND author='foo' ALLOW FILTERING", expect=rows([2, "baz"])),
    q("SELECT blog_id, content FROM %s WHERE time1 = 1 AND time2 = 0 AND author='foo' ALLOW FILTERING", expect=rows([2, "baz"])),
    q("SELECT content FROM %s WHERE time1 = 1 AND time2 = 1 AND author='foo' ALLOW FILTERING", expect=rows()),
    q("SELECT content FROM %s WHERE time1 = 1 AND time2 > 0 AND author='foo' ALLOW FILTERING", expect=rows()),
    inv("SELECT content FROM %s WHERE time2 >= 0 AND author='foo'", msg=AF),
])

add("testRangeQueryOnIndex", [
    q("CREATE TABLE %s (id int primary key, row int, setid int);"),
    q("CREATE INDEX ON %s (setid)"),
    *[q("INSERT INTO %s (id, row, setid) VALUES (?, ?, ?);", i, i, 0) for i in range(4)],
    inv("SELECT * FROM %s WHERE setid = 0 AND row < 1;", msg=AF),
    q("SELECT * FROM %s WHERE setid = 0 AND row < 1 ALLOW FILTERING;", expect=rows([0, 0, 0])),
])

add("testEmptyIN", [
    q("CREATE TABLE %s (k1 int, k2 int, v int, PRIMARY KEY (k1, k2))"),
    *[q("INSERT INTO %s (k1, k2, v) VALUES (?, ?, ?)", i, j, i + j) for i in range(3) for j in range(3)],
    q("SELECT v FROM %s WHERE k1 IN ()", expect=rows()),
    q("SELECT v FROM %s WHERE k1 = 0 AND k2 IN ()", expect=rows()),
])

add("testINWithDuplicateValue", [
    q("CREATE TABLE %s (k1 int, k2 int, v int, PRIMARY KEY (k1, k2))"),
    q("INSERT INTO %s (k1,  k2, v) VALUES (?, ?, ?)", 1, 1, 1),
    q("SELECT * FROM %s WHERE k1 IN (?, ?)", 1, 1, expect=rows([1, 1, 1])),
    q("SELECT * FROM %s WHERE k1 IN (?, ?) AND k2 IN (?, ?)", 1, 1, 1, 1, expect=rows([1, 1, 1])),
    q("SELECT * FROM %s WHERE k1 = ? AND k2 IN (?, ?)", 1, 1, 1, expect=rows([1, 1, 1])),
])

add("testLargeClusteringINValues", [
    q("CREATE TABLE %s (k int, c int, v int, PRIMARY KEY (k, c))"),
    q("INSERT INTO %s (k, c, v) VALUES (0, 0, 0)"),
    q("SELECT * FROM %s WHERE k=? AND c IN ?", 0, list(range(10000)), expect=rows([0, 0, 0])),
])

MP = [q("CREATE TABLE %s (a int, b int, c int, d int, e int, f int, PRIMARY KEY ((a, b), c, d, e))"),
      ck_index("CREATE INDEX ON %s (c)"), q("CREATE INDEX ON %s (f)")] + [
    q("INSERT INTO %s (a, b, c, d, e, f) VALUES (?, ?, ?, ?, ?, ?)", 0, 0, *r) for r in
    ((0, 0, 0, 0), (0, 1, 0, 1), (0, 1, 1, 2), (1, 0, 0, 3), (1, 1, 0, 4), (1, 1, 1, 5), (2, 0, 0, 5))]
add("testMultiplePartitionKeyWithIndex", MP + [
    inv("SELECT * FROM %s WHERE a = ? AND c = ?", 0, 1, msg=AF),
    q("SELECT * FROM %s WHERE a = ? AND c = ? ALLOW FILTERING", 0, 1,
      expect=rows([0, 0, 1, 0, 0, 3], [0, 0, 1, 1, 0, 4], [0, 0, 1, 1, 1, 5])),
    inv("SELECT * FROM %s WHERE a = ? AND c = ? AND d = ?", 0, 1, 1, msg=AF),
    q("SELECT * FROM %s WHERE a = ? AND c = ? AND d = ? ALLOW FILTERING", 0, 1, 1, expect=rows([0, 0, 1, 1, 0, 4], [0, 0, 1, 1, 1, 5])),
    # 3.10+ filters on a partition key part (CASSANDRA-11031); 3.0's "Partition key parts: b must be
    # restricted as other parts are" is gone
    q("SELECT * FROM %s WHERE a = ? AND c IN (?) AND  d IN (?) ALLOW FILTERING", 0, 1, 1,
      expect=rows([0, 0, 1, 1, 0, 4], [0, 0, 1, 1, 1, 5])),
    q("SELECT * FROM %s WHERE a = ? AND (c, d) >= (?, ?) ALLOW FILTERING", 0, 1, 1,
      expect=rows([0, 0, 1, 1, 0, 4], [0, 0, 1, 1, 1, 5], [0, 0, 2, 0, 0, 5])),
    inv("SELECT * FROM %s WHERE a = ? AND c IN (?) AND f = ?", 0, 1, 5, msg=AF),
    q("SELECT * FROM %s WHERE a = ? AND c IN (?) AND f = ? ALLOW FILTERING", 0, 1, 5, expect=rows([0, 0, 1, 1, 1, 5])),
    inv("SELECT * FROM %s WHERE a = ? AND c IN (?, ?) AND f = ?", 0, 1, 2, 5, msg=AF),
    q("SELECT * FROM %s WHERE a = ? AND c IN (?, ?) AND f = ? ALLOW FILTERING", 0, 1, 2, 5,
      expect=rows([0, 0, 1, 1, 1, 5], [0, 0, 2, 0, 0, 5])),
    inv("SELECT * FROM %s WHERE a = ? AND c IN (?) AND d IN (?) AND f = ?", 0, 1, 0, 3, msg=AF),
    q("SELECT * FROM %s WHERE a = ? AND c IN (?) AND d IN (?) AND f = ? ALLOW FILTERING", 0, 1, 0, 3, expect=rows([0, 0, 1, 0, 0, 3])),
    q("SELECT * FROM %s WHERE a = ? AND c >= ? ALLOW FILTERING", 0, 1,
      expect=rows([0, 0, 1, 0, 0, 3], [0, 0, 1, 1, 0, 4], [0, 0, 1, 1, 1, 5], [0, 0, 2, 0, 0, 5])),
    inv("SELECT * FROM %s WHERE a = ? AND c >= ? AND f = ?", 0, 1, 5, msg=AF),
    q("SELECT * FROM %s WHERE a = ? AND c >= ? AND f = ? ALLOW FILTERING", 0, 1, 5, expect=rows([0, 0, 1, 1, 1, 5], [0, 0, 2, 0, 0, 5])),
    inv("SELECT * FROM %s WHERE a = ? AND c = ? AND d >= ? AND f = ?", 0, 1, 1, 5, msg=AF),
    q("SELECT * FROM %s WHERE a = ? AND c = ? AND d >= ? AND f = ? ALLOW FILTERING", 0, 1, 1, 5, expect=rows([0, 0, 1, 1, 1, 5])),
])

add("testFunctionCallWithUnset", [
    q("CREATE TABLE %s (k int PRIMARY KEY, s text, i int)"),
    inv("SELECT * FROM %s WHERE token(k) >= token(?)", UNSET_VALUE, msg="Invalid unset value for argument in call to function token"),
    inv("SELECT * FROM %s WHERE k = blobAsInt(?)", UNSET_VALUE, msg="Invalid unset value for argument in call to function blobasint"),
])

add("testLimitWithUnset", [
    q("CREATE TABLE %s (k int PRIMARY KEY, i int)"),
    q("INSERT INTO %s (k, i) VALUES (1, 1)"),
    q("INSERT INTO %s (k, i) VALUES (2, 1)"),
    q("SELECT k FROM %s LIMIT ?", UNSET_VALUE, expect=rows([1], [2])),
])

add("testWithUnsetValues", [
    q("CREATE TABLE %s (k int, i int, j int, s text, PRIMARY KEY(k,i,j))"),
    q("CREATE INDEX s_index ON %s (s)"),
    inv("SELECT * from %s WHERE k = 1 AND i = ?", UNSET_VALUE, msg="Invalid unset value for column i"),
    inv("SELECT * from %s WHERE k = 1 AND i IN ?", UNSET_VALUE, msg="Invalid unset value for column i"),
    inv("SELECT * from %s WHERE k = 1 AND i IN(?)", UNSET_VALUE, msg="Invalid unset value for column i"),
    inv("SELECT * from %s WHERE k = 1 AND i IN(?,?)", 1, UNSET_VALUE, msg="Invalid unset value for column i"),
    inv("SELECT * from %s WHERE i = ? ALLOW FILTERING", UNSET_VALUE, msg="Invalid unset value for column i"),
    inv("SELECT * from %s WHERE s = ?", UNSET_VALUE, msg="Unsupported unset value for indexed column s"),
    inv("SELECT * from %s WHERE k = 1 AND i > ?", UNSET_VALUE, msg="Invalid unset value for column i"),
])
