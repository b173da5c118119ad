"""Cases ported from Apache Cassandra's InsertTest (cql3/validation/operations, 3.11 line).

Left out: testInsertWithCompactFormat and testInsertWithCompactStorageAndTwoClusteringColumns
(COMPACT STORAGE), flush() calls, and the two steps of testInsertWithUnset that bind unset to
the partition key of an UPDATE/DELETE: the Python driver refuses to build a routing key from
unset (client-side ValueError), so the statement never reaches the server. Unknown-column messages differ between 3.11 ("Unknown
identifier x") and 4.0 ("Undefined column name x"): the cases match the column name only.
"""
from cassandra.query import UNSET_VALUE

from conformance import case, q, rows, rows_any_order, ok, error, approx

SRC = "cql3/validation/operations/InsertTest.java#%s (3.11)"
CASES = []


def add(name, steps, method=None, **kw):
    CASES.append(case("InsertTest." + name, origin=SRC % (method or name.split(".")[0]), steps=steps, **kw))


def inv(text, *values, msg=None):
    return q(text, *values, expect=error("Invalid", msg))


add("testInsertWithUnset", [
    q("CREATE TABLE %s (k int PRIMARY KEY, s text, i int)"),
    q("INSERT INTO %s (k, s, i) VALUES (10, ?, ?)", "text", 10),
    q("INSERT INTO %s (k, s, i) VALUES (10, ?, ?)", None, None),
    q("SELECT s, i FROM %s WHERE k = 10", expect=rows([None, None])),
    q("INSERT INTO %s (k, s, i) VALUES (11, ?, ?)", "text", 10),
    q("INSERT INTO %s (k, s, i) VALUES (11, ?, ?)", UNSET_VALUE, UNSET_VALUE),
    q("SELECT s, i FROM %s WHERE k=11", expect=rows(["text", 10])),
    inv("SELECT * FROM %s WHERE k = blobAsInt(?)", UNSET_VALUE,
        msg="Invalid unset value for argument in call to function blobasint"),
])

add("testInsertTtlWithUnset", [
    q("CREATE TABLE %s (k int PRIMARY KEY, i int)"),
    q("INSERT INTO %s (k, i) VALUES (1, 1) USING TTL ?", UNSET_VALUE),
    q("SELECT ttl(i) FROM %s", expect=rows([None])),
])

ONE = "CREATE TABLE %s (partitionKey int, clustering int, value int, PRIMARY KEY (partitionKey, clustering))"
add("testInsert", [
    q(ONE),
    q("INSERT INTO %s (partitionKey, clustering) VALUES (0, 0)"),
    q("INSERT INTO %s (partitionKey, clustering, value) VALUES (0, 1, 1)"),
    q("SELECT * FROM %s", expect=rows([0, 0, None], [0, 1, 1])),
])

add("testInsert.invalid", [
    q(ONE),
    inv("INSERT INTO %s (clustering, value) VALUES (0, 1)", msg="Some partition key parts are missing: partitionkey"),
    inv("INSERT INTO %s (partitionKey, value) VALUES (0, 2)", msg="Some clustering keys are missing: clustering"),
    inv("INSERT INTO %s (partitionKey, clustering, value, value) VALUES (0, 0, 2, 2)",
        msg="The column names contains duplicates"),
    inv("INSERT INTO %s (partitionKey, clustering, clustering, value) VALUES (0, 0, 0, 2)",
        msg="The column names contains duplicates"),
    inv("INSERT INTO %s (partitionKey, clusteringx, value) VALUES (0, 0, 2)", msg="clusteringx"),
    inv("INSERT INTO %s (partitionKey, clustering, valuex) VALUES (0, 0, 2)", msg="valuex"),
    q("SELECT * FROM %s", expect=rows()),
], method="testInsert")

TWO = ("CREATE TABLE %s (partitionKey int, clustering_1 int, clustering_2 int, value int,"
       " PRIMARY KEY (partitionKey, clustering_1, clustering_2))")
