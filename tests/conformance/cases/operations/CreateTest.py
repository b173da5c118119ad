"""Cases ported from Apache Cassandra's CreateTest (cql3/validation/operations, 3.11 line).

Left out: triggers (testCreateTrigger*, testDropTrigger*), COMPACT STORAGE methods
(testDenseStaticTable, testDenseCompositeTable, testCreateIndexOnCompactTable*,
testCreateIndextWithCompactStaticFormat, testTruncate; testDenseNonCompositeTable is ported on
a regular table without its compact-only last step), testCQL3PartitionKeyOnlyTable (internal
metadata), and the raw-bytes steps that bind wrongly sized values (the Python driver encodes a
value by the column's type, so a 4-byte smallint cannot be sent through it).
"""
import uuid

from cassandra.util import Duration

from conformance import case, q, rows, rows_any_order, ok, error, udt

SRC = "cql3/validation/operations/CreateTest.java#%s (3.11)"
LOGGED = "cosmos-cassandra-api-facts.md §5.1/§8: logged batches are not supported"
CASES = []


def add(name, steps, method=None, **kw):
    CASES.append(case("CreateTest." + name, origin=SRC % (method or name.split(".")[0]), steps=steps, **kw))


add("testCreateTableWithSmallintColumns", [
    q("CREATE TABLE %s (a text, b smallint, c smallint, primary key (a, b));"),
    q("INSERT INTO %s (a, b, c) VALUES ('1', 1, 2)"),
    q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", "2", 32767, -32768),
    q("SELECT * FROM %s", expect=rows(["2", 32767, -32768], ["1", 1, 2])),
    q("INSERT INTO %s (a, b, c) VALUES ('3', 32768, 0)", expect=error("Invalid")),
])
add("testCreateTinyintColumns", [
    q("CREATE TABLE %s (a text, b tinyint, c tinyint, primary key (a, b));"),
    q("INSERT INTO %s (a, b, c) VALUES ('1', 1, 2)"),
    q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", "2", 127, -128),
    q("SELECT * FROM %s", expect=rows(["2", 127, -128], ["1", 1, 2])),
    q("INSERT INTO %s (a, b, c) VALUES ('3', 128, 0)", expect=error("Invalid")),
])

NS_H, NS_M, NS_MS, NS_US = 3600 * 10 ** 9, 60 * 10 ** 9, 10 ** 6, 10 ** 3
DUR = [("1y2mo", (14, 0, 0)), ("-1y2mo", (-14, 0, 0)), ("1Y2MO", (14, 0, 0)), ("2w", (0, 14, 0)), ("2d10h", (0, 2, 10 * NS_H)),
       ("30h20m", (0, 0, 30 * NS_H + 20 * NS_M)), ("20m", (0, 0, 20 * NS_M)), ("567ms", (0, 0, 567 * NS_MS)),
       ("1950us", (0, 0, 1950 * NS_US)), ("1950µs", (0, 0, 1950 * NS_US)), ("1950000NS", (0, 0, 1950000)),
       ("-1950000ns", (0, 0, -1950000)), ("1y3mo2h10m", (15, 0, 130 * NS_M)), ("-P1Y2M", (-14, 0, 0)), ("P2D", (0, 2, 0)),
       ("PT20M", (0, 0, 20 * NS_M)), ("P2W", (0, 14, 0)), ("P1Y3MT2H10M", (15, 0, 130 * NS_M)),
       ("P0000-00-00T30:20:00", (0, 0, 30 * NS_H + 20 * NS_M)), ("P0001-03-00T02:10:00", (15, 0, 130 * NS_M))]
