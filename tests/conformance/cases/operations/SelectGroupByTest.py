"""Cases ported from Apache Cassandra's SelectGroupByTest (cql3/validation/operations, 4.0 line;
GROUP BY exists since 3.10).

The *WithoutPaging methods are ported, split into step groups; the *WithPaging methods repeat
the same queries with page sizes and are represented by page_size steps in the .paging case.
Under the cosmos profile: aggregates on clustering columns (count(b), max(c), max(d) here) and
SELECT DISTINCT are refused by the service (cosmos-cassandra-api-facts.md §5), so those steps
carry that expectation. Steps combining IN with ORDER BY run unpaged (page_size=0), as
CQLTester's execute() does.
"""
import re

from conformance import case, q as _q, rows, rows_any_order, ok, error

SRC = "cql3/validation/operations/SelectGroupByTest.java#%s (4.0)"
AGG_SRC = "cosmos-cassandra-api-facts.md §5: aggregates on clustering columns are not supported; DISTINCT is not supported"
_IN_ORDER = re.compile(r"\bIN\b.*\bORDER BY\b", re.I)
CASES = []


def make_q(clustering):
    agg = re.compile(r"\b(count|max|min|sum|avg)\((%s)\)" % "|".join(clustering), re.I)

    def q(text, *values, expect=None, **kw):
        if _IN_ORDER.search(text):
            kw.setdefault("page_size", 0)
        if agg.search(text) or re.search(r"\bDISTINCT\b", text, re.I):
            kw.setdefault("cosmos", error("Invalid"))
            kw.setdefault("cosmos_source", AGG_SRC)
        return _q(text, *values, expect=expect, **kw)
    return q


def add(name, steps, method=None):
    CASES.append(case("SelectGroupByTest." + name, origin=SRC % (method or name.split(".")[0]), steps=steps))


q = make_q(["b", "c", "d"])
T1 = [q("CREATE TABLE %s (a int, b int, c int, d int, e int, primary key (a, b, c, d))")] + [
    q("INSERT INTO %s (a, b, c, d, e) VALUES (?, ?, ?, ?, ?)", *r) for r in (
        (1, 2, 1, 3, 6), (1, 2, 2, 6, 12), (1, 3, 2, 12, 24), (1, 4, 2, 12, 24), (1, 4, 2, 6, 12),
        (2, 2, 3, 3, 6), (2, 4, 3, 6, 12), (3, 3, 2, 12, 24), (4, 8, 2, 12, 24))] + [
    q("DELETE FROM %s WHERE a = 1 AND b = 3 AND c = 2 AND d = 12"),
    q("DELETE FROM %s WHERE a = 3"),
]
M = "testGroupByWithoutPaging"
S = "SELECT a, b, e, count(b), max(e) FROM %s "
P = "SELECT a, b, c, d FROM %s "

add(M + ".range", T1 + [
    q(S + "GROUP BY a", expect=rows([1, 2, 6, 4, 24], [2, 2, 6, 2, 12], [4, 8, 24, 1, 24])),
    q(S + "GROUP BY a, b", expect=rows([1, 2, 6, 2, 12], [1, 4, 12, 2, 24], [2, 2, 6, 1, 6], [2, 4, 12, 1, 12], [4, 8, 24, 1, 24])),
    q(S + "WHERE b = 2 GROUP BY a, b ALLOW FILTERING", expect=rows([1, 2, 6, 2, 12], [2, 2, 6, 1, 6])),
    q(S + "WHERE b IN () GROUP BY a, b ALLOW FILTERING", expect=rows()),
    q(P + "GROUP BY a, b, c", expect=rows([1, 2, 1, 3], [1, 2, 2, 6], [1, 4, 2, 6], [2, 2, 3, 3], [2, 4, 3, 6], [4, 8, 2, 12])),
    q(P + "GROUP BY a, b", expect=rows([1, 2, 1, 3], [1, 4, 2, 6], [2, 2, 3, 3], [2, 4, 3, 6], [4, 8, 2, 12])),
], method=M)

