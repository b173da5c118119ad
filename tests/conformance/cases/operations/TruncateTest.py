"""Cases ported from Apache Cassandra's TruncateTest (cql3/validation/operations, 4.0 line).

Left out: testRemoteTruncateStmt / the provider checks (server-internal hooks), testTruncateView
(materialized views). The unknown-table case keeps its CQL-visible part: the error.
"""
from conformance import case, q, rows, rows_any_order, ok, error

SRC = "cql3/validation/operations/TruncateTest.java#%s (4.0)"


def truncate(keyword):
    return [
        q("CREATE TABLE %s (a int, b int, c int, PRIMARY KEY(a, b))"),
        q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", 0, 0, 0),
        q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", 0, 1, 1),
        q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", 1, 0, 2),
        q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", 1, 1, 3),
        q("SELECT * FROM %s", expect=rows([1, 0, 2], [1, 1, 3], [0, 0, 0], [0, 1, 1])),
        q("TRUNCATE " + keyword + " %s"),
        q("SELECT * FROM %s", expect=rows()),
        q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", 2, 0, 4),
        q("SELECT * FROM %s", expect=rows([2, 0, 4])),
    ]


CASES = [
    case("TruncateTest.testTruncate", origin=SRC % "testTruncate", steps=truncate("")),
    case("TruncateTest.testTruncate.table", origin=SRC % "testTruncate" + " with TRUNCATE TABLE", steps=truncate("TABLE")),
    case("TruncateTest.testTruncateUnknownTable", origin=SRC % "testTruncateUnknownTable", steps=[
        q("CREATE TABLE %s (a int, b int, c int, PRIMARY KEY(a, b))"),
        q("TRUNCATE TABLE {ks}.doesnotexist", expect=error("Invalid", "doesnotexist")),
        q("TRUNCATE TABLE nosuchks.doesnotexist", expect=error("Invalid", "nosuchks")),
    ]),
]