add("testCreateTableWithDurationColumns", [
    q("CREATE TABLE {ks}.test (a duration PRIMARY KEY, b int);", expect=error("Invalid", "duration type is not supported for PRIMARY KEY column 'a'")),
    q("CREATE TABLE {ks}.test (a text, b duration, c duration, primary key (a, b));",
      expect=error("Invalid", "duration type is not supported for PRIMARY KEY column 'b'")),
    q("CREATE TABLE {ks}.test (a text, b duration, c duration, primary key (a, b)) with clustering order by (b DESC);",
      expect=error("Invalid", "duration type is not supported for PRIMARY KEY column 'b'")),
    q("CREATE TABLE %s (a int, b int, c duration, primary key (a, b));"),
    *[q("INSERT INTO %%s (a, b, c) VALUES (1, %d, %s)" % (i + 1, lit)) for i, (lit, _) in enumerate(DUR)],
    q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", 1, 21, Duration(12, 10, 0)),
    q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", 1, 22, Duration(-12, -10, 0)),
    q("SELECT * FROM %s", expect=rows(*([[1, i + 1, Duration(*d)] for i, (_, d) in enumerate(DUR)] +
                                        [[1, 21, Duration(12, 10, 0)], [1, 22, Duration(-12, -10, 0)]]))),
    q("SELECT * FROM %s WHERE c > 1y ALLOW FILTERING", expect=error("Invalid", "Slice restrictions are not supported on duration columns")),
    q("SELECT * FROM %s WHERE c <= 1y ALLOW FILTERING", expect=error("Invalid", "Slice restrictions are not supported on duration columns")),
    q("INSERT INTO %s (a, b, c) VALUES (1, 2, 9223372036854775807d)",
      expect=error("Invalid", "Invalid duration. The total number of days must be less or equal to 2147483647")),
    q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", 2, 1, Duration(2, -2, 0),
      expect=error("Invalid", "The duration months, days and nanoseconds must be all of the same sign (2, -2, 0)")),
    q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", 2, 1, Duration(-2, 0, 2000000),
      expect=error("Invalid", "The duration months, days and nanoseconds must be all of the same sign (-2, 0, 2000000)")),
])

add("testCreateTableWithDurationColumns.nested", [
    q("CREATE TABLE %s (a text PRIMARY KEY, duration duration);"),
    q("CREATE TABLE {ks}.test(pk int PRIMARY KEY, m map<duration, text>)",
      expect=error("Invalid", "Durations are not allowed as map keys: map<duration, text>")),
    q("CREATE TABLE {ks}.{t2}(pk int PRIMARY KEY, m map<text, duration>)"),
    q("INSERT INTO {ks}.{t2} (pk, m) VALUES (1, {'one month' : 1mo, '60 days' : 60d})"),
    q("SELECT * FROM {ks}.{t2}", expect=rows([1, {"one month": Duration(1, 0, 0), "60 days": Duration(0, 60, 0)}])),
    q("CREATE TABLE {ks}.{t3}(m frozen<map<text, duration>> PRIMARY KEY, v int)",
      expect=error("Invalid", "duration type is not supported for PRIMARY KEY column 'm'")),
    q("CREATE TABLE {ks}.{t3}(pk int, m frozen<map<text, duration>>, v int, PRIMARY KEY (pk, m))",
      expect=error("Invalid", "duration type is not supported for PRIMARY KEY column 'm'")),
    q("CREATE TABLE {ks}.{t3}(pk int PRIMARY KEY, s set<duration>)",
      expect=error("Invalid", "Durations are not allowed inside sets: set<duration>")),
    q("CREATE TABLE {ks}.{t3}(s frozen<set<duration>> PRIMARY KEY, v int)",
      expect=error("Invalid", "Durations are not allowed inside sets: frozen<set<duration>>")),
    q("CREATE TABLE {ks}.{t4}(pk int PRIMARY KEY, l list<duration>)"),
    q("INSERT INTO {ks}.{t4} (pk, l) VALUES (1, [1mo, 60d])"),
    q("SELECT * FROM {ks}.{t4}", expect=rows([1, [Duration(1, 0, 0), Duration(0, 60, 0)]])),
    q("CREATE TABLE {ks}.{t3}(l frozen<list<duration>> PRIMARY KEY, v int)",
      expect=error("Invalid", "duration type is not supported for PRIMARY KEY column 'l'")),
    q("CREATE TABLE {ks}.{t5}(pk int PRIMARY KEY, t tuple<int, duration>)"),
    q("INSERT INTO {ks}.{t5} (pk, t) VALUES (1, (1, 1mo))"),
    q("SELECT * FROM {ks}.{t5}", expect=rows([1, (1, Duration(1, 0, 0))])),
    q("CREATE TABLE {ks}.{t3}(t frozen<tuple<int, duration>> PRIMARY KEY, v int)",
      expect=error("Invalid", "duration type is not supported for PRIMARY KEY column 't'")),
    q("CREATE TYPE {ks}.{type1} (a duration)"),
    q("CREATE TABLE {ks}.{t6}(pk int PRIMARY KEY, u {type1})"),
    q("INSERT INTO {ks}.{t6} (pk, u) VALUES (1, {a : 1mo})"),
    q("SELECT * FROM {ks}.{t6}", expect=rows([1, {"a": Duration(1, 0, 0)}])),
    q("CREATE TABLE {ks}.{t3}(pk int, u frozen<{type1}>, v int, PRIMARY KEY(pk, u))",
      expect=error("Invalid", "duration type is not supported for PRIMARY KEY column 'u'")),
    q("CREATE TABLE {ks}.{t3}(pk int, m frozen<map<text, list<tuple<int, duration>>>>, v int, PRIMARY KEY (pk, m))",
      expect=error("Invalid", "duration type is not supported for PRIMARY KEY column 'm'")),
], method="testCreateTableWithDurationColumns")

