"""Cases ported from Apache Cassandra's AlterTest (cql3/validation/operations, 3.11 line).

Left out: testAlterIndexInterval (checks in-memory table params, not CQL visible; its ALTERs are
kept and must succeed), flush()/compact() calls, the KEYSPACE_PER_TEST rows of
testCreateAlterKeyspaces (the runner's keyspaces differ), testDowngradeToCompact's flush.
The service ignores most table options (cosmos-cassandra-api-facts.md §5), so reading back
compression / compaction maps is a Cassandra-profile expectation.
"""
from conformance import case, q, rows, rows_any_order, ok, error

SRC = "cql3/validation/operations/AlterTest.java#%s (3.11)"
CASES = []


def add(name, steps, method=None):
    CASES.append(case("AlterTest." + name, origin=SRC % (method or name.split(".")[0]), steps=steps))


add("testAddList", [
    q("CREATE TABLE %s (id text PRIMARY KEY, content text);"),
    q("ALTER TABLE %s ADD myCollection list<text>;"),
    q("INSERT INTO %s (id, content , myCollection) VALUES ('test', 'first test', ['first element']);"),
    q("SELECT * FROM %s;", expect=rows(["test", "first test", ["first element"]])),
])
add("testDropList", [
    q("CREATE TABLE %s (id text PRIMARY KEY, content text, myCollection list<text>);"),
    q("INSERT INTO %s (id, content , myCollection) VALUES ('test', 'first test', ['first element']);"),
    q("ALTER TABLE %s DROP myCollection;"),
    q("SELECT * FROM %s;", expect=rows(["test", "first test"])),
])
add("testAddMap", [
    q("CREATE TABLE %s (id text PRIMARY KEY, content text);"),
    q("ALTER TABLE %s ADD myCollection map<text, text>;"),
    q("INSERT INTO %s (id, content , myCollection) VALUES ('test', 'first test', { '1' : 'first element'});"),
    q("SELECT * FROM %s;", expect=rows(["test", "first test", {"1": "first element"}])),
])
add("testDropMap", [
    q("CREATE TABLE %s (id text PRIMARY KEY, content text, myCollection map<text, text>);"),
    q("INSERT INTO %s (id, content , myCollection) VALUES ('test', 'first test', { '1' : 'first element'});"),
    q("ALTER TABLE %s DROP myCollection;"),
    q("SELECT * FROM %s;", expect=rows(["test", "first test"])),
])
add("testDropListAndAddListWithSameName", [
    q("CREATE TABLE %s (id text PRIMARY KEY, content text, myCollection list<text>);"),
    q("INSERT INTO %s (id, content , myCollection) VALUES ('test', 'first test', ['first element']);"),
    q("ALTER TABLE %s DROP myCollection;"),
    q("ALTER TABLE %s ADD myCollection list<text>;"),
    q("SELECT * FROM %s;", expect=rows(["test", "first test", None])),
    q("UPDATE %s set myCollection = ['second element'] WHERE id = 'test';"),
    q("SELECT * FROM %s;", expect=rows(["test", "first test", ["second element"]])),
])
add("testDropListAndAddMapWithSameName", [
    q("CREATE TABLE %s (id text PRIMARY KEY, content text, myCollection list<text>);"),
    q("INSERT INTO %s (id, content , myCollection) VALUES ('test', 'first test', ['first element']);"),
    q("ALTER TABLE %s DROP myCollection;"),
    q("ALTER TABLE %s ADD myCollection map<int, int>;", expect=error("Invalid")),
])


def drop_ts(static):
    steps = [q("CREATE TABLE %%s (id int, c1 int, v1 int, todrop int%s, PRIMARY KEY (id, c1));" % (" static" if static else ""))]
    steps += [q("INSERT INTO %s (id, c1, v1, todrop) VALUES (?, ?, ?, ?) USING TIMESTAMP ?", 1, i, i, i, 10000 * i) for i in range(5)]
    steps += [q("ALTER TABLE %s DROP todrop USING TIMESTAMP 20000;"),
              q("ALTER TABLE %%s ADD todrop int%s;" % (" static" if static else "")),
              q("INSERT INTO %s (id, c1, v1, todrop) VALUES (?, ?, ?, ?) USING TIMESTAMP ?", 1, 100, 100, 100, 30000)]
    if static:
        exp = [[1, c, c, 4] for c in (0, 1, 2, 3, 4, 100)]
    else:
        exp = [[1, 0, 0, None], [1, 1, 1, None], [1, 2, 2, None], [1, 3, 3, 3], [1, 4, 4, 4], [1, 100, 100, 100]]
    steps.append(q("SELECT id, c1, v1, todrop FROM %s", expect=rows(*exp)))
    return steps