add(M + ".rangeLimits", T1 + [
    q(S + "GROUP BY a, b LIMIT 2", expect=rows([1, 2, 6, 2, 12], [1, 4, 12, 2, 24])),
    q(S + "GROUP BY a, b PER PARTITION LIMIT 1", expect=rows([1, 2, 6, 2, 12], [2, 2, 6, 1, 6], [4, 8, 24, 1, 24])),
    q(S + "GROUP BY a PER PARTITION LIMIT 2", expect=rows([1, 2, 6, 4, 24], [2, 2, 6, 2, 12], [4, 8, 24, 1, 24])),
    q(S + "GROUP BY a, b PER PARTITION LIMIT 1 LIMIT 2", expect=rows([1, 2, 6, 2, 12], [2, 2, 6, 1, 6])),
    q(P + "GROUP BY a, b, c LIMIT 3", expect=rows([1, 2, 1, 3], [1, 2, 2, 6], [1, 4, 2, 6])),
    q(P + "GROUP BY a, b LIMIT 3", expect=rows([1, 2, 1, 3], [1, 4, 2, 6], [2, 2, 3, 3])),
    q(P + "GROUP BY a, b, c PER PARTITION LIMIT 2", expect=rows([1, 2, 1, 3], [1, 2, 2, 6], [2, 2, 3, 3], [2, 4, 3, 6], [4, 8, 2, 12])),
    q(P + "GROUP BY a, b PER PARTITION LIMIT 1", expect=rows([1, 2, 1, 3], [2, 2, 3, 3], [4, 8, 2, 12])),
    q(P + "GROUP BY a, b, c PER PARTITION LIMIT 2 LIMIT 3", expect=rows([1, 2, 1, 3], [1, 2, 2, 6], [2, 2, 3, 3])),
], method=M)

DGC = "Grouping on clustering columns is not allowed for SELECT DISTINCT queries"
add(M + ".distinct", T1 + [
    q("SELECT DISTINCT a, count(a)FROM %s GROUP BY a", expect=rows([1, 1], [2, 1], [4, 1])),
    q("SELECT DISTINCT a, count(a)FROM %s GROUP BY a, b", expect=error("Invalid", DGC)),
    q("SELECT DISTINCT a, count(a)FROM %s GROUP BY a LIMIT 2", expect=rows([1, 1], [2, 1])),
    q("SELECT DISTINCT a, count(a)FROM %s GROUP BY a, b LIMIT 2", expect=error("Invalid", DGC)),
    q("SELECT DISTINCT a, count(a)FROM %s WHERE a = 1 GROUP BY a", expect=rows([1, 1])),
    q("SELECT DISTINCT a, count(a)FROM %s WHERE a = 1 GROUP BY a, b", expect=error("Invalid", DGC)),
    q("SELECT DISTINCT a, count(a)FROM %s WHERE a IN (1, 2, 4) GROUP BY a", expect=rows([1, 1], [2, 1], [4, 1])),
    q("SELECT DISTINCT a, count(a)FROM %s WHERE a IN (1, 2, 4) GROUP BY a, b", expect=error("Invalid", DGC)),
    q("SELECT DISTINCT a, count(a)FROM %s WHERE a IN (1, 2, 4) GROUP BY a LIMIT 2", expect=rows([1, 1], [2, 1])),
    q("SELECT a, b, c, count(b), max(e) FROM %s GROUP BY a, b ORDER BY b DESC, c DESC",
      expect=error("Invalid", "ORDER BY is only supported when the partition key is restricted by an EQ or an IN")),
], method=M)

