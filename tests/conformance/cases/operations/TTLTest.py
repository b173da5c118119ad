"""Cases ported from Apache Cassandra's TTLTest (cql3/validation/operations, 3.11/4.0 line).

Left out: testRecoverOverflowedExpirationWithScrub (loads sstables from disk and scrubs),
the CAP / CAP_NOWARN expiration-overflow policies (server-side settings, not CQL; the default
REJECT policy is kept), flush() and compaction calls.
Cassandra 3.11/4.0 cap a TTL at 20 years (630720000 s) and reject an expiration past
2038-01-19; the service's limit is 2147483647 s.
"""
from conformance import case, q, rows, rows_any_order, ok, error

SRC = "cql3/validation/operations/TTLTest.java#%s (3.11)"
MAX_TTL = 630720000
COSMOS_TTL = "cosmos-cassandra-api-facts.md §4.2/§8: Maximum TTL value 2147483647"

CASES = [
    case("TTLTest.testTTLPerRequestLimit", origin=SRC % "testTTLPerRequestLimit", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, i int)"),
        q("INSERT INTO %s (k, i) VALUES (1, 1) USING TTL ?", 10),
        q("INSERT INTO %s (k, i) VALUES (1, 1) USING TTL ?", MAX_TTL + 1, expect=error("Invalid", "ttl is too large."),
          cosmos=ok(), cosmos_source=COSMOS_TTL),
        q("INSERT INTO %s (k, i) VALUES (1, 1) USING TTL ?", -1,
          expect=error("Invalid", "A TTL must be greater or equal to 0")),
        q("TRUNCATE %s"),
        q("UPDATE %s USING TTL ? SET i = 1 WHERE k = 2", 5),
        q("UPDATE %s USING TTL ? SET i = 1 WHERE k = 2", MAX_TTL + 1, expect=error("Invalid", "ttl is too large."),
          cosmos=ok(), cosmos_source=COSMOS_TTL),
        q("UPDATE %s USING TTL ? SET i = 1 WHERE k = 2", -1,
          expect=error("Invalid", "A TTL must be greater or equal to 0")),
    ]),
    case("TTLTest.testTTLPerRequestLimit.literal", origin=SRC % "testTTLPerRequestLimit" + " with literals", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, i int)"),
        q("INSERT INTO %s (k, i) VALUES (1, 1) USING TTL 10"),
        q("INSERT INTO %s (k, i) VALUES (1, 1) USING TTL 630720001", expect=error("Invalid", "ttl is too large."),
          cosmos=ok(), cosmos_source=COSMOS_TTL),
        q("INSERT INTO %s (k, i) VALUES (1, 1) USING TTL -1", expect=error("Invalid", "A TTL must be greater or equal to 0")),
        q("UPDATE %s USING TTL 630720001 SET i = 1 WHERE k = 2", expect=error("Invalid", "ttl is too large."),
          cosmos=ok(), cosmos_source=COSMOS_TTL),
        q("UPDATE %s USING TTL -1 SET i = 1 WHERE k = 2", expect=error("Invalid", "A TTL must be greater or equal to 0")),
    ]),
    case("TTLTest.testTTLDefaultLimit", origin=SRC % "testTTLDefaultLimit", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, i int) WITH default_time_to_live=-1",
          expect=error("Config", "default_time_to_live must be greater than or equal to 0 (got -1)")),
        q("CREATE TABLE %s (k int PRIMARY KEY, i int) WITH default_time_to_live=630720001",
          expect=error("Config", "default_time_to_live must be less than or equal to 630720000 (got 630720001)"),
          cosmos=ok(), cosmos_source=COSMOS_TTL),
        q("DROP TABLE IF EXISTS %s"),
        q("CREATE TABLE %s (k int PRIMARY KEY, i int) WITH default_time_to_live=5"),
        q("INSERT INTO %s (k, i) VALUES (1, 1)"),
        q("SELECT k, i FROM %s", expect=rows([1, 1])),
    ]),
    case("TTLTest.testRejectExpirationOverflowPolicy", origin=SRC % "testRejectExpirationOverflowPolicy", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, i int)"),
        q("INSERT INTO %s (k, i) VALUES (1, 1) USING TTL 630720000",
          expect=error("Invalid", "exceeds maximum supported expiration date"), cosmos=ok(), cosmos_source=COSMOS_TTL),
        q("CREATE TABLE {ks}.{t2} (k int PRIMARY KEY, i int) WITH default_time_to_live=630720000"),
        q("INSERT INTO {ks}.{t2} (k, i) VALUES (1, 1)",
          expect=error("Invalid", "exceeds maximum supported expiration date"), cosmos=ok(), cosmos_source=COSMOS_TTL),
    ]),
    case("TTLTest.testCapExpirationDateOverflowPolicy.reject", origin=SRC % "testCapExpirationDateOverflowPolicy" +
         " under the default REJECT policy", steps=[
        q("create table %s (k int, a int, b set<text>, primary key(k, a))"),
        q("INSERT INTO %s (k, a, b) VALUES (?, ?, ?) USING TTL 630720000", 2, 2, {"v21", "v22"},
          expect=error("Invalid", "exceeds maximum supported expiration date"), cosmos=ok(), cosmos_source=COSMOS_TTL),
        q("UPDATE %s USING TTL 630720000 SET b = ? WHERE k = 1 AND a = 1;", {"v11"},
          expect=error("Invalid", "exceeds maximum supported expiration date"), cosmos=ok(), cosmos_source=COSMOS_TTL),
        q("INSERT INTO %s (k, a, b) VALUES (3, 3, {'x'}) USING TTL 1000"),
        q("SELECT k, a, b FROM %s WHERE k = 3", expect=rows([3, 3, {"x"}])),
    ]),
]
