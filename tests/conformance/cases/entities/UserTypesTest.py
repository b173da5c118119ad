"""cql3/validation/entities/UserTypesTest (Apache Cassandra 4.0; non-frozen UDTs are 3.6+).

The Java class runs under the ByteOrderedPartitioner: scans over several
partitions are compared in any order here. Left out: testInvalidInputForUserType
(raw bytes of the wrong type), testTypeAlterUsedInFunction (UDF/UDA),
testAlteringUserTypeNestedWithinSetWithView (materialized view), flush/compact.
A UDT value read back after ALTER TYPE ADD shows the new field as null, so
expectations use udt(...), which treats absent fields as null.

Cosmos DB does not support ALTER TYPE (support.md: "ALTER ROLE/TYPE/USER: No"),
so under --profile cosmos the ALTER TYPE steps are refused and the later steps
expect what the unaltered type gives (a bound value's extra field is dropped by
the driver, which only knows the type's fields; a literal naming it is refused).
"""

import uuid

from conformance import case, q, rows, rows_any_order, error, udt, unset

O = "cql3/validation/entities/UserTypesTest.java#%s"
NO_ALTER = "cosmos-cassandra-api-facts.md s5 (support.md): ALTER TYPE is not supported"


def c(method, steps, suffix=None, **kw):
    return case("UserTypesTest.%s%s" % (method, "." + suffix if suffix else ""),
                origin=O % method, steps=steps, **kw)


def alter(text):
    return q(text, cosmos=error("Invalid"), cosmos_source=NO_ALTER)


def cz(text, *values, expect, cosmos):
    """A step after an ALTER TYPE: cosmos sees the unaltered type."""
    return q(text, *values, expect=expect, cosmos=cosmos, cosmos_source=NO_ALTER)


