"""cql3/validation/entities/SecondaryIndexOnMapEntriesTest (Apache Cassandra 3.11 and 4.0).

The Java class runs under the ByteOrderedPartitioner; the rows an index query
returns from several partitions compare in any order here.
testShouldValidateMapKeyAndValueTypes sends its wrongly typed values as
literals (the python driver will not bind an int to a text marker).
"""

from conformance import case, q, rows, rows_any_order, error

O = "cql3/validation/entities/SecondaryIndexOnMapEntriesTest.java#%s"
TABLE = q("CREATE TABLE %s (k TEXT PRIMARY KEY, v MAP<TEXT, INT>)")
INDEX = q("CREATE INDEX ON %s(ENTRIES(v))")


def c(method, steps, **kw):
    return case("SecondaryIndexOnMapEntriesTest.%s" % method, origin=O % method, steps=steps, **kw)


def ins(k, m):
    return q("INSERT INTO %s (k, v) VALUES (?, ?)", k, m)


def where(preds, params, *r):
    """assertRowsForConditions: preds joined with AND (+ ALLOW FILTERING when several)."""
    text = " AND ".join(preds) + (" ALLOW FILTERING" if len(preds) > 1 else "")
    return q("SELECT * FROM %s WHERE " + text, *params, expect=rows_any_order(*r))


def e(k, v):
    return (["v[?] = ?"], [k, v])


def add(clause, pred, *vals):
    return (clause[0] + [pred], clause[1] + list(vals))


def key(clause, k):
    return add(clause, "v CONTAINS KEY ?", k)


def val(clause, v):
    return add(clause, "v CONTAINS ?", v)


def ent(clause, k, v):
    return add(clause, "v[?] = ?", k, v)


def check(clause, *r):
    return where(clause[0], clause[1], *r)


FOO = {"common": 31415, "k1": 1, "k2": 2, "k3": 3}
BAR = {"common": 31415, "k3": 3, "k4": 4, "k5": 5}
BAZ = {"common": 31415, "k5": 5, "k6": 6, "k7": 7}