add("testDropWithTimestamp", drop_ts(False))
add("testDropStaticWithTimestamp", drop_ts(True))
add("testDropMultipleWithTimestamp", [
    q("CREATE TABLE %s (id int, c1 int, v1 int, todrop1 int, todrop2 int, PRIMARY KEY (id, c1));"),
    *[q("INSERT INTO %s (id, c1, v1, todrop1, todrop2) VALUES (?, ?, ?, ?, ?) USING TIMESTAMP ?", 1, i, i, i, i, 10000 * i) for i in range(5)],
    q("ALTER TABLE %s DROP (todrop1, todrop2) USING TIMESTAMP 20000;"),
    q("ALTER TABLE %s ADD todrop1 int;"),
    q("ALTER TABLE %s ADD todrop2 int;"),
    q("INSERT INTO %s (id, c1, v1, todrop1, todrop2) VALUES (?, ?, ?, ?, ?) USING TIMESTAMP ?", 1, 100, 100, 100, 100, 40000),
    q("SELECT id, c1, v1, todrop1, todrop2 FROM %s", expect=rows(
        [1, 0, 0, None, None], [1, 1, 1, None, None], [1, 2, 2, None, None], [1, 3, 3, 3, 3], [1, 4, 4, 4, 4], [1, 100, 100, 100, 100])),
])

add("testChangeStrategyWithUnquotedAgrument", [
    q("CREATE TABLE %s (id text PRIMARY KEY);"),
    q("ALTER TABLE %s WITH caching = {'keys' : 'all', 'rows_per_partition' : ALL};",
      expect=error("Syntax", "no viable alternative at input '}'")),
])

add("testAlterIndexInterval", [
    q("CREATE TABLE IF NOT EXISTS %s (id uuid, album text, artist text, data blob, PRIMARY KEY (id))"),
    q("ALTER TABLE %s WITH min_index_interval=256 AND max_index_interval=512"),
    q("ALTER TABLE %s WITH caching = {}"),
    q("SELECT min_index_interval, max_index_interval FROM system_schema.tables WHERE keyspace_name = '{ks}' AND table_name = 't'",
      expect=rows([256, 512])),
])

add("testCreateAlterKeyspaces", [
    q("CREATE KEYSPACE {ks}_1", expect=error("Syntax")),
    q("CREATE KEYSPACE {ks}_1 WITH replication= { 'replication_factor' : 1 }", expect=error("Config")),
    q("CREATE KEYSPACE {ks}_1 WITH replication={ 'class' : 'SimpleStrategy', 'replication_factor' : 1 }"),
    q("CREATE KEYSPACE {ks}_2 WITH replication={ 'class' : 'SimpleStrategy', 'replication_factor' : 1 } AND durable_writes=false"),
    q("SELECT durable_writes FROM system_schema.keyspaces WHERE keyspace_name = '{ks}_1'", expect=rows([True])),
    q("SELECT durable_writes FROM system_schema.keyspaces WHERE keyspace_name = '{ks}_2'", expect=rows([False])),
    q("ALTER KEYSPACE {ks}_1 WITH replication = { 'class' : 'NetworkTopologyStrategy', 'dc1' : 1 } AND durable_writes=False"),
    q("ALTER KEYSPACE {ks}_2 WITH durable_writes=true"),
    q("SELECT durable_writes, replication FROM system_schema.keyspaces WHERE keyspace_name = '{ks}_1'",
      expect=rows([False, {"class": "org.apache.cassandra.locator.NetworkTopologyStrategy", "dc1": "1"}])),
    q("SELECT durable_writes, replication FROM system_schema.keyspaces WHERE keyspace_name = '{ks}_2'",
      expect=rows([True, {"class": "org.apache.cassandra.locator.SimpleStrategy", "replication_factor": "1"}])),
    q("USE {ks}_1"),
    q("CREATE TABLE cf1 (a int PRIMARY KEY, b int) WITH compaction = { 'min_threshold' : 4 }", expect=error("Config")),
    q("CREATE TABLE cf1 (a int PRIMARY KEY, b int) WITH compaction = { 'class' : 'SizeTieredCompactionStrategy', 'min_threshold' : 7 }"),
    q("SELECT table_name, compaction FROM system_schema.tables WHERE keyspace_name='{ks}_1'",
      expect=rows(["cf1", {"class": "org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy", "min_threshold": "7",
                           "max_threshold": "32"}])),
    q("USE {ks}"),
    q("DROP KEYSPACE {ks}_1"),
    q("DROP KEYSPACE {ks}_2"),
])

add("testAlterKeyspaceWithMultipleInstancesOfSameDCThrowsSyntaxException", [
    q("CREATE KEYSPACE {ks}_abc WITH replication = {'class' : 'NetworkTopologyStrategy', 'dc1' : 2}"),
    q("ALTER KEYSPACE {ks}_abc WITH replication = {'class' : 'NetworkTopologyStrategy', 'dc1' : 2, 'dc1' : 3 }", expect=error("Syntax")),
    q("ALTER KEYSPACE {ks}_abc WITH replication = {'class' : 'NetworkTopologyStrategy', 'dc1' : 3}"),
    q("DROP KEYSPACE IF EXISTS {ks}_abc"),
])

