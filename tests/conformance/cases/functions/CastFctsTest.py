"""cql3/functions/CastFctsTest (Apache Cassandra 3.11 and 4.0).

Left out: the UDF steps of testCastsWithReverseOrder and the column-name
assertion of testNumericCastsInSelectionClause. Cosmos DB documents that cast
is not nestable (support.md), so the nested CAST steps expect a refusal there.
float values read back through the driver compare with approx().
"""

import datetime
import decimal
import struct
import uuid

from cassandra.util import Date

from conformance import case, q, rows, error, approx

O = "cql3/functions/CastFctsTest.java#%s"
NESTED = "cosmos-cassandra-api-facts.md s5 (support.md): cast is not nestable"
F52 = struct.unpack("f", struct.pack("f", 5.2))[0]   # (double) 5.2F
D = decimal.Decimal


def c(method, steps, suffix=None, **kw):
    return case("CastFctsTest.%s%s" % (method, "." + suffix if suffix else ""), origin=O % method,
                steps=steps, **kw)


def timeuuid(ms):
    ticks = ms * 10000 + 0x01B21DD213814000
    return uuid.UUID(fields=(ticks & 0xFFFFFFFF, (ticks >> 32) & 0xFFFF, ((ticks >> 48) & 0x0FFF) | 0x1000,
                             0x80, 0x07, 0x0123456789AB))