CASES = [
    c("testInvalidField", steps=[
        q("CREATE TYPE {type1} (f int)"),
        q("CREATE TABLE %s (k int PRIMARY KEY, v frozen<type1>)"),
        q("INSERT INTO %s (k, v) VALUES (?, {s : ?})", 0, 1, expect=error("Invalid")),
    ]),
    c("testInvalidInputForUserType", suffix="literal", steps=[
        q("CREATE TYPE {type1} (a int, b tuple<int, text, double>)"),
        q("CREATE TABLE %s (k int PRIMARY KEY, t frozen<type1>)"),
        q("INSERT INTO %s (k, t) VALUES (0, {a: 1, b: (1, '1', 1.0, 1)})", expect=error(
            "Invalid", "Invalid user type literal for t: field b is not of type frozen<tuple<int, text, double>>")),
    ]),
    c("testCassandra8105", steps=[
        q("CREATE TYPE {type1} (a int, b int)"),
        q("CREATE TYPE {type2} (j frozen<{ks}.type1>, k int)"),
        q("CREATE TABLE %s (x int PRIMARY KEY, y set<frozen<{ks}.type2>>)"),
        q("INSERT INTO %s (x, y) VALUES (1, { { k: 1 } })"),
        q("CREATE TYPE {type3} (a int, b int)"),
        q("CREATE TYPE {type4} (j frozen<{ks}.type3>, k int)"),
        q("CREATE TABLE {t2} (x int PRIMARY KEY, y list<frozen<{ks}.type4>>)"),
        q("INSERT INTO {t2} (x, y) VALUES (1, [ { k: 1 } ])"),
        q("CREATE TYPE {type5} (a int, b int)"),
        q("CREATE TYPE {type6} (i int, j frozen<{ks}.type5>)"),
        q("CREATE TABLE {t3} (x int PRIMARY KEY, y set<frozen<{ks}.type6>>)"),
        q("INSERT INTO {t3} (x, y) VALUES (1, { { i: 1 } })"),
        q("SELECT * FROM {t3}", expect=rows([1, {udt(i=1)}])),
    ]),
    c("testFor7684", variants=("prepared", "simple"), steps=[
        q("CREATE TYPE {type1} (x double)"),
        q("CREATE TABLE %s (k int, v frozen<type1>, b boolean static, PRIMARY KEY (k, v))"),
        q("INSERT INTO %s(k, v) VALUES (?, {x:?})", 1, -104.99251),
        q("UPDATE %s SET b = ? WHERE k = ?", True, 1),
        q("SELECT v.x FROM %s WHERE k = ? AND v = {x:?}", 1, -104.99251, expect=rows([-104.99251])),
    ]),
    c("testInvalidUDTStatements", suffix="create", steps=[
        q("CREATE TYPE {type1} (a int)"),
        q("CREATE TABLE {ks}.wrong (k {ks}.type1 PRIMARY KEY , v int)",
          expect=error("Invalid", "Invalid non-frozen user-defined type for PRIMARY KEY component k")),
        q("CREATE TABLE {ks}.wrong (k1 int, k2 {ks}.type1, v int, PRIMARY KEY (k1, k2))",
          expect=error("Invalid", "Invalid non-frozen user-defined type for PRIMARY KEY component k2")),
        q("CREATE TABLE {ks}.wrong (k int PRIMARY KEY, v list<{ks}.type1>)",
          expect=error("Invalid", "Non-frozen UDTs are not allowed inside collections: list<{ks}.type1>")),
        q("CREATE TABLE {ks}.wrong (k int PRIMARY KEY, v set<{ks}.type1>)",
          expect=error("Invalid", "Non-frozen UDTs are not allowed inside collections: set<{ks}.type1>")),
        q("CREATE TABLE {ks}.wrong (k int PRIMARY KEY, v map<{ks}.type1, int>)",
          expect=error("Invalid", "Non-frozen UDTs are not allowed inside collections: map<{ks}.type1, int>")),
        q("CREATE TABLE {ks}.wrong (k int PRIMARY KEY, v map<int, {ks}.type1>)",
          expect=error("Invalid", "Non-frozen UDTs are not allowed inside collections: map<int, {ks}.type1>")),
        q("CREATE TYPE {ks}.wrong (a int, b list<{ks}.type1>)",
          expect=error("Invalid", "Non-frozen UDTs are not allowed inside collections: list<{ks}.type1>")),
        q("CREATE TYPE {ks}.wrong (a int, b {ks}.type1)",
          expect=error("Invalid", "A user type cannot contain non-frozen UDTs")),
        q("CREATE TABLE {ks}.wrong (k int PRIMARY KEY, v frozen<otherKeyspace.myType>)",
          expect=error("Invalid", "Statement on keyspace {ks} cannot refer to a user type in keyspace "
                       "otherkeyspace; user types can only be used in the keyspace they are defined in")),
        q("CREATE TABLE {ks}.wrong (k int PRIMARY KEY, v frozen<{ks}.unknownType>)",
          expect=error("Invalid", "Unknown type {ks}.unknowntype")),
        q("CREATE TYPE {type2} (bar int, foo list<int>)"),
        q("CREATE TABLE {ks}.wrong (k int PRIMARY KEY, v {ks}.type2)",
          expect=error("Invalid", "Non-frozen UDTs with nested non-frozen collections are not supported")),
    ]),
    c("testInvalidUDTStatements", suffix="frozenOperations", steps=[
        q("CREATE TYPE {type1} (a int)"),
        q("CREATE TABLE %s (a int PRIMARY KEY, b frozen<{ks}.type1>, c int)"),
        q("DELETE b.a FROM %s WHERE a = 0", expect=error("Invalid", "Frozen UDT column b does not support field deletion")),
        q("DELETE c.a FROM %s WHERE a = 0", expect=error("Invalid", "Invalid field deletion operation for non-UDT column c")),
        q("UPDATE %s SET b.a = 0 WHERE a = 0", expect=error("Invalid", "Invalid operation (b.a = 0) for frozen UDT column b")),
        q("UPDATE %s SET c.a = 0 WHERE a = 0", expect=error("Invalid", "Invalid operation (c.a = 0) for non-UDT column c")),
    ]),
    c("testInvalidUDTStatements", suffix="nonFrozenOperations", steps=[
        q("CREATE TYPE {type1} (a int)"),
        q("CREATE TABLE %s (a int PRIMARY KEY, b {ks}.type1, c int)"),
        q("DELETE b.foo FROM %s WHERE a = 0", expect=error("Invalid", "UDT column b does not have a field named foo")),
        q("UPDATE %s SET b.foo = 0 WHERE a = 0", expect=error("Invalid", "UDT column b does not have a field named foo")),
        q("INSERT INTO %s (a, b, c) VALUES (0, {a: 0, foo: 0}, 0)",
          expect=error("Invalid", "Unknown field 'foo' in value of user defined type")),
    ]),
    c("testAlterUDT", steps=[
        q("CREATE TYPE {type1} (a int)"),
        q("CREATE TABLE %s (a int PRIMARY KEY, b frozen<{ks}.type1>)"),
        q("INSERT INTO %s (a, b) VALUES (1, ?)", udt(a=1)),
        q("SELECT b.a FROM %s", expect=rows([1])),
        alter("ALTER TYPE {ks}.type1 ADD b int"),
        q("INSERT INTO %s (a, b) VALUES (2, ?)", udt(a=2, b=2)),
        cz("SELECT b.a, b.b FROM %s", expect=rows_any_order([1, None], [2, 2]),
           cosmos=error("Invalid")),
        cz("SELECT b.a FROM %s", expect=rows_any_order([1], [2]), cosmos=rows_any_order([1], [2])),
    ]),
    c("testAlterNonFrozenUDT", steps=[
        q("CREATE TYPE {type1} (a int, b text)"),
        q("CREATE TABLE %s (k int PRIMARY KEY, v {ks}.type1)"),
        q("INSERT INTO %s (k, v) VALUES (0, ?)", udt(a=1, b="abc")),
        q("SELECT v FROM %s", expect=rows([udt(a=1, b="abc")])),
        q("SELECT v.a FROM %s", expect=rows([1])),
        q("SELECT v.b FROM %s", expect=rows(["abc"])),
        alter("ALTER TYPE {ks}.type1 RENAME b TO foo"),
        cz("SELECT v FROM %s", expect=rows([udt(a=1, foo="abc")]), cosmos=rows([udt(a=1, b="abc")])),
        q("SELECT v.a FROM %s", expect=rows([1])),
        cz("SELECT v.foo FROM %s", expect=rows(["abc"]), cosmos=error("Invalid")),
        cz("UPDATE %s SET v.foo = 'def' WHERE k = 0", expect=rows(), cosmos=error("Invalid")),
        cz("SELECT v FROM %s", expect=rows([udt(a=1, foo="def")]), cosmos=rows([udt(a=1, b="abc")])),
        alter("ALTER TYPE {ks}.type1 ADD c int"),
        cz("SELECT v FROM %s", expect=rows([udt(a=1, foo="def", c=None)]),
           cosmos=rows([udt(a=1, b="abc")])),
        cz("SELECT v.c FROM %s", expect=rows([None]), cosmos=error("Invalid")),
        cz("INSERT INTO %s (k, v) VALUES (0, {a: 3, foo: 'abc', c: 0})", expect=rows(),
           cosmos=error("Invalid")),
        cz("SELECT v FROM %s", expect=rows([udt(a=3, foo="abc", c=0)]),
           cosmos=rows([udt(a=1, b="abc")])),
        cz("SELECT v.c FROM %s", expect=rows([0]), cosmos=error("Invalid")),
    ]),
    c("testUDTWithUnsetValues", steps=[
        q("CREATE TYPE {type1} (x int, y int)"),
        q("CREATE TYPE {type2} (a frozen<type1>)"),
        q("CREATE TABLE %s (k int PRIMARY KEY, v frozen<type1>, z frozen<type2>)"),
        q("INSERT INTO %s (k, v) VALUES (10, {x:?, y:?})", 1, unset,
          expect=error("Invalid", "Invalid unset value for field 'y' of user defined type type1")),
        q("INSERT INTO %s (k, v, z) VALUES (10, {x:?, y:?}, {a:{x: ?, y: ?}})", 1, 1, 1, unset,
          expect=error("Invalid", "Invalid unset value for field 'y' of user defined type type1")),
    ]),
]


