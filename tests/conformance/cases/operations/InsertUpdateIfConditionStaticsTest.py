"""Cases ported from Apache Cassandra's InsertUpdateIfConditionStaticsTest
(cql3/validation/operations, 4.0 line; split out of InsertUpdateIfConditionTest by CASSANDRA-16670).

Left out: testStaticColumnsCas (the same method is ported from InsertUpdateIfConditionTest),
the clusterMinVersion parameterisation (one run), flush() calls.
Cosmos expectations (cosmos-cassandra-api-facts.md §5): conditions and assignments that mix
static and regular columns are refused; logged batches are refused (§5.1).
"""
from cassandra.query import UNSET_VALUE

from conformance import case, q, rows, rows_any_order, ok, error

SRC = "cql3/validation/operations/InsertUpdateIfConditionStaticsTest.java#%s (4.0)"
MIXED = ("cosmos-cassandra-api-facts.md §5: Conditions and assignments containing combination of Static and "
         "Regular columns are not supported")
LOGGED = "cosmos-cassandra-api-facts.md §5.1/§8: logged batches are not supported"
MIXED_ERR = error("Invalid", "combination of Static and Regular columns")
CASES = []


def add(name, steps, method=None):
    CASES.append(case("InsertUpdateIfConditionStaticsTest." + name, origin=SRC % (method or name.split(".")[0]), steps=steps))


def mixed(text, *values, expect, cosmos_after=None):
    return q(text, *values, expect=expect, cosmos=MIXED_ERR, cosmos_source=MIXED)


def inv(text, *values, msg=None):
    return q(text, *values, expect=error("Invalid", msg))


SETUP = [
    q("CREATE TABLE %s (pk int, ck int, static_col int static, value int, PRIMARY KEY (pk, ck))"),
    *[q("INSERT INTO %s (pk, ck, value) VALUES (?, ?, ?)", *r) for r in ((1, 1, 2), (1, 3, 4), (1, 5, 6), (1, 7, 8), (2, 1, 2))],
    q("INSERT INTO %s (pk, static_col) VALUES (?, ?)", 1, 1),
]
SEL = "SELECT pk, ck, static_col, value FROM %s WHERE pk = 1"


def pk1(s, values=(2, 4, 6, 8)):
    return [[1, ck, s, v] for ck, v in zip((1, 3, 5, 7), values)]


add("testStaticColumnsCasDelete", SETUP + [
    q("DELETE static_col FROM %s WHERE pk = ? IF static_col = ?", 1, 2, expect=rows([False, 1])),
    q("DELETE static_col FROM %s WHERE pk = ? IF static_col = ?", 1, 1, expect=rows([True])),
    q(SEL, expect=rows(*pk1(None))),
    q("INSERT INTO %s (pk, static_col) VALUES (?, ?)", 1, 1),
    mixed("DELETE value FROM %s WHERE pk = ? AND ck = ? IF value = ? AND static_col = ?", 1, 1, 2, 2, expect=rows([False, 2, 1])),
    mixed("DELETE value FROM %s WHERE pk = ? AND ck = ? IF value = ? AND static_col = ?", 1, 1, 2, 1, expect=rows([True])),
    q(SEL, expect=rows([1, 1, 1, None], [1, 3, 1, 4], [1, 5, 1, 6], [1, 7, 1, 8]),
      cosmos=rows(*pk1(1)), cosmos_source=MIXED + " (nothing applied)"),
    mixed("DELETE static_col FROM %s WHERE pk = ? AND ck = ? IF value = ?", 1, 5, 10, expect=rows([False, 6])),
    mixed("DELETE static_col FROM %s WHERE pk = ? AND ck = ? IF value = ?", 1, 5, 6, expect=rows([True])),
    q(SEL, expect=rows([1, 1, None, None], [1, 3, None, 4], [1, 5, None, 6], [1, 7, None, 8]),
      cosmos=rows(*pk1(1)), cosmos_source=MIXED + " (nothing applied)"),
])

