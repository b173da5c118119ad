"""Cases ported from Apache Cassandra's UseTest (cql3/validation/operations, 4.0 line), plus the
USE steps CQLTester's keyspace handling relies on."""
from conformance import case, q, rows, rows_any_order, ok, error

SRC = "cql3/validation/operations/UseTest.java#%s (4.0)"

CASES = [
    case("UseTest.testUseStatementWithBindVariable", origin=SRC % "testUseStatementWithBindVariable", steps=[
        q("USE ?", prepared=True, expect=error("Syntax", "Bind variables cannot be used for keyspace names")),
    ]),
    case("UseTest.testUseStatementWithBindVariable.simple", origin=SRC % "testUseStatementWithBindVariable" +
         " as a simple statement", steps=[
        q("USE ?", expect=error("Syntax", "Bind variables cannot be used for keyspace names")),
    ]),
    case("UseTest.testUseUnknownKeyspace", origin=SRC % "testUseStatementWithBindVariable" +
         " (CQLTester: USE of a keyspace that does not exist)", steps=[
        q("USE keyspace_that_does_not_exist", expect=error("Invalid", "keyspace_that_does_not_exist")),
        q("CREATE TABLE %s (k int PRIMARY KEY)"),
        q("USE {ks}"),
        q("INSERT INTO t (k) VALUES (1)"),
        q("SELECT k FROM t", expect=rows([1])),
    ]),
]