ID1 = uuid.UUID("550e8400-e29b-41d4-a716-446655440000")
ID2 = uuid.UUID("f47ac10b-58cc-4372-a567-0e02b2c3d479")
ID3 = uuid.UUID("810e8500-e29b-41d4-a716-446655440000")
add("testStaticTable", [
    q("CREATE TABLE %s (userid uuid PRIMARY KEY, firstname text, lastname text, age int)"),
    q("INSERT INTO %s (userid, firstname, lastname, age) VALUES (?, ?, ?, ?)", ID1, "Frodo", "Baggins", 32),
    q("UPDATE %s SET firstname = ?, lastname = ?, age = ? WHERE userid = ?", "Samwise", "Gamgee", 33, ID2),
    q("SELECT firstname, lastname FROM %s WHERE userid = ?", ID1, expect=rows(["Frodo", "Baggins"])),
    q("SELECT * FROM %s WHERE userid = ?", ID1, expect=rows([ID1, 32, "Frodo", "Baggins"])),
    q("SELECT * FROM %s", expect=rows([ID2, 33, "Samwise", "Gamgee"], [ID1, 32, "Frodo", "Baggins"])),
    q("BEGIN BATCH INSERT INTO %s (userid, age) VALUES (?, ?) UPDATE %s SET age = ? WHERE userid = ? "
      "DELETE firstname, lastname FROM %s WHERE userid = ? DELETE firstname, lastname FROM %s WHERE userid = ? APPLY BATCH",
      ID1, 36, 37, ID2, ID1, ID2, cosmos=error("Server", "Logged batches are not supported"), cosmos_source=LOGGED),
    q("SELECT * FROM %s", expect=rows([ID2, 37, None, None], [ID1, 36, None, None]),
      cosmos=rows([ID2, 33, "Samwise", "Gamgee"], [ID1, 32, "Frodo", "Baggins"]), cosmos_source=LOGGED),
])

add("testDenseNonCompositeTable", [
    q("CREATE TABLE %s (userid uuid, url text, time bigint, PRIMARY KEY (userid, url))"),
    q("INSERT INTO %s (userid, url, time) VALUES (?, ?, ?)", ID1, "http://foo.bar", 42),
    q("INSERT INTO %s (userid, url, time) VALUES (?, ?, ?)", ID1, "http://foo-2.bar", 24),
    q("INSERT INTO %s (userid, url, time) VALUES (?, ?, ?)", ID1, "http://bar.bar", 128),
    q("UPDATE %s SET time = 24 WHERE userid = ? and url = 'http://bar.foo'", ID2),
    q("UPDATE %s SET time = 12 WHERE userid IN (?, ?) and url = 'http://foo-3'", ID2, ID1),
    q("SELECT url, time FROM %s WHERE userid = ?", ID1,
      expect=rows(["http://bar.bar", 128], ["http://foo-2.bar", 24], ["http://foo-3", 12], ["http://foo.bar", 42])),
    q("SELECT * FROM %s WHERE userid = ?", ID2, expect=rows([ID2, "http://bar.foo", 24], [ID2, "http://foo-3", 12])),
    q("SELECT time FROM %s", expect=rows([24], [12], [128], [24], [12], [42])),
], method="testDenseNonCompositeTable")

