"""Cases ported from Apache Cassandra's SelectTest (cql3/validation/operations, 4.0 line).

The stored original uses the 5.0 snake_case function names (to_timestamp, int_as_blob); the
cases use the 3.11/4.0 names (toTimestamp, intAsBlob). beforeAndAfterFlush() blocks run once.
Left out: steps on COMPACT STORAGE tables, result-metadata (column name) assertions of
testSelectWithAlias (only the values are checked), SASI and custom-index parts.
Multi-partition results are in Murmur3 token order, as the original asserts them.
"""
from cassandra.query import UNSET_VALUE
import uuid

from conformance import case, q, rows, rows_any_order, ok, error, approx

SRC = "cql3/validation/operations/SelectTest.java#%s (4.0)"
AF = "Cannot execute this query as it might involve data filtering"
DISTINCT_SRC = "cosmos-cassandra-api-facts.md §5: DISTINCT is not supported"
IDX_SRC = "cosmos-cassandra-api-facts.md §5 (secondary-indexing.md): no index on clustering keys"
AGG_CK_SRC = "cosmos-cassandra-api-facts.md §5: aggregates on clustering columns are not supported"

CASES = []


def add(name, steps, method=None, **kw):
    CASES.append(case("SelectTest." + name, origin=SRC % (method or name.split(".")[0]), steps=steps, **kw))


def inv(text, *values, msg=None):
    return q(text, *values, expect=error("Invalid", msg))


def needs_af(text, *values):
    return q(text, *values, expect=error("Invalid", AF))


def dq(text, *values, expect):
    """A SELECT DISTINCT: refused by the service whatever Cassandra answers."""
    return q(text, *values, expect=expect, cosmos=error("Invalid"), cosmos_source=DISTINCT_SRC)


P1K1 = ["p1", "k1", "sv1", "v1"]
P1K2 = ["p1", "k2", "sv1", "v2"]
P2 = ["p2", None, "sv2", None]


def single_clustering(reversed_):
    natural = [P1K2, P1K1] if reversed_ else [P1K1, P1K2]
    eq = "=" if reversed_ else " ="
    steps = [
        q("CREATE TABLE %s (p text, c text, v text, s text static, PRIMARY KEY (p, c))" +
          (" WITH CLUSTERING ORDER BY (c DESC)" if reversed_ else "")),
        q("INSERT INTO %s(p, c, v, s) values (?, ?, ?, ?)", "p1", "k1", "v1", "sv1"),
        q("INSERT INTO %s(p, c, v) values (?, ?, ?)", "p1", "k2", "v2"),
        q("INSERT INTO %s(p, s) values (?, ?)", "p2", "sv2"),
        q("SELECT * FROM %s WHERE p=?", "p1", expect=rows(*natural)),
        q("SELECT * FROM %s WHERE p=?", "p2", expect=rows(P2)),
    ]
    for order, both in (("", natural), (" ORDER BY c ASC", [P1K1, P1K2]), (" ORDER BY c DESC", [P1K2, P1K1])):
        if order:
            steps += [q("SELECT * FROM %s WHERE p=?" + order, "p1", expect=rows(*both)),
                      q("SELECT * FROM %s WHERE p=?" + order, "p2", expect=rows(P2))]
        steps += [
            q("SELECT * FROM %s WHERE p=? AND c>=?" + order, "p1", "k1", expect=rows(*both)),
            q("SELECT * FROM %s WHERE p=? AND c>=?" + order, "p1", "k2", expect=rows(P1K2)),
            q("SELECT * FROM %s WHERE p=? AND c>=?" + order, "p1", "k3", expect=rows()),
            q("SELECT * FROM %s WHERE p=? AND c" + eq + "?" + order, "p1", "k1", expect=rows(P1K1)),
            q("SELECT * FROM %s WHERE p=? AND c<=?" + order, "p1", "k1", expect=rows(P1K1)),
            q("SELECT * FROM %s WHERE p=? AND c<=?" + order, "p1", "k0", expect=rows()),
            q("SELECT * FROM %s WHERE p=? AND c IN (?, ?)" + order, "p1", "k1", "k2", expect=rows(*both)),
        ]
    return steps


add("testSingleClustering", single_clustering(False))
add("testSingleClusteringReversed", single_clustering(True))

ID1 = uuid.UUID("550e8400-e29b-41d4-a716-446655440000")
ID2 = uuid.UUID("f47ac10b-58cc-4372-a567-0e02b2c3d479")
add("testSelectKeyIn", [
    q("CREATE TABLE %s (userid uuid PRIMARY KEY, firstname text, lastname text, age int)"),
    q("INSERT INTO %s (userid, firstname, lastname, age) VALUES (?, 'Frodo', 'Baggins', 32)", ID1),
    q("INSERT INTO %s (userid, firstname, lastname, age) VALUES (?, 'Samwise', 'Gamgee', 33)", ID2),
    q("SELECT firstname, lastname FROM %s WHERE userid IN (?, ?)", ID1, ID2,
      expect=rows_any_order(["Frodo", "Baggins"], ["Samwise", "Gamgee"])),
])


def contains_with_index(name, coltype, value, op, probe, index="categories"):
    row = ["test", 5, value]
    return [
        q("CREATE TABLE %%s (account text, id int, categories %s, PRIMARY KEY (account, id))" % coltype),
        q("CREATE INDEX ON %%s(%s)" % index),
        q("INSERT INTO %s (account, id , categories) VALUES (?, ?, ?)", "test", 5, value),
        q("SELECT * FROM %%s WHERE account = ? AND categories %s ?" % op, "xyz", probe, expect=rows()),
        q("SELECT * FROM %%s WHERE categories %s ?" % op, probe, expect=rows(row)),
        q("SELECT * FROM %%s WHERE account = ? AND categories %s ?" % op, "test", probe, expect=rows(row)),
        q("SELECT * FROM %%s WHERE account = ? AND id = ? AND categories %s ?" % op, "test", 5, probe, expect=rows(row)),
        inv("SELECT * FROM %%s WHERE account = ? AND id = ? AND categories %s ?" % op, "test", 5, None,
            msg="Unsupported null value for column categories"),
        inv("SELECT * FROM %%s WHERE account = ? AND id = ? AND categories %s ?" % op, "test", 5, UNSET_VALUE,
            msg="Unsupported unset value for column categories"),
        needs_af("SELECT * FROM %%s WHERE account = ? AND id = ? AND categories %s ? AND categories %s ?" % (op, op),
                 "test", 5, probe, "notPresent"),
        q("SELECT * FROM %%s WHERE account = ? AND id = ? AND categories %s ? AND categories %s ? ALLOW FILTERING" % (op, op),
          "test", 5, probe, "notPresent", expect=rows()),
    ]


add("testSetContainsWithIndex", contains_with_index("set", "set<text>", {"lmn"}, "CONTAINS", "lmn"))
add("testListContainsWithIndex", contains_with_index("list", "list<text>", ["lmn"], "CONTAINS", "lmn"))
add("testMapKeyContainsWithIndex",
    contains_with_index("mapk", "map<text,text>", {"lmn": "foo"}, "CONTAINS KEY", "lmn", index="keys(categories)") + [
        needs_af("SELECT * FROM %s WHERE account = ? AND id = ? AND categories CONTAINS KEY ? AND categories CONTAINS ?",
                 "test", 5, "lmn", "foo")])
add("testMapValueContainsWithIndex", contains_with_index("mapv", "map<text,text>", {"lmn": "foo"}, "CONTAINS", "foo"))

add("testListContainsWithIndexAndFiltering", [
    q("CREATE TABLE %s (e int PRIMARY KEY, f list<text>, s int)"),
    q("CREATE INDEX ON %s(f)"),
    *[q("INSERT INTO %s (e, f, s) VALUES (?, ?, ?)", i, ["Dubai"], 4 if i < 3 else 3) for i in range(5)],
    q("SELECT * FROM %s WHERE f CONTAINS ? AND s=? allow filtering", "Dubai", 3,
      expect=rows([4, ["Dubai"], 3], [3, ["Dubai"], 3])),
])

add("testQueryMultipleIndexTypes", [
    q("CREATE TABLE %s (account text, id int, categories map<text,text>, PRIMARY KEY (account, id))"),
    q("CREATE INDEX ON %s(id)", cosmos=error("Invalid"), cosmos_source=IDX_SRC),
    q("CREATE INDEX ON %s(categories)"),
    q("INSERT INTO %s (account, id , categories) VALUES (?, ?, ?)", "test", 5, {"lmn": "foo"}),
    q("SELECT * FROM %s WHERE categories CONTAINS ? AND id = ? ALLOW FILTERING", "foo", 5,
      expect=rows(["test", 5, {"lmn": "foo"}])),
    q("SELECT * FROM %s WHERE account = ? AND categories CONTAINS ? AND id = ? ALLOW FILTERING", "test", "foo", 5,
      expect=rows(["test", 5, {"lmn": "foo"}])),
])

add("testFilterWithIndexForContains", [
    q("CREATE TABLE %s (k1 int, k2 int, v set<int>, PRIMARY KEY ((k1, k2)))"),
    q("CREATE INDEX ON %s(k2)"),
    q("INSERT INTO %s (k1, k2, v) VALUES (?, ?, ?)", 0, 0, {1, 2, 3}),
    q("INSERT INTO %s (k1, k2, v) VALUES (?, ?, ?)", 0, 1, {2, 3, 4}),
    q("INSERT INTO %s (k1, k2, v) VALUES (?, ?, ?)", 1, 0, {3, 4, 5}),
    q("INSERT INTO %s (k1, k2, v) VALUES (?, ?, ?)", 1, 1, {4, 5, 6}),
    q("SELECT * FROM %s WHERE k2 = ?", 1, expect=rows([0, 1, {2, 3, 4}], [1, 1, {4, 5, 6}])),
    q("SELECT * FROM %s WHERE k2 = ? AND v CONTAINS ? ALLOW FILTERING", 1, 6, expect=rows([1, 1, {4, 5, 6}])),
    q("SELECT * FROM %s WHERE k2 = ? AND v CONTAINS ? ALLOW FILTERING", 1, 7, expect=rows()),
])

add("testIndexLookupWithClusteringPrefix", [
    q("CREATE TABLE %s (a int, b int, c int, d set<int>, PRIMARY KEY (a, b, c))"),
    q("CREATE INDEX ON %s(d)"),
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", 0, 0, 0, {1, 2, 3}),
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", 0, 0, 1, {3, 4, 5}),
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", 0, 1, 0, {1, 2, 3}),
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", 0, 1, 1, {3, 4, 5}),
    q("SELECT * FROM %s WHERE a=? AND b=? AND d CONTAINS ?", 0, 1, 3, expect=rows([0, 1, 0, {1, 2, 3}], [0, 1, 1, {3, 4, 5}])),
    q("SELECT * FROM %s WHERE a=? AND b=? AND d CONTAINS ?", 0, 1, 2, expect=rows([0, 1, 0, {1, 2, 3}])),
    q("SELECT * FROM %s WHERE a=? AND b=? AND d CONTAINS ?", 0, 1, 5, expect=rows([0, 1, 1, {3, 4, 5}])),
])

add("testContainsKeyAndContainsWithIndexOnMapKey", [
    q("CREATE TABLE %s (account text, id int, categories map<text,text>, PRIMARY KEY (account, id))"),
    q("CREATE INDEX ON %s(keys(categories))"),
    q("INSERT INTO %s (account, id , categories) VALUES (?, ?, ?)", "test", 5, {"lmn": "foo"}),
    q("INSERT INTO %s (account, id , categories) VALUES (?, ?, ?)", "test", 6, {"lmn": "foo2"}),
    needs_af("SELECT * FROM %s WHERE account = ? AND categories CONTAINS ?", "test", "foo"),
    q("SELECT * FROM %s WHERE account = ? AND categories CONTAINS KEY ?", "test", "lmn",
      expect=rows(["test", 5, {"lmn": "foo"}], ["test", 6, {"lmn": "foo2"}])),
    q("SELECT * FROM %s WHERE account = ? AND categories CONTAINS KEY ? AND categories CONTAINS ? ALLOW FILTERING",
      "test", "lmn", "foo", expect=rows(["test", 5, {"lmn": "foo"}])),
    q("SELECT * FROM %s WHERE account = ? AND categories CONTAINS ? AND categories CONTAINS KEY ? ALLOW FILTERING",
      "test", "foo", "lmn", expect=rows(["test", 5, {"lmn": "foo"}])),
])

add("testContainsKeyAndContainsWithIndexOnMapValue", [
    q("CREATE TABLE %s (account text, id int, categories map<text,text>, PRIMARY KEY (account, id))"),
    q("CREATE INDEX ON %s(categories)"),
    q("INSERT INTO %s (account, id , categories) VALUES (?, ?, ?)", "test", 5, {"lmn": "foo"}),
    q("INSERT INTO %s (account, id , categories) VALUES (?, ?, ?)", "test", 6, {"lmn2": "foo"}),
    needs_af("SELECT * FROM %s WHERE account = ? AND categories CONTAINS KEY ?", "test", "lmn"),
    q("SELECT * FROM %s WHERE account = ? AND categories CONTAINS ?", "test", "foo",
      expect=rows(["test", 5, {"lmn": "foo"}], ["test", 6, {"lmn2": "foo"}])),
    q("SELECT * FROM %s WHERE account = ? AND categories CONTAINS KEY ? AND categories CONTAINS ? ALLOW FILTERING",
      "test", "lmn", "foo", expect=rows(["test", 5, {"lmn": "foo"}])),
    q("SELECT * FROM %s WHERE account = ? AND categories CONTAINS ? AND categories CONTAINS KEY ? ALLOW FILTERING",
      "test", "foo", "lmn", expect=rows(["test", 5, {"lmn": "foo"}])),
])

import struct as _struct
from cassandra.metadata import Murmur3Token as _M3


def by_token(keys):
    return sorted(keys, key=lambda k: _M3.hash_fn(_struct.pack(">i", k)))


T100 = by_token(range(100))
add("testTokenRange", [
    q(" CREATE TABLE %s (k int PRIMARY KEY, c int, v int)"),
    *[q("INSERT INTO %s (k, c, v) VALUES (?, ?, ?)", i, i, i) for i in range(100)],
    q("SELECT k FROM %s", expect=rows(*[[k] for k in T100])),
    q("SELECT k FROM %s WHERE token(k) >= -9223372036854775808", expect=rows(*[[k] for k in T100])),
    q("SELECT k FROM %%s WHERE token(k) >= token(%d) AND token(k) < token(%d)" % (T100[32], T100[65]),
      expect=rows(*[[k] for k in T100[32:65]])),
])

