"""Cases ported from Apache Cassandra's SelectMultiColumnRelationTest
(cql3/validation/operations, 3.11 line).

Left out: the COMPACT STORAGE half of every method. Messages that changed between 3.0 and
4.0 are matched on their stable part only. Under the cosmos profile, indexes on clustering
columns are refused (secondary-indexing.md); queries that relied on them need ALLOW FILTERING.
"""
from cassandra.query import UNSET_VALUE

from conformance import case, q, rows, rows_any_order, ok, error

SRC = "cql3/validation/operations/SelectMultiColumnRelationTest.java#%s (3.11)"
AF = "Cannot execute this query as it might involve data filtering"
IDX_SRC = "cosmos-cassandra-api-facts.md §5 (secondary-indexing.md): no index on clustering keys"
MIX = "Mixing single column relations and multi column relations on clustering columns is not allowed"
CASES = []


def add(name, steps, method=None):
    CASES.append(case("SelectMultiColumnRelationTest." + name, origin=SRC % (method or name.split(".")[0]), steps=steps))


def inv(text, *values, msg=None):
    return q(text, *values, expect=error("Invalid", msg))


add("testSingleClusteringInvalidQueries", [
    q("CREATE TABLE %s (a int, b int, c int, PRIMARY KEY (a, b))"),
    q("SELECT * FROM %s WHERE () = (?, ?)", 1, 2, expect=error("Syntax")),
    # 3.0 said "b cannot be restricted by more than one relation if it includes an Equal"; the
    # wording changed later, so only the error class is checked
    inv("SELECT * FROM %s WHERE a = 0 AND (b) = (?) AND (b) > (?)", 0, 0),
    inv("SELECT * FROM %s WHERE a = 0 AND (b) > (?) AND (b) > (?)", 0, 1, msg="More than one restriction was found for the start bound on b"),
    inv("SELECT * FROM %s WHERE (a, b) = (?, ?)", 0, 0, msg="Multi-column relations can only be applied to clustering columns but was applied to: a"),
])

MC = "CREATE TABLE %s (a int, b int, c int, d int, PRIMARY KEY (a, b, c, d))"
add("testMultiClusteringInvalidQueries", [
    q(MC),
    q("SELECT * FROM %s WHERE a = 0 AND (b, c) > ()", expect=error("Syntax")),
    inv("SELECT * FROM %s WHERE a = 0 AND (b, c) > (?, ?, ?)", 1, 2, 3, msg="Expected 2 elements in value tuple, but got 3: (?, ?, ?)"),
    inv("SELECT * FROM %s WHERE a = 0 AND (b, c) > (?, ?)", 1, None, msg="Invalid null value in condition for column c"),
    inv("SELECT * FROM %s WHERE a = 0 AND (d, c, b) = (?, ?, ?)", 0, 0, 0,
        msg="Clustering columns must appear in the PRIMARY KEY order in multi-column relations: (d, c, b) = (?, ?, ?)"),
    inv("SELECT * FROM %s WHERE a = 0 AND (d, c, b) > (?, ?, ?)", 0, 0, 0,
        msg="Clustering columns must appear in the PRIMARY KEY order in multi-column relations: (d, c, b) > (?, ?, ?)"),
    inv("SELECT * FROM %s WHERE a=0 AND (b, c, d) IN ((?, ?))", 0, 1, msg="Expected 3 elements in value tuple, but got 2: (?, ?)"),
    inv("SELECT * FROM %s WHERE a=0 AND (b, c, d) IN ((?, ?, ?, ?, ?))", 0, 1, 2, 3, 4,
        msg="Expected 3 elements in value tuple, but got 5: (?, ?, ?, ?, ?)"),
    inv("SELECT * FROM %s WHERE a = 0 AND (c, d) = (?, ?)", 0, 0,
        msg='PRIMARY KEY column "c" cannot be restricted as preceding column "b" is not restricted'),
    inv("SELECT * FROM %s WHERE a = 0 AND (c, d) > (?, ?)", 0, 0,
        msg='PRIMARY KEY column "c" cannot be restricted as preceding column "b" is not restricted'),
    inv("SELECT * FROM %s WHERE a = 0 AND (b, c, d) IN ((?, ?, ?))", 1, 2, None, msg="Invalid null value in condition for column"),
    inv("SELECT * FROM %s WHERE a = 0 AND (b, c, d) = (1, 2, 'foobar')"),
    inv("SELECT * FROM %s WHERE a = 0 AND b = (1, 2, 3)"),
])

