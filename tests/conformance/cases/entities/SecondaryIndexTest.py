"""cql3/validation/entities/SecondaryIndexTest (Apache Cassandra 3.11 and 4.0, built-in indexes).

Left out: SASI and custom index classes (neither profile offers them), the
WITH COMPACT STORAGE tables (testCompactTableWithValueOver64k and the compact
half of testIndexesOnClusteringInvalid), and the static-column refusal of
testIndexesOnClusteringInvalid (3.x only; 4.0 indexes statics, see
SecondaryIndexOnStaticColumnTest). Where the exact 3.11/4.0 wording differs the
step checks the error class and the common words only. Index results over
several partitions come in Murmur3 token order, as the original asserts;
Cosmos DB's tokens differ (tokens.md), so there they compare in any order.
Cosmos DB does not index clustering columns (secondary-indexing.md).
"""

import uuid

from conformance import case, q, rows, rows_any_order, error

O = "cql3/validation/entities/SecondaryIndexTest.java#%s"
TOKENS = "cosmos-cassandra-api-facts.md s5 (tokens.md): Cosmos DB's token values differ from Cassandra's"
NO_CK = "cosmos-cassandra-api-facts.md s5 (secondary-indexing.md): no secondary indexes on clustering keys"


def c(method, steps, suffix=None, **kw):
    return case("SecondaryIndexTest.%s%s" % (method, "." + suffix if suffix else ""),
                origin=O % method, steps=steps, **kw)


def scan(text, *r):
    return q(text, expect=rows(*r), cosmos=rows_any_order(*r), cosmos_source=TOKENS)


def ck_index(text):
    return q(text, cosmos=error("Invalid"), cosmos_source=NO_CK)


def create_and_drop(method, name, ks_on_drop):
    bare = name.replace('"', "")
    if not name.startswith('"'):
        bare = bare.lower()
    drop = "DROP INDEX {ks}." + name if ks_on_drop else "DROP INDEX " + name
    steps = [
        q("USE system"),
        q("DROP INDEX " + name + ";", expect=error("Invalid", "Index '" + bare + "' could not be found")),
        q("CREATE TABLE %s (a int primary key, b int);"),
        q("CREATE INDEX " + name + " ON %s(b);"),
        q("CREATE INDEX IF NOT EXISTS " + name + " ON %s(b);"),
        q("CREATE INDEX " + name + " ON %s(b)", expect=error("Invalid", "already exists")),
        q("INSERT INTO %s (a, b) values (?, ?);", 0, 0),
        q("INSERT INTO %s (a, b) values (?, ?);", 1, 1),
        q("INSERT INTO %s (a, b) values (?, ?);", 2, 2),
        q("INSERT INTO %s (a, b) values (?, ?);", 3, 1),
        scan("SELECT * FROM %s where b = 1", [1, 1], [3, 1]),
        q("DROP INDEX " + name, expect=error(
            "Invalid", "Index '" + bare + "' could not be found in any of the tables of keyspace 'system'")),
    ]
    if not ks_on_drop:
        steps.append(q("USE {ks}"))
    steps += [
        q(drop),
        q("SELECT * FROM %s where b = ?", 1, expect=error("Invalid")),
        q("USE {ks}"),
        q("DROP INDEX IF EXISTS " + name),
        q("DROP INDEX " + name, expect=error("Invalid", "Index '" + bare + "' could not be found")),
    ]
    return c(method, suffix=("ksOnDrop" if ks_on_drop else "useKeyspace"), steps=steps)


