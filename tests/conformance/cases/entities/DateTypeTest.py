"""cql3/validation/entities/DateTypeTest (Apache Cassandra 3.11 and 4.0)."""

from conformance import case, q, error

CASES = [
    case("DateTypeTest.testDate", origin="cql3/validation/entities/DateTypeTest.java#testDate", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, t timestamp)"),
        q("INSERT INTO %s (k, t) VALUES (0, '2011-02-03')"),
        q("INSERT INTO %s (k, t) VALUES (0, '2011-42-42')", expect=error("Invalid")),
    ]),
]