add(M + ".singlePartition", T1 + [
    q(S + "WHERE a = 1 GROUP BY a, b, c", expect=rows([1, 2, 6, 1, 6], [1, 2, 12, 1, 12], [1, 4, 12, 2, 24])),
    q(S + "WHERE a = 1 GROUP BY b, c", expect=rows([1, 2, 6, 1, 6], [1, 2, 12, 1, 12], [1, 4, 12, 2, 24])),
    q(S + "WHERE a = 1 AND b = 2 GROUP BY a, b, c", expect=rows([1, 2, 6, 1, 6], [1, 2, 12, 1, 12])),
    q(S + "WHERE a = 1 AND b = 2 GROUP BY a, c", expect=rows([1, 2, 6, 1, 6], [1, 2, 12, 1, 12])),
    q(S + "WHERE a = 1 AND b = 2 GROUP BY c", expect=rows([1, 2, 6, 1, 6], [1, 2, 12, 1, 12])),
    q(P + "WHERE a = 1 GROUP BY a, b", expect=rows([1, 2, 1, 3], [1, 4, 2, 6])),
    q(P + "WHERE a = 1 GROUP BY a, b, c", expect=rows([1, 2, 1, 3], [1, 2, 2, 6], [1, 4, 2, 6])),
    q(P + "WHERE a = 1 GROUP BY b, c", expect=rows([1, 2, 1, 3], [1, 2, 2, 6], [1, 4, 2, 6])),
    q(P + "WHERE a = 1 and token(a) = token(1) GROUP BY b, c", expect=rows([1, 2, 1, 3], [1, 2, 2, 6], [1, 4, 2, 6])),
], method=M)

add(M + ".singlePartitionLimits", T1 + [
    q(S + "WHERE a = 1 GROUP BY a, b, c LIMIT 10", expect=rows([1, 2, 6, 1, 6], [1, 2, 12, 1, 12], [1, 4, 12, 2, 24])),
    q(S + "WHERE a = 1 GROUP BY a, b, c LIMIT 2", expect=rows([1, 2, 6, 1, 6], [1, 2, 12, 1, 12])),
    q("SELECT count(b), max(e) FROM %s WHERE a = 1 GROUP BY a, b, c LIMIT 1", expect=rows([1, 6])),
    q(S + "WHERE a = 1 GROUP BY a, b, c PER PARTITION LIMIT 10", expect=rows([1, 2, 6, 1, 6], [1, 2, 12, 1, 12], [1, 4, 12, 2, 24])),
    q(S + "WHERE a = 1 GROUP BY a, b, c PER PARTITION LIMIT 2", expect=rows([1, 2, 6, 1, 6], [1, 2, 12, 1, 12])),
    q("SELECT count(b), max(e) FROM %s WHERE a = 1 GROUP BY a, b, c PER PARTITION LIMIT 1", expect=rows([1, 6])),
    q(P + "WHERE a = 1 GROUP BY a, b LIMIT 2", expect=rows([1, 2, 1, 3], [1, 4, 2, 6])),
    q(P + "WHERE a = 1 GROUP BY a, b LIMIT 1", expect=rows([1, 2, 1, 3])),
    q(P + "WHERE a = 1 GROUP BY a, b, c LIMIT 2", expect=rows([1, 2, 1, 3], [1, 2, 2, 6])),
    q(P + "WHERE a = 1 GROUP BY a, b PER PARTITION LIMIT 2", expect=rows([1, 2, 1, 3], [1, 4, 2, 6])),
    q(P + "WHERE a = 1 GROUP BY a, b PER PARTITION LIMIT 1", expect=rows([1, 2, 1, 3])),
    q(P + "WHERE a = 1 GROUP BY a, b, c PER PARTITION LIMIT 2", expect=rows([1, 2, 1, 3], [1, 2, 2, 6])),
], method=M)

add(M + ".singlePartitionOrderBy", T1 + [
    q(S + "WHERE a = 1 GROUP BY a, b, c ORDER BY b DESC, c DESC", expect=rows([1, 4, 24, 2, 24], [1, 2, 12, 1, 12], [1, 2, 6, 1, 6])),
    q(S + "WHERE a = 1 GROUP BY a, b, c ORDER BY b DESC, c DESC PER PARTITION LIMIT 1", expect=rows([1, 4, 24, 2, 24])),
    q(S + "WHERE a = 1 GROUP BY a, b, c ORDER BY b DESC, c DESC LIMIT 2", expect=rows([1, 4, 24, 2, 24], [1, 2, 12, 1, 12])),
], method=M)

