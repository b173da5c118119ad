"""Cases ported from Apache Cassandra's AggregationTest (cql3/validation/operations, 3.11 line):
native aggregates only.

Left out: every UDF/UDA method and step (CREATE FUNCTION/AGGREGATE, copySign, testSchemaChange,
testDropStatements, testNonExistingOnes (DROP AGGREGATE), the Java/JavaScript aggregates...),
result-metadata (column name) assertions, testFunctionsWithCompactStorage's COMPACT STORAGE
(ported on a regular table). testAggregateWithWriteTimeOrTTL uses a fixed USING TIMESTAMP
instead of "yesterday".
Under the cosmos profile aggregates on clustering columns are refused
(cosmos-cassandra-api-facts.md §5), so those steps carry that expectation.
"""
import decimal
import re

from conformance import case, q as _q, rows, rows_any_order, ok, error, approx

SRC = "cql3/validation/operations/AggregationTest.java#%s (3.11)"
AGG_SRC = "cosmos-cassandra-api-facts.md §5: aggregates on clustering columns are not supported"
D = decimal.Decimal
CASES = []


def make_q(clustering):
    agg = re.compile(r"\b(count|max|min|sum|avg)\(\s*(cast\(\s*)?(%s)\b" % "|".join(clustering), re.I) if clustering else None

    def q(text, *values, **kw):
        if agg is not None and agg.search(text):
            kw.setdefault("cosmos", error("Invalid"))
            kw.setdefault("cosmos_source", AGG_SRC)
        return _q(text, *values, **kw)
    return q


def add(name, steps, method=None):
    CASES.append(case("AggregationTest." + name, origin=SRC % (method or name.split(".")[0]), steps=steps))


q = make_q(["b"])
FT = "CREATE TABLE %s (a int, b int, c double, d decimal, e smallint, f tinyint, primary key (a, b))"
REG = ("SELECT max(c), sum(c), avg(c), sum(d), avg(d), max(e), min(e), sum(e), avg(e), "
       "max(f), min(f), sum(f), avg(f) FROM %s")
add("testFunctions.regularColumns", [
    q(FT),
    q("SELECT COUNT(*) FROM %s", expect=rows([0])),
    q(REG, expect=rows([None, 0.0, 0.0, D("0"), D("0"), None, None, 0, 0, None, None, 0, 0])),
    q("INSERT INTO %s (a, b, c, d, e, f) VALUES (1, 1, 11.5, 11.5, 1, 1)"),
    q("INSERT INTO %s (a, b, c, d, e, f) VALUES (1, 2, 9.5, 1.5, 2, 2)"),
    q("INSERT INTO %s (a, b, c, d, e, f) VALUES (1, 3, 9.0, 2.0, 3, 3)"),
    q(REG, expect=rows([11.5, 30.0, 10.0, D("15.0"), D("5.0"), 3, 1, 6, 2, 3, 1, 6, 2])),
    q("INSERT INTO %s (a, b, d) VALUES (1, 5, 1.0)"),
    q("SELECT COUNT(*) FROM %s", expect=rows([4])),
    q("SELECT COUNT(1) FROM %s", expect=rows([4])),
    q("SELECT count(c), count(e), count(f) FROM %s", expect=rows([3, 3, 3])),
    q("SELECT count(c), count(e), count(f) FROM %s LIMIT 2", expect=rows([3, 3, 3])),
    q("SELECT count(c), count(e), count(f) FROM %s WHERE a = 1 LIMIT 2", expect=rows([3, 3, 3])),
], method="testFunctions")

add("testFunctions.clusteringColumn", [
    q(FT),
    q("SELECT max(b), min(b), sum(b), avg(b) FROM %s", expect=rows([None, None, 0, 0])),
    q("INSERT INTO %s (a, b, c, d, e, f) VALUES (1, 1, 11.5, 11.5, 1, 1)"),
    q("INSERT INTO %s (a, b, c, d, e, f) VALUES (1, 2, 9.5, 1.5, 2, 2)"),
    q("INSERT INTO %s (a, b, c, d, e, f) VALUES (1, 3, 9.0, 2.0, 3, 3)"),
    q("SELECT max(b), min(b), sum(b), avg(b) FROM %s", expect=rows([3, 1, 6, 2])),
    q("INSERT INTO %s (a, b, d) VALUES (1, 5, 1.0)"),
    q("SELECT COUNT(b), count(c), count(e), count(f) FROM %s", expect=rows([4, 3, 3, 3])),
    q("SELECT COUNT(b), count(c), count(e), count(f) FROM %s LIMIT 2", expect=rows([4, 3, 3, 3])),
    q("SELECT AVG(CAST(b AS double)) FROM %s", expect=rows([11.0 / 4])),
], method="testFunctions")

