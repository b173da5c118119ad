"""cql3/validation/entities/TimestampTest (Apache Cassandra 3.11 and 4.0).

Left out: maxwritetime() (5.0), the Thread.sleep() TTL-expiry halves of
testTimestampAndTTL{,Update}Prepared (the rows before expiry are checked).
testTimestampTTL checks the types of writetime()/ttl(), not their values, so
the case compares with a literal USING TIMESTAMP instead (same functions,
nested in blob conversions as in CASSANDRA-8451). Scans over several partitions
expect Murmur3 token order for Cassandra; Cosmos DB's tokens differ
(tokens.md), so there they compare in any order.
"""

from conformance import case, q, rows, rows_any_order, error, unset

O = "cql3/validation/entities/TimestampTest.java#%s"
TOKENS = "cosmos-cassandra-api-facts.md s5 (tokens.md): Cosmos DB's token values differ from Cassandra's"
LOGGED = "cosmos-cassandra-api-facts.md s5.1: Logged batches are not supported by the service yet"


def c(method, steps, suffix=None, **kw):
    return case("TimestampTest.%s%s" % (method, "." + suffix if suffix else ""),
                origin=O % method, steps=steps, **kw)


def scan(text, *r):
    return q(text, expect=rows(*r), cosmos=rows_any_order(*r), cosmos_source=TOKENS)