add("testStaticColumnsCasDelete.invalid", SETUP + [
    inv("DELETE static_col FROM %s WHERE ck = ? IF static_col = ?", 1, 1, msg="Some partition key parts are missing: pk"),
    inv("DELETE static_col FROM %s WHERE pk = ? AND ck = ? IF static_col = ?", 1, 1, 1,
        msg="Invalid restrictions on clustering columns since the DELETE statement modifies only static columns"),
    inv("DELETE static_col, value FROM %s WHERE pk = ? IF static_col = ?", 1, 1,
        msg="DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to delete non static columns"),
    inv("DELETE static_col, value FROM %s WHERE pk = ? IF static_col = ?", 1, 2,
        msg="DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to delete non static columns"),
    inv("DELETE static_col FROM %s WHERE pk = ? IF value = ? AND static_col = ?", 1, 2, 1,
        msg="DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to use IF condition on non static columns"),
], method="testStaticColumnsCasDelete")

add("testStaticColumnsCasUpdate", SETUP + [
    q("UPDATE %s SET static_col = ? WHERE pk = ? IF static_col = ?", 3, 1, 2, expect=rows([False, 1])),
    q("UPDATE %s SET static_col = ? WHERE pk = ? IF static_col = ?", 2, 1, 1, expect=rows([True])),
    q(SEL, expect=rows(*pk1(2))),
    mixed("UPDATE %s SET value = ? WHERE pk = ? AND ck = ? IF value = ? AND static_col = ?", 3, 1, 1, 3, 2, expect=rows([False, 2, 2])),
    mixed("UPDATE %s SET value = ? WHERE pk = ? AND ck = ? IF value = ? AND static_col = ?", 1, 1, 1, 2, 2, expect=rows([True])),
    q(SEL, expect=rows(*pk1(2, (1, 4, 6, 8))), cosmos=rows(*pk1(2)), cosmos_source=MIXED + " (nothing applied)"),
    mixed("UPDATE %s SET static_col = ? WHERE pk = ? AND ck = ? IF value = ?", 3, 1, 1, 2, expect=rows([False, 1])),
    mixed("UPDATE %s SET static_col = ? WHERE pk = ? AND ck = ? IF value = ?", 1, 1, 1, 1, expect=rows([True])),
    q(SEL, expect=rows(*pk1(1, (1, 4, 6, 8))), cosmos=rows(*pk1(2)), cosmos_source=MIXED + " (nothing applied)"),
])

add("testStaticColumnsCasUpdate.invalid", SETUP + [
    inv("UPDATE %s SET static_col = ? WHERE ck = ? IF static_col = ?", 3, 1, 1, msg="Some partition key parts are missing: pk"),
    inv("UPDATE %s SET static_col = ? WHERE pk = ? AND ck = ? IF static_col = ?", 3, 1, 1, 1,
        msg="Invalid restrictions on clustering columns since the UPDATE statement modifies only static columns"),
    inv("UPDATE %s SET static_col = ?, value = ? WHERE pk = ? IF static_col = ?", 3, 1, 1, 2, msg="Some clustering keys are missing: ck"),
    inv("UPDATE %s SET static_col = ?, value = ? WHERE pk = ? IF static_col = ?", 3, 1, 1, 1, msg="Some clustering keys are missing: ck"),
    inv("UPDATE %s SET static_col = ? WHERE pk = ? IF value = ? AND static_col = ?", 3, 1, 4, 2, msg="Some clustering keys are missing: ck"),
], method="testStaticColumnsCasUpdate")

add("testConditionalUpdatesOnStaticColumns", [
    q("CREATE TABLE %s (a int, b int, s int static, d text, PRIMARY KEY (a, b))"),
    inv("UPDATE %s SET s = 6 WHERE a = 6 IF s = ?", UNSET_VALUE, msg="Invalid 'unset' value in condition"),
    q("INSERT INTO %s (a, b, s, d) values (6, 6, 100, 'a')"),
    q("UPDATE %s SET s = 6 WHERE a = 6 IF s = 100", expect=rows([True])),
    q("SELECT * FROM %s WHERE a = 6", expect=rows([6, 6, 6, "a"])),
    q("INSERT INTO %s (a, b, s, d) values (7, 7, 100, 'a')"),
    q("UPDATE %s SET s = 7 WHERE a = 7 IF s = 101", expect=rows([False, 100])),
    q("SELECT * FROM %s WHERE a = 7", expect=rows([7, 7, 100, "a"])),
    q("INSERT INTO %s (a, b, d) values (7, 7, 'a')"),
    q("UPDATE %s SET s = 7 WHERE a = 7 IF s = NULL", expect=rows([False, 100])),
    q("SELECT * FROM %s WHERE a = 7", expect=rows([7, 7, 100, "a"])),
    q("DELETE FROM %s WHERE a = 8;"),
    q("UPDATE %s SET s = 8 WHERE a = 8 IF s = NULL", expect=rows([True])),
    q("SELECT * FROM %s WHERE a = 8", expect=rows([8, None, 8, None])),
])


