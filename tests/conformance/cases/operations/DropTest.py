"""Cases ported from Apache Cassandra's DropTest (cql3/validation/operations, 4.0 line).

The dropped_columns assertions read system_schema.dropped_columns, which drivers read too.
"""
from conformance import case, q, rows, rows_any_order, ok, error

SRC = "cql3/validation/operations/DropTest.java#%s (4.0)"

CASES = [
    case("DropTest.testDropTableWithNameCapitalPAndColumnDuration",
         origin=SRC % "testDropTableWithNameCapitalPAndColumnDuration", steps=[
             q('CREATE TABLE {ks}."P" (a INT PRIMARY KEY, b DURATION);'),
             q('DROP TABLE {ks}."P"'),
             q("SELECT * FROM system_schema.dropped_columns WHERE keyspace_name = '{ks}' AND table_name = 'P'",
               expect=rows()),
             q('SELECT * FROM {ks}."P"', expect=error("Invalid")),
         ]),
    # 3.11 raises these as ConfigurationException (error code 0x2300); CQLTester's
    # assertInvalidMessage accepts any exception class
    case("DropTest.testNonExistingOnes", origin=SRC % "testNonExistingOnes", cassandra_version="3.11", steps=[
        q("DROP TABLE {ks}.table_does_not_exist", expect=error("Config", "Cannot drop non existing table")),
        q("DROP TABLE keyspace_does_not_exist.table_does_not_exist",
          expect=error("Config", "Cannot drop table in unknown keyspace")),
        q("DROP TABLE IF EXISTS {ks}.table_does_not_exist"),
        q("DROP TABLE IF EXISTS keyspace_does_not_exist.table_does_not_exist"),
    ]),
    case("DropTest.testDropTableWithDroppedColumns", origin=SRC % "testDropTableWithDroppedColumns", steps=[
        q("CREATE TABLE %s (k1 int, c1 int , v1 int, v2 int, PRIMARY KEY (k1, c1))"),
        q("ALTER TABLE %s DROP v2"),
        q("SELECT column_name FROM system_schema.dropped_columns WHERE keyspace_name = '{ks}' AND table_name = 't'",
          expect=rows(["v2"])),
        q("DROP TABLE %s"),
        q("select * from system_schema.dropped_columns where keyspace_name = '{ks}' and table_name = 't'", expect=rows()),
    ]),
]
