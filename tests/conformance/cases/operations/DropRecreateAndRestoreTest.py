"""Cases ported from Apache Cassandra's DropRecreateAndRestoreTest (cql3/validation/operations,
4.0 line): the CQL-visible parts of the WITH ID table property.

Left out: testCreateWithIdRestore's commit-log archiving and point-in-time restore (server
internals); its drop / recreate-with-id steps are kept.
"""
from conformance import case, q, rows, rows_any_order, ok, error

SRC = "cql3/validation/operations/DropRecreateAndRestoreTest.java#%s (4.0)"
TID = "5a1c395e-b41f-11e5-9f22-ba0be0483c18"
CASES = [
    case("DropRecreateAndRestoreTest.testCreateWithIdRestore", origin=SRC % "testCreateWithIdRestore", steps=[
        q("CREATE TABLE %s (a int, b int, c int, PRIMARY KEY(a, b))"),
        q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", 0, 0, 0),
        q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", 0, 1, 1),
        q("SELECT * FROM %s", expect=rows([0, 0, 0], [0, 1, 1])),
        q("DROP TABLE %s"),
        q("SELECT * FROM %s", expect=error("Invalid")),
        q("CREATE TABLE %%s (a int, b int, c int, PRIMARY KEY(a, b)) WITH ID = %s" % TID),
        q("SELECT * FROM %s", expect=rows()),
    ]),
    case("DropRecreateAndRestoreTest.testCreateWithIdDuplicate", origin=SRC % "testCreateWithIdDuplicate", steps=[
        q("CREATE TABLE %s (a int, b int, c int, PRIMARY KEY(a, b))"),
        q("CREATE TABLE %%s (a int, b int, c int, PRIMARY KEY(a, b)) WITH ID = %s" % TID, expect=error("AlreadyExists")),
    ]),
    case("DropRecreateAndRestoreTest.testCreateWithIdInvalid", origin=SRC % "testCreateWithIdInvalid", steps=[
        q("CREATE TABLE %s (a int, b int, c int, PRIMARY KEY(a, b)) WITH ID = 55", expect=error("Config")),
    ]),
    case("DropRecreateAndRestoreTest.testAlterWithId", origin=SRC % "testAlterWithId", steps=[
        q("CREATE TABLE %s (a int, b int, c int, PRIMARY KEY(a, b))"),
        q("ALTER TABLE %%s WITH ID = %s" % TID, expect=error("Config")),
    ]),
]
