"""cql3/validation/entities/JsonTest (Apache Cassandra 3.11 and 4.0).

testFromJsonFct is one long method with a block per type; each block is a
case here (JsonTest.testFromJsonFct.<type>). Left out: the UDF overload step
("Ambiguous call to function"). Cosmos DB documents that fromJson() and
toJson() do not work (support.md) while INSERT JSON and SELECT JSON do, so
under --profile cosmos every fromJson()/toJson() step expects a refusal and a
read after such an insert finds nothing.
"""

import datetime
import decimal

from cassandra.util import Date, Time

from conformance import case, q, rows, error, approx

O = "cql3/validation/entities/JsonTest.java#%s"
NO_FJ = "cosmos-cassandra-api-facts.md s5 (support.md): fromJson() and toJson() do not work"

TABLE = ("CREATE TABLE %s (k int PRIMARY KEY, asciival ascii, bigintval bigint, blobval blob, "
         "booleanval boolean, dateval date, decimalval decimal, doubleval double, floatval float, "
         "inetval inet, intval int, textval text, timeval time, timestampval timestamp, "
         "timeuuidval timeuuid, uuidval uuid, varcharval varchar, varintval varint, listval list<int>, "
         "frozenlistval frozen<list<int>>, setval set<uuid>, frozensetval frozen<set<uuid>>, "
         "mapval map<ascii, int>, frozenmapval frozen<map<ascii, int>>, "
         "tupleval frozen<tuple<int, ascii, uuid>>, udtval frozen<type1>)")
SETUP = [q("CREATE TYPE {type1} (a int, b uuid, c set<text>)"), q(TABLE)]


def fj(col, js, expect=None):
    """INSERT ... fromJson(?) into col at k = 0."""
    return q("INSERT INTO %s (k, " + col + ") VALUES (?, fromJson(?))", 0, js,
             expect=expect if expect is not None else rows(), cosmos=error("Invalid"), cosmos_source=NO_FJ)


def bad(col, js, msg):
    return fj(col, js, expect=error("Invalid", msg))


def sel(col, value):
    return q("SELECT k, " + col + " FROM %s WHERE k = ?", 0, expect=rows([0, value]),
             cosmos=rows(), cosmos_source=NO_FJ)


def from_json(suffix, steps):
    return case("JsonTest.testFromJsonFct." + suffix, origin=O % "testFromJsonFct", steps=SETUP + steps)