NUM_TABLE = [
    q("CREATE TABLE %s (a tinyint primary key, b smallint, c int, d bigint, e float, f double, g decimal, "
      "h varint, i int)"),
    q("INSERT INTO %s (a, b, c, d, e, f, g, h) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      1, 2, 3, 4, 5.2, 6.3, D("6.3"), 4),
]


def all_as(t):
    return "SELECT " + ", ".join("CAST(%s AS %s)" % (col, t) for col in "abcdefghi") + " FROM %s"


CASES = [
    c("testInvalidQueries", steps=[
        q("CREATE TABLE %s (a int primary key, b text, c double)"),
        q("INSERT INTO %s (a, b, c) VALUES (CAST(? AS int), ?, ?)", 1.6, "test", 6.3, prepared=False,
          expect=error("Syntax", "no viable alternative at input '('")),
        q("UPDATE %s SET c = cast(? as double) WHERE a = ?", 1, 1, prepared=False,
          expect=error("Syntax", "no viable alternative at input '('")),
        q("UPDATE %s SET c = ? WHERE a = CAST (? AS INT)", 1.0, 2.0, prepared=False,
          expect=error("Syntax", "no viable alternative at input '('")),
        q("DELETE FROM %s WHERE a = CAST (? AS INT)", 2.0, prepared=False,
          expect=error("Syntax", "no viable alternative at input '('")),
        q("SELECT * FROM %s WHERE a = CAST (? AS INT)", 2.0, prepared=False,
          expect=error("Syntax", "no viable alternative at input '('")),
        q("SELECT CAST(a AS boolean) FROM %s", expect=error("Invalid", "a cannot be cast to boolean")),
    ]),
    c("testNumericCastsInSelectionClause", suffix="integers", steps=NUM_TABLE + [
        q(all_as("tinyint"), expect=rows([1, 2, 3, 4, 5, 6, 6, 4, None])),
        q(all_as("smallint"), expect=rows([1, 2, 3, 4, 5, 6, 6, 4, None])),
        q(all_as("int"), expect=rows([1, 2, 3, 4, 5, 6, 6, 4, None])),
        q(all_as("bigint"), expect=rows([1, 2, 3, 4, 5, 6, 6, 4, None])),
    ]),
    c("testNumericCastsInSelectionClause", suffix="floats", steps=NUM_TABLE + [
        q(all_as("float"), expect=rows([1.0, 2.0, 3.0, 4.0, approx(5.2), approx(6.3), approx(6.3), 4.0, None])),
        q(all_as("double"), expect=rows([1.0, 2.0, 3.0, 4.0, F52, 6.3, 6.3, 4.0, None])),
        q(all_as("decimal"), expect=rows([D("1.0"), D("2.0"), D("3.0"), D("4.0"), D(repr(F52)), D("6.3"),
                                          D("6.3"), D("4.0"), None])),
    ]),
    c("testNumericCastsInSelectionClause", suffix="text", steps=NUM_TABLE + [
        q(all_as("ascii"), expect=rows(["1", "2", "3", "4", "5.2", "6.3", "6.3", "4", None])),
        q(all_as("text"), expect=rows(["1", "2", "3", "4", "5.2", "6.3", "6.3", "4", None])),
    ]),
    c("testTimeCastsInSelectionClause", steps=[
        q("CREATE TABLE %s (a timeuuid primary key, b timestamp, c date, d time)"),
        q("INSERT INTO %s (a, b, c, d) VALUES (?, '2015-05-21 11:03:02+00', '2015-05-21', '11:03:02')",
          timeuuid(1432206182000)),
        q("SELECT CAST(a AS timestamp), CAST(b AS timestamp), CAST(c AS timestamp) FROM %s",
          expect=rows([datetime.datetime(2015, 5, 21, 11, 3, 2), datetime.datetime(2015, 5, 21, 11, 3, 2),
                       datetime.datetime(2015, 5, 21)])),
        q("SELECT CAST(a AS date), CAST(b AS date), CAST(c AS date) FROM %s",
          expect=rows([Date("2015-05-21"), Date("2015-05-21"), Date("2015-05-21")])),
        q("SELECT CAST(b AS text), CAST(c AS text), CAST(d AS text) FROM %s",
          expect=rows(["2015-05-21T11:03:02.000Z", "2015-05-21", "11:03:02.000000000"])),
    ]),
    c("testOtherTypeCastsInSelectionClause", steps=[
        q("CREATE TABLE %s (a ascii primary key, b inet, c boolean)"),
        q("INSERT INTO %s (a, b, c) VALUES (?, '127.0.0.1', ?)", "test", True),
        q("SELECT CAST(a AS text), CAST(b AS text), CAST(c AS text) FROM %s",
          expect=rows(["test", "127.0.0.1", "true"])),
    ]),
    c("testCastsWithReverseOrder", steps=[
        q("CREATE TABLE %s (a int, b smallint, c double, primary key (a, b)) WITH CLUSTERING ORDER BY (b DESC);"),
        q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", 1, 2, 6.3),
        q("SELECT CAST(a AS tinyint), CAST(b AS tinyint), CAST(c AS tinyint) FROM %s", expect=rows([1, 2, 6])),
        q("SELECT CAST(CAST(a AS tinyint) AS smallint), CAST(CAST(b AS tinyint) AS smallint), "
          "CAST(CAST(c AS tinyint) AS smallint) FROM %s", expect=rows([1, 2, 6]),
          cosmos=error("Invalid"), cosmos_source=NESTED),
        q("SELECT CAST(CAST(CAST(a AS tinyint) AS double) AS text), CAST(CAST(CAST(b AS tinyint) AS double) AS text), "
          "CAST(CAST(CAST(c AS tinyint) AS double) AS text) FROM %s", expect=rows(["1.0", "2.0", "6.0"]),
          cosmos=error("Invalid"), cosmos_source=NESTED),
    ]),
    c("testCounterCastsInSelectionClause", steps=[
        q("CREATE TABLE %s (a int primary key, b counter)"),
        q("UPDATE %s SET b = b + 2 WHERE a = 1"),
        q("SELECT CAST(b AS tinyint), CAST(b AS smallint), CAST(b AS int), CAST(b AS bigint), CAST(b AS float), "
          "CAST(b AS double), CAST(b AS decimal), CAST(b AS ascii), CAST(b AS text) FROM %s",
          expect=rows([2, 2, 2, 2, 2.0, 2.0, D("2.0"), "2", "2"])),
    ]),
]
