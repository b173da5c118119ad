"""cql3/validation/entities/DateTypeTest (Apache Cassandra 3.11 and 4.0).

A date-only timestamp literal is midnight UTC (the original only inserts; the
read-back step checks the value it stored).
"""

import datetime

from conformance import case, q, rows, error

CASES = [
    case("DateTypeTest.testDate", origin="cql3/validation/entities/DateTypeTest.java#testDate", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, t timestamp)"),
        q("INSERT INTO %s (k, t) VALUES (0, '2011-02-03')"),
        q("SELECT t FROM %s WHERE k = 0", expect=rows([datetime.datetime(2011, 2, 3)])),
        q("INSERT INTO %s (k, t) VALUES (0, '2011-42-42')", expect=error("Invalid")),
    ]),
]