CASES = [
    c("testNegativeTimestamps", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, v int)"),
        q("INSERT INTO %s (k, v) VALUES (?, ?) USING TIMESTAMP ?", 1, 1, -42),
        q("SELECT writetime(v) FROM %s WHERE k = ?", 1, expect=rows([-42])),
        q("INSERT INTO %s (k, v) VALUES (?, ?) USING TIMESTAMP ?", 2, 2, -(2 ** 63), expect=error("Invalid")),
    ]),
    c("testTimestampTTL", variants=("prepared", "simple"), steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, c text, d text)"),
        q("INSERT INTO %s (k, c) VALUES (1, 'test') USING TIMESTAMP 1000"),
        q("INSERT INTO %s (k, c) VALUES (2, 'test') USING TTL 400 AND TIMESTAMP 2000"),
        q("SELECT k, c, writetime(c), ttl(c) FROM %s WHERE k = 1", expect=rows([1, "test", 1000, None])),
        q("SELECT k, c, writetime(c) FROM %s WHERE k = 2", expect=rows([2, "test", 2000])),
        q("SELECT k, c, blobAsBigint(bigintAsBlob(writetime(c))), ttl(c) FROM %s WHERE k = 1",
          expect=rows([1, "test", 1000, None])),
        q("SELECT k, c, writetime(c), blobAsInt(intAsBlob(ttl(c))) FROM %s WHERE k = 1",
          expect=rows([1, "test", 1000, None])),
        q("SELECT k, c, writetime(k) FROM %s", expect=error("Invalid")),
        q("SELECT k, d, writetime(d) FROM %s WHERE k = 1", expect=rows([1, None, None])),
    ]),
    c("testInvalidCustomTimestamp", suffix="conditional", steps=[
        q("CREATE TABLE %s (k int, v int, PRIMARY KEY (k, v))"),
        q("BEGIN BATCH INSERT INTO %s (k, v) VALUES(0, 0) IF NOT EXISTS; "
          "INSERT INTO %s (k, v) VALUES(0, 1) IF NOT EXISTS; APPLY BATCH",
          cosmos=error("Server", "Logged batches are not supported"), cosmos_source=LOGGED),
        q("BEGIN BATCH INSERT INTO %s (k, v) VALUES(0, 2) IF NOT EXISTS USING TIMESTAMP 1; "
          "INSERT INTO %s (k, v) VALUES(0, 3) IF NOT EXISTS; APPLY BATCH", expect=error("Invalid"),
          cosmos=error("Server", "Logged batches are not supported"), cosmos_source=LOGGED),
        q("BEGIN BATCH USING TIMESTAMP 1 INSERT INTO %s (k, v) VALUES(0, 4) IF NOT EXISTS; "
          "INSERT INTO %s (k, v) VALUES(0, 1) IF NOT EXISTS; APPLY BATCH", expect=error("Invalid"),
          cosmos=error("Server", "Logged batches are not supported"), cosmos_source=LOGGED),
        q("INSERT INTO %s (k, v) VALUES(1, 0) IF NOT EXISTS"),
        q("INSERT INTO %s (k, v) VALUES(1, 1) IF NOT EXISTS USING TIMESTAMP 5", expect=error("Invalid")),
    ]),
    c("testInvalidCustomTimestamp", suffix="counters", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, c counter)"),
        q("UPDATE %s SET c = c + 1 WHERE k = 0"),
        q("UPDATE %s USING TIMESTAMP 10 SET c = c + 1 WHERE k = 0", expect=error("Invalid")),
        q("BEGIN COUNTER BATCH UPDATE %s SET c = c + 1 WHERE k = 0; "
          "UPDATE %s SET c = c + 1 WHERE k = 0; APPLY BATCH"),
        q("BEGIN COUNTER BATCH UPDATE %s USING TIMESTAMP 3 SET c = c + 1 WHERE k = 0; "
          "UPDATE %s SET c = c + 1 WHERE k = 0; APPLY BATCH", expect=error("Invalid")),
        q("BEGIN COUNTER BATCH USING TIMESTAMP 3 UPDATE %s SET c = c + 1 WHERE k = 0; "
          "UPDATE %s SET c = c + 1 WHERE k = 0; APPLY BATCH", expect=error("Invalid")),
        q("SELECT c FROM %s WHERE k = 0", expect=rows([3])),
    ]),
    c("testInsertTimestampWithUnset", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, i int)"),
        q("INSERT INTO %s (k, i) VALUES (1, 1) USING TIMESTAMP ?", unset),
        q("SELECT k, i FROM %s", expect=rows([1, 1])),
    ]),
    c("testTimestampsOnUnsetColumns", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, i int)"),
        q("INSERT INTO %s (k, i) VALUES (1, 1) USING TIMESTAMP 1;"),
        q("INSERT INTO %s (k) VALUES (2) USING TIMESTAMP 2;"),
        q("INSERT INTO %s (k, i) VALUES (3, 3) USING TIMESTAMP 1;"),
        scan("SELECT k, i, writetime(i) FROM %s ", [1, 1, 1], [2, None, None], [3, 3, 1]),
    ]),
    c("testTimestampsOnUnsetColumnsWide", steps=[
        q("CREATE TABLE %s (k int , c int, i int, PRIMARY KEY (k, c))"),
        q("INSERT INTO %s (k, c, i) VALUES (1, 1, 1) USING TIMESTAMP 1;"),
        q("INSERT INTO %s (k, c) VALUES (1, 2) USING TIMESTAMP 1;"),
        q("INSERT INTO %s (k, c, i) VALUES (1, 3, 1) USING TIMESTAMP 1;"),
        q("INSERT INTO %s (k, c) VALUES (2, 2) USING TIMESTAMP 2;"),
        q("INSERT INTO %s (k, c, i) VALUES (3, 3, 3) USING TIMESTAMP 1;"),
        scan("SELECT k, c, i, writetime(i) FROM %s ", [1, 1, 1, 1], [1, 2, None, None], [1, 3, 1, 1],
             [2, 2, None, None], [3, 3, 3, 1]),
    ]),
    c("testTimestampAndTTLPrepared", steps=[
        q("CREATE TABLE %s (k int , c int, i int, PRIMARY KEY (k, c))"),
        q("INSERT INTO %s (k, c, i) VALUES (1, 1, 1) USING TIMESTAMP ? AND TTL ?;", 1, 5),
        q("INSERT INTO %s (k, c) VALUES (1, 2) USING TIMESTAMP ? AND TTL ? ;", 1, 5),
        q("INSERT INTO %s (k, c, i) VALUES (1, 3, 1) USING TIMESTAMP ? AND TTL ?;", 1, 5),
        q("INSERT INTO %s (k, c) VALUES (2, 2) USING TIMESTAMP ? AND TTL ?;", 2, 5),
        q("INSERT INTO %s (k, c, i) VALUES (3, 3, 3) USING TIMESTAMP ? AND TTL ?;", 1, 5),
        scan("SELECT k, c, i, writetime(i) FROM %s ", [1, 1, 1, 1], [1, 2, None, None], [1, 3, 1, 1],
             [2, 2, None, None], [3, 3, 3, 1]),
    ]),
    c("testTimestampAndTTLUpdatePrepared", steps=[
        q("CREATE TABLE %s (k int , c int, i int, PRIMARY KEY (k, c))"),
        q("UPDATE %s USING TIMESTAMP ? AND TTL ? SET i=1 WHERE k=1 AND c = 1 ;", 1, 5),
        q("UPDATE %s USING TIMESTAMP ? AND TTL ? SET i=1 WHERE k=1 AND c = 3 ;", 1, 5),
        q("UPDATE %s USING TIMESTAMP ? AND TTL ? SET i=1 WHERE k=2 AND c = 2 ;", 2, 5),
        q("UPDATE %s USING TIMESTAMP ? AND TTL ? SET i=3 WHERE k=3 AND c = 3 ;", 1, 5),
        scan("SELECT k, c, i, writetime(i) FROM %s ", [1, 1, 1, 1], [1, 3, 1, 1], [2, 2, 1, 2], [3, 3, 3, 1]),
    ]),
]
