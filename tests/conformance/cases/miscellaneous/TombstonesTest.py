"""cql3/validation/miscellaneous/TombstonesTest (Apache Cassandra 3.11 and 4.0).

The original lowers tombstone_failure_threshold to 100 through Java config;
neither profile can be reconfigured by CQL, so the cases keep the reads that
must succeed (100 / 101 tombstones, all shadowed by a partition deletion) and
leave out testBeyondThresholdSelect and testExpiredTombstones (they need the
lowered threshold, or 100,001 writes at the default one).
"""

from conformance import case, q, rows, row_count

O = "cql3/validation/miscellaneous/TombstonesTest.java#%s"
TABLE = q("CREATE TABLE %s (a text, b text, c text, PRIMARY KEY (a, b));")


def c(method, steps):
    return case("TombstonesTest.%s" % method, origin=O % method, steps=steps)


def inserts(n, value):
    return [q("INSERT INTO %s (a, b, c) VALUES ('key', ?, " + value + ");", "column%d" % i) for i in range(n)]


CASES = [
    c("testBelowThresholdSelect", [TABLE] + inserts(100, "null") + [
        q("SELECT * FROM %s WHERE a = 'key';", expect=row_count(100)),
        q("SELECT c FROM %s WHERE a = 'key' AND b = 'column7';", expect=rows([None])),
    ]),
    c("testAllShadowedSelect", [TABLE] + inserts(101, "null") + [
        q("DELETE FROM %s WHERE a = 'key'"),
        q("SELECT * FROM %s WHERE a = 'key';", expect=rows()),
    ]),
    c("testLiveShadowedCellsSelect", [TABLE] + inserts(101, "'column'") + [
        q("DELETE FROM %s WHERE a = 'key'"),
        q("SELECT * FROM %s WHERE a = 'key';", expect=rows()),
    ]),
]