CASES = [
    create_and_drop("testCreateAndDropIndex", "test", False),
    create_and_drop("testCreateAndDropIndex", "test2", True),
    create_and_drop("testCreateAndDropIndexWithQuotedIdentifier", '"quoted_ident"', False),
    create_and_drop("testCreateAndDropIndexWithQuotedIdentifier", '"quoted_ident2"', True),
    create_and_drop("testCreateAndDropIndexWithCamelCaseIdentifier", "CamelCase", False),
    create_and_drop("testCreateAndDropIndexWithCamelCaseIdentifier", "CamelCase2", True),
    c("testSelectWithEQ", variants=("prepared", "simple"), steps=[
        q("CREATE TABLE %s (userid uuid PRIMARY KEY, firstname text, lastname text, age int)"),
        q("CREATE INDEX byAge ON %s(age)"),
        q("INSERT INTO %s (userid, firstname, lastname, age) VALUES (?, 'Frodo', 'Baggins', 32)",
          uuid.UUID("550e8400-e29b-41d4-a716-446655440000")),
        q("UPDATE %s SET firstname = 'Samwise', lastname = 'Gamgee', age = 33 WHERE userid = ?",
          uuid.UUID("f47ac10b-58cc-4372-a567-0e02b2c3d479")),
        q("SELECT firstname FROM %s WHERE userid = ? AND age = 33",
          uuid.UUID("550e8400-e29b-41d4-a716-446655440000"), expect=rows()),
        q("SELECT firstname FROM %s WHERE userid = ? AND age = 33",
          uuid.UUID("f47ac10b-58cc-4372-a567-0e02b2c3d479"), expect=rows(["Samwise"])),
    ]),
    c("testNamelessIndex", steps=[
        q(" CREATE TABLE %s (id text PRIMARY KEY, birth_year int)"),
        q("CREATE INDEX on %s (birth_year)"),
        q("INSERT INTO %s (id, birth_year) VALUES ('Tom', 42)"),
        q("INSERT INTO %s (id, birth_year) VALUES ('Paul', 24)"),
        q("INSERT INTO %s (id, birth_year) VALUES ('Bob', 42)"),
        scan("SELECT id FROM %s WHERE birth_year = 42", ["Tom"], ["Bob"]),
        q("DROP INDEX {ks}.t_birth_year_idx"),
        q("SELECT id FROM %s WHERE birth_year = 42", expect=error("Invalid")),
    ]),
    c("testRangeQuery", steps=[
        q("CREATE TABLE %s (id int primary key, row int, setid int)"),
        q("CREATE INDEX indextest_setid_idx ON %s (setid)"),
    ] + [q("INSERT INTO %s (id, row, setid) VALUES (?, ?, ?)", i, i, 0) for i in range(4)] + [
        q("SELECT * FROM %s WHERE setid = 0 AND row < 1", expect=error("Invalid")),
        q("SELECT * FROM %s WHERE setid = 0 AND row < 1 ALLOW FILTERING", expect=rows([0, 0, 0])),
    ]),
    c("testUnknownCompressionOptions", steps=[
        q("CREATE TABLE {t2} (key varchar PRIMARY KEY, password varchar, gender varchar) "
          "WITH compression_parameters:sstable_compressor = 'DeflateCompressor'", expect=error("Syntax")),
        q("CREATE TABLE {t2} (key varchar PRIMARY KEY, password varchar, gender varchar) "
          "WITH compression = { 'sstable_compressor': 'DeflateCompressor' }", expect=error("Config")),
    ]),
    c("testDataCenterName", steps=[
        q("CREATE KEYSPACE {ks}_foo WITH replication = { 'class' : 'NetworkTopologyStrategy', "
          "'us-east' : 1, 'us-west' : 1 };"),
        q("DROP KEYSPACE {ks}_foo"),
    ]),
    c("testIndexOnComposite", steps=[
        q("CREATE TABLE %s (blog_id int, timestamp int, author text, content text, PRIMARY KEY (blog_id, timestamp))"),
        q("INSERT INTO %s (blog_id, timestamp, author, content) VALUES (?, ?, ?, ?)", 0, 0, "bob", "1st post"),
        q("INSERT INTO %s (blog_id, timestamp, author, content) VALUES (?, ?, ?, ?)", 0, 1, "tom", "2nd post"),
        q("INSERT INTO %s (blog_id, timestamp, author, content) VALUES (?, ?, ?, ?)", 0, 2, "bob", "3rd post"),
        q("INSERT INTO %s (blog_id, timestamp, author, content) VALUES (?, ?, ?, ?)", 0, 3, "tom", "4th post"),
        q("INSERT INTO %s (blog_id, timestamp, author, content) VALUES (?, ?, ?, ?)", 1, 0, "bob", "5th post"),
        q("CREATE INDEX authoridx ON %s (author)"),
        scan("SELECT blog_id, timestamp FROM %s WHERE author = 'bob'", [1, 0], [0, 0], [0, 2]),
        q("INSERT INTO %s (blog_id, timestamp, author, content) VALUES (?, ?, ?, ?)", 1, 1, "tom", "6th post"),
        q("INSERT INTO %s (blog_id, timestamp, author, content) VALUES (?, ?, ?, ?)", 1, 2, "tom", "7th post"),
        q("INSERT INTO %s (blog_id, timestamp, author, content) VALUES (?, ?, ?, ?)", 1, 3, "bob", "8th post"),
        scan("SELECT blog_id, timestamp FROM %s WHERE author = 'bob'", [1, 0], [1, 3], [0, 0], [0, 2]),
        q("DELETE FROM %s WHERE blog_id = 0 AND timestamp = 2"),
        scan("SELECT blog_id, timestamp FROM %s WHERE author = 'bob'", [1, 0], [1, 3], [0, 0]),
    ]),
    c("testInvalidIndexSelect", steps=[
        q("create table %s (pk varchar primary key, col1 varchar, col2 varchar)"),
        q("create index on %s (col1)"),
        q("create index on %s (col2)"),
    ] + [q("insert into %s (pk, col1, col2) values ('" + pk + "','" + a + "','" + b + "')")
         for pk, a, b in (("pk1", "foo1", "bar1"), ("pk1a", "foo1", "bar1"), ("pk1b", "foo1", "bar1"),
                          ("pk1c", "foo1", "bar1"), ("pk2", "foo2", "bar2"), ("pk3", "foo3", "bar3"))] + [
        q("select * from %s where col2 in ('bar1', 'bar2')", expect=error("Invalid")),
        q("CREATE TABLE {t2} (k int PRIMARY KEY, a int, b int)"),
        q("CREATE INDEX ON {t2} (a)"),
        q("SELECT * FROM {t2} WHERE a = 3 AND b IN (1, 3)", expect=error("Invalid")),
    ]),
    c("testIndexesOnComplexPrimaryKey", steps=[
        q("CREATE TABLE %s (pk0 int, pk1 int, ck0 int, ck1 int, ck2 int, value int, "
          "PRIMARY KEY ((pk0, pk1), ck0, ck1, ck2))"),
        q("CREATE INDEX ON %s (pk0)"),
        ck_index("CREATE INDEX ON %s (ck0)"), ck_index("CREATE INDEX ON %s (ck1)"),
        ck_index("CREATE INDEX ON %s (ck2)"),
    ] + [q("INSERT INTO %s (pk0, pk1, ck0, ck1, ck2, value) VALUES (" + v + ")")
         for v in ("0, 1, 2, 3, 4, 5", "1, 2, 3, 4, 5, 0", "2, 3, 4, 5, 0, 1", "3, 4, 5, 0, 1, 2",
                   "4, 5, 0, 1, 2, 3", "5, 0, 1, 2, 3, 4")] + [
        q("SELECT value FROM %s WHERE pk0 = 2", expect=rows([1])),
        q("SELECT value FROM %s WHERE ck0 = 0", expect=rows([3]),
          cosmos=error("Invalid", "ALLOW FILTERING"), cosmos_source=NO_CK),
        q("SELECT value FROM %s WHERE pk0 = 3 AND pk1 = 4 AND ck1 = 0", expect=rows([2]),
          cosmos=error("Invalid"), cosmos_source=NO_CK),
        q("SELECT value FROM %s WHERE pk0 = 5 AND pk1 = 0 AND ck0 = 1 AND ck2 = 3 ALLOW FILTERING",
          expect=rows([4])),
    ]),
    c("testIndexOnCompoundRowKey", steps=[
        q("CREATE TABLE %s (interval text, seq int, id int, severity int, PRIMARY KEY ((interval, seq), id) ) "
          "WITH CLUSTERING ORDER BY (id DESC)"),
        q("CREATE INDEX ON %s (severity)"),
    ] + [q("insert into %s (interval, seq, id , severity) values('t'," + v + ")")
         for v in ("1, 1, 1", "1, 2, 1", "1, 3, 2", "1, 4, 3", "2, 1, 3", "2, 2, 3", "2, 3, 1", "2, 4, 2")] + [
        q("select * from %s where severity = 3 and interval = 't' and seq =1", expect=rows(["t", 1, 4, 3])),
    ]),
    c("testIndexOnCountersInvalid", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, c counter)"),
        q("CREATE INDEX ON %s(c)", expect=error("Invalid")),
    ]),
    c("testIndexOnCollections", steps=[
        q(" CREATE TABLE %s ( k int, v int, l list<int>, s set<text>, m map<text, int>, PRIMARY KEY (k, v))"),
        q("CREATE INDEX ON %s (l)"), q("CREATE INDEX ON %s (s)"), q("CREATE INDEX ON %s (m)"),
        q("INSERT INTO %s (k, v, l, s, m) VALUES (0, 0, [1, 2],    {'a'},      {'a' : 1})"),
        q("INSERT INTO %s (k, v, l, s, m) VALUES (0, 1, [3, 4],    {'b', 'c'}, {'a' : 1, 'b' : 2})"),
        q("INSERT INTO %s (k, v, l, s, m) VALUES (0, 2, [1],       {'a', 'c'}, {'c' : 3})"),
        q("INSERT INTO %s (k, v, l, s, m) VALUES (1, 0, [1, 2, 4], {},         {'b' : 1})"),
        q("INSERT INTO %s (k, v, l, s, m) VALUES (1, 1, [4, 5],    {'d'},      {'a' : 1, 'b' : 3})"),
        scan("SELECT k, v FROM %s WHERE l CONTAINS 1", [1, 0], [0, 0], [0, 2]),
        q("SELECT k, v FROM %s WHERE k = 0 AND l CONTAINS 1", expect=rows([0, 0], [0, 2])),
        scan("SELECT k, v FROM %s WHERE l CONTAINS 2", [1, 0], [0, 0]),
        q("SELECT k, v FROM %s WHERE l CONTAINS 6", expect=rows()),
        q("SELECT k, v FROM %s WHERE s CONTAINS 'a'", expect=rows([0, 0], [0, 2])),
        q("SELECT k, v FROM %s WHERE k = 0 AND s CONTAINS 'a'", expect=rows([0, 0], [0, 2])),
        q("SELECT k, v FROM %s WHERE s CONTAINS 'd'", expect=rows([1, 1])),
        q("SELECT k, v FROM %s  WHERE s CONTAINS 'e'", expect=rows()),
        scan("SELECT k, v FROM %s WHERE m CONTAINS 1", [1, 0], [1, 1], [0, 0], [0, 1]),
        q("SELECT k, v FROM %s WHERE k = 0 AND m CONTAINS 1", expect=rows([0, 0], [0, 1])),
        q("SELECT k, v FROM %s WHERE m CONTAINS 2", expect=rows([0, 1])),
        q("SELECT k, v FROM %s  WHERE m CONTAINS 4", expect=rows()),
    ]),
    c("testIndexOnMapKeys", steps=[
        q("CREATE TABLE %s (k int, v int, m map<text, int>, PRIMARY KEY (k, v))"),
        q("CREATE INDEX ON %s(keys(m))"),
        q("INSERT INTO %s (k, v, m) VALUES (0, 0, {'a' : 1})"),
        q("INSERT INTO %s (k, v, m) VALUES (0, 1, {'a' : 1, 'b' : 2})"),
        q("INSERT INTO %s (k, v, m) VALUES (0, 2, {'c' : 3})"),
        q("INSERT INTO %s (k, v, m) VALUES (1, 0, {'b' : 1})"),
        q("INSERT INTO %s (k, v, m) VALUES (1, 1, {'a' : 1, 'b' : 3})"),
        scan("SELECT k, v FROM %s WHERE m CONTAINS KEY 'a'", [1, 1], [0, 0], [0, 1]),
        q("SELECT k, v FROM %s WHERE k = 0 AND m CONTAINS KEY 'a'", expect=rows([0, 0], [0, 1])),
        q("SELECT k, v FROM %s WHERE m CONTAINS KEY 'c'", expect=rows([0, 2])),
        q("SELECT k, v FROM %s  WHERE m CONTAINS KEY 'd'", expect=rows()),
        q("CREATE INDEX ON %s(m)", expect=error("Invalid")),
    ]),
    c("testIndexOnKeyWithReverseClustering", steps=[
        q(" CREATE TABLE %s (k1 int, k2 int, v int, PRIMARY KEY ((k1, k2), v) ) WITH CLUSTERING ORDER BY (v DESC)"),
        q("CREATE INDEX ON %s (k2)"),
    ] + [q("INSERT INTO %s (k1, k2, v) VALUES (" + v + ")")
         for v in ("0, 0, 1", "0, 1, 2", "0, 0, 3", "1, 0, 4", "1, 1, 5", "2, 0, 7", "2, 1, 8", "3, 0, 1")] + [
        scan("SELECT * FROM %s WHERE k2 = 0 AND v >= 2 ALLOW FILTERING", [2, 0, 7], [0, 0, 3], [1, 0, 4]),
    ]),
    c("testSelectCountOnIndexedColumn", steps=[
        q("CREATE TABLE %s (username text, session_id text, app_name text, account text, last_access timestamp, "
          "created_on timestamp, PRIMARY KEY (username, session_id, app_name, account))"),
        ck_index("create index ON %s (app_name)"),
        q("create index ON %s (last_access)"),
        q("select count(*) from %s where app_name='foo' and account='bar' and last_access > 4 allow filtering",
          expect=rows([0])),
        q("insert into %s (username, session_id, app_name, account, last_access, created_on) "
          "values ('toto', 'foo', 'foo', 'bar', 12, 13)"),
        q("select count(*) from %s where app_name='foo' and account='bar' and last_access > 4 allow filtering",
          expect=rows([1])),
    ]),
    c("testCanQuerySecondaryIndex", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, v int,)"),
        q("ALTER TABLE %s WITH CACHING = {'keys': 'ALL', 'rows_per_partition': 'ALL'}"),
        q("INSERT INTO %s (k,v) VALUES (0,0)"),
        q("INSERT INTO %s (k,v) VALUES (1,1)"),
        q("CREATE INDEX testindex on %s (v)"),
        q("SELECT k FROM %s WHERE v = 0", expect=rows([0])),
    ]),
    c("testIndexOnCompositeValueOver64k", steps=[
        q("CREATE TABLE %s(a int, b int, c blob, PRIMARY KEY (a))"),
        q("CREATE INDEX ON %s(c)"),
        q("INSERT INTO %s (a, b, c) VALUES (0, 0, ?)", bytes(1024 * 65), expect=error("Invalid")),
    ]),
    c("testIndexOnClusteringColumnInsertPartitionKeyAndClusteringsOver64k", steps=[
        q("CREATE TABLE %s(a blob, b blob, c blob, d int, PRIMARY KEY (a, b, c))"),
        ck_index("CREATE INDEX ON %s(b)"),
        q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, 0)", bytes(100), bytes(10), bytes(65535 - 99),
          expect=error("Invalid"), cosmos=rows(), cosmos_source=NO_CK),
    ]),
    c("testIndexOnCollectionValueInsertPartitionKeyAndCollectionKeyOver64k", steps=[
        q("CREATE TABLE %s(a blob , b map<blob, int>, PRIMARY KEY (a))"),
        q("CREATE INDEX ON %s(b)"),
        q("UPDATE %s SET b[?] = 0 WHERE a = ?", bytes(65535 - 100), bytes(100), expect=error("Invalid")),
    ]),
    c("testIndexOnCollectionKeyInsertPartitionKeyAndClusteringOver64k", steps=[
        q("CREATE TABLE %s(a blob, b blob, c map<blob, int>, PRIMARY KEY (a, b))"),
        q("CREATE INDEX ON %s(KEYS(c))"),
        q("UPDATE %s SET c[?] = 0 WHERE a = ? and b = ?", bytes(10), bytes(100), bytes(65535 - 100),
          expect=error("Invalid")),
    ]),
    c("testIndexOnPartitionKeyInsertValueOver64k", steps=[
        q("CREATE TABLE %s(a int, b int, c blob, PRIMARY KEY ((a, b)))"),
        q("CREATE INDEX ON %s(a)"),
        q("INSERT INTO %s (a, b, c) VALUES (0, 0, ?)", bytes(1024 * 65)),
    ]),
    c("testIndexOnClusteringColumnInsertValueOver64k", steps=[
        q("CREATE TABLE %s(a int, b int, c blob, PRIMARY KEY (a, b))"),
        ck_index("CREATE INDEX ON %s(b)"),
        q("INSERT INTO %s (a, b, c) VALUES (0, 0, ?)", bytes(1024 * 65)),
    ]),
    c("testIndexOnFullCollectionEntryInsertCollectionValueOver64k", steps=[
        q("CREATE TABLE %s(a int, b frozen<map<int, blob>>, PRIMARY KEY (a))"),
        q("CREATE INDEX ON %s(full(b))", cosmos=error("Invalid"),
          cosmos_source="cosmos-cassandra-api-facts.md s5: no secondary indexes on frozen collections"),
        q("INSERT INTO %s (a, b) VALUES (0, ?)", {0: bytes(1024 * 65)}, expect=error("Invalid"),
          cosmos=rows(), cosmos_source="cosmos-cassandra-api-facts.md s5: no index, so nothing to overflow"),
    ]),
    c("testIndexesOnClustering", steps=[
        q("CREATE TABLE %s ( id1 int, id2 int, author text, time bigint, v1 text, v2 text, "
          "PRIMARY KEY ((id1, id2), author, time))"),
        ck_index("CREATE INDEX ON %s (time)"),
        q("CREATE INDEX ON %s (id2)"),
        q("INSERT INTO %s (id1, id2, author, time, v1, v2) VALUES(0, 0, 'bob', 0, 'A', 'A')"),
        q("INSERT INTO %s (id1, id2, author, time, v1, v2) VALUES(0, 0, 'bob', 1, 'B', 'B')"),
        q("INSERT INTO %s (id1, id2, author, time, v1, v2) VALUES(0, 1, 'bob', 2, 'C', 'C')"),
        q("INSERT INTO %s (id1, id2, author, time, v1, v2) VALUES(0, 0, 'tom', 0, 'D', 'D')"),
        q("INSERT INTO %s (id1, id2, author, time, v1, v2) VALUES(0, 1, 'tom', 1, 'E', 'E')"),
        q("SELECT v1 FROM %s WHERE time = 1", expect=rows(["B"], ["E"]),
          cosmos=error("Invalid"), cosmos_source=NO_CK),
        q("SELECT v1 FROM %s WHERE id2 = 1", expect=rows(["C"], ["E"])),
        q("SELECT v1 FROM %s WHERE id1 = 0 AND id2 = 0 AND author = 'bob' AND time = 0", expect=rows(["A"])),
        q("UPDATE %s SET v2 = null WHERE id1 = 0 AND id2 = 0 AND author = 'bob' AND time = 1"),
        q("SELECT v1 FROM %s WHERE id2 = 0", expect=rows(["A"], ["B"], ["D"])),
        q("SELECT v1 FROM %s WHERE time = 1", expect=rows(["B"], ["E"]),
          cosmos=error("Invalid"), cosmos_source=NO_CK),
    ]),
]