def nested_in_collection(method, suffix, coltype, lit1, val, wrap):
    """testAlteringUserTypeNestedWithin{Map,Set,List}: one column type."""
    return c(method, suffix=suffix, steps=[
        q("CREATE TYPE {type1} (a int)"),
        q("CREATE TABLE %s (x int PRIMARY KEY, y " + coltype + ")"),
        q("INSERT INTO %s (x, y) VALUES(1, ?)", wrap(udt(a=1))),
        q("SELECT * FROM %s", expect=rows([1, wrap(udt(a=1))])),
        alter("ALTER TYPE {ks}.type1 ADD b int"),
        q("INSERT INTO %s (x, y) VALUES(2, ?)", wrap(udt(a=2, b=2))),
        q("INSERT INTO %s (x, y) VALUES(3, ?)", wrap(udt(a=3, b=None))),
        q("INSERT INTO %s (x, y) VALUES(4, ?)", wrap(udt(a=None, b=4))),
        cz("SELECT * FROM %s", expect=rows_any_order(
            [1, wrap(udt(a=1))], [2, wrap(udt(a=2, b=2))], [3, wrap(udt(a=3, b=None))],
            [4, wrap(udt(a=None, b=4))]),
           cosmos=rows_any_order([1, wrap(udt(a=1))], [2, wrap(udt(a=2))], [3, wrap(udt(a=3))],
                                 [4, wrap(udt(a=None))])),
    ])