add(M + ".multiPartition", T1 + [
    q(S + "WHERE a IN (1, 2, 4) GROUP BY a, b, c",
      expect=rows([1, 2, 6, 1, 6], [1, 2, 12, 1, 12], [1, 4, 12, 2, 24], [2, 2, 6, 1, 6], [2, 4, 12, 1, 12], [4, 8, 24, 1, 24])),
    q(S + "WHERE a IN (1, 2, 4) AND b = 2 GROUP BY a, b, c", expect=rows([1, 2, 6, 1, 6], [1, 2, 12, 1, 12], [2, 2, 6, 1, 6])),
    q(P + "WHERE a IN (1, 2, 4) GROUP BY a, b", expect=rows([1, 2, 1, 3], [1, 4, 2, 6], [2, 2, 3, 3], [2, 4, 3, 6], [4, 8, 2, 12])),
    q(P + "WHERE a IN (1, 2, 4) GROUP BY a, b, c",
      expect=rows([1, 2, 1, 3], [1, 2, 2, 6], [1, 4, 2, 6], [2, 2, 3, 3], [2, 4, 3, 6], [4, 8, 2, 12])),
    q(S + "WHERE a IN (1, 2, 4) GROUP BY a, b, c PER PARTITION LIMIT 1", expect=rows([1, 2, 6, 1, 6], [2, 2, 6, 1, 6], [4, 8, 24, 1, 24])),
    q(S + "WHERE a IN (1, 2, 4) GROUP BY a, b, c PER PARTITION LIMIT 2",
      expect=rows([1, 2, 6, 1, 6], [1, 2, 12, 1, 12], [2, 2, 6, 1, 6], [2, 4, 12, 1, 12], [4, 8, 24, 1, 24])),
], method=M)

add(M + ".multiPartitionOrderBy", T1 + [
    q("SELECT a, b, c, count(b), max(e) FROM %s WHERE a IN (1, 2, 4) GROUP BY a, b ORDER BY b DESC, c DESC",
      expect=rows([4, 8, 2, 1, 24], [2, 4, 3, 1, 12], [1, 4, 2, 2, 24], [2, 2, 3, 1, 6], [1, 2, 2, 2, 12])),
    q(P + "WHERE a IN (1, 2, 4) GROUP BY a, b, c ORDER BY b DESC, c DESC",
      expect=rows([4, 8, 2, 12], [2, 4, 3, 6], [1, 4, 2, 12], [2, 2, 3, 3], [1, 2, 2, 6], [1, 2, 1, 3])),
    q(P + "WHERE a IN (1, 2, 4) GROUP BY a, b ORDER BY b DESC, c DESC LIMIT 3",
      expect=rows([4, 8, 2, 12], [2, 4, 3, 6], [1, 4, 2, 12])),
], method=M)

GBO = "Group by currently only support groups of columns following their declared order in the PRIMARY KEY"
add(M + ".invalid", T1 + [
    q("SELECT a, b, d, count(b), max(c) FROM %s WHERE a = 1 GROUP BY a, e",
      expect=error("Invalid", "Group by is currently only supported on the columns of the PRIMARY KEY, got e")),
    q("SELECT a, b, d, count(b), max(c) FROM %s WHERE a = 1 GROUP BY c", expect=error("Invalid", GBO)),
    q("SELECT a, b, d, count(b), max(c) FROM %s WHERE a = 1 GROUP BY a, c, b", expect=error("Invalid", GBO)),
    q("SELECT a, b, d, count(b), max(c) FROM %s WHERE a = 1 GROUP BY a, a", expect=error("Invalid", GBO)),
    q("SELECT a, b, c, d FROM %s WHERE token(a) = token(1) GROUP BY b, c", expect=error("Invalid", GBO)),
    q("SELECT a, b as clustering1, max(c) FROM %s WHERE a = 1 GROUP BY a, clustering1",
      expect=error("Invalid", "Undefined column name clustering1")),
    q("SELECT a, b, max(c) FROM %s WHERE a = 1 GROUP BY a, b, z", expect=error("Invalid", "Undefined column name z")),
], method=M)