add("testMultiClusteringInvalidQueries.mixing", [
    q(MC),
    inv("SELECT * FROM %s WHERE a = 0 AND (b, c, d) > (?, ?, ?) AND b < ?", 0, 1, 0, 1, msg=MIX),
    inv("SELECT * FROM %s WHERE a = 0 AND (b, c, d) > (?, ?, ?) AND c < ?", 0, 1, 0, 1, msg=MIX),
    inv("SELECT * FROM %s WHERE a = 0 AND b > ? AND (b, c, d) < (?, ?, ?)", 1, 1, 1, 0, msg=MIX),
    inv("SELECT * FROM %s WHERE a = 0 AND c > ? AND (b, c, d) < (?, ?, ?)", 1, 1, 1, 0, msg=MIX),
    inv("SELECT * FROM %s WHERE (a, b, c, d) IN ((?, ?, ?, ?))", 0, 1, 2, 3,
        msg="Multi-column relations can only be applied to clustering columns but was applied to: a"),
    inv("SELECT * FROM %s WHERE (c, d) IN ((?, ?))", 0, 1,
        msg='PRIMARY KEY column "c" cannot be restricted as preceding column "b" is not restricted'),
    inv("SELECT * FROM %s WHERE a = ? AND b > ?  AND (c, d) IN ((?, ?))", 0, 0, 0, 0,
        msg='Clustering column "c" cannot be restricted (preceding column "b" is restricted by a non-EQ relation)'),
    inv("SELECT * FROM %s WHERE a = ? AND b > ?  AND (c, d) > (?, ?)", 0, 0, 0, 0,
        msg='Clustering column "c" cannot be restricted (preceding column "b" is restricted by a non-EQ relation)'),
    inv("SELECT * FROM %s WHERE a = ? AND (b, c) > (?, ?) AND (b) < (?) AND (c) < (?)", 0, 0, 0, 0, 0,
        msg='Column "c" cannot be restricted by two tuple-notation inequalities not starting with the same column'),
    inv("SELECT * FROM %s WHERE a = ? AND (b, c) > (?, ?) AND (c) < (?)", 0, 0, 0, 0,
        msg='Column "c" cannot be restricted by two tuple-notation inequalities not starting with the same column'),
], method="testMultiClusteringInvalidQueries")

D6 = [q(MC)] + [q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", 0, *r) for r in
                ((0, 0, 0), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 1, 0), (1, 1, 1))]


def R(*x):
    return [0] + list(x)


MIXROWS = [
    ("SELECT * FROM %s WHERE a = ? and {b} = {v} and (c, d) = (?, ?)", (0, 1, 0, 0), [R(1, 0, 0)]),
    ("SELECT * FROM %s WHERE a = ? and {b} IN {vv} and (c, d) = (?, ?)", (0, 0, 1, 0, 0), [R(0, 0, 0), R(1, 0, 0)]),
    ("SELECT * FROM %s WHERE a = ? and {b} = {v} and (c) IN ((?))", (0, 1, 0), [R(1, 0, 0)]),
    ("SELECT * FROM %s WHERE a = ? and {b} IN {vv} and (c) IN ((?))", (0, 0, 1, 0), [R(0, 0, 0), R(1, 0, 0)]),
    ("SELECT * FROM %s WHERE a = ? and {b} = {v} and (c) IN ((?), (?))", (0, 1, 0, 1), [R(1, 0, 0), R(1, 1, 0), R(1, 1, 1)]),
    ("SELECT * FROM %s WHERE a = ? and {b} = {v} and (c, d) IN ((?, ?))", (0, 1, 0, 0), [R(1, 0, 0)]),
    ("SELECT * FROM %s WHERE a = ? and {b} = {v} and (c, d) IN ((?, ?), (?, ?))", (0, 1, 0, 0, 1, 1), [R(1, 0, 0), R(1, 1, 1)]),
    ("SELECT * FROM %s WHERE a = ? and {b} IN {vv} and (c, d) IN ((?, ?), (?, ?))", (0, 0, 1, 0, 0, 1, 1),
     [R(0, 0, 0), R(0, 1, 1), R(1, 0, 0), R(1, 1, 1)]),
    ("SELECT * FROM %s WHERE a = ? and {b} = {v} and (c, d) > (?, ?)", (0, 1, 0, 0), [R(1, 1, 0), R(1, 1, 1)]),
    ("SELECT * FROM %s WHERE a = ? and {b} IN {vv} and (c, d) > (?, ?)", (0, 0, 1, 0, 0), [R(0, 1, 0), R(0, 1, 1), R(1, 1, 0), R(1, 1, 1)]),
    ("SELECT * FROM %s WHERE a = ? and {b} = {v} and (c, d) > (?, ?) and (c) <= (?) ", (0, 1, 0, 0, 1), [R(1, 1, 0), R(1, 1, 1)]),
    ("SELECT * FROM %s WHERE a = ? and {b} = {v} and (c, d) >= (?, ?) and (c, d) < (?, ?)", (0, 1, 0, 0, 1, 1), [R(1, 0, 0), R(1, 1, 0)]),
    ("SELECT * FROM %s WHERE a = ? and (b, c) = (?, ?) and {d} = {v}", (0, 0, 1, 0), [R(0, 1, 0)]),
    ("SELECT * FROM %s WHERE a = ? and (b, c) IN ((?, ?), (?, ?)) and {d} = {v}", (0, 0, 1, 0, 0, 0), [R(0, 0, 0), R(0, 1, 0)]),
]