add("testSelectCount", [
    q(" CREATE TABLE %s (kind text, time int, value1 int, value2 int, PRIMARY KEY(kind, time))"),
    q("INSERT INTO %s (kind, time, value1, value2) VALUES ('ev1', ?, ?, ?)", 0, 0, 0),
    q("INSERT INTO %s (kind, time, value1, value2) VALUES ('ev1', ?, ?, ?)", 1, 1, 1),
    q("INSERT INTO %s (kind, time, value1) VALUES ('ev1', ?, ?)", 2, 2),
    q("INSERT INTO %s (kind, time, value1, value2) VALUES ('ev1', ?, ?, ?)", 3, 3, 3),
    q("INSERT INTO %s (kind, time, value1) VALUES ('ev1', ?, ?)", 4, 4),
    q("INSERT INTO %s (kind, time, value1, value2) VALUES ('ev2', 0, 0, 0)"),
    q("SELECT COUNT(*) FROM %s WHERE kind = 'ev1'", expect=rows([5])),
    q("SELECT COUNT(1) FROM %s WHERE kind IN ('ev1', 'ev2') AND time=0", expect=rows([2])),
])

add("testRangeQuery", [
    q("CREATE TABLE %s (a int, b int, c int, d int, e int, f text, PRIMARY KEY (a, b, c, d, e) )"),
    q("INSERT INTO %s (a, b, c, d, e, f) VALUES (1, 1, 1, 1, 2, '2')"),
    q("INSERT INTO %s (a, b, c, d, e, f) VALUES (1, 1, 1, 1, 1, '1')"),
    q("INSERT INTO %s (a, b, c, d, e, f) VALUES (1, 1, 1, 2, 1, '1')"),
    q("INSERT INTO %s (a, b, c, d, e, f) VALUES (1, 1, 1, 1, 3, '3')"),
    q("INSERT INTO %s (a, b, c, d, e, f) VALUES (1, 1, 1, 1, 5, '5')"),
    q("SELECT a, b, c, d, e, f FROM %s WHERE a = 1 AND b = 1 AND c = 1 AND d = 1 AND e >= 2",
      expect=rows([1, 1, 1, 1, 2, "2"], [1, 1, 1, 1, 3, "3"], [1, 1, 1, 1, 5, "5"])),
])

CRK = [[0, 2, 2, 2], [0, 3, 3, 3], [0, 0, 0, 0], [0, 1, 1, 1]]
add("testCompositeRowKey", [
    q("CREATE TABLE %s (k1 int, k2 int, c int, v int, PRIMARY KEY ((k1, k2), c))"),
    *[q("INSERT INTO %s (k1, k2, c, v) VALUES (?, ?, ?, ?)", 0, i, i, i) for i in range(4)],
    q("SELECT * FROM %s", expect=rows(*CRK)),
    q("SELECT * FROM %s WHERE k1 = 0 and k2 IN (1, 3)", expect=rows([0, 1, 1, 1], [0, 3, 3, 3])),
    inv("SELECT * FROM %s WHERE k2 = 3"),
    q("SELECT * FROM %s WHERE token(k1, k2) = token(0, 1)", expect=rows([0, 1, 1, 1])),
    q("SELECT * FROM %s WHERE token(k1, k2) > ?", -9223372036854775808, expect=rows(*CRK)),
])

add("testSelectSliceFromComposite", [
    q("CREATE TABLE %s (status ascii, ctime bigint, key ascii, nil ascii, PRIMARY KEY (status, ctime, key))"),
    q("INSERT INTO %s (status,ctime,key,nil) VALUES ('C',12345678,'key1','')"),
    q("INSERT INTO %s (status,ctime,key,nil) VALUES ('C',12345679,'key3','')"),
    q("INSERT INTO %s (status,ctime,key,nil) VALUES ('C',12345680,'key6','')"),
    inv("SELECT * FROM %s WHERE ctime>=12345679 AND key='key3' AND ctime<=12345680 LIMIT 3;"),
    inv("SELECT * FROM %s WHERE ctime=12345679  AND key='key3' AND ctime<=12345680 LIMIT 3"),
])

add("testDifferentOrdering", [
    q(" CREATE TABLE %s ( k int, c1 int, c2 int, v int, PRIMARY KEY (k, c1, c2) ) WITH CLUSTERING ORDER BY (c1 ASC, c2 DESC)"),
    q("INSERT INTO %s (k, c1, c2, v) VALUES (0, 0, 0, 0)"),
    q("INSERT INTO %s (k, c1, c2, v) VALUES (0, 1, 1, 1)"),
    q("INSERT INTO %s (k, c1, c2, v) VALUES (0, 0, 2, 2)"),
    q("INSERT INTO %s (k, c1, c2, v) VALUES (0, 1, 3, 3)"),
    q("select * from %s where k = 0 limit 1", expect=rows([0, 0, 2, 2])),
    q("select * from %s where k = 0", expect=rows([0, 0, 2, 2], [0, 0, 0, 0], [0, 1, 3, 3], [0, 1, 1, 1])),
])

K3 = by_token(range(3))
add("testAllowFiltering.clustering", [
    q("CREATE TABLE %s (k int, c int, v int, PRIMARY KEY (k, c))"),
    *[q("INSERT INTO %s (k, c, v) VALUES (?, ?, ?)", i, j, j) for i in range(3) for j in range(3)],
    q("SELECT * FROM %s WHERE k = 1", expect=rows([1, 0, 0], [1, 1, 1], [1, 2, 2])),
    q("SELECT * FROM %s WHERE k = 1 ALLOW FILTERING", expect=rows([1, 0, 0], [1, 1, 1], [1, 2, 2])),
    q("SELECT * FROM %s WHERE k = 1 AND c > 2", expect=rows()),
    q("SELECT * FROM %s WHERE k = 1 AND c > 2 ALLOW FILTERING", expect=rows()),
    q("SELECT * FROM %s WHERE k = 1 AND c = 2", expect=rows([1, 2, 2])),
    q("SELECT * FROM %s WHERE k = 1 AND c = 2 ALLOW FILTERING", expect=rows([1, 2, 2])),
    needs_af("SELECT * FROM %s WHERE c = 2"),
    q("SELECT * FROM %s WHERE c = 2 ALLOW FILTERING", expect=rows(*[[k, 2, 2] for k in K3])),
    needs_af("SELECT * FROM %s WHERE c > 2 AND c <= 4"),
    q("SELECT * FROM %s WHERE c > 2 AND c <= 4 ALLOW FILTERING", expect=rows()),
], method="testAllowFiltering")

add("testAllowFiltering.index", [
    q("CREATE TABLE %s (k int PRIMARY KEY, a int, b int,)"),
    q("CREATE INDEX ON %s (a)"),
    *[q("INSERT INTO %s (k, a, b) VALUES (?, ?, ?)", i, i * 10, i * 100) for i in range(5)],
    q("SELECT * FROM %s WHERE k = 1", expect=rows([1, 10, 100])),
    q("SELECT * FROM %s WHERE k = 1 ALLOW FILTERING", expect=rows([1, 10, 100])),
    q("SELECT * FROM %s WHERE a = 20", expect=rows([2, 20, 200])),
    q("SELECT * FROM %s WHERE a = 20 ALLOW FILTERING", expect=rows([2, 20, 200])),
    needs_af("SELECT * FROM %s WHERE a = 20 AND b = 200"),
    q("SELECT * FROM %s WHERE a = 20 AND b = 200 ALLOW FILTERING", expect=rows([2, 20, 200])),
], method="testAllowFiltering")

add("testSelectOnCompositeInvalid", [
    q("CREATE TABLE %s (a int, b text, c uuid, PRIMARY KEY ((a, b)))"),
    q("INSERT INTO %s (a, b , c ) VALUES (1, 'aze', 4d481800-4c5f-11e1-82e0-3f484de45426)"),
    q("INSERT INTO %s (a, b , c ) VALUES (1, 'ert', 693f5800-8acb-11e3-82e0-3f484de45426)"),
    q("INSERT INTO %s (a, b , c ) VALUES (1, 'opl', d4815800-2d8d-11e0-82e0-3f484de45426)"),
    q("SELECT b FROM %s", expect=rows_any_order(["aze"], ["ert"], ["opl"])),
    inv("SELECT * FROM %s WHERE a=1"),
])

ZIPS = [("06029", "CT", 9, "Ellington"), ("06031", "CT", 9, "Falls Village"), ("06902", "CT", 9, "Stamford"),
        ("06927", "CT", 9, "Stamford"), ("10015", "NY", 36, "New York"), ("07182", "NJ", 34, "Newark"),
        ("73301", "TX", 48, "Austin"), ("94102", "CA", 6, "San Francisco")]
ZIP_SORTED = sorted(z[0] for z in ZIPS)
INS_Z = "INSERT INTO %s (group, zipcode, state, fips_regions, city) VALUES (?, ?, ?, ?, ?)"
add("testMultiSelects", [
    q("CREATE TABLE %s (group text, zipcode text, state text, fips_regions int, city text,"
      " PRIMARY KEY (group, zipcode, state, fips_regions))"),
    *[q(INS_Z, g, *z) for g in ("test", "test2") for z in ZIPS],
    q("select zipcode from %s", expect=rows_any_order(*[[z] for z in ZIP_SORTED] * 2)),
    q("select zipcode from %s where group='test'", expect=rows(*[[z] for z in ZIP_SORTED])),
    inv("select zipcode from %s where zipcode='06902'"),
    q("select zipcode from %s where zipcode='06902' ALLOW FILTERING", expect=rows(["06902"], ["06902"])),
    q("select zipcode from %s where group='test' and zipcode='06902'", expect=rows(["06902"])),
    q("select zipcode from %s where group='test' and zipcode IN ('06902','73301','94102')",
      expect=rows(["06902"], ["73301"], ["94102"])),
    q("select zipcode from %s where group='test' AND zipcode IN ('06902','73301','94102') and state IN ('CT','CA')",
      expect=rows(["06902"], ["94102"])),
    q("select zipcode from %s where group='test' AND zipcode IN ('06902','73301','94102') and state IN ('CT','CA')"
      " and fips_regions = 9", expect=rows(["06902"])),
    q("select zipcode from %s where group='test' AND zipcode IN ('06902','73301','94102') and state IN ('CT','CA')"
      " ORDER BY zipcode DESC", expect=rows(["94102"], ["06902"])),
    q("select zipcode from %s where group='test' AND zipcode IN ('06902','73301','94102') and state IN ('CT','CA')"
      " and fips_regions > 0", expect=rows(["06902"], ["94102"])),
    q("select zipcode from %s where group='test' AND zipcode IN ('06902','73301','94102') and state IN ('CT','CA')"
      " and fips_regions < 0", expect=rows()),
])

add("testMultipleClausesOnPrimaryKey", [
    q("CREATE TABLE %s (key text, c text, v text, PRIMARY KEY(key, c))"),
    q("INSERT INTO %s (key, c, v) VALUES ('foo', '1', '1')"),
    q("INSERT INTO %s(key, c, v) VALUES ('foo', '2', '2')"),
    q("INSERT INTO %s(key, c, v) VALUES ('foo', '3', '3')"),
    q("SELECT c FROM %s WHERE key = 'foo' AND c IN ('1', '2')", expect=rows(["1"], ["2"])),
])

add("testSelectWithToken", [
    q("CREATE TABLE %s (key text PRIMARY KEY)"),
    inv("select * from %s where token(key) > token(int(3030343330393233)) limit 1"),
])

add("testFunctionsWithClusteringDesc", [
    q("CREATE TABLE %s ( k int, t timeuuid, PRIMARY KEY (k, t) ) WITH CLUSTERING ORDER BY (t DESC)"),
    *[q("INSERT INTO %s (k, t) VALUES (?, now())", i) for i in range(5)],
    q("SELECT toTimestamp(t) FROM %s"),
])

add("testSelectWithAlias", [
    q("CREATE TABLE %s (id int PRIMARY KEY, name text)"),
    *[q("INSERT INTO %s (id, name) VALUES (?, ?) USING TTL 10 AND TIMESTAMP 0", i, "name%d" % i) for i in range(5)],
    q("SELECT count(*) AS user_count FROM %s", expect=rows([5])),
    q("SELECT name AS user_name FROM %s WHERE id = 0", expect=rows(["name0"])),
    q("SELECT writeTime(name) AS name_writetime FROM %s WHERE id = 0", expect=rows([0])),
    q("SELECT ttl(name) AS name_ttl FROM %s WHERE id = 0", expect=rows([approx(9.5, abs_=0.6)])),
    q("SELECT intAsBlob(id) AS id_blob FROM %s WHERE id = 0", expect=rows([b"\x00\x00\x00\x00"])),
    inv("SELECT id AS user_id, name AS user_name FROM %s WHERE user_id = 0", msg="Undefined column name user_id"),
    inv("SELECT id AS user_id, name AS user_name FROM %s WHERE id IN (0) ORDER BY user_name",
        msg="Undefined column name user_name"),
])

add("testSelectDistinct", [
    q("CREATE TABLE %s (pk0 int, pk1 int, ck0 int, val int, PRIMARY KEY((pk0, pk1), ck0))"),
    *[q("INSERT INTO %s (pk0, pk1, ck0, val) VALUES (?, ?, ?, ?)", i, i, c, c) for i in range(3) for c in (0, 1)],
    dq("SELECT DISTINCT pk0, pk1 FROM %s LIMIT 1", expect=rows([0, 0])),
    dq("SELECT DISTINCT pk0, pk1 FROM %s LIMIT 3", expect=rows([0, 0], [2, 2], [1, 1])),
    dq("SELECT DISTINCT pk0 FROM %s", expect=error("Invalid", "queries must request all the partition key columns")),
    dq("SELECT DISTINCT pk0, pk1, ck0 FROM %s", expect=error("Invalid", "queries must only request partition key columns")),
])

T10 = by_token(range(10))
add("testSelectDistinctWithDeletions", [
    q("CREATE TABLE %s (k int PRIMARY KEY, c int, v int)"),
    *[q("INSERT INTO %s (k, c, v) VALUES (?, ?, ?)", i, i, i) for i in range(10)],
    dq("SELECT DISTINCT k FROM %s", expect=rows(*[[k] for k in T10])),
    q("DELETE FROM %s WHERE k=?", T10[3]),
    dq("SELECT DISTINCT k FROM %s", expect=rows(*[[k] for k in T10 if k != T10[3]])),
    dq("SELECT DISTINCT k FROM %s LIMIT 5", expect=rows(*[[k] for k in T10 if k != T10[3]][:5])),
])

