"""Cases ported from Apache Cassandra's InsertInvalidateSizedRecordsTest
(cql3/validation/operations, 4.0 line).

Null key values are sent inlined as CQL NULL literals (prepared=False): the Python driver
will not build a routing key from a bound None.
"""
from conformance import case, q, rows, rows_any_order, ok, error

SRC = "cql3/validation/operations/InsertInvalidateSizedRecordsTest.java#%s (4.0)"
LARGE = b"\x00" * 65536
MEDIUM = b"\x00" * (65535 // 2 + 10)
CASES = []


def add(name, steps):
    CASES.append(case("InsertInvalidateSizedRecordsTest." + name, origin=SRC % name, steps=steps))


def inv(text, *values, msg, **kw):
    return q(text, *values, expect=error("Invalid", msg), **kw)


add("singleValuePk", [
    q("CREATE TABLE %s (a blob PRIMARY KEY)"),
    inv("INSERT INTO %s (a) VALUES (?)", LARGE, msg="Key length of 65536 is longer than maximum of 65535"),
    inv("INSERT INTO %s (a) VALUES (?)", None, prepared=False, msg="Invalid null value in condition for column a"),
    inv("INSERT INTO %s (a) VALUES (?)", b"", msg="Key may not be empty"),
])

add("compositeValuePk", [
    q("CREATE TABLE %s (a blob, b blob, PRIMARY KEY ((a, b)))"),
    inv("INSERT INTO %s (a, b) VALUES (?, ?)", MEDIUM, MEDIUM, msg="Key length of %d is longer than maximum of 65535" % ((len(MEDIUM) + 3) * 2)),
    inv("INSERT INTO %s (a, b) VALUES (?, ?)", MEDIUM, LARGE, msg="Key length of 65536 is longer than maximum of 65535"),
    inv("INSERT INTO %s (a, b) VALUES (?, ?)", None, None, prepared=False, msg="Invalid null value in condition for column a"),
    inv("INSERT INTO %s (a, b) VALUES (?, ?)", MEDIUM, None, prepared=False, msg="Invalid null value in condition for column b"),
    inv("INSERT INTO %s (a, b) VALUES (?, ?)", None, MEDIUM, prepared=False, msg="Invalid null value in condition for column a"),
    inv("INSERT INTO %s (a, b) VALUES (?, ?)", b"", b"", msg="Key may not be empty"),
    inv("INSERT INTO %s (a, b) VALUES (?, ?)", MEDIUM, b"", msg="Key may not be empty"),
    inv("INSERT INTO %s (a, b) VALUES (?, ?)", b"", MEDIUM, msg="Key may not be empty"),
])

add("singleValueClustering", [
    q("CREATE TABLE %s (a blob, b blob, PRIMARY KEY (a, b))"),
    inv("INSERT INTO %s (a, b) VALUES (?, ?)", MEDIUM, LARGE, msg="Key length of 65536 is longer than maximum of 65535"),
    inv("INSERT INTO %s (a, b) VALUES (?, ?)", MEDIUM, None, msg="Invalid null value in condition for column b"),
    q("INSERT INTO %s (a, b) VALUES (?, ?)", MEDIUM, b""),
    q("SELECT b FROM %s WHERE a = ?", MEDIUM, expect=rows([b""])),
])

add("compositeValueClustering", [
    q("CREATE TABLE %s (a blob, b blob, c blob, PRIMARY KEY (a, b, c))"),
    inv("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", MEDIUM, MEDIUM, MEDIUM,
        msg="Key length of %d is longer than maximum of 65535" % (len(MEDIUM) * 2)),
    inv("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", MEDIUM, MEDIUM, LARGE,
        msg="Key length of %d is longer than maximum of 65535" % (len(MEDIUM) + len(LARGE))),
])

add("singleValueIndex", [
    q("CREATE TABLE %s (a blob, b blob, PRIMARY KEY (a))"),
    q("CREATE INDEX single_value_index ON %s (b)"),
    inv("INSERT INTO %s (a, b) VALUES (?, ?)", MEDIUM, LARGE,
        msg="Cannot index value of size 65536 for index single_value_index on "),
])
