"""cql3/validation/miscellaneous/PgStringTest (Apache Cassandra 3.11 and 4.0).

Left out: testPgSyleFunction and testMarkerPgFail (CREATE FUNCTION: no UDFs in
either profile).
"""

from conformance import case, q, rows, error

O = "cql3/validation/miscellaneous/PgStringTest.java#%s"

CASES = [
    case("PgStringTest.testPgSyleInsert", origin=O % "testPgSyleInsert", steps=[
        q("CREATE TABLE %s (key ascii primary key, val text)"),
        q("INSERT INTO %s (key, val) VALUES ($ $key_empty$$, $$'' value for empty$$)", expect=error("Syntax")),
        q("INSERT INTO %s (key, val) VALUES ($$key_empty$$, $$'' value for empty$ $)", expect=error("Syntax")),
        q("INSERT INTO %s (key, val) VALUES ($$key_empty$ $, $$'' value for empty$$)", expect=error("Syntax")),
        q("INSERT INTO %s (key, val) VALUES ($$prim$ $ $key$$, $$some '' arbitrary value$$)"),
        q("INSERT INTO %s (key, val) VALUES ($$key_empty$$, $$'' value for empty$$)"),
        q("INSERT INTO %s (key, val) VALUES ($$$foo$_$foo$$, $$$'' value for empty$$)"),
        q("INSERT INTO %s (key, val) VALUES ('$txt$key$$$$txt$', '$txt$'' other value$txt$')"),
        q("SELECT key, val FROM %s WHERE key='prim$ $ $key'",
          expect=rows(["prim$ $ $key", "some '' arbitrary value"])),
        q("SELECT key, val FROM %s WHERE key='key_empty'", expect=rows(["key_empty", "'' value for empty"])),
        q("SELECT key, val FROM %s WHERE key='$foo$_$foo'", expect=rows(["$foo$_$foo", "$'' value for empty"])),
        q("SELECT key, val FROM %s WHERE key='$txt$key$$$$txt$'",
          expect=rows(["$txt$key$$$$txt$", "$txt$' other value$txt$"])),
        q("INSERT INTO %s (key, val) VALUES ($ascii$prim$$$key$invterm$, $txt$some '' arbitrary value$txt$)",
          expect=error("Syntax")),
    ]),
]