CASES = [
    c("testShouldNotCreateIndexOnFrozenMaps", steps=[
        q("CREATE TABLE %s (k TEXT PRIMARY KEY, v FROZEN<MAP<TEXT, TEXT>>)"),
        q("CREATE INDEX ON %s(ENTRIES(v))", expect=error("Invalid")),
    ]),
    c("testShouldNotCreateIndexOnNonMapTypes", steps=[
        q("CREATE TABLE %s (k TEXT PRIMARY KEY, i INT, t TEXT, b BLOB, s SET<TEXT>, l LIST<TEXT>, tu TUPLE<TEXT>)"),
    ] + [q("CREATE INDEX ON %s(ENTRIES(" + col + "))", expect=error("Invalid"))
         for col in ("i", "t", "b", "s", "l", "tu")]),
    c("testShouldValidateMapKeyAndValueTypes", steps=[
        TABLE, INDEX,
        q("SELECT * FROM %s WHERE v[?] = ?", 31415, "invalid value", prepared=False, expect=error("Invalid")),
        q("SELECT * FROM %s WHERE v[?] = ?", 31415, 31415, prepared=False, expect=error("Invalid")),
        q("SELECT * FROM %s WHERE v[?] = ?", "valid key", "invalid value", prepared=False,
          expect=error("Invalid")),
        q("SELECT * FROM %s WHERE v[?] = ?", "valid key", 31415, expect=rows()),
    ]),
    c("testShouldFindRowsMatchingSingleEqualityRestriction", variants=("prepared", "simple"), steps=[
        TABLE, INDEX,
        ins("foo", {"a": 1, "c": 3}), ins("bar", {"a": 1, "b": 2}),
        ins("baz", {"b": 2, "c": 5, "d": 4}), ins("qux", {"b": 2, "d": 4}),
        check(e("a", 1), ["bar", {"a": 1, "b": 2}], ["foo", {"a": 1, "c": 3}]),
        check(e("b", 2), ["bar", {"a": 1, "b": 2}], ["baz", {"b": 2, "c": 5, "d": 4}],
              ["qux", {"b": 2, "d": 4}]),
        check(e("c", 3), ["foo", {"a": 1, "c": 3}]),
        check(e("c", 5), ["baz", {"b": 2, "c": 5, "d": 4}]),
        check(e("d", 4), ["baz", {"b": 2, "c": 5, "d": 4}], ["qux", {"b": 2, "d": 4}]),
    ]),
    c("testRequireFilteringDirectiveIfMultipleRestrictionsSpecified", steps=[
        TABLE, INDEX,
        q("SELECT * FROM %s WHERE v['foo'] = 31415 AND v['baz'] = 31416", expect=error("Invalid")),
        q("SELECT * FROM %s WHERE v['foo'] = 31415 AND v['baz'] = 31416 ALLOW FILTERING", expect=rows()),
    ]),
    c("testShouldFindRowsMatchingMultipleEqualityRestrictions", steps=[
        TABLE, INDEX,
        ins("foo", {"k1": 1}), ins("bar", {"k1": 1, "k2": 2}), ins("baz", {"k2": 2, "k3": 3}),
        ins("qux", {"k2": 2, "k3": 3, "k4": 4}),
        check(e("k1", 1), ["bar", {"k1": 1, "k2": 2}], ["foo", {"k1": 1}]),
        check(ent(e("k1", 1), "k2", 2), ["bar", {"k1": 1, "k2": 2}]),
        check(ent(ent(e("k1", 1), "k2", 2), "k3", 3)),
        check(ent(e("k2", 2), "k3", 3), ["baz", {"k2": 2, "k3": 3}], ["qux", {"k2": 2, "k3": 3, "k4": 4}]),
        check(ent(ent(e("k2", 2), "k3", 3), "k4", 4), ["qux", {"k2": 2, "k3": 3, "k4": 4}]),
        check(ent(e("k3", 3), "k4", 4), ["qux", {"k2": 2, "k3": 3, "k4": 4}]),
        check(ent(ent(e("k3", 3), "k4", 4), "k5", 5)),
    ]),
    c("testShouldFindRowsMatchingEqualityAndContainsRestrictions", steps=[
        TABLE, INDEX, ins("foo", FOO), ins("bar", BAR), ins("baz", BAZ),
        check(e("common", 31415), ["bar", BAR], ["baz", BAZ], ["foo", FOO]),
        check(key(e("common", 31415), "k1"), ["foo", FOO]),
        check(key(e("common", 31415), "k2"), ["foo", FOO]),
        check(key(e("common", 31415), "k3"), ["bar", BAR], ["foo", FOO]),
        check(val(key(e("common", 31415), "k3"), 2), ["foo", FOO]),
        check(val(key(e("common", 31415), "k3"), 3), ["bar", BAR], ["foo", FOO]),
        check(val(key(e("common", 31415), "k3"), 4), ["bar", BAR]),
        check(key(key(e("common", 31415), "k3"), "k5"), ["bar", BAR]),
        check(key(e("common", 31415), "k5"), ["bar", BAR], ["baz", BAZ]),
        check(val(key(e("common", 31415), "k5"), 4), ["bar", BAR]),
        check(val(key(e("common", 31415), "k5"), 5), ["bar", BAR], ["baz", BAZ]),
        check(val(key(e("common", 31415), "k5"), 6), ["baz", BAZ]),
        check(val(key(e("common", 31415), "k5"), 8)),
    ]),
    c("testShouldNotAcceptUnsupportedRelationsOnEntries", steps=[TABLE, INDEX] + [
        q("SELECT * FROM %s WHERE v " + rel, expect=error("Invalid"))
        for rel in ("< 31415", "<= 31415", "> 31415", ">= 31415", "IN (31415, 31416, 31417)",
                    "CONTAINS 31415", "CONTAINS KEY 'foo'")]),
    c("testShouldRecognizeAlteredOrDeletedMapEntries", steps=[
        TABLE, INDEX,
        ins("foo", {"common": 31415, "target": 8192}), ins("bar", {"common": 31415, "target": 8192}),
        ins("baz", {"common": 31415, "target": 8192}),
        check(e("target", 8192), ["bar", {"common": 31415, "target": 8192}],
              ["baz", {"common": 31415, "target": 8192}], ["foo", {"common": 31415, "target": 8192}]),
        q("UPDATE %s SET v[?] = ? WHERE k = ?", "target", 4096, "baz"),
        check(e("target", 8192), ["bar", {"common": 31415, "target": 8192}],
              ["foo", {"common": 31415, "target": 8192}]),
        q("UPDATE %s SET v[?] = ? WHERE k = ?", "target", None, "bar"),
        check(e("target", 8192), ["foo", {"common": 31415, "target": 8192}]),
        q("DELETE FROM %s WHERE k = 'foo'"),
        check(e("target", 8192)),
        check(e("common", 31415), ["bar", {"common": 31415}], ["baz", {"common": 31415, "target": 4096}]),
        check(e("target", 4096), ["baz", {"common": 31415, "target": 4096}]),
    ]),
    c("testShouldRejectQueriesForNullEntries", steps=[
        TABLE, INDEX,
        q("SELECT * FROM %s WHERE v['somekey'] = null", expect=error("Invalid")),
    ]),
    c("testShouldTreatQueriesAgainstFrozenMapIndexesAsInvalid", steps=[
        q("CREATE TABLE %s (k TEXT PRIMARY KEY, v FROZEN<MAP<TEXT, TEXT>>)"),
        q("CREATE INDEX ON %s(FULL(V))", cosmos=error("Invalid"),
          cosmos_source="cosmos-cassandra-api-facts.md s5: no secondary indexes on frozen collections"),
        q("SELECT * FROM %s WHERE v['somekey'] = 'somevalue'",
          expect=error("Invalid", "Map-entry equality predicates on frozen map column v are not supported")),
    ]),
]