CASES += [
    nested_in_collection("testAlteringUserTypeNestedWithinMap", "frozenMap",
                         "frozen<map<text, {ks}.type1>>", None, None, lambda u: {"v": u}),
    nested_in_collection("testAlteringUserTypeNestedWithinMap", "mapOfFrozen",
                         "map<text, frozen<{ks}.type1>>", None, None, lambda u: {"v": u}),
    nested_in_collection("testAlteringUserTypeNestedWithinSet", "frozenSet",
                         "frozen<set<{ks}.type1>>", None, None, lambda u: {u}),
    nested_in_collection("testAlteringUserTypeNestedWithinSet", "setOfFrozen",
                         "set<frozen<{ks}.type1>>", None, None, lambda u: {u}),
    nested_in_collection("testAlteringUserTypeNestedWithinList", "frozenList",
                         "frozen<list<{ks}.type1>>", None, None, lambda u: [u]),
    nested_in_collection("testAlteringUserTypeNestedWithinList", "listOfFrozen",
                         "list<frozen<{ks}.type1>>", None, None, lambda u: [u]),
    c("testAlteringUserTypeNestedWithinNonFrozenMap", steps=[
        q("CREATE TYPE {type1} (a int)"),
        q("CREATE TABLE %s (x int PRIMARY KEY, y map<text, frozen<{ks}.type1>>)"),
        q("INSERT INTO %s (x, y) VALUES(1, {'firstValue': {a: 1}})"),
        q("SELECT * FROM %s", expect=rows([1, {"firstValue": udt(a=1)}])),
        alter("ALTER TYPE {ks}.type1 ADD b int"),
        cz("UPDATE %s SET y['secondValue'] = {a: 2, b: 2} WHERE x = 1", expect=rows(),
           cosmos=error("Invalid")),
        cz("SELECT * FROM %s", expect=rows([1, {"firstValue": udt(a=1), "secondValue": udt(a=2, b=2)}]),
           cosmos=rows([1, {"firstValue": udt(a=1)}])),
    ]),
    c("testAlteringUserTypeNestedWithinTuple", steps=[
        q("CREATE TYPE {type1} (a int, b int)"),
        q("CREATE TABLE %s (a int PRIMARY KEY, b frozen<tuple<int, {ks}.type1>>)"),
        q("INSERT INTO %s (a, b) VALUES(1, (1, ?))", udt(a=1, b=1)),
        q("SELECT * FROM %s", expect=rows([1, (1, udt(a=1, b=1))])),
        alter("ALTER TYPE {ks}.type1 ADD c int"),
        q("INSERT INTO %s (a, b) VALUES (2, (2, ?))", udt(a=2, b=2, c=2)),
        q("INSERT INTO %s (a, b) VALUES (3, (3, ?))", udt(a=3, b=3, c=None)),
        q("INSERT INTO %s (a, b) VALUES (4, (4, ?))", udt(a=None, b=4, c=None)),
        cz("SELECT * FROM %s", expect=rows_any_order(
            [1, (1, udt(a=1, b=1))], [2, (2, udt(a=2, b=2, c=2))], [3, (3, udt(a=3, b=3))],
            [4, (4, udt(b=4))]),
           cosmos=rows_any_order([1, (1, udt(a=1, b=1))], [2, (2, udt(a=2, b=2))],
                                 [3, (3, udt(a=3, b=3))], [4, (4, udt(b=4))])),
    ]),
    c("testAlteringUserTypeNestedWithinNestedTuple", steps=[
        q("CREATE TYPE {type1} (a int, b int)"),
        q("CREATE TABLE %s (a int PRIMARY KEY, b frozen<tuple<int, tuple<int, {ks}.type1>>>)"),
        q("INSERT INTO %s (a, b) VALUES(1, (1, (1, ?)))", udt(a=1, b=1)),
        q("SELECT * FROM %s", expect=rows([1, (1, (1, udt(a=1, b=1)))])),
        alter("ALTER TYPE {ks}.type1 ADD c int"),
        q("INSERT INTO %s (a, b) VALUES(2, (2, (1, ?)))", udt(a=2, b=2, c=2)),
        q("INSERT INTO %s (a, b) VALUES(3, (3, ?))", (1, udt(a=3, b=3, c=None))),
        q("INSERT INTO %s (a, b) VALUES(4, ?)", (4, (1, udt(a=None, b=4, c=None)))),
        cz("SELECT * FROM %s", expect=rows_any_order(
            [1, (1, (1, udt(a=1, b=1)))], [2, (2, (1, udt(a=2, b=2, c=2)))],
            [3, (3, (1, udt(a=3, b=3)))], [4, (4, (1, udt(b=4)))]),
           cosmos=rows_any_order([1, (1, (1, udt(a=1, b=1)))], [2, (2, (1, udt(a=2, b=2)))],
                                 [3, (3, (1, udt(a=3, b=3)))], [4, (4, (1, udt(b=4)))])),
    ]),
    c("testAlteringUserTypeNestedWithinUserType", steps=[
        q("CREATE TYPE {type1} (a int, b int)"),
        q("CREATE TYPE {type2} (x frozen<{ks}.type1>)"),
        q("CREATE TABLE %s (a int PRIMARY KEY, b frozen<{ks}.type2>)"),
        q("INSERT INTO %s (a, b) VALUES(1, {x: ?})", udt(a=1, b=1)),
        q("SELECT b.x.a, b.x.b FROM %s", expect=rows([1, 1])),
        q("INSERT INTO %s (a, b) VALUES(1, ?)", udt(x=udt(a=1, b=1))),
        q("SELECT b.x.a, b.x.b FROM %s", expect=rows([1, 1])),
        alter("ALTER TYPE {ks}.type1 ADD c int"),
        q("INSERT INTO %s (a, b) VALUES(2, {x: ?})", udt(a=2, b=2, c=2)),
        q("INSERT INTO %s (a, b) VALUES(3, {x: ?})", udt(a=3, b=3)),
        q("INSERT INTO %s (a, b) VALUES(4, {x: ?})", udt(a=None, b=4)),
        cz("SELECT b.x.a, b.x.b, b.x.c FROM %s", expect=rows_any_order(
            [1, 1, None], [2, 2, 2], [3, 3, None], [None, 4, None]), cosmos=error("Invalid")),
        q("SELECT b.x.a, b.x.b FROM %s", expect=rows_any_order([1, 1], [2, 2], [3, 3], [None, 4])),
    ]),
    c("testUserTypes", steps=[
        q("CREATE TYPE {type1} (street text, city text, zip_code int, phones set<text >)"),
        q("CREATE TYPE {type2} (firstname text, lastname text)"),
        q("CREATE TABLE %s (id uuid PRIMARY KEY, name frozen < type2 >, addresses map < text, frozen < type1 >> )"),
        q("INSERT INTO %s (id, name) VALUES(?, { firstname: 'Paul', lastname: 'smith' } )",
          uuid.UUID("550e8400-e29b-41d4-a716-446655440000")),
        q("SELECT name.firstname FROM %s WHERE id = ?", uuid.UUID("550e8400-e29b-41d4-a716-446655440000"),
          expect=rows(["Paul"])),
        q("UPDATE %s SET addresses = addresses + { 'home': { street: '...', city:'SF', zip_code:94102, "
          "phones:{ } } } WHERE id = ?", uuid.UUID("550e8400-e29b-41d4-a716-446655440000")),
        q("SELECT addresses FROM %s WHERE id = ? ", uuid.UUID("550e8400-e29b-41d4-a716-446655440000"),
          expect=rows([{"home": udt(street="...", city="SF", zip_code=94102, phones=set())}])),
    ]),
    c("testNestedUserTypes", variants=("prepared", "simple"), steps=[
        q("CREATE TYPE {type1} ( s set<text>, m map<text, text>, l list<text>)"),
        q("CREATE TYPE {type2} ( s set < frozen < type1 >>,)"),
        q("CREATE TABLE %s (id int PRIMARY KEY, val frozen<type2>)"),
        q("INSERT INTO %s (id, val) VALUES (0, ?)",
          udt(s={udt(s={"foo", "bar"}, m={"foo": "bar"}, l=["foo", "bar"])})),
        q("SELECT * FROM %s", expect=rows(
            [0, udt(s={udt(s={"foo", "bar"}, m={"foo": "bar"}, l=["foo", "bar"])})])),
    ]),
    c("testAddFieldToUdt", steps=[
        q("CREATE TYPE {type1} (fooint int, fooset set <text>)"),
        q("CREATE TABLE %s (key int PRIMARY KEY, data frozen <type1>)"),
        q("INSERT INTO %s (key, data) VALUES (1, ?)", udt(fooint=1, fooset={"2"})),
        alter("ALTER TYPE {ks}.type1 ADD foomap map <int,text>"),
        q("INSERT INTO %s (key, data) VALUES (1, ?)", udt(fooint=1, fooset={"2"}, foomap={3: "bar"})),
        cz("SELECT * FROM %s", expect=rows([1, udt(fooint=1, fooset={"2"}, foomap={3: "bar"})]),
           cosmos=rows([1, udt(fooint=1, fooset={"2"})])),
    ]),
    c("testCircularReferences", steps=[
        q("CREATE TYPE {type1} (foo int)"),
        q("CREATE TYPE {typex1} (bar frozen<{ks}.type1>)"),
        q("ALTER TYPE {ks}.type1 ADD needs_to_fail frozen<{ks}.typex1>",
          expect=error("Invalid", "would create a circular reference"), cosmos=error("Invalid"), cosmos_source=NO_ALTER),
        q("CREATE TYPE {typex2} (bar frozen<list<{ks}.type1>>)"),
        q("ALTER TYPE {ks}.type1 ADD needs_to_fail frozen<{ks}.typex2>",
          expect=error("Invalid", "would create a circular reference"), cosmos=error("Invalid"), cosmos_source=NO_ALTER),
        q("CREATE TYPE {typex3} (bar frozen<set<{ks}.type1>>)"),
        q("ALTER TYPE {ks}.type1 ADD needs_to_fail frozen<{ks}.typex3>",
          expect=error("Invalid", "would create a circular reference"), cosmos=error("Invalid"), cosmos_source=NO_ALTER),
        q("CREATE TYPE {typex4} (bar frozen<map<text, {ks}.type1>>)"),
        q("ALTER TYPE {ks}.type1 ADD needs_to_fail frozen<{ks}.typex4>",
          expect=error("Invalid", "would create a circular reference"), cosmos=error("Invalid"), cosmos_source=NO_ALTER),
        q("CREATE TYPE {typex5} (bar frozen<map<{ks}.type1, text>>)"),
        q("ALTER TYPE {ks}.type1 ADD needs_to_fail frozen<{ks}.typex5>",
          expect=error("Invalid", "would create a circular reference"), cosmos=error("Invalid"), cosmos_source=NO_ALTER),
        q("CREATE TYPE {type2} (foo frozen<{ks}.type1>)"),
        q("CREATE TYPE {typex6} (bar frozen<{ks}.type2>)"),
        q("ALTER TYPE {ks}.type1 ADD needs_to_fail frozen<{ks}.typex6>",
          expect=error("Invalid", "would create a circular reference"), cosmos=error("Invalid"), cosmos_source=NO_ALTER),
        q("ALTER TYPE {ks}.type1 ADD needs_to_fail frozen<list<{ks}.type1>>",
          expect=error("Invalid", "would create a circular reference"), cosmos=error("Invalid"), cosmos_source=NO_ALTER),
    ]),
    c("testInsertNonFrozenUDT", variants=("prepared", "simple"), steps=[
        q("CREATE TYPE {type1} (a int, b text)"),
        q("CREATE TABLE %s (k int PRIMARY KEY, v type1)"),
        q("INSERT INTO %s (k, v) VALUES (?, {a: ?, b: ?})", 0, 0, "abc"),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, udt(a=0, b="abc")])),
        q("INSERT INTO %s (k, v) VALUES (?, ?)", 0, udt(a=0, b="abc")),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, udt(a=0, b="abc")])),
        q("INSERT INTO %s (k, v) VALUES (?, {a: ?, b: ?})", 0, 0, None),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, udt(a=0, b=None)])),
        q("INSERT INTO %s (k, v) VALUES (?, ?)", 0, udt(a=None, b="abc")),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, udt(a=None, b="abc")])),
    ]),
    c("testUpdateNonFrozenUDT", variants=("prepared", "simple"), steps=[
        q("CREATE TYPE {type1} (a int, b text)"),
        q("CREATE TABLE %s (k int PRIMARY KEY, v type1)"),
        q("INSERT INTO %s (k, v) VALUES (?, ?)", 0, udt(a=0, b="abc")),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, udt(a=0, b="abc")])),
        q("UPDATE %s SET v = ? WHERE k = ?", udt(a=1, b="def"), 0),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, udt(a=1, b="def")])),
        q("UPDATE %s SET v = ? WHERE k = ?", udt(a=0, b=None), 0),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, udt(a=0, b=None)])),
        q("UPDATE %s SET v = ? WHERE k = ?", udt(a=None, b="abc"), 0),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, udt(a=None, b="abc")])),
        q("UPDATE %s SET v.a = ? WHERE k = ?", 1, 0),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, udt(a=1, b="abc")])),
        q("UPDATE %s SET v.b = ? WHERE k = ?", "def", 0),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, udt(a=1, b="def")])),
        q("UPDATE %s SET v.a = ?, v.b = ? WHERE k = ?", 0, "abc", 0),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, udt(a=0, b="abc")])),
        q("UPDATE %s SET v.b = ?, v.a = ? WHERE k = ?", "abc", 0, 0),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, udt(a=0, b="abc")])),
        q("UPDATE %s SET v.a = ? WHERE k = ?", None, 0),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, udt(a=None, b="abc")])),
        q("UPDATE %s SET v.a = ? WHERE k = ?", 0, 0),
        q("UPDATE %s SET v.b = ? WHERE k = ?", None, 0),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, udt(a=0, b=None)])),
        q("UPDATE %s SET v.a = ? WHERE k = ?", None, 0),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, None])),
        q("UPDATE %s SET v.bad = ? FROM %s WHERE k = ?", 0, 0, expect=error("Syntax"), prepared=False),
        q("UPDATE %s SET v = {a: 1, b: 'abc', bad: 123} WHERE k = 0", expect=error("Invalid")),
    ]),
    c("testDeleteNonFrozenUDT", steps=[
        q("CREATE TYPE {type1} (a int, b text)"),
        q("CREATE TABLE %s (k int PRIMARY KEY, v type1)"),
        q("INSERT INTO %s (k, v) VALUES (?, ?)", 0, udt(a=0, b="abc")),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, udt(a=0, b="abc")])),
        q("DELETE v.b FROM %s WHERE k = ?", 0),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, udt(a=0, b=None)])),
        q("INSERT INTO %s (k, v) VALUES (?, ?)", 0, udt(a=0, b="abc")),
        q("DELETE v.a FROM %s WHERE k = ?", 0),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, udt(a=None, b="abc")])),
        q("DELETE v.b FROM %s WHERE k = ?", 0),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, None])),
        q("INSERT INTO %s (k, v) VALUES (?, ?)", 0, udt(a=0, b="abc")),
        q("DELETE v.a, v.b FROM %s WHERE k = ?", 0),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, None])),
        q("INSERT INTO %s (k, v) VALUES (?, ?)", 0, udt(a=0, b="abc")),
        q("DELETE v.b, v.a FROM %s WHERE k = ?", 0),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, None])),
        q("INSERT INTO %s (k, v) VALUES (?, ?)", 0, udt(a=0, b="abc")),
        q("DELETE v FROM %s WHERE k = ?", 0),
        q("SELECT * FROM %s WHERE k = ?", 0, expect=rows([0, None])),
        q("DELETE v.bad FROM %s WHERE k = ?", 0, expect=error("Invalid")),
    ]),
    c("testReadAfterAlteringUserTypeNestedWithinSet", steps=[
        q("CREATE TYPE {type1} (a int)"),
        q("CREATE TABLE %s (x int PRIMARY KEY, y set<frozen<{ks}.type1>>)"),
        q("INSERT INTO %s (x, y) VALUES(1, ?)", {udt(a=1), udt(a=2)}),
        q("SELECT * FROM %s WHERE x = 1", expect=rows([1, {udt(a=1), udt(a=2)}])),
        alter("ALTER TYPE {ks}.type1 ADD b int"),
        cz("UPDATE %s SET y = y + {{a: 1, b: 1}, {a: 1, b: 2}, {a: 2, b: 1}} WHERE x = 1", expect=rows(),
           cosmos=error("Invalid")),
        cz("SELECT * FROM %s WHERE x = 1", expect=rows([1, {
            udt(a=1), udt(a=1, b=1), udt(a=1, b=2), udt(a=2), udt(a=2, b=1)}]),
           cosmos=rows([1, {udt(a=1), udt(a=2)}])),
    ]),
    c("testReadAfterAlteringUserTypeNestedWithinList", steps=[
        q("CREATE TYPE {type1} (a int)"),
        q("CREATE TABLE %s (x int PRIMARY KEY, y list<frozen<{ks}.type1>>)"),
        q("INSERT INTO %s (x, y) VALUES(1, ?)", [udt(a=1), udt(a=2)]),
        q("SELECT * FROM %s WHERE x = 1", expect=rows([1, [udt(a=1), udt(a=2)]])),
        alter("ALTER TYPE {ks}.type1 ADD b int"),
        cz("UPDATE %s SET y = y + [{a: 1, b: 1}, {a: 1, b: 2}, {a: 2, b: 1}] WHERE x = 1", expect=rows(),
           cosmos=error("Invalid")),
        cz("SELECT * FROM %s WHERE x = 1", expect=rows([1, [
            udt(a=1), udt(a=2), udt(a=1, b=1), udt(a=1, b=2), udt(a=2, b=1)]]),
           cosmos=rows([1, [udt(a=1), udt(a=2)]])),
    ]),
    c("emptyTypeNameTest", steps=[
        q('CREATE TYPE "" (a int, b int)', expect=error("Syntax")),
    ]),
    c("emptyFieldNameTest", steps=[
        q('CREATE TYPE mytype ("" int, b int)', expect=error("Syntax")),
    ]),
    c("renameColumnToEmpty", steps=[
        q("CREATE TYPE {type1} (a int, b int)"),
        q('ALTER TYPE {ks}.type1 RENAME b TO ""', expect=error("Syntax")),
    ]),
]