DWC = "SELECT DISTINCT with WHERE clause only supports restriction by partition key and/or static columns."
add("testSelectDistinctWithWhereClause", [
    q("CREATE TABLE %s (k int, a int, b int, PRIMARY KEY (k, a))"),
    q("CREATE INDEX ON %s (b)"),
    *[q("INSERT INTO %s (k, a, b) VALUES (?, ?, ?)", i, v, v) for i in range(10) for v in (i, i * 10)],
    dq("SELECT DISTINCT k FROM %s WHERE a >= 80 ALLOW FILTERING", expect=error("Invalid", DWC)),
    dq("SELECT DISTINCT k FROM %s WHERE k IN (1, 2, 3) AND a = 10", expect=error("Invalid", DWC)),
    dq("SELECT DISTINCT k FROM %s WHERE b = 5", expect=error("Invalid", DWC)),
    dq("SELECT DISTINCT k FROM %s WHERE k = 1", expect=rows([1])),
    dq("SELECT DISTINCT k FROM %s WHERE k IN (5, 6, 7)", expect=rows([5], [6], [7])),
])

add("testSelectDistinctWithWhereClause.static", [
    q("CREATE TABLE %s (k int, a int, s int static, b int, PRIMARY KEY (k, a))"),
    q("CREATE INDEX ON %s (b)"),
    *[q("INSERT INTO %s (k, a, b, s) VALUES (?, ?, ?, ?)", i, v, v, v) for i in range(10) for v in (i, i * 10)],
    dq("SELECT DISTINCT s FROM %s WHERE k = 5", expect=rows([50])),
    dq("SELECT DISTINCT s FROM %s WHERE k IN (5, 6, 7)", expect=rows([50], [60], [70])),
], method="testSelectDistinctWithWhereClause")

add("testSelectDistinctWithWhereClauseOnStaticColumn", [
    q("CREATE TABLE %s (k int, a int, s int static, s1 int static, b int, PRIMARY KEY (k, a))"),
    *[q("INSERT INTO %s (k, a, b, s, s1) VALUES (?, ?, ?, ?, ?)", i, v, v, v, v) for i in range(10) for v in (i, i * 10)],
    q("INSERT INTO %s (k, a, b, s, s1) VALUES (?, ?, ?, ?, ?)", 2, 10, 10, 10, 10),
    dq("SELECT DISTINCT k, s, s1 FROM %s WHERE s = 90 AND s1 = 90 ALLOW FILTERING", expect=rows([9, 90, 90])),
    dq("SELECT DISTINCT k, s, s1 FROM %s WHERE s = 10 AND s1 = 10 ALLOW FILTERING", expect=rows([1, 10, 10], [2, 10, 10])),
    dq("SELECT DISTINCT k, s, s1 FROM %s WHERE k = 1 AND s = 10 AND s1 = 10 ALLOW FILTERING", expect=rows([1, 10, 10])),
])

add("testSelectInClauseAtOne", [
    q("CREATE TABLE %s ( k int, v int, PRIMARY KEY (k, v))"),
    q("INSERT INTO %s (k, v) VALUES (0, 0)"),
    q("SELECT v FROM %s WHERE k=0 AND v IN (1, 0)", expect=rows([0])),
])

add("testSelectCountPaging", [
    q("create table %s (field1 text, field2 timeuuid, field3 boolean, primary key(field1, field2))"),
    q("create index on %s (field3)"),
    q("insert into %s (field1, field2, field3) values ('hola', now(), false)"),
    q("insert into %s (field1, field2, field3) values ('hola', now(), false)"),
    q("select count(*) from %s where field3 = false limit 1", expect=rows([2])),
])

add("testClusteringOrder", [
    q("CREATE TABLE %s (a int, b int, c int, PRIMARY KEY ((a, b), c) ) with clustering order by (c desc)"),
    q("INSERT INTO %s (a, b, c) VALUES (1, 2, 3)"),
    q("INSERT INTO %s (a, b, c) VALUES (4, 5, 6)"),
    q("SELECT * FROM %s WHERE a=1 AND b=2 AND c IN (3)", expect=rows([1, 2, 3])),
    q("SELECT * FROM %s WHERE a=1 AND b=2 AND c IN (3, 4)", expect=rows([1, 2, 3])),
])

add("testSelectInFinalColumn", [
    q("CREATE TABLE %s (a int, b int, c int, d int, PRIMARY KEY (a, b))"),
    q("INSERT INTO %s (a, b, c, d) VALUES (1, 2, 3, 3)"),
    q("INSERT INTO %s (a, b, c, d) VALUES (1, 4, 6, 5)"),
    q("SELECT * FROM %s WHERE a=1 AND b=2 ORDER BY b DESC", expect=rows([1, 2, 3, 3])),
])

add("testAlias", [
    q("CREATE TABLE %s (id int PRIMARY KEY, name text)"),
    *[q("INSERT INTO %s (id, name) VALUES (?, ?) USING TTL 10 AND TIMESTAMP 0", i, str(i)) for i in range(5)],
    inv("SELECT id AS user_id, name AS user_name FROM %s WHERE user_id = 0", msg="Undefined column name user_id"),
    inv("SELECT id AS user_id, name AS user_name FROM %s WHERE id IN (0) ORDER BY user_name",
        msg="Undefined column name user_name"),
])