q2 = make_q(["c", "d"])
add(M + ".compositePartitionKey", [
    q2("CREATE TABLE %s (a int, b int, c int, d int, e int, primary key ((a, b), c, d))"),
    *[q2("INSERT INTO %s (a, b, c, d, e) VALUES (?, ?, ?, ?, ?)", *r) for r in (
        (1, 1, 1, 3, 6), (1, 1, 2, 6, 12), (1, 1, 3, 12, 24), (1, 2, 1, 12, 24), (1, 2, 2, 6, 12))],
    q2("SELECT a, b, max(d) FROM %s GROUP BY a", expect=error("Invalid", "Group by is not supported on only a part of the partition key")),
    q2("SELECT a, b, max(d) FROM %s GROUP BY a, b", expect=rows([1, 2, 12], [1, 1, 12])),
    q2("SELECT a, b, max(d) FROM %s WHERE a = 1 AND b = 1 GROUP BY b", expect=rows([1, 1, 12])),
], method=M)

q3 = make_q([])
add(M + ".noClustering", [
    q3("CREATE TABLE %s (a int primary key, b int, c int)"),
    q3("INSERT INTO %s (a, b, c) VALUES (1, 3, 6)"),
    q3("INSERT INTO %s (a, b, c) VALUES (2, 6, 12)"),
    q3("INSERT INTO %s (a, b, c) VALUES (3, 12, 24)"),
    q3("SELECT a, max(c) FROM %s WHERE a = 1 GROUP BY a, a", expect=error("Invalid", GBO)),
    q3("SELECT a, max(c) FROM %s WHERE a = 1 GROUP BY a", expect=rows([1, 6])),
], method=M)

add(M + ".paging", T1 + [
    q(S + "GROUP BY a", page_size=1, expect=rows([1, 2, 6, 4, 24], [2, 2, 6, 2, 12], [4, 8, 24, 1, 24])),
    q(S + "GROUP BY a, b", page_size=2,
      expect=rows([1, 2, 6, 2, 12], [1, 4, 12, 2, 24], [2, 2, 6, 1, 6], [2, 4, 12, 1, 12], [4, 8, 24, 1, 24])),
    q(P + "GROUP BY a, b, c", page_size=1,
      expect=rows([1, 2, 1, 3], [1, 2, 2, 6], [1, 4, 2, 6], [2, 2, 3, 3], [2, 4, 3, 6], [4, 8, 2, 12])),
    q(S + "WHERE a = 1 GROUP BY a, b, c", page_size=1, expect=rows([1, 2, 6, 1, 6], [1, 2, 12, 1, 12], [1, 4, 12, 2, 24])),
    q(S + "WHERE a IN (1, 2, 4) GROUP BY a, b, c", page_size=2,
      expect=rows([1, 2, 6, 1, 6], [1, 2, 12, 1, 12], [1, 4, 12, 2, 24], [2, 2, 6, 1, 6], [2, 4, 12, 1, 12], [4, 8, 24, 1, 24])),
], method="testGroupByWithPaging")

add("testGroupByWithoutPagingWithDeletions", [
    q("CREATE TABLE %s (a int, b int, c int, d int, e int, primary key (a, b, c, d))"),
    *[q("INSERT INTO %s (a, b, c, d, e) VALUES (1, 2, ?, ?, ?)", c, d, d * 2) for c in (1, 2, 3) for d in (3, 6, 9, 12)],
    q("DELETE FROM %s WHERE a = 1 AND b = 2 AND c = 1 AND d = 12"),
    q("DELETE FROM %s WHERE a = 1 AND b = 2 AND c = 2 AND d = 9"),
    q("SELECT a, b, c, count(b), max(d) FROM %s GROUP BY a, b, c", expect=rows([1, 2, 1, 3, 9], [1, 2, 2, 3, 12], [1, 2, 3, 4, 12])),
])

