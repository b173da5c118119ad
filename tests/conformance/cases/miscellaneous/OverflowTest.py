"""cql3/validation/miscellaneous/OverflowTest (Apache Cassandra 3.11 and 4.0).

testTableOptions uses options 4.0 dropped (read_repair_chance,
dclocal_read_repair_chance), so it is 3.11's behaviour; Cosmos DB accepts only
gc_grace_seconds = 0 (support.md). A partition scan is in Murmur3 token order
for Cassandra (the original asserts NaN, Infinity, -Infinity); Cosmos DB's
tokens differ, so there it compares in any order.
"""

from conformance import case, q, rows, rows_any_order, error

O = "cql3/validation/miscellaneous/OverflowTest.java#%s"
TOKENS = "cosmos-cassandra-api-facts.md s5 (tokens.md): Cosmos DB's token values differ from Cassandra's"
GC = "cosmos-cassandra-api-facts.md s5 (support.md): the gc_grace_seconds value must be zero, if specified"


def c(method, steps, **kw):
    return case("OverflowTest.%s" % method, origin=O % method, steps=steps, **kw)


CASES = [
    c("testNullSupport", variants=("prepared", "simple"), steps=[
        q("CREATE TABLE %s (k int, c int, v1 int, v2 set<text>, PRIMARY KEY (k, c))"),
        q("INSERT INTO %s (k, c, v1, v2) VALUES (0, 0, null, {'1', '2'})"),
        q("INSERT INTO %s (k, c, v1) VALUES (0, 1, 1)"),
        q("SELECT * FROM %s", expect=rows([0, 0, None, {"1", "2"}], [0, 1, 1, None])),
        q("INSERT INTO %s (k, c, v1) VALUES (0, 1, null)"),
        q("INSERT INTO %s (k, c, v2) VALUES (0, 0, null)"),
        q("SELECT * FROM %s", expect=rows([0, 0, None, None], [0, 1, None, None])),
        q("INSERT INTO %s (k, c, v2) VALUES (0, 2, {1, null})", expect=error("Invalid")),
        q("SELECT * FROM %s WHERE k = null", expect=error("Invalid")),
        q("INSERT INTO %s (k, c, v2) VALUES (0, 0, { 'foo', 'bar', null })", expect=error("Invalid")),
    ]),
    c("testReservedKeywords", steps=[
        q("CREATE TABLE %s (key text PRIMARY KEY, count counter)"),
        q("CREATE TABLE {ks}.{t2} (select text PRIMARY KEY, x int)", expect=error("Syntax")),
    ]),
    c("testIdentifiers", steps=[
        q("CREATE TABLE %s (key_23 int PRIMARY KEY, CoLuMn int)"),
        q("INSERT INTO %s (Key_23, Column) VALUES (0, 0)"),
        q("INSERT INTO %s (KEY_23, COLUMN) VALUES (0, 0)"),
        q("INSERT INTO %s (key_23, column, column) VALUES (0, 0, 0)", expect=error("Invalid")),
        q("INSERT INTO %s (key_23, column, COLUMN) VALUES (0, 0, 0)", expect=error("Invalid")),
        q("INSERT INTO %s (key_23, key_23, column) VALUES (0, 0, 0)", expect=error("Invalid")),
        q("INSERT INTO %s (key_23, KEY_23, column) VALUES (0, 0, 0)", expect=error("Invalid")),
        q("CREATE TABLE {ks}.{t2} (select int PRIMARY KEY, column int)", expect=error("Syntax")),
    ]),
    c("testTableOptions", cassandra_version="3.11", steps=[
        q("CREATE TABLE %s ( k int PRIMARY KEY, c int ) WITH comment = 'My comment' "
          "AND read_repair_chance = 0.5 AND dclocal_read_repair_chance = 0.5 AND gc_grace_seconds = 4 "
          "AND bloom_filter_fp_chance = 0.01 "
          "AND compaction = { 'class' : 'LeveledCompactionStrategy', 'sstable_size_in_mb' : 10, 'fanout_size' : 5 } "
          "AND compression = { 'enabled': false } AND caching = { 'keys': 'ALL', 'rows_per_partition': 'ALL' }",
          cosmos=error("Invalid"), cosmos_source=GC),
        q("CREATE TABLE IF NOT EXISTS %s ( k int PRIMARY KEY, c int )"),
        q("ALTER TABLE %s WITH comment = 'other comment' AND read_repair_chance = 0.3 "
          "AND dclocal_read_repair_chance = 0.3 AND gc_grace_seconds = 100 AND bloom_filter_fp_chance = 0.1 "
          "AND compaction = { 'class': 'SizeTieredCompactionStrategy', 'min_sstable_size' : 42 } "
          "AND compression = { 'class' : 'SnappyCompressor' } AND caching = { 'rows_per_partition': 'ALL' }",
          cosmos=error("Invalid"), cosmos_source=GC),
    ]),
    c("testUnescapedString", steps=[
        q("CREATE TABLE %s ( k text PRIMARY KEY, c text, )"),
        q("INSERT INTO %s (k, c) VALUES ('foo', 'CQL is cassandra's best friend')", expect=error("Syntax")),
    ]),
    c("testBoolean", variants=("prepared", "simple"), steps=[
        q("CREATE TABLE %s (k boolean PRIMARY KEY, b boolean)"),
        q("INSERT INTO %s (k, b) VALUES (true, false)"),
        q("SELECT * FROM %s WHERE k = ?", True, expect=rows([True, False])),
    ]),
    c("testFloatWithExponent", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, d double, f float)"),
        q("INSERT INTO %s (k, d, f) VALUES (0, 3E+10, 3.4E3)"),
        q("INSERT INTO %s (k, d, f) VALUES (1, 3.E10, -23.44E-3)"),
        q("INSERT INTO %s (k, d, f) VALUES (2, 3, -2)"),
        q("SELECT d, f FROM %s WHERE k = 0", expect=rows([3e10, 3400.0])),
    ]),
    c("testConversionFunctions", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, i varint, b blob)"),
        q("INSERT INTO %s (k, i, b) VALUES (0, blobAsVarint(bigintAsBlob(3)), textAsBlob('foobar'))"),
        q("SELECT i, blobAsText(b) FROM %s WHERE k = 0", expect=rows([3, "foobar"])),
    ]),
    c("testEmptyBlob", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, b blob)"),
        q("INSERT INTO %s (k, b) VALUES (0, 0x)"),
        q("SELECT * FROM %s", expect=rows([0, b""])),
    ]),
    c("testEmpty", steps=[
        q("CREATE TABLE %s (k1 int, k2 int, v int, PRIMARY KEY (k1, k2))"),
    ] + [q("INSERT INTO %s (k1, k2, v) VALUES (?, ?, ?)", i, j, i + j) for i in range(2) for j in range(2)] + [
        q("SELECT v FROM %s WHERE k1 IN ()", expect=rows()),
        q("SELECT v FROM %s WHERE k1 = 0 AND k2 IN ()", expect=rows()),
        q("DELETE FROM %s WHERE k1 IN ()"),
        q("SELECT * FROM %s", expect=rows_any_order([0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 2])),
        q("UPDATE %s SET v = 3 WHERE k1 IN () AND k2 = 2"),
        q("SELECT * FROM %s", expect=rows_any_order([0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 2])),
    ]),
    c("testFunctionWithNull", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, t timeuuid,)"),
        q("INSERT INTO %s (k) VALUES (0)"),
        q("SELECT dateOf(t) FROM %s WHERE k=0", expect=rows([None])),
    ]),
    c("testColumnNameValidation", steps=[
        q("CREATE TABLE %s (k text, c int, v timeuuid, PRIMARY KEY (k, c))"),
        q("INSERT INTO %s (k, c) VALUES ('', 0)", expect=error("Invalid")),
        q("INSERT INTO %s (k, c) VALUES (0, 10000000000)", expect=error("Invalid")),
        q("INSERT INTO %s (k, c, v) VALUES (0, 0, 550e8400-e29b-41d4-a716-446655440000)", expect=error("Invalid")),
    ]),
    c("testNanInfinityValues", steps=[
        q("CREATE TABLE %s (f float PRIMARY KEY)"),
        q("INSERT INTO %s (f) VALUES (NaN)"),
        q("INSERT INTO %s (f) VALUES (-NaN)"),
        q("INSERT INTO %s (f) VALUES (Infinity)"),
        q("INSERT INTO %s (f) VALUES (-Infinity)"),
        q("SELECT * FROM %s", expect=rows([float("nan")], [float("inf")], [float("-inf")]),
          cosmos=rows_any_order([float("nan")], [float("inf")], [float("-inf")]), cosmos_source=TOKENS),
    ]),
    c("testBlobAsFunction", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, v int)"),
        q("INSERT INTO %s (k, v) VALUES (0, blobAsInt(0x01))", expect=error("Invalid")),
        q("INSERT INTO %s (k, v) VALUES (0, blobAsInt(0x00000001))"),
        q("select v from %s where k=0", expect=rows([1])),
    ]),
]