add("testCountStarFunction", [
    q("CREATE TABLE %s (a int, b int, c double, primary key (a, b))"),
    q("SELECT COUNT(*) FROM %s", expect=rows([0])),
    q("SELECT COUNT(1) FROM %s", expect=rows([0])),
    q("SELECT COUNT(*), COUNT(*) FROM %s", expect=rows([0, 0])),
    q("SELECT COUNT(*) as myCount FROM %s", expect=rows([0])),
    q("SELECT COUNT(1) as myCount FROM %s", expect=rows([0])),
    q("SELECT COUNT(*), max(b), b  FROM %s", expect=rows([0, None, None])),
    q("SELECT COUNT(1), max(b), b  FROM %s", expect=rows([0, None, None])),
    *[q("INSERT INTO %s (a, b, c) VALUES (1, ?, ?)", b, c) for b, c in ((1, 11.5), (2, 9.5), (3, 9.0), (5, 1.0))],
    q("SELECT COUNT(*) FROM %s", expect=rows([4])),
    q("SELECT COUNT(1) FROM %s", expect=rows([4])),
    q("SELECT max(b), b, COUNT(*) FROM %s", expect=rows([5, 1, 4])),
    q("SELECT max(b), COUNT(1), b FROM %s", expect=rows([5, 4, 1])),
    q("SELECT max(b), COUNT(1), b FROM %s LIMIT 2", expect=rows([5, 4, 1])),
    q("SELECT max(b), COUNT(1), b FROM %s WHERE a = 1 LIMIT 2", expect=rows([5, 4, 1])),
])

add("testAggregateWithColumns", [
    q("CREATE TABLE %s (a int, b int, c int, primary key (a, b))"),
    q("SELECT count(b), max(b) as max, b, c as first FROM %s", expect=rows([0, None, None, None])),
    q("INSERT INTO %s (a, b, c) VALUES (1, 2, null)"),
    q("INSERT INTO %s (a, b, c) VALUES (2, 4, 6)"),
    q("INSERT INTO %s (a, b, c) VALUES (4, 8, 12)"),
    q("SELECT count(b), max(b) as max, b, c as first FROM %s", expect=rows([3, 8, 2, None])),
])

q0 = make_q([])
AGG5 = "SELECT count(b), max(b) as max, min(b) as min, avg(b) as avg, sum(b) as sum FROM %s"
add("testAggregateOnCounters", [
    q0("CREATE TABLE %s (a int, b counter, primary key (a))"),
    q0("SELECT count(b), max(b) as max, b FROM %s", expect=rows([0, None, None])),
    q0("UPDATE %s SET b = b + 1 WHERE a = 1"),
    q0("UPDATE %s SET b = b + 1 WHERE a = 1"),
    q0(AGG5, expect=rows([1, 2, 2, 2, 2])),
    q0("UPDATE %s SET b = b + 2 WHERE a = 1"),
    q0(AGG5, expect=rows([1, 4, 4, 4, 4])),
    q0("UPDATE %s SET b = b - 2 WHERE a = 1"),
    q0(AGG5, expect=rows([1, 2, 2, 2, 2])),
    q0("UPDATE %s SET b = b + 1 WHERE a = 2"),
    q0("UPDATE %s SET b = b + 1 WHERE a = 2"),
    q0("UPDATE %s SET b = b + 2 WHERE a = 2"),
    q0(AGG5, expect=rows([2, 4, 2, 3, 6])),
])

add("testAggregateWithUdtFields", [
    q0("CREATE TYPE {ks}.{type1} (x int)"),
    q0("CREATE TABLE %s (a int primary key, b frozen<{type1}>, c frozen<{type1}>)"),
    q0("SELECT count(b.x), max(b.x) as max, b.x, c.x as first FROM %s", expect=rows([0, None, None, None])),
    q0("INSERT INTO %s (a, b, c) VALUES (1, {x:2}, null)"),
    q0("INSERT INTO %s (a, b, c) VALUES (2, {x:4}, {x:6})"),
    q0("INSERT INTO %s (a, b, c) VALUES (4, {x:8}, {x:12})"),
    q0("SELECT count(b.x), max(b.x) as max, b.x, c.x as first FROM %s", expect=rows([3, 8, 2, None])),
    q0("SELECT max(b).x as max FROM %s", expect=error("Invalid", "Invalid field selection: system.max(b) of type blob is not a user type")),
])