RN = [q("CREATE TABLE %s (a int, b int, c int, d int, primary key (a, b, c))")] + [
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", i, j, k, i + j) for i in range(1, 5) for j in range(1, 5) for k in range(1, 5)
] + [q("DELETE FROM %s WHERE a = 3")]
RS = "SELECT a, b, d, count(b), max(d) FROM %s WHERE "
add("testGroupByWithRangeNamesQueryWithoutPaging", RN + [
    q(RS + "b = 1 and c IN (1, 2) GROUP BY a ALLOW FILTERING", expect=rows([1, 1, 2, 2, 2], [2, 1, 3, 2, 3], [4, 1, 5, 2, 5])),
    q(RS + "b = 1 and c IN (1, 2) GROUP BY a, b ALLOW FILTERING", expect=rows([1, 1, 2, 2, 2], [2, 1, 3, 2, 3], [4, 1, 5, 2, 5])),
    q(RS + "b IN (1, 2) and c IN (1, 2) GROUP BY a, b ALLOW FILTERING",
      expect=rows([1, 1, 2, 2, 2], [1, 2, 3, 2, 3], [2, 1, 3, 2, 3], [2, 2, 4, 2, 4], [4, 1, 5, 2, 5], [4, 2, 6, 2, 6])),
    q(RS + "b = 1 and c IN (1, 2) GROUP BY a LIMIT 5 ALLOW FILTERING", expect=rows([1, 1, 2, 2, 2], [2, 1, 3, 2, 3], [4, 1, 5, 2, 5])),
    q(RS + "b = 1 and c IN (1, 2) GROUP BY a, b LIMIT 3 ALLOW FILTERING", expect=rows([1, 1, 2, 2, 2], [2, 1, 3, 2, 3], [4, 1, 5, 2, 5])),
    q(RS + "b IN (1, 2) and c IN (1, 2) GROUP BY a, b LIMIT 3 ALLOW FILTERING",
      expect=rows([1, 1, 2, 2, 2], [1, 2, 3, 2, 3], [2, 1, 3, 2, 3])),
    q(RS + "b = 1 and c IN (1, 2) GROUP BY a, b PER PARTITION LIMIT 2 ALLOW FILTERING",
      expect=rows([1, 1, 2, 2, 2], [2, 1, 3, 2, 3], [4, 1, 5, 2, 5])),
    q(RS + "b IN (1, 2) and c IN (1, 2) GROUP BY a, b PER PARTITION LIMIT 1 ALLOW FILTERING",
      expect=rows([1, 1, 2, 2, 2], [2, 1, 3, 2, 3], [4, 1, 5, 2, 5])),
    q(RS + "b = 1 and c IN (1, 2) GROUP BY a, b PER PARTITION LIMIT 2 LIMIT 5 ALLOW FILTERING",
      expect=rows([1, 1, 2, 2, 2], [2, 1, 3, 2, 3], [4, 1, 5, 2, 5])),
    q(RS + "b IN (1, 2) and c IN (1, 2) GROUP BY a, b PER PARTITION LIMIT 1 LIMIT 2 ALLOW FILTERING",
      expect=rows([1, 1, 2, 2, 2], [2, 1, 3, 2, 3])),
])

qs = make_q(["b", "c"])
ST = [qs("CREATE TABLE %s (a int, b int, c int, s int static, d int, primary key (a, b, c))"),
      qs("UPDATE %s SET s = 1 WHERE a = 1"), qs("UPDATE %s SET s = 2 WHERE a = 2"), qs("UPDATE %s SET s = 3 WHERE a = 4")]