CASES = [
    from_json("general", [
        q("SELECT fromJson(asciival) FROM %s", expect=error("Invalid", "fromJson() cannot be used in the selection clause")),
        bad("asciival", "\u038E\u0394\u03B4\u03E0", "Could not decode JSON string '\u038E\u0394\u03B4\u03E0'"),
        q("INSERT INTO %s (k, asciival) VALUES (?, fromJson(?))", 0, None, cosmos=error("Invalid"),
          cosmos_source=NO_FJ),
        sel("asciival", None),
    ]),
    from_json("ascii", [
        fj("asciival", '"ascii text"'), sel("asciival", "ascii text"),
        fj("asciival", '"ascii \\" text"'), sel("asciival", 'ascii " text'),
        bad("asciival", '"\\u1fff\\u2013\\u33B4\\u2014"', "Invalid ASCII character in string literal"),
        bad("asciival", "123", "Expected an ascii string, but got a Integer"),
        q("SELECT asciival FROM %s WHERE k = fromJson(?)", "0", expect=rows(['ascii " text']),
          cosmos=error("Invalid"), cosmos_source=NO_FJ),
        q("UPDATE %s SET asciival = fromJson(?) WHERE k = fromJson(?)", '"ascii \\" text"', "0",
          cosmos=error("Invalid"), cosmos_source=NO_FJ),
        q("DELETE FROM %s WHERE k = fromJson(?)", "0", cosmos=error("Invalid"), cosmos_source=NO_FJ),
        q("SELECT k FROM %s", expect=rows()),
    ]),
    from_json("bigint", [
        fj("bigintval", "123123123123"), sel("bigintval", 123123123123),
        fj("bigintval", '"123123123123"'), sel("bigintval", 123123123123),
        bad("bigintval", "9223372036854775808", "Expected a bigint value, but got a"),
        bad("bigintval", "123.456", "Expected a bigint value, but got a"),
        bad("bigintval", '"abc"', "Unable to make long from"),
        bad("bigintval", '["abc"]', "Expected a bigint value, but got a"),
    ]),
    from_json("blob", [
        fj("blobval", '"0x00000001"'), sel("blobval", b"\x00\x00\x00\x01"),
        bad("blobval", '"xyzz"', "Value 'xyzz' is not a valid blob representation"),
        bad("blobval", '"123"', "String representation of blob is missing 0x prefix: 123"),
        bad("blobval", '"0x123"', "Value '0x123' is not a valid blob representation"),
        bad("blobval", "123", "Value '123' is not a valid blob representation"),
    ]),
    from_json("boolean", [
        fj("booleanval", "true"), sel("booleanval", True),
        fj("booleanval", "false"), sel("booleanval", False),
        fj("booleanval", '"false"'), sel("booleanval", False),
        bad("booleanval", '"abc"', "Unable to make boolean from"),
        bad("booleanval", "123", "Expected a boolean value, but got a Integer"),
    ]),
    from_json("date", [
        fj("dateval", '"1987-03-23"'), sel("dateval", Date("1987-03-23")),
        bad("dateval", "123", "Expected a string representation of a date"),
        bad("dateval", '"xyz"', "Unable to coerce 'xyz' to a formatted date"),
    ]),
    from_json("decimal", [
        fj("decimalval", "123123.123123"), sel("decimalval", decimal.Decimal("123123.123123")),
        fj("decimalval", "123123"), sel("decimalval", decimal.Decimal("123123")),
        fj("decimalval", '"123123.123123"'), sel("decimalval", decimal.Decimal("123123.123123")),
        fj("decimalval", '"-1.23E-12"'), sel("decimalval", decimal.Decimal("-1.23E-12")),
        bad("decimalval", '"xyzz"', "Value 'xyzz' is not a valid representation of a decimal value"),
        bad("decimalval", "true", "Value 'true' is not a valid representation of a decimal value"),
    ]),
    from_json("double", [
        fj("doubleval", "123123.123123"), sel("doubleval", 123123.123123),
        fj("doubleval", "123123"), sel("doubleval", 123123.0),
        fj("doubleval", '"123123"'), sel("doubleval", 123123.0),
        bad("doubleval", '"xyzz"', "Unable to make double from"),
        bad("doubleval", "true", "Expected a double value, but got"),
    ]),
    from_json("float", [
        fj("floatval", "123123.123123"), sel("floatval", approx(123123.123123)),
        fj("floatval", "123123"), sel("floatval", 123123.0),
        fj("floatval", '"123123.0"'), sel("floatval", 123123.0),
        bad("floatval", '"xyzz"', "Unable to make float from"),
        bad("floatval", "true", "Expected a float value, but got a"),
    ]),
    from_json("inet", [
        fj("inetval", '"127.0.0.1"'), sel("inetval", "127.0.0.1"),
        fj("inetval", '"::1"'), sel("inetval", "::1"),
        bad("inetval", '"xyzz"', "Unable to make inet address from 'xyzz'"),
        bad("inetval", "123", "Expected a string representation of an inet value, but got a Integer"),
    ]),
    from_json("int", [
        fj("intval", "123123"), sel("intval", 123123),
        fj("intval", '"123123"'), sel("intval", 123123),
        bad("intval", "2147483648", "Expected an int value, but got a"),
        bad("intval", "123.456", "Expected an int value, but got a"),
        bad("intval", '"xyzz"', "Unable to make int from"),
        bad("intval", "true", "Expected an int value, but got a"),
    ]),
    from_json("text", [
        fj("textval", '""'), sel("textval", ""),
        fj("textval", '"abcd"'), sel("textval", "abcd"),
        fj("textval", '"some \\" text"'), sel("textval", 'some " text'),
        fj("textval", '"\\u2013"'), sel("textval", "\u2013"),
        bad("textval", "123", "Expected a UTF-8 string, but got a Integer"),
    ]),
    from_json("time", [
        fj("timeval", '"07:35:07.000111222"'), sel("timeval", Time("07:35:07.000111222")),
        bad("timeval", "123456", "Expected a string representation of a time value"),
        bad("timeval", '"xyz"', "Unable to coerce 'xyz' to a formatted time"),
    ]),
    from_json("timestamp", [
        fj("timestampval", "123123123123"),
        sel("timestampval", datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=123123123123)),
    ]),
]