def static_only_rows():
    steps = [q("CREATE TABLE %s (a int, b int, s int static, c int, d int, primary key (a, b))")]
    for i in range(5):
        steps.append(q("INSERT INTO %s (a, s) VALUES (?, ?)", i, i))
        if i != 2:
            steps += [q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", i, j, j, i + j) for j in range(4)]
    return steps


add("testAllowFilteringOnPartitionKeyOnStaticColumnsWithRowsWithOnlyStaticValues", static_only_rows() + [
    q("SELECT * FROM %s WHERE a >= 1 AND c = 2 AND s >= 1 ALLOW FILTERING",
      expect=rows_any_order([1, 2, 1, 2, 3], [3, 2, 3, 2, 5], [4, 2, 4, 2, 6])),
    q("SELECT * FROM %s WHERE a >= 1 AND c = 2 AND s >= 1 LIMIT 2 ALLOW FILTERING",
      expect=rows([1, 2, 1, 2, 3], [4, 2, 4, 2, 6])),
    q("SELECT * FROM %s WHERE a >= 3 AND c = 2 AND s >= 1 LIMIT 2 ALLOW FILTERING",
      expect=rows_any_order([4, 2, 4, 2, 6], [3, 2, 3, 2, 5])),
])

add("testFilteringOnStaticColumnsWithRowsWithOnlyStaticValues", static_only_rows() + [
    q("SELECT * FROM %s WHERE c = 2 AND s >= 1 LIMIT 2 ALLOW FILTERING", expect=rows([1, 2, 1, 2, 3], [4, 2, 4, 2, 6])),
])


def no_index_data():
    return [
        q("CREATE TABLE %s (a int, b int, c int, d int, s int static, PRIMARY KEY (a, b))"),
        q("INSERT INTO %s (a, b, c, d) VALUES (1, 2, 4, 8)"),
        q("INSERT INTO %s (a, b, c, d) VALUES (1, 3, 6, 12)"),
        q("INSERT INTO %s (a, b, c, d) VALUES (1, 4, 4, 8)"),
        q("INSERT INTO %s (a, b, c, d) VALUES (2, 3, 7, 12)"),
        q("UPDATE %s SET s = 1 WHERE a = 1"),
        q("UPDATE %s SET s = 2 WHERE a = 2"),
        q("UPDATE %s SET s = 3 WHERE a = 3"),
        q("INSERT INTO %s (a, b, c, d) VALUES (1, 1, 4, 8)"),
        q("INSERT INTO %s (a, b, c, d) VALUES (2, 2, 7, 12)"),
        q("DELETE FROM %s WHERE a = 1 AND b = 1"),
        q("DELETE FROM %s WHERE a = 2 AND b = 2"),
    ]


add("testFilteringWithoutIndices", no_index_data() + [
    needs_af("SELECT * FROM %s WHERE c = 4 AND d = 8"),
    q("SELECT * FROM %s WHERE c = 4 AND d = 8 ALLOW FILTERING", expect=rows([1, 2, 1, 4, 8], [1, 4, 1, 4, 8])),
    needs_af("SELECT * FROM %s WHERE a = 1 AND b = 4 AND d = 8"),
    q("SELECT * FROM %s WHERE a = 1 AND b = 4 AND d = 8 ALLOW FILTERING", expect=rows([1, 4, 1, 4, 8])),
    needs_af("SELECT * FROM %s WHERE s = 1 AND d = 12"),
    q("SELECT * FROM %s WHERE s = 1 AND d = 12 ALLOW FILTERING", expect=rows([1, 3, 1, 6, 12])),
    needs_af("SELECT * FROM %s WHERE a IN (1, 2) AND c IN (6, 7)"),
    q("SELECT * FROM %s WHERE a IN (1, 2) AND c IN (6, 7) ALLOW FILTERING", expect=rows([1, 3, 1, 6, 12], [2, 3, 2, 7, 12])),
    needs_af("SELECT * FROM %s WHERE c > 4"),
    q("SELECT * FROM %s WHERE c > 4 ALLOW FILTERING", expect=rows([1, 3, 1, 6, 12], [2, 3, 2, 7, 12])),
    needs_af("SELECT * FROM %s WHERE s > 1"),
    q("SELECT * FROM %s WHERE s > 1 ALLOW FILTERING", expect=rows([2, 3, 2, 7, 12], [3, None, 3, None, None])),
    needs_af("SELECT * FROM %s WHERE b < 3 AND c <= 4"),
    q("SELECT * FROM %s WHERE b < 3 AND c <= 4 ALLOW FILTERING", expect=rows([1, 2, 1, 4, 8])),
    needs_af("SELECT * FROM %s WHERE c >= 3 AND c <= 6"),
    q("SELECT * FROM %s WHERE c >= 3 AND c <= 6 ALLOW FILTERING",
      expect=rows([1, 2, 1, 4, 8], [1, 3, 1, 6, 12], [1, 4, 1, 4, 8])),
    q("SELECT * FROM %s WHERE s >= 1 LIMIT 2 ALLOW FILTERING", expect=rows([1, 2, 1, 4, 8], [1, 3, 1, 6, 12])),
])

add("testFilteringWithoutIndices.nullAndUnset", no_index_data() + [
    needs_af("SELECT * FROM %s WHERE c = null"),
    inv("SELECT * FROM %s WHERE c = null ALLOW FILTERING", msg="Unsupported null value for column c"),
    needs_af("SELECT * FROM %s WHERE c > null"),
    inv("SELECT * FROM %s WHERE c > null ALLOW FILTERING", msg="Unsupported null value for column c"),
    needs_af("SELECT * FROM %s WHERE s > null"),
    inv("SELECT * FROM %s WHERE s > null ALLOW FILTERING", msg="Unsupported null value for column s"),
    inv("SELECT * FROM %s WHERE c = ? ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset value for column c"),
    inv("SELECT * FROM %s WHERE s = ? ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset value for column s"),
    inv("SELECT * FROM %s WHERE c > ? ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset value for column c"),
], method="testFilteringWithoutIndices")


def coll_data(frozen):
    f = (lambda t: "frozen<%s>" % t) if frozen else (lambda t: t)
    return [
        q("CREATE TABLE %%s (a int, b int, c %s, d %s, e %s, PRIMARY KEY (a, b))" %
          (f("list<int>"), f("set<int>"), f("map<int, int>"))),
        q("INSERT INTO %s (a, b, c, d, e) VALUES (1, 2, [1, 6], {2, 12}, {1: 6})"),
        q("INSERT INTO %s (a, b, c, d, e) VALUES (1, 3, [3, 2], {6, 4}, {3: 2})"),
        q("INSERT INTO %s (a, b, c, d, e) VALUES (1, 4, [1, 2], {2, 4}, {1: 2})"),
        q("INSERT INTO %s (a, b, c, d, e) VALUES (2, 3, [3, 6], {6, 12}, {3: 6})"),
    ]


R12 = [1, 2, [1, 6], {2, 12}, {1: 6}]
R13 = [1, 3, [3, 2], {6, 4}, {3: 2}]
R14 = [1, 4, [1, 2], {2, 4}, {1: 2}]

COLL_COMMON = [
    needs_af("SELECT * FROM %s WHERE c CONTAINS 2"),
    q("SELECT * FROM %s WHERE c CONTAINS 2 ALLOW FILTERING", expect=rows(R13, R14)),
    q("SELECT * FROM %s WHERE c CONTAINS 2 AND c CONTAINS 3 ALLOW FILTERING", expect=rows(R13)),
    needs_af("SELECT * FROM %s WHERE d CONTAINS 4"),
    q("SELECT * FROM %s WHERE d CONTAINS 4 ALLOW FILTERING", expect=rows(R13, R14)),
    q("SELECT * FROM %s WHERE d CONTAINS 4 AND d CONTAINS 6 ALLOW FILTERING", expect=rows(R13)),
    needs_af("SELECT * FROM %s WHERE e CONTAINS 2"),
    q("SELECT * FROM %s WHERE e CONTAINS 2 ALLOW FILTERING", expect=rows(R13, R14)),
    q("SELECT * FROM %s WHERE e CONTAINS KEY 1 ALLOW FILTERING", expect=rows(R12, R14)),
    q("SELECT * FROM %s WHERE e CONTAINS KEY 1 AND e CONTAINS 2 ALLOW FILTERING", expect=rows(R14)),
    q("SELECT * FROM %s WHERE c CONTAINS 2 AND d CONTAINS 4 AND e CONTAINS KEY 3 ALLOW FILTERING", expect=rows(R13)),
]

add("testFilteringWithoutIndicesWithCollections", coll_data(False) + COLL_COMMON + [
    q("SELECT * FROM %s WHERE e[1] = 6 ALLOW FILTERING", expect=rows(R12)),
])

add("testFilteringWithoutIndicesWithCollections.nullAndUnset", coll_data(False) + [
    inv("SELECT * FROM %s WHERE c CONTAINS null ALLOW FILTERING", msg="Unsupported null value for column c"),
    inv("SELECT * FROM %s WHERE d CONTAINS null ALLOW FILTERING", msg="Unsupported null value for column d"),
    inv("SELECT * FROM %s WHERE e CONTAINS null ALLOW FILTERING", msg="Unsupported null value for column e"),
    inv("SELECT * FROM %s WHERE e CONTAINS KEY null ALLOW FILTERING", msg="Unsupported null value for column e"),
    inv("SELECT * FROM %s WHERE e[null] = 2 ALLOW FILTERING", msg="Unsupported null map key for column e"),
    inv("SELECT * FROM %s WHERE e[1] = null ALLOW FILTERING", msg="Unsupported null map value for column e"),
    inv("SELECT * FROM %s WHERE c CONTAINS ? ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset value for column c"),
    inv("SELECT * FROM %s WHERE d CONTAINS ? ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset value for column d"),
    inv("SELECT * FROM %s WHERE e CONTAINS ? ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset value for column e"),
    inv("SELECT * FROM %s WHERE e CONTAINS KEY ? ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset value for column e"),
    inv("SELECT * FROM %s WHERE e[?] = 2 ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset map key for column e"),
    inv("SELECT * FROM %s WHERE e[1] = ? ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset map value for column e"),
], method="testFilteringWithoutIndicesWithCollections")

MAPENTRY = "Map-entry equality predicates on frozen map column e are not supported"
add("testFilteringWithoutIndicesWithFrozenCollections", coll_data(True) + COLL_COMMON + [
    needs_af("SELECT * FROM %s WHERE c = [3, 2]"),
    q("SELECT * FROM %s WHERE c = [3, 2] ALLOW FILTERING", expect=rows(R13)),
    needs_af("SELECT * FROM %s WHERE c > [1, 5] AND c < [3, 6]"),
    q("SELECT * FROM %s WHERE c > [1, 5] AND c < [3, 6] ALLOW FILTERING", expect=rows(R12, R13)),
    q("SELECT * FROM %s WHERE c >= [1, 6] AND c < [3, 3] ALLOW FILTERING", expect=rows(R12, R13)),
    needs_af("SELECT * FROM %s WHERE d = {6, 4}"),
    q("SELECT * FROM %s WHERE d = {6, 4} ALLOW FILTERING", expect=rows(R13)),
    needs_af("SELECT * FROM %s WHERE d > {4, 5} AND d < {6}"),
    q("SELECT * FROM %s WHERE d > {4, 5} AND d < {6} ALLOW FILTERING", expect=rows(R13)),
    q("SELECT * FROM %s WHERE d >= {2, 12} AND d <= {4, 6} ALLOW FILTERING", expect=rows(R12, R13)),
    needs_af("SELECT * FROM %s WHERE e = {1 : 2}"),
    q("SELECT * FROM %s WHERE e = {1 : 2} ALLOW FILTERING", expect=rows(R14)),
    needs_af("SELECT * FROM %s WHERE e > {1 : 4} AND e < {3 : 6}"),
    q("SELECT * FROM %s WHERE e > {1 : 4} AND e < {3 : 6} ALLOW FILTERING", expect=rows(R12, R13)),
    q("SELECT * FROM %s WHERE e >= {1 : 6} AND e <= {3 : 2} ALLOW FILTERING", expect=rows(R12, R13)),
    inv("SELECT * FROM %s WHERE e[1] = 6 ALLOW FILTERING", msg=MAPENTRY),
])

add("testFilteringWithoutIndicesWithFrozenCollections.nullAndUnset", coll_data(True) + [
    inv("SELECT * FROM %s WHERE c = null ALLOW FILTERING", msg="Unsupported null value for column c"),
    inv("SELECT * FROM %s WHERE c CONTAINS null ALLOW FILTERING", msg="Unsupported null value for column c"),
    inv("SELECT * FROM %s WHERE d = null ALLOW FILTERING", msg="Unsupported null value for column d"),
    inv("SELECT * FROM %s WHERE d CONTAINS null ALLOW FILTERING", msg="Unsupported null value for column d"),
    inv("SELECT * FROM %s WHERE e = null ALLOW FILTERING", msg="Unsupported null value for column e"),
    inv("SELECT * FROM %s WHERE e CONTAINS null ALLOW FILTERING", msg="Unsupported null value for column e"),
    inv("SELECT * FROM %s WHERE e CONTAINS KEY null ALLOW FILTERING", msg="Unsupported null value for column e"),
    inv("SELECT * FROM %s WHERE e[null] = 2 ALLOW FILTERING", msg=MAPENTRY),
    inv("SELECT * FROM %s WHERE e[1] = null ALLOW FILTERING", msg=MAPENTRY),
    inv("SELECT * FROM %s WHERE c = ? ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset value for column c"),
    inv("SELECT * FROM %s WHERE c CONTAINS ? ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset value for column c"),
    inv("SELECT * FROM %s WHERE d = ? ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset value for column d"),
    inv("SELECT * FROM %s WHERE d CONTAINS ? ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset value for column d"),
    inv("SELECT * FROM %s WHERE e = ? ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset value for column e"),
    inv("SELECT * FROM %s WHERE e CONTAINS ? ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset value for column e"),
    inv("SELECT * FROM %s WHERE e CONTAINS KEY ? ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset value for column e"),
    inv("SELECT * FROM %s WHERE e[?] = 2 ALLOW FILTERING", UNSET_VALUE, msg=MAPENTRY),
    inv("SELECT * FROM %s WHERE e[1] = ? ALLOW FILTERING", UNSET_VALUE, msg=MAPENTRY),
], method="testFilteringWithoutIndicesWithFrozenCollections")

TOO_BIG = b"\x00" * (1024 * 65)
add("testIndexQueryWithValueOver64K", [
    q("CREATE TABLE %s (a int, b int, c blob, PRIMARY KEY (a, b))"),
    q("CREATE INDEX c_idx ON %s (c)"),
    q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", 0, 0, b"\x00\x00\x00\x01"),
    q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", 0, 1, b"\x00\x00\x00\x02"),
    inv("SELECT * FROM %s WHERE c = ?  ALLOW FILTERING", TOO_BIG, msg="Index expression values may not be larger than 64K"),
    q("DROP INDEX {ks}.c_idx"),
    q("SELECT * FROM %s WHERE c = ?  ALLOW FILTERING", TOO_BIG, expect=rows()),
])

add("testPKQueryWithValueOver64K", [
    q("CREATE TABLE %s (a text, b text, PRIMARY KEY (a, b))"),
    inv("SELECT * FROM %s WHERE a = ?", "\x00" * (1024 * 65)),
])

add("testCKQueryWithValueOver64K", [
    q("CREATE TABLE %s (a text, b text, PRIMARY KEY (a, b))"),
    q("SELECT * FROM %s WHERE a = 'foo' AND b = ?", "\x00" * (1024 * 65), expect=rows()),
])

add("testAllowFilteringOnPartitionKeyWithDistinct", [
    q("CREATE TABLE %s (pk0 int, pk1 int, ck0 int, val int, PRIMARY KEY((pk0, pk1), ck0))"),
    *[q("INSERT INTO %s (pk0, pk1, ck0, val) VALUES (?, ?, ?, ?)", i, i, c, c) for i in range(3) for c in (0, 1)],
    dq("SELECT DISTINCT pk0, pk1 FROM %s WHERE pk1 = 1 LIMIT 3", expect=error("Invalid", AF)),
    dq("SELECT DISTINCT pk0, pk1 FROM %s WHERE pk0 > 0 AND pk1 = 1 LIMIT 3", expect=error("Invalid", AF)),
    dq("SELECT DISTINCT pk0, pk1 FROM %s WHERE pk0 = 1 LIMIT 1 ALLOW FILTERING", expect=rows([1, 1])),
    dq("SELECT DISTINCT pk0, pk1 FROM %s WHERE pk1 = 1 LIMIT 3 ALLOW FILTERING", expect=rows([1, 1])),
    dq("SELECT DISTINCT pk0, pk1 FROM %s WHERE pk0 < 0 AND pk1 = 1 LIMIT 3 ALLOW FILTERING", expect=rows()),
    dq("SELECT DISTINCT pk0 FROM %s ALLOW FILTERING", expect=error("Invalid", "queries must request all the partition key columns")),
    dq("SELECT DISTINCT pk0, pk1, ck0 FROM %s ALLOW FILTERING",
       expect=error("Invalid", "queries must only request partition key columns")),
])


def fo(text, expect, page_size=None):
    """SelectTest.executeFilteringOnly: assertInvalid(statement) without ALLOW FILTERING (any
    refusal: the Java asserts no message, and Cassandra's is sometimes the PRIMARY KEY order one),
    these rows with it."""
    return [q(text, expect=error("Invalid")), q(text + " ALLOW FILTERING", expect=expect, page_size=page_size)]


PK4 = [
    q("INSERT INTO %s (a,b,c,d) VALUES (11, 12, 13, 14)"),
    q("INSERT INTO %s (a,b,c,d) VALUES (11, 15, 16, 17)"),
    q("INSERT INTO %s (a,b,c,d) VALUES (21, 22, 23, 24)"),
    q("INSERT INTO %s (a,b,c,d) VALUES (31, 32, 33, 34)"),
]
add("testAllowFilteringOnPartitionKey", [
    q("CREATE TABLE %s (a int, b int, c int, d int, PRIMARY KEY ((a, b), c))"), *PK4,
    needs_af("SELECT * FROM %s WHERE b in (11,12)"),
    needs_af("SELECT * FROM %s WHERE a = 11"),
    needs_af("SELECT * FROM %s WHERE a > 11"),
    needs_af("SELECT * FROM %s WHERE a > 11 and b = 1"),
    q("SELECT * FROM %s WHERE a = 11 ALLOW FILTERING", expect=rows([11, 12, 13, 14], [11, 15, 16, 17])),
    q("SELECT * FROM %s WHERE a in (11) and b in (12,15,22)", expect=rows([11, 12, 13, 14], [11, 15, 16, 17])),
    needs_af("SELECT * FROM %s WHERE b in (12,15,22)"),
    q("SELECT * FROM %s WHERE a in (11) and b in (12,15,22) ALLOW FILTERING", expect=rows([11, 12, 13, 14], [11, 15, 16, 17])),
    q("SELECT * FROM %s WHERE a in (11) ALLOW FILTERING", expect=rows([11, 12, 13, 14], [11, 15, 16, 17])),
    q("SELECT * FROM %s WHERE b = 15 ALLOW FILTERING", expect=rows([11, 15, 16, 17])),
    q("SELECT * FROM %s WHERE b >= 15 ALLOW FILTERING", expect=rows([11, 15, 16, 17], [31, 32, 33, 34], [21, 22, 23, 24])),
    q("SELECT * FROM %s WHERE a >= 11 ALLOW FILTERING",
      expect=rows([11, 12, 13, 14], [11, 15, 16, 17], [31, 32, 33, 34], [21, 22, 23, 24])),
    q("SELECT * FROM %s WHERE a >= 11 AND b <= 15 ALLOW FILTERING", expect=rows([11, 12, 13, 14], [11, 15, 16, 17])),
    q("SELECT * FROM %s WHERE a <= 11 AND b >= 14 ALLOW FILTERING", expect=rows([11, 15, 16, 17])),
    q("SELECT * FROM %s WHERE a < 11 ALLOW FILTERING", expect=rows()),
    q("SELECT * FROM %s WHERE b > 32 ALLOW FILTERING", expect=rows()),
    inv("SELECT * FROM %s WHERE a = ? ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset value for column a"),
    inv("SELECT * FROM %s WHERE a > ? ALLOW FILTERING", UNSET_VALUE, msg="Unsupported unset value for column a"),
])

add("testAllowFilteringOnPartitionKey.noClustering", [
    q("CREATE TABLE %s (a int, b int, c int, d int, PRIMARY KEY ((a, b)))"), *PK4,
    needs_af("SELECT * FROM %s WHERE b in (11,12)"),
    needs_af("SELECT * FROM %s WHERE a = 11"),
    needs_af("SELECT * FROM %s WHERE a > 11"),
    needs_af("SELECT * FROM %s WHERE a > 11 and b = 1"),
    q("SELECT * FROM %s WHERE a = 11 ALLOW FILTERING", expect=rows([11, 12, 13, 14], [11, 15, 16, 17])),
    q("SELECT * FROM %s WHERE a >= 11 ALLOW FILTERING",
      expect=rows([11, 12, 13, 14], [11, 15, 16, 17], [31, 32, 33, 34], [21, 22, 23, 24])),
    q("SELECT * FROM %s WHERE a >= 11 AND b <= 15 ALLOW FILTERING", expect=rows([11, 12, 13, 14], [11, 15, 16, 17])),
    q("SELECT * FROM %s WHERE a <= 11 AND b >= 14 ALLOW FILTERING", expect=rows([11, 15, 16, 17])),
], method="testAllowFilteringOnPartitionKey")

add("testAllowFilteringOnPartitionKey.singleKey", [
    q("CREATE TABLE %s (a int primary key, b int, c int)"),
    q("INSERT INTO %s (a, b, c) VALUES (1, 2, 4)"),
    q("INSERT INTO %s (a, b, c) VALUES (2, 1, 6)"),
    q("INSERT INTO %s (a, b, c) VALUES (3, 2, 4)"),
    q("INSERT INTO %s (a, b, c) VALUES (4, 1, 7)"),
    q("INSERT INTO %s (a, b, c) VALUES (0, 1, 4)"),
    q("INSERT INTO %s (a, b, c) VALUES (5, 2, 7)"),
    q("DELETE FROM %s WHERE a = 0"),
    q("DELETE FROM %s WHERE a = 5"),
    q("SELECT * FROM %s WHERE a = 1 ALLOW FILTERING", expect=rows([1, 2, 4])),
    q("SELECT * FROM %s WHERE a >= 1 ALLOW FILTERING", expect=rows([1, 2, 4], [2, 1, 6], [4, 1, 7], [3, 2, 4])),
    q("SELECT * FROM %s WHERE a >= 1 AND b >= 2  ALLOW FILTERING", expect=rows([1, 2, 4], [3, 2, 4])),
    q("SELECT * FROM %s WHERE a >= 1 AND b >= 2 AND c <= 4 ALLOW FILTERING", expect=rows([1, 2, 4], [3, 2, 4])),
], method="testAllowFilteringOnPartitionKey")

DNEQ = 'Clustering column "d" cannot be restricted (preceding column "c" is restricted by a non-EQ relation)'
add("testAllowFilteringOnPartitionAndClusteringKey", [
    q("CREATE TABLE %s (a int, b int, c int, d int, e int, PRIMARY KEY ((a, b), c, d))"),
    q("INSERT INTO %s (a,b,c,d,e) VALUES (11, 12, 13, 14, 15)"),
    q("INSERT INTO %s (a,b,c,d,e) VALUES (11, 15, 16, 17, 18)"),
    q("INSERT INTO %s (a,b,c,d,e) VALUES (21, 22, 23, 24, 25)"),
    q("INSERT INTO %s (a,b,c,d,e) VALUES (31, 32, 33, 34, 35)"),
    q("SELECT * FROM %s WHERE a = 11 AND b = 15 AND c = 16", expect=rows([11, 15, 16, 17, 18])),
    inv("SELECT * FROM %s WHERE a = 11 AND b = 12 AND c > 13 AND d = 14", msg=DNEQ),
    q("SELECT * FROM %s WHERE a = 11 AND b = 15 AND c = 16 AND d > 16", expect=rows([11, 15, 16, 17, 18])),
    q("SELECT * FROM %s WHERE a = 11 AND b = 15 AND c > 13 AND d >= 17 ALLOW FILTERING", expect=rows([11, 15, 16, 17, 18])),
    inv("SELECT * FROM %s WHERE a = 11 AND b = 12 AND c > 13 AND d > 17", msg=DNEQ),
    q("SELECT * FROM %s WHERE c > 30 AND d >= 34 ALLOW FILTERING", expect=rows([31, 32, 33, 34, 35])),
    q("SELECT * FROM %s WHERE a <= 11 AND c > 15 AND d >= 16 ALLOW FILTERING", expect=rows([11, 15, 16, 17, 18])),
    q("SELECT * FROM %s WHERE a <= 11 AND b >= 15 AND c > 15 AND d >= 16 ALLOW FILTERING", expect=rows([11, 15, 16, 17, 18])),
    q("SELECT * FROM %s WHERE a <= 100 AND b >= 15 AND c > 0 AND d <= 100 ALLOW FILTERING",
      expect=rows([11, 15, 16, 17, 18], [31, 32, 33, 34, 35], [21, 22, 23, 24, 25])),
    inv("SELECT * FROM %s WHERE a <= 11 AND c > 15 AND d >= 16", msg=DNEQ),
])

add("testAllowFilteringOnPartitionAndClusteringKey.order", [
    q("CREATE TABLE %s (a int, b int, c int, d int, e int, PRIMARY KEY ((a, b), c, d)) WITH CLUSTERING ORDER BY (c DESC, d ASC)"),
    *[q("INSERT INTO %s (a,b,c,d,e) VALUES (?, ?, ?, ?, ?)", *r) for r in (
        (11, 11, 13, 14, 15), (11, 11, 14, 17, 18), (11, 12, 15, 14, 15), (11, 12, 16, 17, 18),
        (21, 11, 23, 24, 25), (21, 11, 24, 34, 35), (21, 12, 25, 24, 25), (21, 12, 26, 34, 35))],
    q("SELECT * FROM %s WHERE b >= 12 ALLOW FILTERING",
      expect=rows_any_order([11, 12, 15, 14, 15], [11, 12, 16, 17, 18], [21, 12, 25, 24, 25], [21, 12, 26, 34, 35])),
], method="testAllowFilteringOnPartitionAndClusteringKey")

PKC = [
    q("CREATE TABLE %s (a int, b int, c list<int>, d set<int>, e map<int, int>, PRIMARY KEY ((a, b)))"),
    q("INSERT INTO %s (a, b, c, d, e) VALUES (1, 2, [1, 6], {2, 12}, {1: 6})"),
    q("INSERT INTO %s (a, b, c, d, e) VALUES (1, 3, [3, 2], {6, 4}, {3: 2})"),
    q("INSERT INTO %s (a, b, c, d, e) VALUES (1, 4, [1, 2], {2, 4}, {1: 2})"),
    q("INSERT INTO %s (a, b, c, d, e) VALUES (2, 3, [3, 6], {6, 12}, {3: 6})"),
]
add("testAllowFilteringOnPartitionKeyWithoutIndicesWithCollections", PKC + [
    needs_af("SELECT * FROM %s WHERE b < 0 AND c CONTAINS 2"),
    q("SELECT * FROM %s WHERE b >= 4 AND c CONTAINS 2 ALLOW FILTERING", expect=rows(R14)),
    q("SELECT * FROM %s WHERE a > 0 AND b <= 3 AND c CONTAINS 2 AND c CONTAINS 3 ALLOW FILTERING", expect=rows(R13)),
    needs_af("SELECT * FROM %s WHERE a = 1 AND d CONTAINS 4"),
    q("SELECT * FROM %s WHERE d CONTAINS 4 ALLOW FILTERING", expect=rows(R13, R14)),
    q("SELECT * FROM %s WHERE d CONTAINS 4 AND d CONTAINS 6 ALLOW FILTERING", expect=rows(R13)),
    needs_af("SELECT * FROM %s WHERE e CONTAINS 2"),
    q("SELECT * FROM %s WHERE a < 2 AND b >= 3 AND e CONTAINS 2 ALLOW FILTERING", expect=rows(R13, R14)),
    q("SELECT * FROM %s WHERE a = 1 AND e CONTAINS KEY 1 ALLOW FILTERING", expect=rows(R14, R12)),
    q("SELECT * FROM %s WHERE a in (1) AND b in (2) AND e[1] = 6 ALLOW FILTERING", expect=rows(R12)),
    q("SELECT * FROM %s WHERE a = 1 AND e CONTAINS KEY 1 AND e CONTAINS 2 ALLOW FILTERING", expect=rows(R14)),
    q("SELECT * FROM %s WHERE a >= 1 AND b in (3) AND c CONTAINS 2 AND d CONTAINS 4 AND e CONTAINS KEY 3 ALLOW FILTERING",
      expect=rows(R13)),
])

add("testAllowFilteringOnPartitionKeyWithoutIndicesWithCollections.nullAndUnset", PKC + [
    inv("SELECT * FROM %s WHERE a > 1 AND c CONTAINS null ALLOW FILTERING", msg="Unsupported null value for column c"),
    inv("SELECT * FROM %s WHERE b < 1 AND d CONTAINS null ALLOW FILTERING", msg="Unsupported null value for column d"),
    inv("SELECT * FROM %s WHERE a >= 1 AND b < 1 AND e CONTAINS null ALLOW FILTERING", msg="Unsupported null value for column e"),
    inv("SELECT * FROM %s WHERE a >= 1 AND b < 1 AND e CONTAINS KEY null ALLOW FILTERING", msg="Unsupported null value for column e"),
    inv("SELECT * FROM %s WHERE a >= 1 AND b < 1 AND e[null] = 2 ALLOW FILTERING", msg="Unsupported null map key for column e"),
    inv("SELECT * FROM %s WHERE a >= 1 AND b < 1 AND e[1] = null ALLOW FILTERING", msg="Unsupported null map value for column e"),
    inv("SELECT * FROM %s WHERE a >= 1 AND b < 1 AND c CONTAINS ? ALLOW FILTERING", UNSET_VALUE,
        msg="Unsupported unset value for column c"),
    inv("SELECT * FROM %s WHERE a >= 1 AND b < 1 AND e[?] = 2 ALLOW FILTERING", UNSET_VALUE,
        msg="Unsupported unset map key for column e"),
    inv("SELECT * FROM %s WHERE a >= 1 AND b < 1 AND e[1] = ? ALLOW FILTERING", UNSET_VALUE,
        msg="Unsupported unset map value for column e"),
], method="testAllowFilteringOnPartitionKeyWithoutIndicesWithCollections")

add("testAllowFilteringOnPartitionKeyWithCounters", [
    q("CREATE TABLE %s (a int, b int, c int, cnt counter, PRIMARY KEY ((a, b), c))"),
    *[q("UPDATE %s SET cnt = cnt + ? WHERE a = ? AND b = ? AND c = ?", *r) for r in (
        (14, 11, 12, 13), (24, 21, 22, 23), (27, 21, 22, 26), (34, 31, 32, 33), (24, 41, 42, 43))],
    *fo("SELECT * FROM %s WHERE cnt = 24", rows([41, 42, 43, 24], [21, 22, 23, 24])),
    *fo("SELECT * FROM %s WHERE b > 22 AND cnt = 24", rows([41, 42, 43, 24])),
    *fo("SELECT * FROM %s WHERE b > 10 AND b < 25 AND cnt = 24", rows([21, 22, 23, 24])),
    *fo("SELECT * FROM %s WHERE b > 10 AND c < 25 AND cnt = 24", rows([21, 22, 23, 24])),
    inv("SELECT * FROM %s WHERE a = 21 AND b > 10 AND cnt > 23 ORDER BY c DESC ALLOW FILTERING",
        msg="ORDER BY is only supported when the partition key is restricted by an EQ or an IN."),
    *fo("SELECT * FROM %s WHERE a = 21 AND b = 22 AND cnt > 23 ORDER BY c DESC", rows([21, 22, 26, 27], [21, 22, 23, 24])),
    *fo("SELECT * FROM %s WHERE cnt > 20 AND cnt < 30", rows([41, 42, 43, 24], [21, 22, 23, 24], [21, 22, 26, 27])),
])

CNEQ = 'Clustering column "c" cannot be restricted (preceding column "b" is restricted by a non-EQ relation)'
add("filteringOnClusteringColumns", [
    q("CREATE TABLE %s (a int, b int, c int, d int, PRIMARY KEY (a, b, c))"), *PK4,
    q("SELECT * FROM %s WHERE a = 11 AND b = 15", expect=rows([11, 15, 16, 17])),
    inv("SELECT * FROM %s WHERE a = 11 AND b > 12 AND c = 15", msg=CNEQ),
    q("SELECT * FROM %s WHERE a = 11 AND b = 15 AND c > 15", expect=rows([11, 15, 16, 17])),
    q("SELECT * FROM %s WHERE a = 11 AND b > 12 AND c > 13 AND d = 17 ALLOW FILTERING", expect=rows([11, 15, 16, 17])),
    inv("SELECT * FROM %s WHERE a = 11 AND b > 12 AND c > 13 and d = 17", msg=CNEQ),
    q("SELECT * FROM %s WHERE b > 20 AND c > 30 ALLOW FILTERING", expect=rows([31, 32, 33, 34])),
    inv("SELECT * FROM %s WHERE b > 20 AND c > 30", msg=CNEQ),
    q("SELECT * FROM %s WHERE b > 20 AND c < 30 ALLOW FILTERING", expect=rows([21, 22, 23, 24])),
    inv("SELECT * FROM %s WHERE b > 20 AND c < 30", msg=CNEQ),
    q("SELECT * FROM %s WHERE b > 20 AND c = 33 ALLOW FILTERING", expect=rows([31, 32, 33, 34])),
    inv("SELECT * FROM %s WHERE b > 20 AND c = 33", msg=CNEQ),
    q("SELECT * FROM %s WHERE c = 33 ALLOW FILTERING", expect=rows([31, 32, 33, 34])),
    inv("SELECT * FROM %s WHERE c = 33", msg='PRIMARY KEY column "c" cannot be restricted as preceding column "b" is not restricted'),
])

add("filteringOnClusteringColumns.acrossPartitions", [
    q("CREATE TABLE %s (a int, b int, c int, d int, PRIMARY KEY (a, b, c))"),
    *[q("INSERT INTO %s (a,b,c,d) VALUES (?, ?, ?, ?)", a, a + 1 + 3 * i, a + 2 + 3 * i, a + 3 + 3 * i)
      for a in (11, 21, 31) for i in range(3)],
    *fo("SELECT * FROM %s WHERE a = 21 AND c > 23", rows([21, 25, 26, 27], [21, 28, 29, 30])),
    *fo("SELECT * FROM %s WHERE a = 21 AND c > 23 ORDER BY b DESC", rows([21, 28, 29, 30], [21, 25, 26, 27])),
    *fo("SELECT * FROM %s WHERE c > 16 and c < 36",
        rows([11, 18, 19, 20], [21, 22, 23, 24], [21, 25, 26, 27], [21, 28, 29, 30], [31, 32, 33, 34])),
], method="filteringOnClusteringColumns")

add("filteringWithMultiColumnSlices", [
    q("CREATE TABLE %s (a int, b int, c int, d int, e int, PRIMARY KEY (a, b, c, d))"),
    q("INSERT INTO %s (a,b,c,d,e) VALUES (11, 12, 13, 14, 15)"),
    q("INSERT INTO %s (a,b,c,d,e) VALUES (21, 22, 23, 24, 25)"),
    q("INSERT INTO %s (a,b,c,d,e) VALUES (31, 32, 33, 34, 35)"),
    q("SELECT * FROM %s WHERE b = 22 AND d = 24 ALLOW FILTERING", expect=rows([21, 22, 23, 24, 25])),
    inv("SELECT * FROM %s WHERE b = 22 AND d = 24", msg='PRIMARY KEY column "d" cannot be restricted as preceding column "c" is not restricted'),
    q("SELECT * FROM %s WHERE (b, c) > (20, 30) AND d = 34 ALLOW FILTERING", expect=rows([31, 32, 33, 34, 35])),
    inv("SELECT * FROM %s WHERE (b, c) > (20, 30) AND d = 34",
        msg='Clustering column "d" cannot be restricted (preceding column "b" is restricted by a non-EQ relation)'),
])

CCONT = "Clustering columns can only be restricted with CONTAINS with a secondary index or filtering"
add("containsFilteringForClusteringKeys.first", [
    q("CREATE TABLE %s (a int, b frozen<list<int>>, c int, PRIMARY KEY (a, b, c))"),
    q("INSERT INTO %s (a,b,c) VALUES (?, ?, ?)", 11, [1, 3], 14),
    q("INSERT INTO %s (a,b,c) VALUES (?, ?, ?)", 21, [2, 3], 24),
    q("INSERT INTO %s (a,b,c) VALUES (?, ?, ?)", 21, [3, 3], 34),
    q("SELECT * FROM %s WHERE a = 21 AND b CONTAINS 2 ALLOW FILTERING", expect=rows([21, [2, 3], 24])),
    inv("SELECT * FROM %s WHERE a = 21 AND b CONTAINS 2", msg=CCONT),
    q("SELECT * FROM %s WHERE b CONTAINS 2 ALLOW FILTERING", expect=rows([21, [2, 3], 24])),
    inv("SELECT * FROM %s WHERE b CONTAINS 2", msg=CCONT),
    q("SELECT * FROM %s WHERE b CONTAINS 3 ALLOW FILTERING", expect=rows([11, [1, 3], 14], [21, [2, 3], 24], [21, [3, 3], 34])),
], method="containsFilteringForClusteringKeys")

add("containsFilteringForClusteringKeys.second", [
    q("CREATE TABLE %s (a int, b int, c frozen<list<int>>, d int, PRIMARY KEY (a, b, c))"),
    q("INSERT INTO %s (a,b,c,d) VALUES (?, ?, ?, ?)", 11, 12, [1, 3], 14),
    q("INSERT INTO %s (a,b,c,d) VALUES (?, ?, ?, ?)", 21, 22, [2, 3], 24),
    q("INSERT INTO %s (a,b,c,d) VALUES (?, ?, ?, ?)", 21, 22, [3, 3], 34),
    q("SELECT * FROM %s WHERE a = 21 AND c CONTAINS 2 ALLOW FILTERING", expect=rows([21, 22, [2, 3], 24])),
    inv("SELECT * FROM %s WHERE a = 21 AND c CONTAINS 2", msg=CCONT),
    q("SELECT * FROM %s WHERE b > 20 AND c CONTAINS 2 ALLOW FILTERING", expect=rows([21, 22, [2, 3], 24])),
    inv("SELECT * FROM %s WHERE b > 20 AND c CONTAINS 2", msg=CNEQ),
    q("SELECT * FROM %s WHERE c CONTAINS 3 ALLOW FILTERING",
      expect=rows([11, 12, [1, 3], 14], [21, 22, [2, 3], 24], [21, 22, [3, 3], 34])),
], method="containsFilteringForClusteringKeys")

add("containsFilteringForClusteringKeys.map", [
    q("CREATE TABLE %s (a int, b int, c frozen<map<text, text>>, d int, PRIMARY KEY (a, b, c))"),
    q("INSERT INTO %s (a,b,c,d) VALUES (?, ?, ?, ?)", 11, 12, {"1": "3"}, 14),
    q("INSERT INTO %s (a,b,c,d) VALUES (?, ?, ?, ?)", 21, 22, {"2": "3"}, 24),
    q("INSERT INTO %s (a,b,c,d) VALUES (?, ?, ?, ?)", 21, 22, {"3": "3"}, 34),
    q("SELECT * FROM %s WHERE b > 20 AND c CONTAINS KEY '2' ALLOW FILTERING", expect=rows([21, 22, {"2": "3"}, 24])),
    inv("SELECT * FROM %s WHERE b > 20 AND c CONTAINS KEY '2'", msg=CNEQ),
], method="containsFilteringForClusteringKeys")


def contains_on_pk(name, schema):
    return [
        q(schema),
        q("INSERT INTO %s (pk, ck, v) VALUES (?, ?, ?)", {1: 2}, 1, 1),
        q("INSERT INTO %s (pk, ck, v) VALUES (?, ?, ?)", {1: 2}, 2, 2),
        q("INSERT INTO %s (pk, ck, v) VALUES (?, ?, ?)", {1: 2, 3: 4}, 1, 3),
        q("INSERT INTO %s (pk, ck, v) VALUES (?, ?, ?)", {1: 2, 3: 4}, 2, 3),
        q("INSERT INTO %s (pk, ck, v) VALUES (?, ?, ?)", {5: 6}, 5, 5),
        q("INSERT INTO %s (pk, ck, v) VALUES (?, ?, ?)", {7: 8}, 6, 6),
        needs_af("SELECT * FROM %s WHERE pk CONTAINS KEY 1"),
        q("SELECT * FROM %s WHERE pk CONTAINS KEY 1 ALLOW FILTERING",
          expect=rows_any_order([{1: 2}, 1, 1], [{1: 2}, 2, 2], [{1: 2, 3: 4}, 1, 3], [{1: 2, 3: 4}, 2, 3])),
        q("SELECT * FROM %s WHERE pk CONTAINS KEY 1 AND pk CONTAINS 4 ALLOW FILTERING",
          expect=rows_any_order([{1: 2, 3: 4}, 1, 3], [{1: 2, 3: 4}, 2, 3])),
        q("SELECT * FROM %s WHERE pk CONTAINS KEY 1 AND pk CONTAINS KEY 3 ALLOW FILTERING",
          expect=rows_any_order([{1: 2, 3: 4}, 1, 3], [{1: 2, 3: 4}, 2, 3])),
        q("SELECT * FROM %s WHERE pk CONTAINS KEY 1 AND v = 3 ALLOW FILTERING",
          expect=rows_any_order([{1: 2, 3: 4}, 1, 3], [{1: 2, 3: 4}, 2, 3])),
        q("SELECT * FROM %s WHERE pk CONTAINS KEY 1 AND ck = 1 AND v = 3 ALLOW FILTERING",
          expect=rows_any_order([{1: 2, 3: 4}, 1, 3])),
    ]


add("testContainsOnPartitionKey",
    contains_on_pk("pk", "CREATE TABLE %s (pk frozen<map<int, int>>, ck int, v int, PRIMARY KEY (pk, ck))"))
add("testContainsOnPartitionKeyPart",
    contains_on_pk("part", "CREATE TABLE %s (pk frozen<map<int, int>>, ck int, v int, PRIMARY KEY ((pk, ck)))"))

LD = [
    q("CREATE TABLE %s (a int, b int, c int, d list<int>, PRIMARY KEY (a, b, c))"),
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", 11, 12, 13, [1, 4]),
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", 21, 22, 23, [2, 4]),
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", 21, 25, 26, [2, 7]),
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", 31, 32, 33, [3, 4]),
]
add("filteringWithOrderClause", LD + [
    *fo("SELECT a, b, c, d FROM %s WHERE a = 21 AND c > 20 ORDER BY b DESC", rows([21, 25, 26, [2, 7]], [21, 22, 23, [2, 4]])),
    *fo("SELECT a, b, c, d FROM %s WHERE a IN(21, 31) AND c > 20 ORDER BY b DESC",
        rows([31, 32, 33, [3, 4]], [21, 25, 26, [2, 7]], [21, 22, 23, [2, 4]]), page_size=0),
])

add("filteringOnStaticColumnTest", [
    q("CREATE TABLE %s (a int, b int, c int, d int, s int static, PRIMARY KEY (a, b))"),
    q("INSERT INTO %s (a, b, c, d, s) VALUES (11, 12, 13, 14, 15)"),
    q("INSERT INTO %s (a, b, c, d, s) VALUES (21, 22, 23, 24, 25)"),
    q("INSERT INTO %s (a, b, c, d, s) VALUES (21, 26, 27, 28, 29)"),
    q("INSERT INTO %s (a, b, c, d, s) VALUES (31, 32, 33, 34, 35)"),
    q("INSERT INTO %s (a, b, c, d, s) VALUES (11, 42, 43, 44, 45)"),
    *fo("SELECT a, b, c, d, s FROM %s WHERE s = 29", rows([21, 22, 23, 24, 29], [21, 26, 27, 28, 29])),
    *fo("SELECT a, b, c, d, s FROM %s WHERE b > 22 AND s = 29", rows([21, 26, 27, 28, 29])),
    *fo("SELECT a, b, c, d, s FROM %s WHERE b > 10 and b < 26 AND s = 29", rows([21, 22, 23, 24, 29])),
    *fo("SELECT a, b, c, d, s FROM %s WHERE c > 10 and c < 27 AND s = 29", rows([21, 22, 23, 24, 29])),
    *fo("SELECT a, b, c, d, s FROM %s WHERE c > 10 and c < 43 AND s = 29", rows([21, 22, 23, 24, 29], [21, 26, 27, 28, 29])),
    *fo("SELECT a, b, c, d, s FROM %s WHERE c > 10 AND s > 15 AND s < 45",
        rows([21, 22, 23, 24, 29], [21, 26, 27, 28, 29], [31, 32, 33, 34, 35])),
    *fo("SELECT a, b, c, d, s FROM %s WHERE a = 21 AND s > 15 AND s < 45 ORDER BY b DESC",
        rows([21, 26, 27, 28, 29], [21, 22, 23, 24, 29])),
    *fo("SELECT a, b, c, d, s FROM %s WHERE c > 13 and d < 44",
        rows([21, 22, 23, 24, 29], [21, 26, 27, 28, 29], [31, 32, 33, 34, 35])),
])

add("containsFilteringOnNonClusteringColumn", LD + [
    *fo("SELECT a, b, c, d FROM %s WHERE b > 20 AND d CONTAINS 2", rows([21, 22, 23, [2, 4]], [21, 25, 26, [2, 7]])),
    *fo("SELECT a, b, c, d FROM %s WHERE b > 20 AND d CONTAINS 2 AND d contains 4", rows([21, 22, 23, [2, 4]])),
])

add("testCustomIndexWithFiltering", [
    q("CREATE TABLE %s (a text, b int, c text, d int, PRIMARY KEY (a, b, c));"),
    q("CREATE INDEX ON %s(c)", cosmos=error("Invalid"), cosmos_source=IDX_SRC),
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", "a", 0, "b", 1),
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", "a", 1, "b", 2),
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", "a", 2, "b", 3),
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", "c", 3, "b", 4),
    q("INSERT INTO %s (a, b, c, d) VALUES (?, ?, ?, ?)", "d", 4, "d", 5),
    *fo("SELECT * FROM %s WHERE a='a' AND b > 0 AND c = 'b'", rows(["a", 1, "b", 2], ["a", 2, "b", 3])),
    *fo("SELECT * FROM %s WHERE c = 'b' AND d = 4", rows(["c", 3, "b", 4])),
])

add("testClusteringOrderWithSlice.asc", [
    q("CREATE TABLE %s (a text, b int, PRIMARY KEY (a, b)) WITH CLUSTERING ORDER BY (b ASC)"),
    q("INSERT INTO %s (a, b) VALUES ('a', 2)"), q("INSERT INTO %s (a, b) VALUES ('a', 3)"),
    q("SELECT * FROM %s WHERE a = 'a' AND b > 0", expect=rows(["a", 2], ["a", 3])),
    q("SELECT * FROM %s WHERE a = 'a' AND b > 0 ORDER BY b DESC", expect=rows(["a", 3], ["a", 2])),
], method="testClusteringOrderWithSlice")
add("testClusteringOrderWithSlice.desc", [
    q("CREATE TABLE %s (a text, b int, PRIMARY KEY (a, b)) WITH CLUSTERING ORDER BY (b DESC)"),
    q("INSERT INTO %s (a, b) VALUES ('a', 2)"), q("INSERT INTO %s (a, b) VALUES ('a', 3)"),
    q("SELECT * FROM %s WHERE a = 'a' AND b > 0", expect=rows(["a", 3], ["a", 2])),
    q("SELECT * FROM %s WHERE a = 'a' AND b > 0 ORDER BY b ASC", expect=rows(["a", 2], ["a", 3])),
], method="testClusteringOrderWithSlice")
add("testClusteringOrderWithSlice.compoundDesc", [
    q("CREATE TABLE %s (a text, b int, c int, PRIMARY KEY (a, b, c)) WITH CLUSTERING ORDER BY (b DESC, c ASC)"),
    q("INSERT INTO %s (a, b, c) VALUES ('a', 2, 4)"), q("INSERT INTO %s (a, b, c) VALUES ('a', 3, 5)"),
    q("SELECT * FROM %s WHERE a = 'a' AND b > 0", expect=rows(["a", 3, 5], ["a", 2, 4])),
    q("SELECT * FROM %s WHERE a = 'a' AND b > 0 ORDER BY b ASC", expect=rows(["a", 2, 4], ["a", 3, 5])),
], method="testClusteringOrderWithSlice")
add("testClusteringOrderWithSlice.mixed", [
    q("CREATE TABLE %s (a text, b int, c int, PRIMARY KEY (a, b, c)) WITH CLUSTERING ORDER BY (b ASC, c DESC)"),
    q("INSERT INTO %s (a, b, c) VALUES ('a', 2, 4)"), q("INSERT INTO %s (a, b, c) VALUES ('a', 3, 5)"),
    q("SELECT * FROM %s WHERE a = 'a' AND b > 0", expect=rows(["a", 2, 4], ["a", 3, 5])),
    q("SELECT * FROM %s WHERE a = 'a' AND b > 0 ORDER BY b ASC", expect=rows(["a", 2, 4], ["a", 3, 5])),
], method="testClusteringOrderWithSlice")

add("testFilteringWithSecondaryIndex", [
    q("CREATE TABLE %s (pk int, c1 int, c2 int, c3 int, v int, PRIMARY KEY (pk, c1, c2, c3))"),
    q("CREATE INDEX v_idx_1 ON %s (v);"),
    *[q("INSERT INTO %s (pk, c1, c2, c3, v) VALUES (?, ?, ?, ?, ?)", *r)
      for i in range(1, 6) for r in ((1, 1, 1, 1, i), (1, 1, 1, i, i), (1, 1, i, i, i), (1, i, i, i, i))],
    q("SELECT * FROM %s WHERE pk = 1 AND  c1 > 0 AND c1 < 5 AND c2 = 1 AND v = 3 ALLOW FILTERING;", expect=rows([1, 1, 1, 3, 3])),
    q("SELECT * FROM %s WHERE pk = 1 AND  c1 > 1 AND c1 < 5 AND c2 = 1 AND v = 3 ALLOW FILTERING;", expect=rows()),
    q("SELECT * FROM %s WHERE pk = 1 AND  c1 > 1 AND c2 > 2 AND c3 > 2 AND v = 3 ALLOW FILTERING;", expect=rows([1, 3, 3, 3, 3])),
    q("SELECT * FROM %s WHERE pk = 1 AND  c1 > 1 AND c2 > 2 AND c3 = 3 AND v = 3 ALLOW FILTERING;", expect=rows([1, 3, 3, 3, 3])),
    q("SELECT * FROM %s WHERE pk = 1 AND  c1 IN(0,1,2) AND c2 > 1 AND c2 < 1 AND v = 3 ALLOW FILTERING;", expect=rows()),
    q("SELECT * FROM %s WHERE pk = 1 AND  c1 IN(0,1,2) AND c2 = 1 AND v = 3 ALLOW FILTERING;", expect=rows([1, 1, 1, 3, 3])),
    q("SELECT * FROM %s WHERE pk = 1 AND  c1 IN(0,1,2) AND c2 = 1 AND v = 3", expect=rows([1, 1, 1, 3, 3])),
])

add("testIndexQueryWithCompositePartitionKey", [
    q("CREATE TABLE %s (p1 int, p2 int, v int, PRIMARY KEY ((p1, p2)))"),
    needs_af("SELECT * FROM %s WHERE p1 = 1 AND v = 3"),
    q("CREATE INDEX ON %s(v)"),
    q("INSERT INTO %s(p1, p2, v) values (?, ?, ?)", 1, 1, 3),
    q("INSERT INTO %s(p1, p2, v) values (?, ?, ?)", 1, 2, 3),
    q("INSERT INTO %s(p1, p2, v) values (?, ?, ?)", 2, 1, 3),
    q("SELECT * FROM %s WHERE p1 = 1 AND v = 3 ALLOW FILTERING", expect=rows([1, 2, 3], [1, 1, 3])),
])

F = b"foo123"
E = b""


def eb(s):
    return "textAsBlob('%s')" % s


PKF = "SELECT * FROM %s WHERE pk = textAsBlob('foo123') AND "
add("testEmptyRestrictionValue", [
    q("CREATE TABLE %s (pk blob, c blob, v blob, PRIMARY KEY ((pk), c))"),
    q("INSERT INTO %s (pk, c, v) VALUES (?, ?, ?)", F, b"1", b"1"),
    q("INSERT INTO %s (pk, c, v) VALUES (?, ?, ?)", F, b"2", b"2"),
    inv("SELECT * FROM %s WHERE pk = textAsBlob('');", msg="Key may not be empty"),
    inv("SELECT * FROM %s WHERE pk IN (textAsBlob(''), textAsBlob('1'));", msg="Key may not be empty"),
    inv("INSERT INTO %s (pk, c, v) VALUES (?, ?, ?)", E, b"2", b"2", msg="Key may not be empty"),
    q(PKF + "c = textAsBlob('');", expect=rows()),
    q(PKF + "(c) = (textAsBlob(''));", expect=rows()),
    q(PKF + "c IN (textAsBlob(''), textAsBlob('1'));", expect=rows([F, b"1", b"1"])),
    q(PKF + "(c) IN ((textAsBlob('')), (textAsBlob('1')));", expect=rows([F, b"1", b"1"])),
    q(PKF + "c > textAsBlob('');", expect=rows([F, b"1", b"1"], [F, b"2", b"2"])),
    q(PKF + "(c) > (textAsBlob(''));", expect=rows([F, b"1", b"1"], [F, b"2", b"2"])),
    q(PKF + "c >= textAsBlob('');", expect=rows([F, b"1", b"1"], [F, b"2", b"2"])),
    q(PKF + "(c) >= (textAsBlob(''));", expect=rows([F, b"1", b"1"], [F, b"2", b"2"])),
    q(PKF + "c <= textAsBlob('');", expect=rows()),
    q(PKF + "(c) <= (textAsBlob(''));", expect=rows()),
    q(PKF + "c < textAsBlob('');", expect=rows()),
    q(PKF + "(c) < (textAsBlob(''));", expect=rows()),
    q(PKF + "c > textAsBlob('') AND c < textAsBlob('');", expect=rows()),
])

add("testEmptyRestrictionValue.emptyClustering", [
    q("CREATE TABLE %s (pk blob, c blob, v blob, PRIMARY KEY ((pk), c))"),
    q("INSERT INTO %s (pk, c, v) VALUES (?, ?, ?)", F, b"1", b"1"),
    q("INSERT INTO %s (pk, c, v) VALUES (?, ?, ?)", F, b"2", b"2"),
    q("INSERT INTO %s (pk, c, v) VALUES (?, ?, ?)", F, E, b"4"),
    q(PKF + "c = textAsBlob('');", expect=rows([F, E, b"4"])),
    q(PKF + "(c) = (textAsBlob(''));", expect=rows([F, E, b"4"])),
    q(PKF + "c IN (textAsBlob(''), textAsBlob('1'));", expect=rows([F, E, b"4"], [F, b"1", b"1"])),
    q(PKF + "(c) IN ((textAsBlob('')), (textAsBlob('1')));", expect=rows([F, E, b"4"], [F, b"1", b"1"])),
    q(PKF + "c > textAsBlob('');", expect=rows([F, b"1", b"1"], [F, b"2", b"2"])),
    q(PKF + "(c) > (textAsBlob(''));", expect=rows([F, b"1", b"1"], [F, b"2", b"2"])),
    q(PKF + "c >= textAsBlob('');", expect=rows([F, E, b"4"], [F, b"1", b"1"], [F, b"2", b"2"])),
    q(PKF + "(c) >= (textAsBlob(''));", expect=rows([F, E, b"4"], [F, b"1", b"1"], [F, b"2", b"2"])),
    q(PKF + "c <= textAsBlob('');", expect=rows([F, E, b"4"])),
    q(PKF + "(c) <= (textAsBlob(''));", expect=rows([F, E, b"4"])),
    q(PKF + "c < textAsBlob('');", expect=rows()),
    q(PKF + "(c) < (textAsBlob(''));", expect=rows()),
    q(PKF + "c >= textAsBlob('') AND c < textAsBlob('');", expect=rows()),
    q(PKF + "v = textAsBlob('') ALLOW FILTERING;", expect=rows()),
    q("INSERT INTO %s (pk, c, v) VALUES (?, ?, ?)", F, b"3", E),
    q(PKF + "v = textAsBlob('') ALLOW FILTERING;", expect=rows([F, b"3", E])),
], method="testEmptyRestrictionValue")

R11 = [F, b"1", b"1", b"1"]
R122 = [F, b"1", b"2", b"2"]
RE4 = [F, E, b"1", b"4"]
add("testEmptyRestrictionValueWithMultipleClusteringColumns", [
    q("CREATE TABLE %s (pk blob, c1 blob, c2 blob, v blob, PRIMARY KEY (pk, c1, c2))"),
    q("INSERT INTO %s (pk, c1, c2, v) VALUES (?, ?, ?, ?)", F, b"1", b"1", b"1"),
    q("INSERT INTO %s (pk, c1, c2, v) VALUES (?, ?, ?, ?)", F, b"1", b"2", b"2"),
    q(PKF + "c1 = textAsBlob('');", expect=rows()),
    q(PKF + "c1 = textAsBlob('1') AND c2 = textAsBlob('');", expect=rows()),
    q(PKF + "(c1, c2) = (textAsBlob('1'), textAsBlob(''));", expect=rows()),
    q(PKF + "c1 IN (textAsBlob(''), textAsBlob('1')) AND c2 = textAsBlob('1');", expect=rows(R11)),
    q(PKF + "c1 = textAsBlob('1') AND c2 IN (textAsBlob(''), textAsBlob('1'));", expect=rows(R11)),
    q(PKF + "(c1, c2) IN ((textAsBlob(''), textAsBlob('1')), (textAsBlob('1'), textAsBlob('1')));", expect=rows(R11)),
    q(PKF + "c1 > textAsBlob('');", expect=rows(R11, R122)),
    q(PKF + "c1 = textAsBlob('1') AND c2 > textAsBlob('');", expect=rows(R11, R122)),
    q(PKF + "(c1, c2) > (textAsBlob(''), textAsBlob('1'));", expect=rows(R11, R122)),
    q(PKF + "c1 = textAsBlob('1') AND c2 >= textAsBlob('');", expect=rows(R11, R122)),
    q(PKF + "c1 = textAsBlob('1') AND c2 <= textAsBlob('');", expect=rows()),
    q(PKF + "(c1, c2) <= (textAsBlob('1'), textAsBlob(''));", expect=rows()),
    q("INSERT INTO %s (pk, c1, c2, v) VALUES (?, ?, ?, ?)", F, E, b"1", b"4"),
    q(PKF + "c1 = textAsBlob('');", expect=rows(RE4)),
    q(PKF + "c1 = textAsBlob('') AND c2 = textAsBlob('1');", expect=rows(RE4)),
    q(PKF + "(c1, c2) = (textAsBlob(''), textAsBlob('1'));", expect=rows(RE4)),
    q(PKF + "c1 IN (textAsBlob(''), textAsBlob('1')) AND c2 = textAsBlob('1');", expect=rows(RE4, R11)),
    q(PKF + "(c1, c2) IN ((textAsBlob(''), textAsBlob('1')), (textAsBlob('1'), textAsBlob('1')));", expect=rows(RE4, R11)),
    q(PKF + "(c1, c2) > (textAsBlob(''), textAsBlob('1'));", expect=rows(R11, R122)),
    q(PKF + "(c1, c2) >= (textAsBlob(''), textAsBlob('1'));", expect=rows(RE4, R11, R122)),
    q(PKF + "(c1, c2) <= (textAsBlob(''), textAsBlob('1'));", expect=rows(RE4)),
    q(PKF + "(c1, c2) < (textAsBlob(''), textAsBlob('1'));", expect=rows()),
])

for suffix, options, order in (("asc", "", " ORDER BY c DESC"), ("desc", " WITH CLUSTERING ORDER BY (c DESC)", "")):
    add("testEmptyRestrictionValueWithOrderBy." + suffix, [
        q("CREATE TABLE %s (pk blob, c blob, v blob, PRIMARY KEY ((pk), c))" + options),
        q("INSERT INTO %s (pk, c, v) VALUES (?, ?, ?)", F, b"1", b"1"),
        q("INSERT INTO %s (pk, c, v) VALUES (?, ?, ?)", F, b"2", b"2"),
        q(PKF + "c > textAsBlob('')" + order, expect=rows([F, b"2", b"2"], [F, b"1", b"1"])),
        q(PKF + "c >= textAsBlob('')" + order, expect=rows([F, b"2", b"2"], [F, b"1", b"1"])),
        q(PKF + "c < textAsBlob('')" + order, expect=rows()),
        q(PKF + "c <= textAsBlob('')" + order, expect=rows()),
        q("INSERT INTO %s (pk, c, v) VALUES (?, ?, ?)", F, E, b"4"),
        q(PKF + "c IN (textAsBlob(''), textAsBlob('1'))" + order, expect=rows([F, b"1", b"1"], [F, E, b"4"])),
        q(PKF + "c > textAsBlob('')" + order, expect=rows([F, b"2", b"2"], [F, b"1", b"1"])),
        q(PKF + "c >= textAsBlob('')" + order, expect=rows([F, b"2", b"2"], [F, b"1", b"1"], [F, E, b"4"])),
        q(PKF + "c < textAsBlob('')" + order, expect=rows()),
        q(PKF + "c <= textAsBlob('')" + order, expect=rows([F, E, b"4"])),
    ], method="testEmptyRestrictionValueWithOrderBy")

for suffix, options, order in (("asc", "", " ORDER BY c1 DESC, c2 DESC"),
                               ("desc", " WITH CLUSTERING ORDER BY (c1 DESC, c2 DESC)", "")):
    add("testEmptyRestrictionValueWithMultipleClusteringColumnsAndOrderBy." + suffix, [
        q("CREATE TABLE %s (pk blob, c1 blob, c2 blob, v blob, PRIMARY KEY (pk, c1, c2))" + options),
        q("INSERT INTO %s (pk, c1, c2, v) VALUES (?, ?, ?, ?)", F, b"1", b"1", b"1"),
        q("INSERT INTO %s (pk, c1, c2, v) VALUES (?, ?, ?, ?)", F, b"1", b"2", b"2"),
        q(PKF + "c1 > textAsBlob('')" + order, expect=rows(R122, R11)),
        q(PKF + "c1 = textAsBlob('1') AND c2 > textAsBlob('')" + order, expect=rows(R122, R11)),
        q(PKF + "(c1, c2) > (textAsBlob(''), textAsBlob('1'))" + order, expect=rows(R122, R11)),
        q(PKF + "c1 = textAsBlob('1') AND c2 >= textAsBlob('')" + order, expect=rows(R122, R11)),
        q("INSERT INTO %s (pk, c1, c2, v) VALUES (?, ?, ?, ?)", F, E, b"1", b"4"),
        q(PKF + "c1 IN (textAsBlob(''), textAsBlob('1')) AND c2 = textAsBlob('1')" + order, expect=rows(R11, RE4)),
        q(PKF + "(c1, c2) IN ((textAsBlob(''), textAsBlob('1')), (textAsBlob('1'), textAsBlob('1')))" + order,
          expect=rows(R11, RE4)),
        q(PKF + "(c1, c2) > (textAsBlob(''), textAsBlob('1'))" + order, expect=rows(R122, R11)),
        q(PKF + "(c1, c2) >= (textAsBlob(''), textAsBlob('1'))" + order, expect=rows(R122, R11, RE4)),
    ], method="testEmptyRestrictionValueWithMultipleClusteringColumnsAndOrderBy")

add("testWithDistinctAndJsonAsColumnName", [
    q("CREATE TABLE %s (distinct int, json int, value int, PRIMARY KEY(distinct, json))"),
    q("INSERT INTO %s (distinct, json, value) VALUES (0, 0, 0)"),
    q("SELECT distinct, json FROM %s", expect=rows([0, 0])),
    dq("SELECT distinct distinct FROM %s", expect=rows([0])),
])

from cassandra.util import Duration as _D
S1, S2, S3 = _D(0, 0, 1000000000), _D(0, 0, 2000000000), _D(0, 0, 3000000000)
add("testFilteringOnDurationColumn", [
    q("CREATE TABLE %s (k int PRIMARY KEY, d duration)"),
    q("INSERT INTO %s (k, d) VALUES (0, 1s)"),
    q("INSERT INTO %s (k, d) VALUES (1, 2s)"),
    q("INSERT INTO %s (k, d) VALUES (2, 1s)"),
    q("SELECT * FROM %s WHERE d=1s ALLOW FILTERING", expect=rows([0, S1], [2, S1])),
    q("SELECT * FROM %s WHERE d IN (1s, 3s) ALLOW FILTERING", expect=rows([0, S1], [2, S1])),
    *[inv("SELECT * FROM %%s WHERE d %s 1s ALLOW FILTERING" % op, msg="Slice restrictions are not supported on duration columns")
      for op in (">", ">=", "<=", "<")],
])

for frozen in (False, True):
    lt = "frozen<list<duration>>" if frozen else "list<duration>"
    steps = [
        q("CREATE TABLE %s (k int PRIMARY KEY, l " + lt + ")"),
        q("INSERT INTO %s (k, l) VALUES (0, [1s, 2s])"),
        q("INSERT INTO %s (k, l) VALUES (1, [2s, 3s])"),
        q("INSERT INTO %s (k, l) VALUES (2, [1s, 3s])"),
    ]
    if frozen:
        steps += [q("SELECT * FROM %s WHERE l = [1s, 2s] ALLOW FILTERING", expect=rows([0, [S1, S2]])),
                  q("SELECT * FROM %s WHERE l IN ([1s, 2s], [2s, 3s]) ALLOW FILTERING", expect=rows([1, [S2, S3]], [0, [S1, S2]]))]
    else:
        steps.append(inv("SELECT * FROM %s WHERE l IN ([1s, 2s], [2s, 3s]) ALLOW FILTERING",
                         msg="Collection column 'l' (list<duration>) cannot be restricted by a 'IN' relation"))
    steps += [inv("SELECT * FROM %%s WHERE l %s [2s, 3s] ALLOW FILTERING" % op,
                  msg="Slice restrictions are not supported on collections containing durations") for op in (">", ">=", "<=", "<")]
    steps.append(q("SELECT * FROM %s WHERE l CONTAINS 1s ALLOW FILTERING", expect=rows([0, [S1, S2]], [2, [S1, S3]])))
    add("testFilteringOnListContainingDurations." + ("frozen" if frozen else "multicell"), steps,
        method="testFilteringOnListContainingDurations")

for frozen in (False, True):
    mt = "frozen<map<int, duration>>" if frozen else "map<int, duration>"
    steps = [
        q("CREATE TABLE %s (k int PRIMARY KEY, m " + mt + ")"),
        q("INSERT INTO %s (k, m) VALUES (0, {1:1s, 2:2s})"),
        q("INSERT INTO %s (k, m) VALUES (1, {2:2s, 3:3s})"),
        q("INSERT INTO %s (k, m) VALUES (2, {1:1s, 3:3s})"),
    ]
    if frozen:
        steps += [q("SELECT * FROM %s WHERE m = {1:1s, 2:2s} ALLOW FILTERING", expect=rows([0, {1: S1, 2: S2}])),
                  q("SELECT * FROM %s WHERE m IN ({1:1s, 2:2s}, {1:1s, 3:3s}) ALLOW FILTERING",
                    expect=rows([0, {1: S1, 2: S2}], [2, {1: S1, 3: S3}]))]
    else:
        steps.append(inv("SELECT * FROM %s WHERE m IN ({1:1s, 2:2s}, {1:1s, 3:3s}) ALLOW FILTERING",
                         msg="Collection column 'm' (map<int, duration>) cannot be restricted by a 'IN' relation"))
    steps += [inv("SELECT * FROM %%s WHERE m %s {1:1s, 3:3s} ALLOW FILTERING" % op,
                  msg="Slice restrictions are not supported on collections containing durations") for op in (">", ">=", "<=", "<")]
    steps.append(q("SELECT * FROM %s WHERE m CONTAINS 1s ALLOW FILTERING", expect=rows([0, {1: S1, 2: S2}], [2, {1: S1, 3: S3}])))
    add("testFilteringOnMapContainingDurations." + ("frozen" if frozen else "multicell"), steps,
        method="testFilteringOnMapContainingDurations")

add("testFilteringOnTupleContainingDurations", [
    q("CREATE TABLE %s (k int PRIMARY KEY, t tuple<int, duration>)"),
    q("INSERT INTO %s (k, t) VALUES (0, (1, 2s))"),
    q("INSERT INTO %s (k, t) VALUES (1, (2, 3s))"),
    q("INSERT INTO %s (k, t) VALUES (2, (1, 3s))"),
    q("SELECT * FROM %s WHERE t = (1, 2s) ALLOW FILTERING", expect=rows([0, (1, S2)])),
    q("SELECT * FROM %s WHERE t IN ((1, 2s), (1, 3s)) ALLOW FILTERING", expect=rows([0, (1, S2)], [2, (1, S3)])),
    *[inv("SELECT * FROM %%s WHERE t %s (1, 2s) ALLOW FILTERING" % op,
          msg="Slice restrictions are not supported on tuples containing durations") for op in (">", ">=", "<=", "<")],
])

add("testFilteringOnUdtContainingDurations.frozen", [
    q("CREATE TYPE {ks}.{type1} (i int, d duration)"),
    q("CREATE TABLE %s (k int PRIMARY KEY, u frozen<{type1}>)"),
    q("INSERT INTO %s (k, u) VALUES (0, {i: 1, d:2s})"),
    q("INSERT INTO %s (k, u) VALUES (1, {i: 2, d:3s})"),
    q("INSERT INTO %s (k, u) VALUES (2, {i: 1, d:3s})"),
    q("SELECT * FROM %s WHERE u = {i: 1, d:2s} ALLOW FILTERING", expect=rows([0, {"i": 1, "d": S2}])),
    q("SELECT * FROM %s WHERE u IN ({i: 2, d:3s}, {i: 1, d:3s}) ALLOW FILTERING",
      expect=rows([1, {"i": 2, "d": S3}], [2, {"i": 1, "d": S3}])),
    *[inv("SELECT * FROM %%s WHERE u %s {i: 1, d:3s} ALLOW FILTERING" % op,
          msg="Slice restrictions are not supported on UDTs containing durations") for op in (">", ">=", "<=", "<")],
], method="testFilteringOnUdtContainingDurations")

add("testFilteringOnUdtContainingDurations.multicell", [
    q("CREATE TYPE {ks}.{type1} (i int, d duration)"),
    q("CREATE TABLE %s (k int PRIMARY KEY, u {type1})"),
    q("INSERT INTO %s (k, u) VALUES (0, {i: 1, d:2s})"),
    inv("SELECT * FROM %s WHERE u = {i: 1, d:2s} ALLOW FILTERING", msg="Non-frozen UDT column 'u'"),
    inv("SELECT * FROM %s WHERE u IN ({i: 2, d:3s}, {i: 1, d:3s}) ALLOW FILTERING", msg="Non-frozen UDT column 'u'"),
    *[inv("SELECT * FROM %%s WHERE u %s {i: 1, d:3s} ALLOW FILTERING" % op,
          msg="Slice restrictions are not supported on UDTs containing durations") for op in (">", ">=", "<=", "<")],
], method="testFilteringOnUdtContainingDurations")

add("testFilteringOnCollectionsWithNull", [
    q(" CREATE TABLE %s ( k int, v int, l list<int>, s set<text>, m map<text, int>, PRIMARY KEY (k, v))"),
    q("CREATE INDEX ON %s (v)", cosmos=error("Invalid"), cosmos_source=IDX_SRC),
    q("CREATE INDEX ON %s (s)"),
    q("CREATE INDEX ON %s (m)"),
    q("INSERT INTO %s (k, v, l, s, m) VALUES (0, 0, [1, 2],    {'a'},      {'a' : 1})"),
    q("INSERT INTO %s (k, v, l, s, m) VALUES (0, 1, [3, 4],    {'b', 'c'}, {'a' : 1, 'b' : 2})"),
    q("INSERT INTO %s (k, v, l, s, m) VALUES (0, 2, [1],       {'a', 'c'}, {'c' : 3})"),
    q("INSERT INTO %s (k, v, l, s, m) VALUES (1, 0, [1, 2, 4], {},         {'b' : 1})"),
    q("INSERT INTO %s (k, v, l, s, m) VALUES (1, 1, [4, 5],    {'d'},      {'a' : 1, 'b' : 3})"),
    q("INSERT INTO %s (k, v, l, s, m) VALUES (1, 2, null,      null,       null)"),
    q("SELECT k, v FROM %s WHERE l CONTAINS 1 ALLOW FILTERING", expect=rows([1, 0], [0, 0], [0, 2])),
    q("SELECT k, v FROM %s WHERE k = 0 AND l CONTAINS 1 ALLOW FILTERING", expect=rows([0, 0], [0, 2])),
    q("SELECT k, v FROM %s WHERE l CONTAINS 2 ALLOW FILTERING", expect=rows([1, 0], [0, 0])),
    q("SELECT k, v FROM %s WHERE l CONTAINS 6 ALLOW FILTERING", expect=rows()),
    q("SELECT k, v FROM %s WHERE s CONTAINS 'a' ALLOW FILTERING", expect=rows([0, 0], [0, 2])),
    q("SELECT k, v FROM %s WHERE k = 0 AND s CONTAINS 'a' ALLOW FILTERING", expect=rows([0, 0], [0, 2])),
    q("SELECT k, v FROM %s WHERE s CONTAINS 'd' ALLOW FILTERING", expect=rows([1, 1])),
    q("SELECT k, v FROM %s  WHERE s CONTAINS 'e' ALLOW FILTERING", expect=rows()),
    q("SELECT k, v FROM %s WHERE m CONTAINS 1 ALLOW FILTERING", expect=rows([1, 0], [1, 1], [0, 0], [0, 1])),
    q("SELECT k, v FROM %s WHERE k = 0 AND m CONTAINS 1 ALLOW FILTERING", expect=rows([0, 0], [0, 1])),
    q("SELECT k, v FROM %s WHERE m CONTAINS 2 ALLOW FILTERING", expect=rows([0, 1])),
    q("SELECT k, v FROM %s  WHERE m CONTAINS 4 ALLOW FILTERING", expect=rows()),
    q("SELECT k, v FROM %s WHERE m CONTAINS KEY 'a' ALLOW FILTERING", expect=rows([1, 1], [0, 0], [0, 1])),
    q("SELECT k, v FROM %s WHERE k = 0 AND m CONTAINS KEY 'a' ALLOW FILTERING", expect=rows([0, 0], [0, 1])),
    q("SELECT k, v FROM %s WHERE k = 0 AND m CONTAINS KEY 'c' ALLOW FILTERING", expect=rows([0, 2])),
])

add("testMixedTTLOnColumns", [
    q("CREATE TABLE %s (k int PRIMARY KEY, i int)"),
    q("INSERT INTO %s (k) VALUES (2);"),
    q("INSERT INTO %s (k, i) VALUES (1, 1) USING TTL 100;"),
    q("INSERT INTO %s (k, i) VALUES (3, 3) USING TTL 100;"),
    q("SELECT k, i FROM %s ", expect=rows([1, 1], [2, None], [3, 3])),
    q("SELECT k, i, ttl(i) AS name_ttl FROM %s",
      expect=rows([1, 1, approx(95, abs_=5)], [2, None, None], [3, 3, approx(95, abs_=5)])),
])

add("testMixedTTLOnColumnsWide", [
    q("CREATE TABLE %s (k int, c int, i int, PRIMARY KEY (k, c))"),
    q("INSERT INTO %s (k, c) VALUES (2, 2);"),
    q("INSERT INTO %s (k, c, i) VALUES (1, 1, 1) USING TTL 100;"),
    q("INSERT INTO %s (k, c) VALUES (1, 2) ;"),
    q("INSERT INTO %s (k, c, i) VALUES (1, 3, 3) USING TTL 100;"),
    q("INSERT INTO %s (k, c, i) VALUES (3, 3, 3) USING TTL 100;"),
    q("SELECT k, c, i FROM %s ", expect=rows([1, 1, 1], [1, 2, None], [1, 3, 3], [2, 2, None], [3, 3, 3])),
    q("SELECT k, c, i, ttl(i) AS name_ttl FROM %s",
      expect=rows([1, 1, 1, approx(95, abs_=5)], [1, 2, None, None], [1, 3, 3, approx(95, abs_=5)],
                  [2, 2, None, None], [3, 3, 3, approx(95, abs_=5)])),
])

TOKT = "CREATE TABLE %s (k1 uuid, k2 text, PRIMARY KEY ((k1, k2)))"
add("testTokenFctAcceptsValidArguments", [
    q(TOKT), q("INSERT INTO %s (k1, k2) VALUES (uuid(), 'k2')"),
    q("SELECT count(*) FROM %s WHERE token(k1, k2) >= -9223372036854775808", expect=rows([1])),
    q("SELECT token(k1, k2) FROM %s"),
])
add("testTokenFctRejectsInvalidColumnName", [
    q(TOKT), inv("SELECT token(s1, k1) FROM %s", msg="Undefined column name "),
])
add("testTokenFctRejectsInvalidColumnType", [
    q(TOKT), inv("SELECT token(k2, k1) FROM %s",
                 msg="Type error: k2 cannot be passed as argument 0 of function system.token of type uuid"),
])
add("testTokenFctRejectsInvalidColumnCount", [
    q(TOKT), inv("SELECT token(k1) FROM %s",
                 msg="Invalid number of arguments in call to function system.token: 2 required but 1 provided"),
])

add("testQuotedMapTextData", [
    q("CREATE TABLE {ks}.t1 (id int, data text, PRIMARY KEY (id))"),
    q("CREATE TABLE {ks}.t2 (id int, data map<int, text>, PRIMARY KEY (id))"),
    q("INSERT INTO {ks}.t1 (id, data) VALUES (1, 'I''m newb')"),
    q("INSERT INTO {ks}.t2 (id, data) VALUES (1, {1:'I''m newb'})"),
    q("SELECT data FROM {ks}.t1", expect=rows(["I'm newb"])),
    q("SELECT data FROM {ks}.t2", expect=rows([{1: "I'm newb"}])),
])
add("testQuotedSimpleCollectionsData", [
    q("CREATE TABLE {ks}.t3 (id int, set_data set<text>, list_data list<text>, tuple_data tuple<int, text>, PRIMARY KEY (id))"),
    q("INSERT INTO {ks}.t3 (id, set_data, list_data, tuple_data) values(1, {'I''m newb'}, ['I''m newb'], (1, 'I''m newb'))"),
    q("SELECT set_data FROM {ks}.t3", expect=rows([{"I'm newb"}])),
    q("SELECT list_data FROM {ks}.t3", expect=rows([["I'm newb"]])),
    q("SELECT tuple_data FROM {ks}.t3", expect=rows([(1, "I'm newb")])),
])
add("testQuotedUDTData", [
    q("CREATE TYPE {ks}.random (data text)"),
    q("CREATE TABLE {ks}.t4 (id int, udt_data frozen<random>, PRIMARY KEY (id))"),
    q("INSERT INTO {ks}.t4 (id, udt_data) values(1, {data: 'I''m newb'})"),
    q("SELECT udt_data FROM {ks}.t4", expect=rows([{"data": "I'm newb"}])),
])