SS = "SELECT a, b, s, count(b), count(s) FROM %s "
M2 = "testGroupByWithStaticColumnsWithoutPaging"
add(M2 + ".staticOnly", ST + [
    qs(SS + "GROUP BY a", expect=rows([1, None, 1, 0, 1], [2, None, 2, 0, 1], [4, None, 3, 0, 1])),
    qs(SS + "GROUP BY a, b", expect=rows([1, None, 1, 0, 1], [2, None, 2, 0, 1], [4, None, 3, 0, 1])),
    qs("SELECT a, b, s FROM %s GROUP BY a, b", expect=rows([1, None, 1], [2, None, 2], [4, None, 3])),
    qs(SS + "GROUP BY a, b LIMIT 2", expect=rows([1, None, 1, 0, 1], [2, None, 2, 0, 1])),
    qs(SS + "GROUP BY a PER PARTITION LIMIT 2", expect=rows([1, None, 1, 0, 1], [2, None, 2, 0, 1], [4, None, 3, 0, 1])),
    qs("SELECT DISTINCT a, s, count(s) FROM %s GROUP BY a", expect=rows([1, 1, 1], [2, 2, 1], [4, 3, 1])),
    qs("SELECT DISTINCT a, s, count(s) FROM %s GROUP BY a LIMIT 2", expect=rows([1, 1, 1], [2, 2, 1])),
    qs(SS + "WHERE a = 1 GROUP BY a", expect=rows([1, None, 1, 0, 1])),
    qs(SS + "WHERE a = 1 GROUP BY a, b", expect=rows([1, None, 1, 0, 1])),
    qs("SELECT a, b, s FROM %s WHERE a = 1 GROUP BY a, b", expect=rows([1, None, 1])),
    qs(SS + "WHERE a = 1 GROUP BY a, b LIMIT 2", expect=rows([1, None, 1, 0, 1])),
    qs(SS + "WHERE a = 1 GROUP BY a, b PER PARTITION LIMIT 2", expect=rows([1, None, 1, 0, 1])),
    qs("SELECT DISTINCT a, s, count(s) FROM %s WHERE a = 1 GROUP BY a", expect=rows([1, 1, 1])),
    qs(SS + "WHERE a IN (1, 2, 3, 4) GROUP BY a", expect=rows([1, None, 1, 0, 1], [2, None, 2, 0, 1], [4, None, 3, 0, 1])),
    qs(SS + "WHERE a IN (1, 2, 3, 4) GROUP BY a, b", expect=rows([1, None, 1, 0, 1], [2, None, 2, 0, 1], [4, None, 3, 0, 1])),
    qs("SELECT a, b, s FROM %s WHERE a IN (1, 2, 3, 4) GROUP BY a, b", expect=rows([1, None, 1], [2, None, 2], [4, None, 3])),
    qs(SS + "WHERE a IN (1, 2, 3, 4) GROUP BY a, b LIMIT 2", expect=rows([1, None, 1, 0, 1], [2, None, 2, 0, 1])),
    qs(SS + "WHERE a IN (1, 2, 3, 4) GROUP BY a, b PER PARTITION LIMIT 2",
       expect=rows([1, None, 1, 0, 1], [2, None, 2, 0, 1], [4, None, 3, 0, 1])),
    qs("SELECT DISTINCT a, s, count(s) FROM %s WHERE a IN (1, 2, 3, 4) GROUP BY a", expect=rows([1, 1, 1], [2, 2, 1], [4, 3, 1])),
    qs("SELECT DISTINCT a, s, count(s) FROM %s WHERE a IN (1, 2, 3, 4) GROUP BY a LIMIT 2", expect=rows([1, 1, 1], [2, 2, 1])),
], method=M2)

add(M2 + ".mixed", ST + [
    qs("UPDATE %s SET s = 3 WHERE a = 3"),
    qs("DELETE s FROM %s WHERE a = 4"),
    *[qs("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", *r) for r in (
        (1, 2, 1, 3), (1, 2, 2, 6), (1, 3, 2, 12), (1, 4, 2, 12), (1, 4, 3, 6), (2, 2, 3, 3), (2, 4, 3, 6), (4, 8, 2, 12), (5, 8, 2, 12))],
    qs("DELETE FROM %s WHERE a = 1 AND b = 3 AND c = 2"),
    qs("DELETE FROM %s WHERE a = 5"),
    qs(SS + "GROUP BY a", expect=rows([1, 2, 1, 4, 4], [2, 2, 2, 2, 2], [4, 8, None, 1, 0], [3, None, 3, 0, 1])),
    qs(SS + "GROUP BY a, b",
       expect=rows([1, 2, 1, 2, 2], [1, 4, 1, 2, 2], [2, 2, 2, 1, 1], [2, 4, 2, 1, 1], [4, 8, None, 1, 0], [3, None, 3, 0, 1])),
    qs(SS + "WHERE b = 2 GROUP BY a, b ALLOW FILTERING", expect=rows([1, 2, 1, 2, 2], [2, 2, 2, 1, 1])),
    qs("SELECT a, b, s FROM %s GROUP BY a", expect=rows([1, 2, 1], [2, 2, 2], [4, 8, None], [3, None, 3])),
    qs("SELECT a, b, s FROM %s GROUP BY a, b",
       expect=rows([1, 2, 1], [1, 4, 1], [2, 2, 2], [2, 4, 2], [4, 8, None], [3, None, 3])),
    qs(SS + "GROUP BY a LIMIT 2", expect=rows([1, 2, 1, 4, 4], [2, 2, 2, 2, 2])),
], method=M2)