def lb(body, expect):
    return q("BEGIN BATCH\n" + body + "APPLY BATCH", expect=expect, cosmos=error("Server", "Logged batches are not supported"),
             cosmos_source=LOGGED)


add("testStaticsWithMultipleConditions", [
    q("CREATE TABLE %s (a int, b int, s1 int static, s2 int static, d int, PRIMARY KEY (a, b))"),
    *[q("INSERT INTO %s (a, b, d) VALUES (?, ?, ?)", i, b, d) for i in range(1, 6) for b, d in ((1, 5), (2, 6))],
    lb("UPDATE %s SET s2 = 102 WHERE a = 1 IF s1 = null;\nUPDATE %s SET s1 = 101 WHERE a = 1 IF s2 = null;\n", rows([True])),
    q("SELECT * FROM %s WHERE a = 1", expect=rows([1, 1, 101, 102, 5], [1, 2, 101, 102, 6]),
      cosmos=rows([1, 1, None, None, 5], [1, 2, None, None, 6]), cosmos_source=LOGGED),
    lb("UPDATE %s SET s2 = 202 WHERE a = 2 IF s1 = null;\nUPDATE %s SET s1 = 201 WHERE a = 2 IF s2 = null;\n"
       "UPDATE %s SET d = 203 WHERE a = 2 AND b = 1 IF d = 5;\nUPDATE %s SET d = 204 WHERE a = 2 AND b = 2 IF d = 6;\n", rows([True])),
    q("SELECT * FROM %s WHERE a = 2", expect=rows([2, 1, 201, 202, 203], [2, 2, 201, 202, 204]),
      cosmos=rows([2, 1, None, None, 5], [2, 2, None, None, 6]), cosmos_source=LOGGED),
    lb("UPDATE %s SET s2 = 202 WHERE a = 20 IF s1 = null;\nUPDATE %s SET s1 = 201 WHERE a = 20 IF s2 = null;\n"
       "UPDATE %s SET d = 203 WHERE a = 20 AND b = 1 IF d = 5;\nUPDATE %s SET d = 204 WHERE a = 20 AND b = 2 IF d = 6;\n", rows([False])),
])

NULLS = [
    q("CREATE TABLE %s (pk int, ck int, s1 int static, s2 int static, value int, PRIMARY KEY (pk, ck))"),
    q("INSERT INTO %s (pk, s1, s2) VALUES (1, 1, 1) USING TIMESTAMP 1000"),
    q("INSERT INTO %s (pk, s1, s2) VALUES (2, 1, 1) USING TIMESTAMP 1001"),
    q("INSERT INTO %s (pk, s1) VALUES (1, 2) USING TIMESTAMP 2000"),
    q("INSERT INTO %s (pk, s1) VALUES (2, 2) USING TIMESTAMP 2001"),
    q("DELETE s1 FROM %s USING TIMESTAMP 3000 WHERE pk = 1"),
    q("DELETE s1 FROM %s USING TIMESTAMP 3001 WHERE pk = 2"),
]
add("testStaticColumnsCasUpdateWithNullStaticColumn", NULLS + [
    q("UPDATE %s SET s1 = ? WHERE pk = ? IF s1 = NULL", 2, 1, expect=rows([True])),
    q("SELECT * FROM %s WHERE pk = ?", 1, expect=rows([1, None, 2, 1, None])),
    q("UPDATE %s SET s1 = ? WHERE pk = ? IF EXISTS", 2, 2, expect=rows([True])),
    q("SELECT * FROM %s WHERE pk = ?", 2, expect=rows([2, None, 2, 1, None])),
])
add("testStaticColumnsCasDeleteWithNullStaticColumn", NULLS + [
    q("DELETE s2 FROM %s WHERE pk = ? IF s1 = NULL", 1, expect=rows([True])),
    q("SELECT * FROM %s WHERE pk = ?", 1, expect=rows()),
    q("DELETE s2 FROM %s WHERE pk = ? IF EXISTS", 2, expect=rows([True])),
    q("SELECT * FROM %s WHERE pk = ?", 2, expect=rows()),
])