TS = 1500000000000000
add("testAggregateWithWriteTimeOrTTL", [
    q0("CREATE TABLE %s (a int primary key, b int, c int)"),
    q0("SELECT count(writetime(b)), min(ttl(b)) as min, writetime(b), ttl(c) as first FROM %s", expect=rows([0, None, None, None])),
    q0("INSERT INTO %s (a, b, c) VALUES (1, 2, null) USING TTL 1200"),
    q0("INSERT INTO %s (a, b, c) VALUES (2, 4, 6) USING TTL 600"),
    q0("INSERT INTO %%s (a, b, c) VALUES (4, 8, 12) USING TIMESTAMP %d" % TS),
    q0("SELECT count(writetime(b)), count(ttl(b)) FROM %s", expect=rows([3, 2])),
    q0("SELECT min(ttl(b)), ttl(b) FROM %s", expect=rows([approx(595, abs_=5), approx(1195, abs_=5)])),
    q0("SELECT min(writetime(b)) FROM %s", expect=rows([TS])),
])

add("testFunctionsWithCompactStorage", [
    q("CREATE TABLE %s (a int , b int, c double, primary key(a, b) )"),
    q("INSERT INTO %s (a, b, c) VALUES (1, 1, 11.5)"),
    q("INSERT INTO %s (a, b, c) VALUES (1, 2, 9.5)"),
    q("INSERT INTO %s (a, b, c) VALUES (1, 3, 9.0)"),
    q("SELECT max(b), min(b), sum(b), avg(b) , max(c), sum(c), avg(c) FROM %s", expect=rows([3, 1, 6, 2, 11.5, 30.0, 10.0])),
    q("SELECT COUNT(*) FROM %s", expect=rows([3])),
    q("SELECT COUNT(1) FROM %s", expect=rows([3])),
    q("SELECT COUNT(*) FROM %s WHERE a = 1 AND b > 1", expect=rows([2])),
    q("SELECT COUNT(1) FROM %s WHERE a = 1 AND b > 1", expect=rows([2])),
    q("SELECT max(b), min(b), sum(b), avg(b) , max(c), sum(c), avg(c) FROM %s WHERE a = 1 AND b > 1",
      expect=rows([3, 2, 5, 2, 9.5, 18.5, 9.25])),
])

add("testInvalidCalls", [
    q0("CREATE TABLE %s (a int, b int, c int, primary key (a, b))"),
    q0("INSERT INTO %s (a, b, c) VALUES (1, 1, 10)"),
    q0("SELECT max(b), max(c) FROM %s WHERE max(a) = 1", expect=error("Syntax")),
    q0("SELECT max(sum(c)) FROM %s", expect=error("Invalid", "aggregate functions cannot be used as arguments of aggregate functions")),
])

add("testReversedType", [
    q0("CREATE TABLE %s (a int, b int, c int, primary key (a, b)) WITH CLUSTERING ORDER BY (b DESC)"),
    *[q0("INSERT INTO %s (a, b, c) VALUES (1, ?, ?)", b, 11 - b) for b in range(1, 5)],
    q0("SELECT max(c), min(c), avg(c) FROM %s WHERE a = 1 AND b > 1", expect=rows([9, 7, 8])),
])

add("testNestedFunctions", [
    q0("CREATE TABLE %s (a int primary key, b timeuuid, c double, d double)"),
    q0("SELECT max(a), max(toUnixTimestamp(b)) FROM %s", expect=rows([None, None])),
    q0("SELECT max(a), toUnixTimestamp(max(b)) FROM %s", expect=rows([None, None])),
    q0("INSERT INTO %s (a, b, c, d) VALUES (1, maxTimeuuid('2011-02-03 04:05:00+0000'), -1.2, 2.1)"),
    q0("INSERT INTO %s (a, b, c, d) VALUES (2, maxTimeuuid('2011-02-03 04:06:00+0000'), 1.3, -3.4)"),
    q0("INSERT INTO %s (a, b, c, d) VALUES (3, maxTimeuuid('2011-02-03 04:10:00+0000'), 1.4, 1.2)"),
    q0("SELECT max(a), max(toUnixTimestamp(b)) FROM %s", expect=rows([3, 1296706200000])),
    q0("SELECT max(a), toUnixTimestamp(max(b)) FROM %s", expect=rows([3, 1296706200000])),
])