add("testInsertWithTwoClusteringColumns", [
    q(TWO),
    q("INSERT INTO %s (partitionKey, clustering_1, clustering_2) VALUES (0, 0, 0)"),
    q("INSERT INTO %s (partitionKey, clustering_1, clustering_2, value) VALUES (0, 0, 1, 1)"),
    q("SELECT * FROM %s", expect=rows([0, 0, 0, None], [0, 0, 1, 1])),
])

add("testInsertWithTwoClusteringColumns.invalid", [
    q(TWO),
    inv("INSERT INTO %s (clustering_1, clustering_2, value) VALUES (0, 0, 1)",
        msg="Some partition key parts are missing: partitionkey"),
    inv("INSERT INTO %s (partitionKey, clustering_2, value) VALUES (0, 0, 2)",
        msg="Some clustering keys are missing: clustering_1"),
    inv("INSERT INTO %s (partitionKey, clustering_1, value, clustering_2, value) VALUES (0, 0, 2, 0, 2)",
        msg="The column names contains duplicates"),
    inv("INSERT INTO %s (partitionKey, clustering_1, clustering_1, clustering_2, value) VALUES (0, 0, 0, 0, 2)",
        msg="The column names contains duplicates"),
    inv("INSERT INTO %s (partitionKey, clustering_1x, clustering_2, value) VALUES (0, 0, 0, 2)", msg="clustering_1x"),
    inv("INSERT INTO %s (partitionKey, clustering_1, clustering_2, valuex) VALUES (0, 0, 0, 2)", msg="valuex"),
], method="testInsertWithTwoClusteringColumns")

add("testInsertWithAStaticColumn", [
    q("CREATE TABLE %s (partitionKey int, clustering_1 int, clustering_2 int, value int, staticValue text static,"
      " PRIMARY KEY (partitionKey, clustering_1, clustering_2))"),
    q("INSERT INTO %s (partitionKey, clustering_1, clustering_2, staticValue) VALUES (0, 0, 0, 'A')"),
    q("INSERT INTO %s (partitionKey, staticValue) VALUES (1, 'B')"),
    q("SELECT * FROM %s", expect=rows([1, None, None, "B", None], [0, 0, 0, "A", None])),
    q("INSERT INTO %s (partitionKey, clustering_1, clustering_2, value) VALUES (1, 0, 0, 0)"),
    q("SELECT * FROM %s", expect=rows([1, 0, 0, "B", 0], [0, 0, 0, "A", None])),
    inv("INSERT INTO %s (clustering_1, clustering_2, staticValue) VALUES (0, 0, 'A')",
        msg="Some partition key parts are missing: partitionkey"),
    inv("INSERT INTO %s (partitionKey, clustering_2, staticValue) VALUES (0, 0, 'A')",
        msg="Some clustering keys are missing: clustering_1"),
])

add("testInsertWithDefaultTtl", [
    q("CREATE TABLE %s (a int PRIMARY KEY, b int) WITH default_time_to_live = 600"),
    q("INSERT INTO %s (a, b) VALUES (1, 1)"),
    q("SELECT ttl(b) FROM %s WHERE a = 1", expect=rows([approx(570, abs_=30)])),
    q("INSERT INTO %s (a, b) VALUES (2, 2) USING TTL ?", 300),
    q("SELECT ttl(b) FROM %s WHERE a = 2", expect=rows([approx(270, abs_=30)])),
    q("INSERT INTO %s (a, b) VALUES (3, 3) USING TTL ?", 0),
    q("SELECT ttl(b) FROM %s WHERE a = 3", expect=rows([None])),
    q("INSERT INTO %s (a, b) VALUES (4, 4) USING TTL ?", UNSET_VALUE),
    q("SELECT ttl(b) FROM %s WHERE a = 4", expect=rows([approx(570, abs_=30)])),
])
