"""cql3/validation/miscellaneous/PreparedStatementCollisionTest (Apache Cassandra 3.11 and 4.0).

The original checks QueryProcessor's statement ids in Java; what a client sees
of it is that the same query text prepared under two keyspaces (unqualified),
or qualified with two keyspaces, runs against each keyspace's own table. The
cases prepare the statements through the driver and check the rows; a second
keyspace {ks}_2 is created and dropped by the case.
"""

from conformance import case, q, rows

O = "cql3/validation/miscellaneous/PreparedStatementCollisionTest.java#%s"
KS2 = "CREATE KEYSPACE {ks}_2 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}"


def setup(table):
    return [
        q(KS2),
        q("CREATE TABLE IF NOT EXISTS {ks}." + table + "(a int primary key, b int)"),
        q("CREATE TABLE IF NOT EXISTS {ks}_2." + table + "(a int primary key, b int)"),
        q("INSERT INTO {ks}." + table + " (a, b) VALUES (10, 1)"),
        q("INSERT INTO {ks}_2." + table + " (a, b) VALUES (10, 2)"),
    ]


CASES = [
    case("PreparedStatementCollisionTest.testEnsureNonFullyQualifiedPreparedDoNotCollide",
         origin=O % "testEnsureNonFullyQualifiedPreparedDoNotCollideNewBehavior", steps=setup("test_nonfullyqualified") + [
             q("USE {ks}"),
             q("SELECT b FROM test_nonfullyqualified where a = 10", prepared=True, expect=rows([1])),
             q("USE {ks}_2"),
             q("SELECT b FROM test_nonfullyqualified where a = 10", prepared=True, expect=rows([2])),
             q("SELECT b FROM test_nonfullyqualified where a = 10", prepared=True, expect=rows([2])),
             q("USE {ks}"),
             q("SELECT b FROM test_nonfullyqualified where a = 10", prepared=True, expect=rows([1])),
             q("DROP KEYSPACE {ks}_2"),
         ]),
    case("PreparedStatementCollisionTest.testEnsureFullyQualifiedPreparedNoKeyspaceDoNotCollide",
         origin=O % "testEnsureFullyQualifiedPreparedNoKeyspaceDoNotCollideNewBehavior", steps=setup("test_fullyqualified_noks") + [
             q("SELECT b FROM {ks}.test_fullyqualified_noks where a = 10", prepared=True, expect=rows([1])),
             q("SELECT b FROM {ks}_2.test_fullyqualified_noks where a = 10", prepared=True, expect=rows([2])),
             q("SELECT b FROM {ks}_2.test_fullyqualified_noks where a = 10", prepared=True, expect=rows([2])),
             q("DROP KEYSPACE {ks}_2"),
         ]),
    case("PreparedStatementCollisionTest.testEnsureFullyQualifiedPreparedWithKeyspaceDoNotCollide",
         origin=O % "testEnsureFullyQualifiedPreparedWithKeyspaceDoNotCollideNewBehavior", steps=setup("test_fullyqualified_withks") + [
             q("USE {ks}"),
             q("SELECT b FROM {ks}.test_fullyqualified_withks where a = 10", prepared=True, expect=rows([1])),
             q("USE {ks}_2"),
             q("SELECT b FROM {ks}_2.test_fullyqualified_withks where a = 10", prepared=True, expect=rows([2])),
             q("SELECT b FROM {ks}.test_fullyqualified_withks where a = 10", prepared=True, expect=rows([1])),
             q("DROP KEYSPACE {ks}_2"),
         ]),
]