def mixrows(single):
    b = "b" if single else "(b)"
    d = "d" if single else "(d)"
    v = "?" if single else "(?)"
    vv = "(?, ?)" if single else "((?), (?))"
    return [q(t.format(b=b, d=d, v=v, vv=vv), *vals, expect=rows(*exp)) for t, vals, exp in MIXROWS]


add("testMultiAndSingleColumnRelationMix", D6 + mixrows(True) + [
    q("SELECT * FROM %s WHERE a = ? and b = ? and (c) = (?) and d = ?", 0, 0, 1, 0, expect=rows(R(0, 1, 0))),
    q("SELECT * FROM %s WHERE a = ? and (b, c) = (?, ?) and d IN (?, ?)", 0, 0, 1, 0, 2, expect=rows(R(0, 1, 0))),
    q("SELECT * FROM %s WHERE a = ? and b = ? and (c) = (?) and d IN (?, ?)", 0, 0, 1, 0, 2, expect=rows(R(0, 1, 0))),
    q("SELECT * FROM %s WHERE a = ? and (b, c) = (?, ?) and d >= ?", 0, 0, 1, 0, expect=rows(R(0, 1, 0), R(0, 1, 1))),
    q("SELECT * FROM %s WHERE a = ? and d < 1 and (b, c) = (?, ?) and d >= ?", 0, 0, 1, 0, expect=rows(R(0, 1, 0))),
    q("SELECT * FROM %s WHERE a = ? and d < 1 and (b, c) IN ((?, ?), (?, ?)) and d >= ?", 0, 0, 1, 0, 0, 0,
      expect=rows(R(0, 0, 0), R(0, 1, 0))),
])

add("testSeveralMultiColumnRelation", D6 + mixrows(False) + [
    q("SELECT * FROM %s WHERE a = ? and (d) < (1) and (b, c) = (?, ?) and (d) >= (?)", 0, 0, 1, 0, expect=rows(R(0, 1, 0))),
    q("SELECT * FROM %s WHERE a = ? and (d) < (1) and (b, c) IN ((?, ?), (?, ?)) and (d) >= (?)", 0, 0, 1, 0, 0, 0,
      expect=rows(R(0, 0, 0), R(0, 1, 0))),
])

add("testSinglePartitionInvalidQueries", [
    q("CREATE TABLE %s (a int PRIMARY KEY, b int)"),
    inv("SELECT * FROM %s WHERE (a) > (?)", 0, msg="Multi-column relations can only be applied to clustering columns but was applied to: a"),
    inv("SELECT * FROM %s WHERE (a) = (?)", 0, msg="Multi-column relations can only be applied to clustering columns but was applied to: a"),
    inv("SELECT * FROM %s WHERE (b) = (?)", 0, msg="Multi-column relations can only be applied to clustering columns but was applied to: b"),
])