add("testAlterStatementWithAdd", [
    q("CREATE TABLE %s (id int PRIMARY KEY, t text)"),
    q("UPDATE %s SET t = '111' WHERE id = 1"),
    q("ALTER TABLE %s ADD l list<text>"),
    q("SELECT * FROM %s", expect=rows([1, None, "111"])),
    q("ALTER TABLE %s ADD m map<int, text>"),
    q("SELECT * FROM %s", expect=rows([1, None, None, "111"])),
])

add("testDowngradeToCompact", [
    q("create table %s (k int primary key, v set<text>)"),
    q("insert into %s (k, v) VALUES (0, {'f'})"),
    q("alter table %s drop v"),
    q("alter table %s add v int"),
    q("SELECT * FROM %s", expect=rows([0, None])),
])

add("renameToEmptyTest", [
    q("CREATE TABLE %s (k int, c1 int, v int, PRIMARY KEY (k, c1))"),
    q('ALTER TABLE %s RENAME c1 TO ""', expect=error("Syntax")),
])

add("testDoubleWith", [
    q("ALTER KEYSPACE WITH WITH DURABLE_WRITES = true", expect=error("Syntax", "no viable alternative at input 'WITH'")),
    q("ALTER KEYSPACE ks WITH WITH DURABLE_WRITES = true", expect=error("Syntax", "no viable alternative at input 'WITH'")),
])

COMP = "SELECT compression FROM system_schema.tables WHERE keyspace_name = '{ks}' and table_name = 't';"
LZ4 = {"chunk_length_in_kb": "64", "class": "org.apache.cassandra.io.compress.LZ4Compressor"}
add("testAlterTableWithCompression", [
    q("CREATE TABLE %s (a text, b int, c int, primary key (a, b))"),
    q(COMP, expect=rows([LZ4])),
    q("ALTER TABLE %s WITH compression = { 'class' : 'SnappyCompressor', 'chunk_length_in_kb' : 32 };"),
    q(COMP, expect=rows([{"chunk_length_in_kb": "32", "class": "org.apache.cassandra.io.compress.SnappyCompressor"}])),
    q("ALTER TABLE %s WITH compression = { 'sstable_compression' : 'LZ4Compressor', 'chunk_length_kb' : 64 };"),
    q(COMP, expect=rows([LZ4])),
    q("ALTER TABLE %s WITH compression = { 'sstable_compression' : '', 'chunk_length_kb' : 32 };"),
    q(COMP, expect=rows([{"enabled": "false"}])),
    q("ALTER TABLE %s WITH compression = { 'class' : 'SnappyCompressor', 'chunk_length_in_kb' : 32 };"),
    q("ALTER TABLE %s WITH compression = { 'enabled' : 'false'};"),
    q(COMP, expect=rows([{"enabled": "false"}])),
])

add("testAlterTableWithCompression.invalid", [
    q("CREATE TABLE %s (a text, b int, c int, primary key (a, b))"),
    q("ALTER TABLE %s WITH  compression = {'chunk_length_in_kb' : 32};",
      expect=error("Config", "Missing sub-option 'class' for the 'compression' option.")),
    q("ALTER TABLE %s WITH  compression = { 'class' : ''};",
      expect=error("Config", "The 'class' option must not be empty. To disable compression use 'enabled' : false")),
    q("ALTER TABLE %s WITH compression = { 'enabled' : 'false', 'class' : 'SnappyCompressor'};",
      expect=error("Config", "If the 'enabled' option is set to false no other options must be specified")),
    q("ALTER TABLE %s WITH compression = { 'sstable_compression' : 'SnappyCompressor', 'class' : 'SnappyCompressor'};",
      expect=error("Config", "The 'sstable_compression' option must not be used if the compression algorithm is already specified by the 'class' option")),
    q("ALTER TABLE %s WITH compression = { 'class' : 'SnappyCompressor', 'chunk_length_kb' : 32 , 'chunk_length_in_kb' : 32 };",
      expect=error("Config", "The 'chunk_length_kb' option must not be used if the chunk length is already specified by the 'chunk_length_in_kb' option")),
], method="testAlterTableWithCompression")

add("testAlterDropEmptySSTable", [
    q("CREATE TABLE %s(k int PRIMARY KEY, x int, y int)"),
    q("UPDATE %s SET x = 1 WHERE k = 0"),
    q("UPDATE %s SET x = 1, y = 1 WHERE k = 0"),
    q("ALTER TABLE %s DROP x"),
    q("SELECT * FROM %s", expect=rows([0, 1])),
])

add("testAlterOnlyColumnBehaviorWithFlush", [
    q("CREATE TABLE %s(k int PRIMARY KEY, x int, y int)"),
    q("UPDATE %s SET x = 1 WHERE k = 0"),
    q("SELECT * FROM %s", expect=rows([0, 1, None])),
    q("ALTER TABLE %s DROP x"),
    q("SELECT * FROM %s", expect=rows()),
])
