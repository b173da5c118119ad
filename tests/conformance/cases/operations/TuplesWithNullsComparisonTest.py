"""Cases ported from Apache Cassandra's TuplesWithNullsComparisonTest (cql3/validation/operations,
4.0 line): frozen UDT clustering values compared after ALTER TYPE ... ADD.

The original builds the UDT values with system.fromjson(); the cases use the equivalent UDT
literals ({foo: 'foo'}), flush()/compact() are left out. Under the cosmos profile ALTER TYPE is
not supported (cosmos-cassandra-api-facts.md §5), so the added field does not exist there.
"""
from conformance import case, q, rows, rows_any_order, ok, error

SRC = "cql3/validation/operations/TuplesWithNullsComparisonTest.java#%s (4.0)"
ALTER = "cosmos-cassandra-api-facts.md §5: ALTER TYPE is not supported"
NO_FIELD = "cosmos-cassandra-api-facts.md §5: ALTER TYPE is not supported, so the field was never added"
CASES = []


def add(name, steps):
    CASES.append(case("TuplesWithNullsComparisonTest." + name, origin=SRC % name, steps=steps))


def alter(text):
    return q(text, cosmos=error("Invalid"), cosmos_source=ALTER)


T = [q("create type {ks}.{type1} (foo text);"), q("create table %s (pk int, ck frozen<{type1}>, v int, primary key(pk, ck));")]
add("testAddUDTField", T + [
    q("insert into %s (pk, ck, v) values (0, {foo: 'foo'}, 0);"),
    alter("ALTER TYPE {ks}.{type1} ADD bar text;"),
    q("insert into %s (pk, ck, v) values (0, {foo: 'foo'}, 1);"),
    q("insert into %s (pk, ck, v) values (0, {foo: 'foo', bar: null}, 2);", cosmos=error("Invalid"), cosmos_source=NO_FIELD),
    q("select v from %s where pk = 0 and ck={foo: 'foo'}", expect=rows([2]), cosmos=rows([1]), cosmos_source=NO_FIELD),
    q("select v from %s where pk = 0", expect=rows([2]), cosmos=rows([1]), cosmos_source=NO_FIELD),
])
add("testFieldWithData", T + [
    q("insert into %s (pk, ck, v) values (0, {foo: 'foo'}, 1);"),
    alter("ALTER TYPE {ks}.{type1} ADD bar text;"),
    q("insert into %s (pk, ck, v) values (0, {foo: 'foo', bar: 'bar'}, 2);", cosmos=error("Invalid"), cosmos_source=NO_FIELD),
    q("select v from %s where pk = 0", expect=rows([1], [2]), cosmos=rows([1]), cosmos_source=NO_FIELD),
])
add("testAddUDTFields", T + [
    q("insert into %s (pk, ck, v) values (0, {foo: 'foo'}, 0);"),
    alter("ALTER TYPE {ks}.{type1} ADD bar text;"),
    alter("ALTER TYPE {ks}.{type1} ADD bar2 text;"),
    alter("ALTER TYPE {ks}.{type1} ADD bar3 text;"),
    q("insert into %s (pk, ck, v) values (0, {foo: 'foo'}, 1);"),
    q("insert into %s (pk, ck, v) values (0, {foo: 'foo', bar: null, bar2: null, bar3: null}, 2);", cosmos=error("Invalid"),
      cosmos_source=NO_FIELD),
    q("select v from %s where pk = 0 and ck={foo: 'foo'}", expect=rows([2]), cosmos=rows([1]), cosmos_source=NO_FIELD),
    q("select v from %s where pk = 0", expect=rows([2]), cosmos=rows([1]), cosmos_source=NO_FIELD),
])