add("testSparseCompositeTable", [
    q("CREATE TABLE %s (userid uuid, posted_month int, posted_day int, body text, posted_by text, PRIMARY KEY (userid, posted_month, posted_day))"),
    q("INSERT INTO %s (userid, posted_month, posted_day, body, posted_by) VALUES (?, 1, 12, 'Something else', 'Frodo Baggins')", ID1),
    q("INSERT INTO %s (userid, posted_month, posted_day, body, posted_by) VALUES (?, 1, 24, 'Something something', 'Frodo Baggins')", ID1),
    q("UPDATE %s SET body = 'Yo Froddo', posted_by = 'Samwise Gamgee' WHERE userid = ? AND posted_month = 1 AND posted_day = 3", ID2),
    q("UPDATE %s SET body = 'Yet one more message' WHERE userid = ? AND posted_month = 1 and posted_day = 30", ID1),
    q("SELECT body, posted_by FROM %s WHERE userid = ? AND posted_month = 1 AND posted_day = 24", ID1,
      expect=rows(["Something something", "Frodo Baggins"])),
    q("SELECT posted_day, body, posted_by FROM %s WHERE userid = ? AND posted_month = 1 AND posted_day > 12", ID1,
      expect=rows([24, "Something something", "Frodo Baggins"], [30, "Yet one more message", None])),
    q("SELECT posted_day, body, posted_by FROM %s WHERE userid = ? AND posted_month = 1", ID1,
      expect=rows([12, "Something else", "Frodo Baggins"], [24, "Something something", "Frodo Baggins"], [30, "Yet one more message", None])),
])

add("testInvalidCreateTableStatements", [
    q("CREATE TABLE {ks}.test ()", expect=error("Syntax")),
    q("CREATE TABLE {ks}.test (c1 text, c2 text, c3 text)", expect=error("Invalid")),
    q("CREATE TABLE {ks}.test (key1 text PRIMARY KEY, key2 text PRIMARY KEY)", expect=error("Invalid")),
    q("CREATE TABLE {ks}.test (key text PRIMARY KEY, key int)", expect=error("Invalid")),
    q("CREATE TABLE {ks}.test (key text PRIMARY KEY, c int, c text)", expect=error("Invalid")),
])

add("testObsoleteTableProperties", [
    q("CREATE TABLE {ks}.test (foo text PRIMARY KEY, c int) WITH default_validation=timestamp", expect=error("Syntax")),
    q("CREATE TABLE %s (foo text PRIMARY KEY, c int)"),
    q("ALTER TABLE %s WITH default_validation=int", expect=error("Syntax")),
])

add("testKeyspace", [
    q("CREATE KEYSPACE %s testXYZ ", expect=error("Syntax")),
    q("CREATE KEYSPACE {ks}_xyz WITH replication = { 'class' : 'SimpleStrategy', 'replication_factor' : 1 }"),
    q("CREATE KEYSPACE My_much_much_too_long_identifier_that_should_not_work WITH replication = { 'class' : 'SimpleStrategy', 'replication_factor' : 1 }",
      expect=error("Invalid")),
    q("DROP KEYSPACE {ks}_xyz"),
    q("DROP KEYSPACE non_existing", expect=error("Config")),
    q("CREATE KEYSPACE {ks}_xyz WITH replication = { 'class' : 'SimpleStrategy', 'replication_factor' : 1 }"),
    q("DROP KEYSPACE {ks}_xyz"),
], cassandra_version="3.11")

add("testCreateKeyspaceWithMultipleInstancesOfSameDCThrowsException", [
    q("CREATE KEYSPACE {ks}_abc WITH replication = {'class' : 'NetworkTopologyStrategy', 'dc1' : 2, 'dc1' : 3 }", expect=error("Syntax")),
    q("DROP KEYSPACE IF EXISTS {ks}_abc"),
])

add("testTable", [
    q(" CREATE TABLE %s (k int PRIMARY KEY, c int)"),
    q(" CREATE TABLE {ks}.{t3} (k int, c int, PRIMARY KEY (k),)"),
    q("CREATE TABLE {ks}.{t4} (k int PRIMARY KEY, c int, k text)", expect=error("Invalid", "Multiple definition of identifier k")),
    q("DROP TABLE %s"),
    q("CREATE TABLE %s ( k int PRIMARY KEY, c1 int, c2 int, ) "),
    q("INSERT INTO %s (k, c1, c2) VALUES (1, 2, 3)"),
    q("SELECT * FROM %s", expect=rows([1, 2, 3])),
])

