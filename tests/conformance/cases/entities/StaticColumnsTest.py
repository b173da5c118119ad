"""cql3/validation/entities/StaticColumnsTest (Apache Cassandra 3.11 and 4.0).

writetime(s) > 0 (the value is not predictable) is checked as a separate
case with USING TIMESTAMP. Scans over several partitions compare in any order. Cosmos DB
does not support SELECT DISTINCT (support.md), so those steps expect a refusal
under --profile cosmos.
"""

from conformance import case, q, rows, rows_any_order, error

O = "cql3/validation/entities/StaticColumnsTest.java#%s"
NO_DISTINCT = "cosmos-cassandra-api-facts.md s5 (support.md): DISTINCT is not supported"


def c(method, steps, suffix=None, **kw):
    return case("StaticColumnsTest.%s%s" % (method, "." + suffix if suffix else ""),
                origin=O % method, steps=steps, **kw)


def distinct(text, *values, expect):
    return q(text, *values, expect=expect, cosmos=error("Invalid"), cosmos_source=NO_DISTINCT)


CASES = [
    c("testStaticColumns", steps=[
        q("CREATE TABLE %s ( k int, p int, s int static, v int, PRIMARY KEY (k, p))"),
        q("INSERT INTO %s(k, s) VALUES (0, 42)"),
        q("SELECT * FROM %s", expect=rows([0, None, 42, None])),
        q("INSERT INTO %s (k, p, s, v) VALUES (0, 0, 12, 0)"),
        q("INSERT INTO %s (k, p, s, v) VALUES (0, 1, 24, 1)"),
        q("SELECT * FROM %s", expect=rows([0, 0, 24, 0], [0, 1, 24, 1])),
        q("SELECT * FROM %s WHERE k=0 AND p=0", expect=rows([0, 0, 24, 0])),
        q("SELECT * FROM %s WHERE k=0 AND p=1", expect=rows([0, 1, 24, 1])),
        q("SELECT * FROM %s WHERE k=0 AND p IN (0, 1)", expect=rows([0, 0, 24, 0], [0, 1, 24, 1])),
        q("SELECT p, v FROM %s WHERE k=0 AND p=1", expect=rows([1, 1])),
        distinct("SELECT DISTINCT s FROM %s WHERE k=0", expect=rows([24])),
        q("SELECT s FROM %s WHERE k=0", expect=rows([24], [24])),
        q("SELECT s, v FROM %s WHERE k=0", expect=rows([24, 0], [24, 1])),
        q("SELECT s, v FROM %s WHERE k=0 AND p=1", expect=rows([24, 1])),
        q("SELECT p, s FROM %s WHERE k=0 AND p=1", expect=rows([1, 24])),
        q("SELECT k, p, s FROM %s WHERE k=0 AND p=1", expect=rows([0, 1, 24])),
        q("DELETE FROM %s WHERE k=0 AND p=0"),
        q("SELECT * FROM %s", expect=rows([0, 1, 24, 1])),
        q("DELETE s FROM %s WHERE k=0"),
        q("SELECT * FROM %s", expect=rows([0, 1, None, 1])),
        q("ALTER TABLE %s ADD s2 int static"),
        q("SELECT * FROM %s", expect=rows([0, 1, None, None, 1])),
        q("INSERT INTO %s (k, p, s2, v) VALUES(0, 2, 42, 2)"),
        q("SELECT * FROM %s", expect=rows([0, 1, None, 42, 1], [0, 2, None, 42, 2])),
        q("ALTER TABLE %s DROP s2"),
        q("SELECT * FROM %s", expect=rows([0, 1, None, 1], [0, 2, None, 2])),
    ]),
    c("testStaticColumns", suffix="writetime", steps=[
        q("CREATE TABLE %s ( k int, p int, s int static, v int, PRIMARY KEY (k, p))"),
        q("INSERT INTO %s(k, s) VALUES (0, 42) USING TIMESTAMP 1000"),
        q("SELECT s, writetime(s) FROM %s WHERE k=0", expect=rows([42, 1000])),
    ]),
    c("testStaticColumnsWithSecondaryIndex", steps=[
        q(" CREATE TABLE %s (k int, p int, s int static, v int, PRIMARY KEY (k, p) ) "),
        q("CREATE INDEX ON %s (v)"),
        q("INSERT INTO %s (k, p, s, v) VALUES (0, 0, 42, 1)"),
        q("INSERT INTO %s (k, p, v) VALUES (0, 1, 1)"),
        q("INSERT INTO %s (k, p, v) VALUES (0, 2, 2)"),
        q("SELECT * FROM %s WHERE v = 1", expect=rows([0, 0, 42, 1], [0, 1, 42, 1])),
        q("SELECT p, s FROM %s WHERE v = 1", expect=rows([0, 42], [1, 42])),
        q("SELECT p FROM %s WHERE v = 1", expect=rows([0], [1])),
        q("SELECT s FROM %s WHERE v = 1", expect=error("Invalid")),
    ]),
    c("testStaticColumnsWithDistinct", steps=[
        q("CREATE TABLE %s( k int, p int, s int static, PRIMARY KEY (k, p) ) "),
        q("INSERT INTO %s (k, p) VALUES (1, 1)"),
        q("INSERT INTO %s (k, p) VALUES (1, 2)"),
        q("SELECT k, s FROM %s", expect=rows([1, None], [1, None])),
        distinct("SELECT DISTINCT k, s FROM %s", expect=rows([1, None])),
        distinct("SELECT DISTINCT s FROM %s WHERE k=1", expect=rows([None])),
        distinct("SELECT DISTINCT s FROM %s WHERE k=2", expect=rows()),
        q("INSERT INTO %s (k, p, s) VALUES (2, 1, 3)"),
        q("INSERT INTO %s (k, p) VALUES (2, 2)"),
        q("SELECT k, s FROM %s", expect=rows_any_order([1, None], [1, None], [2, 3], [2, 3])),
        distinct("SELECT DISTINCT k, s FROM %s", expect=rows_any_order([1, None], [2, 3])),
        distinct("SELECT DISTINCT s FROM %s WHERE k=1", expect=rows([None])),
        distinct("SELECT DISTINCT s FROM %s WHERE k=2", expect=rows([3])),
        q("SELECT DISTINCT s FROM %s", expect=error("Invalid")),
    ]),
    c("testStaticColumnsWithDistinct", suffix="paging", steps=[
        q("CREATE TABLE %s( k int, p int, s int static, PRIMARY KEY (k, p) ) "),
    ] + [q("INSERT INTO %s (k, p, s) VALUES (?, ?, ?)", i, j, i) for i in range(10) for j in range(10)] + [
        distinct("SELECT DISTINCT k, s FROM %s", expect=rows_any_order(*[[i, i] for i in range(10)])),
        q("SELECT DISTINCT k, s FROM %s", page_size=3,
          expect=rows_any_order(*[[i, i] for i in range(10)]), cosmos=error("Invalid"),
          cosmos_source=NO_DISTINCT),
        distinct("SELECT DISTINCT k, s FROM %s WHERE k IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)",
                 expect=rows(*[[i, i] for i in range(10)])),
    ]),
    c("testStaticColumnsWithDistinct", suffix="twoStatics", steps=[
        q("CREATE TABLE %s( k int, c1 int, c2 int, s1 int static, s2 int static, PRIMARY KEY (k, c1, c2))"),
    ] + [q("INSERT INTO %s (k, c1, c2, s1, s2) VALUES (?, ?, ?, ?, ?)", i, j, k, i, i + 1)
         for i in range(10) for j in range(3) for k in range(3)] + [
        distinct("SELECT DISTINCT k, s1 FROM %s", expect=rows_any_order(*[[i, i] for i in range(10)])),
        distinct("SELECT DISTINCT k, s2 FROM %s", expect=rows_any_order(*[[i, i + 1] for i in range(10)])),
        distinct("SELECT DISTINCT k, s1 FROM %s LIMIT 10", expect=rows_any_order(*[[i, i] for i in range(10)])),
        distinct("SELECT DISTINCT k, s1 FROM %s WHERE k IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)",
                 expect=rows(*[[i, i] for i in range(10)])),
        distinct("SELECT DISTINCT k, s2 FROM %s WHERE k IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)",
                 expect=rows(*[[i, i + 1] for i in range(10)])),
    ]),
    c("testStaticColumnsWithLimit", variants=("prepared", "simple"), steps=[
        q(" CREATE TABLE %s (k int, s int static, v int, PRIMARY KEY (k, v))"),
        q("INSERT INTO %s (k, s) VALUES(0, 42)"),
    ] + [q("INSERT INTO %s(k, v) VALUES(0, ?)", i) for i in range(4)] + [
        q("SELECT * FROM %s WHERE k = 0 LIMIT 1", expect=rows([0, 0, 42])),
        q("SELECT * FROM %s WHERE k = 0 LIMIT 2", expect=rows([0, 0, 42], [0, 1, 42])),
        q("SELECT * FROM %s WHERE k = 0 LIMIT 3", expect=rows([0, 0, 42], [0, 1, 42], [0, 2, 42])),
    ]),
    c("testStaticColumnsWithEmptyClustering", steps=[
        q("CREATE TABLE %s (pkey text, ckey text, value text, static_value text static, "
          "PRIMARY KEY(pkey, ckey))"),
        q("INSERT INTO %s (pkey, static_value) VALUES ('partition1', 'static value')"),
        q("INSERT INTO %s (pkey, ckey, value) VALUES('partition1', '', 'value')"),
        q("SELECT * FROM %s", expect=rows(["partition1", "", "static value", "value"])),
    ]),
    c("testAlterClusteringAndStatic", steps=[
        q("CREATE TABLE %s (bar int, PRIMARY KEY (bar))"),
        q("ALTER TABLE %s ADD bar2 text static", expect=error("Invalid")),
    ]),
]
