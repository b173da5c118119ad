"""cql3/validation/entities/TypeTest (Apache Cassandra 3.11 and 4.0).

The originals count the rows read back (values from now() are not
predictable); the cases do the same with row_count().
"""

from conformance import case, q, error, row_count

O = "cql3/validation/entities/TypeTest.java#%s"


def c(method, steps, **kw):
    return case("TypeTest.%s" % method, origin=O % method, steps=steps, **kw)


CASES = [
    c("testNonExistingOnes", steps=[
        q("DROP TYPE {ks}.type_does_not_exist", expect=error("Invalid", "No user type named")),
        q("DROP TYPE keyspace_does_not_exist.type_does_not_exist",
          expect=error("Invalid", "Cannot drop type in unknown keyspace")),
        q("DROP TYPE IF EXISTS {ks}.type_does_not_exist"),
        q("DROP TYPE IF EXISTS keyspace_does_not_exist.type_does_not_exist"),
    ]),
    c("testNowToUUIDCompatibility", steps=[
        q("CREATE TABLE %s (a int, b uuid, PRIMARY KEY (a, b))"),
        q("INSERT INTO %s (a, b) VALUES (0, now())"),
        q("SELECT * FROM %s WHERE a=0 AND b < now()", expect=row_count(1)),
    ]),
    c("testDateCompatibility", steps=[
        q("CREATE TABLE %s (a int, b timestamp, c bigint, d varint, PRIMARY KEY (a, b, c, d))"),
        q("INSERT INTO %s (a, b, c, d) VALUES (0, toUnixTimestamp(now()), toTimestamp(now()), toTimestamp(now()))"),
        q("SELECT * FROM %s WHERE a=0 AND b <= toUnixTimestamp(now())", expect=row_count(1)),
        q("INSERT INTO %s (a, b, c, d) VALUES (1, unixTimestampOf(now()), dateOf(now()), dateOf(now()))"),
        q("SELECT * FROM %s WHERE a=1 AND b <= toUnixTimestamp(now())", expect=row_count(1)),
    ]),
    c("testReversedTypeCompatibility", steps=[
        q("CREATE TABLE %s (a int, b timeuuid, PRIMARY KEY (a, b)) WITH CLUSTERING ORDER BY (b DESC)"),
        q("INSERT INTO %s (a, b) VALUES (0, now())"),
        q("SELECT * FROM %s WHERE a=0 AND b < now()", expect=row_count(1)),
    ]),
]
