"""Cases ported from Apache Cassandra's AlterNTSTest (cql3/validation/operations, 4.0 line).

Left out: testAlterKeyspaceSystem_AuthWithNTSOnlyAcceptsConfiguredDataCenterNames (registers a
test snitch and a fake peer), the NetworkTopologyStrategy half of the RF-warning method (the
data-center name is the emulator's). The service ignores replication settings
(cosmos-cassandra-api-facts.md §5), so it gives no replication-factor warning.
"""
from conformance import case, q, rows, rows_any_order, ok, error, warning

SRC = "cql3/validation/operations/AlterNTSTest.java#%s (4.0)"
REPL = "cosmos-cassandra-api-facts.md §5: replication settings of CREATE KEYSPACE are ignored"
CASES = [
    case("AlterNTSTest.testDropColumnAsPreparedStatement", origin=SRC % "testDropColumnAsPreparedStatement", steps=[
        q("CREATE TABLE %s (key int PRIMARY KEY, value int);"),
        q("INSERT INTO %s (key, value) VALUES (1, 1)"),
        q("SELECT * FROM %s", expect=rows([1, 1])),
        q("ALTER TABLE %s DROP value;", prepared=True),
        q("ALTER TABLE %s ADD value int"),
        q("SELECT * FROM %s", expect=rows([1, None])),
    ]),
    case("AlterNTSTest.testCreateAlterKeyspacesRFWarnings.simpleStrategy", origin=SRC % "testCreateAlterKeyspacesRFWarnings",
         cassandra_version="4.0", steps=[
             q("CREATE KEYSPACE {ks}_rf WITH replication = { 'class' : 'SimpleStrategy', 'replication_factor' : 3 }",
               expect=[warning("Your replication factor 3 for keyspace "), warning("is higher than the number of nodes 1")],
               cosmos=ok(), cosmos_source=REPL),
             q("CREATE TABLE {ks}_rf.t (k int PRIMARY KEY, v int)"),
             q("ALTER KEYSPACE {ks}_rf WITH replication = { 'class' : 'SimpleStrategy', 'replication_factor' : 2 }",
               expect=[warning("Your replication factor 2 for keyspace "), warning("is higher than the number of nodes 1")],
               cosmos=ok(), cosmos_source=REPL),
             q("ALTER KEYSPACE {ks}_rf WITH replication = { 'class' : 'SimpleStrategy', 'replication_factor' : 1 }"),
             q("DROP KEYSPACE {ks}_rf"),
         ]),
]