add("testSingleClustering", [
    q("CREATE TABLE %s (a int, b int, c int, PRIMARY KEY (a, b))"),
    *[q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", 0, i, 0) for i in range(3)],
    q("SELECT * FROM %s WHERE a = ? AND (b) = (?)", 0, 1, expect=rows([0, 1, 0])),
    q("SELECT * FROM %s WHERE a = ? AND (b) = ?", 0, (1,), expect=rows([0, 1, 0])),
    q("SELECT * FROM %s WHERE a = ? AND (b) = (?)", 0, 3, expect=rows()),
    q("SELECT * FROM %s WHERE a = ? AND (b) > (?)", 0, 0, expect=rows([0, 1, 0], [0, 2, 0])),
    q("SELECT * FROM %s WHERE a = ? AND (b) >= (?)", 0, 1, expect=rows([0, 1, 0], [0, 2, 0])),
    q("SELECT * FROM %s WHERE a = ? AND (b) < (?)", 0, 2, expect=rows([0, 0, 0], [0, 1, 0])),
    q("SELECT * FROM %s WHERE a = ? AND (b) <= (?)", 0, 1, expect=rows([0, 0, 0], [0, 1, 0])),
    q("SELECT * FROM %s WHERE a = ? AND (b) > (?) AND (b) < (?)", 0, 0, 2, expect=rows([0, 1, 0])),
])

add("testNonEqualsRelation", [
    q("CREATE TABLE %s (a int PRIMARY KEY, b int)"),
    inv("SELECT * FROM %s WHERE a = 0 AND (b) != (0)", msg='Unsupported "!=" relation: (b) != (0)'),
])

A = [R(0, 0, 0), R(0, 1, 0), R(0, 1, 1), R(1, 0, 0), R(1, 1, 0), R(1, 1, 1)]
OD = " ORDER BY b DESC, c DESC, d DESC"
INEQ = [
    ("(b) > (?)", (0,), A[3:]), ("(b) >= (?)", (0,), A), ("(b, c) > (?, ?)", (1, 0), A[4:]), ("(b, c) >= (?, ?)", (1, 0), A[3:]),
    ("(b, c, d) > (?, ?, ?)", (1, 1, 0), A[5:]), ("(b, c, d) >= (?, ?, ?)", (1, 1, 0), A[4:]), ("(b) < (?)", (1,), A[:3]),
    ("(b) <= (?)", (1,), A), ("(b, c) < (?, ?)", (0, 1), A[:1]), ("(b, c) <= (?, ?)", (0, 1), A[:3]),
    ("(b, c, d) < (?, ?, ?)", (0, 1, 1), A[:2]), ("(b, c, d) <= (?, ?, ?)", (0, 1, 1), A[:3]),
    ("(b, c, d) > (?, ?, ?) AND (b) < (?)", (0, 1, 0, 1), [A[2]]),
    ("(b, c, d) > (?, ?, ?) AND (b, c) < (?, ?)", (0, 1, 1, 1, 1), [A[3]]),
    ("(b, c, d) > (?, ?, ?) AND (b, c, d) < (?, ?, ?)", (0, 1, 1, 1, 1, 0), [A[3]]),
]
add("testMultipleClustering.equalities", D6 + [
    q("SELECT * FROM %s WHERE a = 0 AND (b, c, d) IN ()", expect=rows()),
    q("SELECT * FROM %s WHERE a = ? AND (b) = (?)", 0, 1, expect=rows(*A[3:])),
    q("SELECT * FROM %s WHERE a = ? AND (b) = ?", 0, (1,), expect=rows(*A[3:])),
    q("SELECT * FROM %s WHERE a = ? AND (b, c) = (?, ?)", 0, 1, 1, expect=rows(*A[4:])),
    q("SELECT * FROM %s WHERE a = ? AND (b, c) = ?", 0, (1, 1), expect=rows(*A[4:])),
    q("SELECT * FROM %s WHERE a = ? AND (b, c, d) = (?, ?, ?)", 0, 1, 1, 1, expect=rows(A[5])),
    q("SELECT * FROM %s WHERE a = ? AND (b, c, d) = ?", 0, (1, 1, 1), expect=rows(A[5])),
], method="testMultipleClustering")
add("testMultipleClustering.inequalities", D6 + [
    q("SELECT * FROM %s WHERE a = ? AND " + w, 0, *v, expect=rows(*e)) for w, v, e in INEQ] + [
    q("SELECT * FROM %s WHERE a = ? AND (b, c, d) > ? AND (b, c, d) < ?", 0, (0, 1, 1), (1, 1, 0), expect=rows(A[3])),
], method="testMultipleClustering")
add("testMultipleClustering.reversed", D6 + [
    q("SELECT * FROM %s WHERE a = ? AND " + w + OD, 0, *v, expect=rows(*e[::-1])) for w, v, e in INEQ
], method="testMultipleClustering")
add("testMultipleClustering.in", D6 + [
    q("SELECT * FROM %s WHERE a = ? AND (b, c, d) IN ((?, ?, ?), (?, ?, ?))", 0, 0, 1, 0, 0, 1, 1, expect=rows(A[1], A[2])),
    q("SELECT * FROM %s WHERE a = ? AND (b, c, d) IN (?, ?)", 0, (0, 1, 0), (0, 1, 1), expect=rows(A[1], A[2])),
    q("SELECT * FROM %s WHERE a = ? AND (b, c, d) IN ?", 0, [(0, 1, 0), (0, 1, 1)], expect=rows(A[1], A[2])),
    q("SELECT * FROM %s WHERE a = ? AND (b, c, d) IN (?, ?)", 0, (0, 1, 1), (0, 1, 0), expect=rows(A[1], A[2])),
    q("SELECT * FROM %s WHERE a = ? and (b, c) IN ((?, ?))", 0, 0, 1, expect=rows(A[1], A[2])),
    q("SELECT * FROM %s WHERE a = ? and (b) IN ((?))", 0, 0, expect=rows(*A[:3])),
    q("SELECT * FROM %s WHERE a = ? and (b) IN ()", 0, expect=rows()),
    q("SELECT * FROM %s WHERE a = ? AND (b, c) IN ((?, ?)) ORDER BY b DESC, c DESC, d DESC", 0, 0, 1, expect=rows(A[2], A[1])),
    q("SELECT * FROM %s WHERE a = ? AND (b, c) IN () ORDER BY b DESC, c DESC, d DESC", 0, expect=rows()),
], method="testMultipleClustering")
B = [[1, 0, 1, 0], [1, 0, 1, 1]]
add("testMultipleClustering.inPartitionAndClustering", D6 + [
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", 1, 0, 0, 0),
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", 1, 0, 1, 0),
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", 1, 0, 1, 1),
    q("SELECT * FROM %s WHERE a IN (?, ?) AND (b, c, d) IN (?, ?)", 0, 1, (0, 1, 0), (0, 1, 1), expect=rows(A[1], A[2], *B)),
    q("SELECT * FROM %s WHERE a IN ? AND (b, c, d) IN ?", [0, 1], [(0, 1, 0), (0, 1, 1)], expect=rows(A[1], A[2], *B)),
    q("SELECT * FROM %s WHERE a IN (?, ?) AND (b, c, d) IN (?, ?)", 1, 0, (0, 1, 1), (0, 1, 0), expect=rows(A[1], A[2], *B)),
    q("SELECT * FROM %s WHERE a IN (?, ?) and (b, c) IN ((?, ?))", 0, 1, 0, 1, expect=rows(A[1], A[2], *B)),
    q("SELECT * FROM %s WHERE a IN (?, ?) and (b) IN ((?))", 0, 1, 0, expect=rows(*A[:3], [1, 0, 0, 0], *B)),
], method="testMultipleClustering")

RV = [R(1, 0, 0), R(1, 1, 1), R(1, 1, 0), R(0, 0, 0), R(0, 1, 1), R(0, 1, 0)]
add("testMultipleClusteringReversedComponents", [
    q("CREATE TABLE %s (a int, b int, c int, d int, PRIMARY KEY (a, b, c, d)) WITH CLUSTERING ORDER BY (b DESC, c ASC, d DESC)"),
    *[q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", 0, *r) for r in ((1, 0, 0), (1, 1, 1), (1, 1, 0), (0, 0, 0), (0, 1, 1), (0, 1, 0))],
    q("SELECT * FROM %s WHERE a = ? AND (b) > (?)", 0, 0, expect=rows(*RV[:3])),
    q("SELECT * FROM %s WHERE a = ? AND (b) >= (?)", 0, 0, expect=rows(*RV)),
    q("SELECT * FROM %s WHERE a = ? AND (b) < (?)", 0, 1, expect=rows(*RV[3:])),
    q("SELECT * FROM %s WHERE a = ? AND (b) <= (?)", 0, 1, expect=rows(*RV)),
    q("SELECT * FROM %s WHERE a=? AND (b, c, d) IN ((?, ?, ?), (?, ?, ?))", 0, 1, 1, 1, 0, 1, 1, expect=rows(RV[1], RV[4])),
    q("SELECT * FROM %s WHERE a=? AND (b, c, d) IN ((?, ?, ?), (?, ?, ?))", 0, 0, 1, 1, 1, 1, 1, expect=rows(RV[1], RV[4])),
    q("SELECT * FROM %s WHERE a = ? AND (b, c, d) IN (?, ?, ?, ?, ?, ?)", 0, (1, 0, 0), (1, 1, 1), (1, 1, 0), (0, 0, 0), (0, 1, 1), (0, 1, 0),
      expect=rows(*RV)),
    q("SELECT * FROM %s WHERE a = ? AND (b, c) IN (?)", 0, (0, 1), expect=rows(RV[4], RV[5])),
    q("SELECT * FROM %s WHERE a = ? AND (b, c) IN (?)", 0, (0, 0), expect=rows(RV[3])),
    q("SELECT * FROM %s WHERE a = ? AND (b) IN ((?))", 0, 0, expect=rows(*RV[3:])),
    # the older 3.x test kept "pre-6875 behavior (even though the query result is technically
    # incorrect)": no rows; since CASSANDRA-7281 (4.0's and 5.0's test) the tuple comparison holds
    q("SELECT * FROM %s WHERE a = ? AND (b, c) > (?, ?)", 0, 1, 0, expect=rows(RV[1], RV[2])),
])

IDXB = dict(cosmos=error("Invalid"), cosmos_source=IDX_SRC)
add("testMultipleClusteringWithIndex", [
    q("CREATE TABLE %s (a int, b int, c int, d int, e int, PRIMARY KEY (a, b, c, d))"),
    q("CREATE INDEX ON %s (b)", **IDXB),
    q("CREATE INDEX ON %s (e)"),
    *[q("INSERT INTO %s (a, b, c, d, e) VALUES (?, ?, ?, ?, ?)", 0, *r) for r in
      ((0, 0, 0, 0), (0, 1, 0, 1), (0, 1, 1, 2), (1, 0, 0, 0), (1, 1, 0, 1), (1, 1, 1, 2), (2, 0, 0, 0))],
    q("SELECT * FROM %s WHERE (b) = (?)", 1, expect=rows([0, 1, 0, 0, 0], [0, 1, 1, 0, 1], [0, 1, 1, 1, 2]), **IDXB),
    inv("SELECT * FROM %s WHERE (b, c) = (?, ?)", 1, 1, msg=AF),
    q("SELECT * FROM %s WHERE (b, c) = (?, ?) ALLOW FILTERING", 1, 1, expect=rows([0, 1, 1, 0, 1], [0, 1, 1, 1, 2])),
    inv("SELECT * FROM %s WHERE (b, c) = (?, ?) AND e = ?", 1, 1, 2, msg=AF),
    q("SELECT * FROM %s WHERE (b, c) = (?, ?) AND e = ? ALLOW FILTERING", 1, 1, 2, expect=rows([0, 1, 1, 1, 2])),
    inv("SELECT * FROM %s WHERE (b) IN ((?)) AND e = ?", 1, 2, msg=AF),
    q("SELECT * FROM %s WHERE (b) IN ((?)) AND e = ? ALLOW FILTERING", 1, 2, expect=rows([0, 1, 1, 1, 2])),
    inv("SELECT * FROM %s WHERE (b) IN ((?), (?)) AND e = ?", 0, 1, 2, msg=AF),
    q("SELECT * FROM %s WHERE (b) IN ((?), (?)) AND e = ? ALLOW FILTERING", 0, 1, 2, expect=rows([0, 0, 1, 1, 2], [0, 1, 1, 1, 2])),
    inv("SELECT * FROM %s WHERE (b, c) IN ((?, ?)) AND e = ?", 0, 1, 2, msg=AF),
    q("SELECT * FROM %s WHERE (b, c) IN ((?, ?)) AND e = ? ALLOW FILTERING", 0, 1, 2, expect=rows([0, 0, 1, 1, 2])),
    inv("SELECT * FROM %s WHERE (b, c) IN ((?, ?), (?, ?)) AND e = ?", 0, 1, 1, 1, 2, msg=AF),
    q("SELECT * FROM %s WHERE (b, c) IN ((?, ?), (?, ?)) AND e = ? ALLOW FILTERING", 0, 1, 1, 1, 2,
      expect=rows([0, 0, 1, 1, 2], [0, 1, 1, 1, 2])),
    inv("SELECT * FROM %s WHERE (b) >= (?) AND e = ?", 1, 2, msg=AF),
    q("SELECT * FROM %s WHERE (b) >= (?) AND e = ? ALLOW FILTERING", 1, 2, expect=rows([0, 1, 1, 1, 2])),
    inv("SELECT * FROM %s WHERE (b, c) >= (?, ?) AND e = ?", 1, 1, 2, msg=AF),
    q("SELECT * FROM %s WHERE (b, c) >= (?, ?) AND e = ? ALLOW FILTERING", 1, 1, 2, expect=rows([0, 1, 1, 1, 2])),
])

add("testMultiplePartitionKeyAndMultiClusteringWithIndex", [
    q("CREATE TABLE %s (a int, b int, c int, d int, e int, f int, PRIMARY KEY ((a, b), c, d, e))"),
    q("CREATE INDEX ON %s (c)", **IDXB),
    q("CREATE INDEX ON %s (f)"),
    *[q("INSERT INTO %s (a, b, c, d, e, f) VALUES (?, ?, ?, ?, ?, ?)", 0, 0, *r) for r in
      ((0, 0, 0, 0), (0, 1, 0, 1), (0, 1, 1, 2), (1, 0, 0, 3), (1, 1, 0, 4), (1, 1, 1, 5), (2, 0, 0, 5))],
    inv("SELECT * FROM %s WHERE a = ? AND (c) = (?)", 0, 1, msg=AF),
    q("SELECT * FROM %s WHERE a = ? AND (c) = (?) ALLOW FILTERING", 0, 1,
      expect=rows([0, 0, 1, 0, 0, 3], [0, 0, 1, 1, 0, 4], [0, 0, 1, 1, 1, 5])),
    inv("SELECT * FROM %s WHERE a = ? AND (c, d) = (?, ?)", 0, 1, 1, msg=AF),
    q("SELECT * FROM %s WHERE a = ? AND (c, d) = (?, ?) ALLOW FILTERING", 0, 1, 1, expect=rows([0, 0, 1, 1, 0, 4], [0, 0, 1, 1, 1, 5])),
    # 3.10+ filters on a partition key part (CASSANDRA-11031); 3.0 said "Partition key parts: b must be
    # restricted as other parts are"
    q("SELECT * FROM %s WHERE a = ? AND (c, d) IN ((?, ?)) ALLOW FILTERING", 0, 1, 1,
      expect=rows([0, 0, 1, 1, 0, 4], [0, 0, 1, 1, 1, 5])),
    q("SELECT * FROM %s WHERE a = ? AND (c, d) >= (?, ?) ALLOW FILTERING", 0, 1, 1,
      expect=rows([0, 0, 1, 1, 0, 4], [0, 0, 1, 1, 1, 5], [0, 0, 2, 0, 0, 5])),
    inv("SELECT * FROM %s WHERE a = ? AND (c) IN ((?)) AND f = ?", 0, 1, 5, msg=AF),
    q("SELECT * FROM %s WHERE a = ? AND (c) IN ((?)) AND f = ? ALLOW FILTERING", 0, 1, 5, expect=rows([0, 0, 1, 1, 1, 5])),
    inv("SELECT * FROM %s WHERE a = ? AND (c) IN ((?), (?)) AND f = ?", 0, 1, 2, 5, msg=AF),
    q("SELECT * FROM %s WHERE a = ? AND (c) IN ((?), (?)) AND f = ? ALLOW FILTERING", 0, 1, 2, 5,
      expect=rows([0, 0, 1, 1, 1, 5], [0, 0, 2, 0, 0, 5])),
    inv("SELECT * FROM %s WHERE a = ? AND (c, d) IN ((?, ?)) AND f = ?", 0, 1, 0, 3, msg=AF),
    q("SELECT * FROM %s WHERE a = ? AND (c, d) IN ((?, ?)) AND f = ? ALLOW FILTERING", 0, 1, 0, 3, expect=rows([0, 0, 1, 0, 0, 3])),
    inv("SELECT * FROM %s WHERE a = ? AND (c) >= (?) AND f = ?", 0, 1, 5, msg=AF),
    q("SELECT * FROM %s WHERE a = ? AND (c) >= (?) AND f = ? ALLOW FILTERING", 0, 1, 5, expect=rows([0, 0, 1, 1, 1, 5], [0, 0, 2, 0, 0, 5])),
    inv("SELECT * FROM %s WHERE a = ? AND (c, d) >= (?, ?) AND f = ?", 0, 1, 1, 5, msg=AF),
    q("SELECT * FROM %s WHERE a = ? AND (c, d) >= (?, ?) AND f = ? ALLOW FILTERING", 0, 1, 1, 5,
      expect=rows([0, 0, 1, 1, 1, 5], [0, 0, 2, 0, 0, 5])),
])

add("testINWithDuplicateValue", [
    q("CREATE TABLE %s (k1 int, k2 int, v int, PRIMARY KEY (k1, k2))"),
    q("INSERT INTO %s (k1,  k2, v) VALUES (?, ?, ?)", 1, 1, 1),
    q("SELECT * FROM %s WHERE k1 IN (?, ?) AND (k2) IN ((?), (?))", 1, 1, 1, 2, expect=rows([1, 1, 1])),
    q("SELECT * FROM %s WHERE k1 = ? AND (k2) IN ((?), (?))", 1, 1, 1, expect=rows([1, 1, 1])),
])

add("testWithUnsetValues", [
    q("CREATE TABLE %s (k int, i int, j int, s text, PRIMARY KEY(k,i,j))"),
    q("CREATE INDEX s_index ON %s (s)"),
    inv("SELECT * from %s WHERE (i, j) = (?,?) ALLOW FILTERING", UNSET_VALUE, 1, msg="Invalid unset value for tuple field number 0"),
    inv("SELECT * from %s WHERE (i, j) IN ((?,?)) ALLOW FILTERING", UNSET_VALUE, 1, msg="Invalid unset value for tuple field number 0"),
    inv("SELECT * from %s WHERE (i, j) > (1,?) ALLOW FILTERING", UNSET_VALUE, msg="Invalid unset value for tuple field number 1"),
    inv("SELECT * from %s WHERE (i, j) = ? ALLOW FILTERING", UNSET_VALUE, msg="Invalid unset value for tuple (i,j)"),
    inv("SELECT * from %s WHERE i = ? AND (j) > ? ALLOW FILTERING", 1, UNSET_VALUE, msg="Invalid unset value for tuple (j)"),
    inv("SELECT * from %s WHERE (i, j) IN (?, ?) ALLOW FILTERING", UNSET_VALUE, (1, 1), msg="Invalid unset value for tuple (i,j)"),
    inv("SELECT * from %s WHERE (i, j) IN ? ALLOW FILTERING", UNSET_VALUE, msg="Invalid unset value for in(i,j)"),
])

add("testSimpleTupleQuery", [
    q("create table %s (a int, b int, c int, d int , e int, PRIMARY KEY (a, b, c, d, e))"),
    *[q("INSERT INTO %s (a, b, c, d, e) VALUES (0, ?, ?, ?, ?)", *r) for r in
      ((2, 0, 0, 0), (1, 0, 0, 0), (0, 0, 0, 0), (0, 1, 1, 1), (0, 2, 2, 2), (0, 3, 3, 3), (0, 1, 1, 1))],
    q("SELECT * FROM %s WHERE b=0 AND (c, d, e) > (1, 1, 1) ALLOW FILTERING", expect=rows([0, 0, 2, 2, 2], [0, 0, 3, 3, 3])),
])