add("testMultiOrderingValidation", [
    q("CREATE TABLE {ks}.test (k int, c1 int, c2 int, PRIMARY KEY (k, c1, c2)) WITH CLUSTERING ORDER BY (c2 DESC)", expect=error("Invalid")),
    q("CREATE TABLE {ks}.test (k int, c1 int, c2 int, PRIMARY KEY (k, c1, c2)) WITH CLUSTERING ORDER BY (c2 ASC, c1 DESC)", expect=error("Invalid")),
    q("CREATE TABLE {ks}.test (k int, c1 int, c2 int, PRIMARY KEY (k, c1, c2)) WITH CLUSTERING ORDER BY (c1 DESC, c2 DESC, c3 DESC)",
      expect=error("Invalid")),
    q("CREATE TABLE %s (k int, c1 int, c2 int, PRIMARY KEY (k, c1, c2)) WITH CLUSTERING ORDER BY (c1 DESC, c2 DESC)"),
    q("CREATE TABLE {ks}.{t2} (k int, c1 int, c2 int, PRIMARY KEY (k, c1, c2)) WITH CLUSTERING ORDER BY (c1 ASC, c2 DESC)"),
])

add("testDoubleWith", [
    q("CREATE KEYSPACE WITH WITH DURABLE_WRITES = true", expect=error("Syntax", "no viable alternative at input 'WITH'")),
    q("CREATE KEYSPACE ks WITH WITH DURABLE_WRITES = true", expect=error("Syntax", "no viable alternative at input 'WITH'")),
])

COMP = "SELECT compression FROM system_schema.tables WHERE keyspace_name = '{ks}' and table_name = '%s';"
SNAPPY32 = {"chunk_length_in_kb": "32", "class": "org.apache.cassandra.io.compress.SnappyCompressor"}
T = "CREATE TABLE {ks}.%s (a text, b int, c int, primary key (a, b))"
add("testCreateTableWithCompression", [
    q(T % "t"), q(COMP % "t", expect=rows([{"chunk_length_in_kb": "64", "class": "org.apache.cassandra.io.compress.LZ4Compressor"}])),
    q(T % "c1" + " WITH compression = { 'class' : 'SnappyCompressor', 'chunk_length_in_kb' : 32 };"), q(COMP % "c1", expect=rows([SNAPPY32])),
    q(T % "c2" + " WITH compression = { 'class' : 'SnappyCompressor', 'chunk_length_in_kb' : 32, 'enabled' : true };"),
    q(COMP % "c2", expect=rows([SNAPPY32])),
    q(T % "c3" + " WITH compression = { 'sstable_compression' : 'SnappyCompressor', 'chunk_length_kb' : 32 };"),
    q(COMP % "c3", expect=rows([SNAPPY32])),
    q(T % "c4" + " WITH compression = { 'sstable_compression' : '', 'chunk_length_kb' : 32 };"),
    q(COMP % "c4", expect=rows([{"enabled": "false"}])),
    q(T % "c5" + " WITH compression = { 'enabled' : 'false'};"), q(COMP % "c5", expect=rows([{"enabled": "false"}])),
])

add("testCreateTableWithCompression.invalid", [
    q(T % "x" + " WITH compression = {'chunk_length_in_kb' : 32};",
      expect=error("Config", "Missing sub-option 'class' for the 'compression' option.")),
    q(T % "x" + " WITH compression = { 'class' : ''};",
      expect=error("Config", "The 'class' option must not be empty. To disable compression use 'enabled' : false")),
    q(T % "x" + " WITH compression = { 'enabled' : 'false', 'class' : 'SnappyCompressor'};",
      expect=error("Config", "If the 'enabled' option is set to false no other options must be specified")),
    q(T % "x" + " WITH compression = { 'enabled' : 'false', 'chunk_length_in_kb' : 32};",
      expect=error("Config", "If the 'enabled' option is set to false no other options must be specified")),
    q(T % "x" + " WITH compression = { 'sstable_compression' : 'SnappyCompressor', 'class' : 'SnappyCompressor'};",
      expect=error("Config", "The 'sstable_compression' option must not be used if the compression algorithm is already specified by the 'class' option")),
    q(T % "x" + " WITH compression = { 'class' : 'SnappyCompressor', 'chunk_length_kb' : 32 , 'chunk_length_in_kb' : 32 };",
      expect=error("Config", "The 'chunk_length_kb' option must not be used if the chunk length is already specified by the 'chunk_length_in_kb' option")),
    q(T % "x" + " WITH compression = { 'class' : 'SnappyCompressor', 'unknownOption' : 32 };",
      expect=error("Config", "Unknown compression options unknownOption")),
], method="testCreateTableWithCompression")
