"""Cases ported from Apache Cassandra's SelectLimitTest (cql3/validation/operations, 3.11 line).

The original runs under ByteOrderedPartitioner; the emulator uses Murmur3, so where a result
depends on partition order the expected rows are computed here in Murmur3 token order (the
order Cassandra returns a range read in). COMPACT STORAGE tables are ported as regular tables
(testPerPartitionLimitWithCompactStorage is the same method and is not repeated).
"""
import struct

from cassandra.metadata import Murmur3Token

from conformance import case, q, rows, rows_any_order, ok, error

SRC = "cql3/validation/operations/SelectLimitTest.java#%s (3.11)"
DISTINCT_SRC = "cosmos-cassandra-api-facts.md §5: DISTINCT is not supported"


def by_token(keys):
    return sorted(keys, key=lambda k: Murmur3Token.hash_fn(struct.pack(">i", k)))


URLS = sorted("http://foo.%s" % t for t in ("com", "org", "net"))


def url_table(extra=""):
    steps = [q("CREATE TABLE %s (userid int, url text, time bigint, PRIMARY KEY (userid, url))" + extra)]
    for i in range(100):
        for u in ("com", "org", "net"):
            steps.append(q("INSERT INTO %s (userid, url, time) VALUES (?, ?, ?)", i, "http://foo.%s" % u, 42))
    return steps


ORDER = by_token(range(100))
AFTER2 = ORDER[ORDER.index(2) + 1]

PPL = []
for i in range(5):
    for j in range(5):
        PPL.append(q("INSERT INTO %s (a, b, c) VALUES (?, ?, ?)", i, j, j))
P5 = by_token(range(5))
PPL_ALL = [[p, b, b] for p in P5 for b in (0, 1)]

CASES = [
    case("SelectLimitTest.testPartitionRange", origin=SRC % "testPartitionRange", steps=url_table() + [
        q("SELECT * FROM %s WHERE token(userid) >= token(2) LIMIT 1", expect=rows([2, "http://foo.com", 42])),
        q("SELECT * FROM %s WHERE token(userid) > token(2) LIMIT 1", expect=rows([AFTER2, "http://foo.com", 42])),
    ]),
    case("SelectLimitTest.testColumnRange", origin=SRC % "testColumnRange", steps=url_table() + [
        q("SELECT * FROM %s WHERE userid IN (48, 2) LIMIT 1", expect=rows([2, "http://foo.com", 42])),
    ]),
    case("SelectLimitTest.testSparseTable", origin=SRC % "testSparseTable", steps=[
        q("CREATE TABLE %s (userid int, url text, day int, month text, year int, PRIMARY KEY (userid, url))"),
        *[q("INSERT INTO %s (userid, url, day, month, year) VALUES (?, ?, 1, 'jan', 2012)", i, "http://foo.%s" % t)
          for i in range(100) for t in ("com", "org", "net")],
        q("SELECT userid, url FROM %s LIMIT 4",
          expect=rows(*([[ORDER[0], u] for u in URLS] + [[ORDER[1], URLS[0]]]))),
    ]),
    case("SelectLimitTest.testLimitInCompactTable", origin=SRC % "testLimitInCompactTable" + " (regular table)", steps=[
        q("CREATE TABLE %s (k int, v int, PRIMARY KEY (k, v) ) "),
        *[q("INSERT INTO %s(k, v) VALUES (?, ?)", i, j) for i in range(4) for j in range(4)],
        q("SELECT v FROM %s WHERE k=0 AND v > 0 AND v <= 4 LIMIT 2", expect=rows([1], [2])),
        q("SELECT v FROM %s WHERE k=0 AND v > -1 AND v <= 4 LIMIT 2", expect=rows([0], [1])),
        q("SELECT * FROM %s WHERE k IN (0, 1, 2) AND v > 0 AND v <= 4 LIMIT 2", expect=rows([0, 1], [0, 2])),
        q("SELECT * FROM %s WHERE k IN (0, 1, 2) AND v > -1 AND v <= 4 LIMIT 2", expect=rows([0, 0], [0, 1])),
        q("SELECT * FROM %s WHERE k IN (0, 1, 2) AND v > 0 AND v <= 4 LIMIT 6",
          expect=rows([0, 1], [0, 2], [0, 3], [1, 1], [1, 2], [1, 3])),
        q("SELECT * FROM %s WHERE v > 1 AND v <= 3 LIMIT 6 ALLOW FILTERING",
          expect=rows(*[[k, v] for k in by_token(range(4))[:3] for v in (2, 3)])),
    ]),
    case("SelectLimitTest.testPerPartitionLimit", origin=SRC % "testPerPartitionLimit", steps=[
        q("CREATE TABLE %s (a int, b int, c int, PRIMARY KEY (a, b))"),
        *PPL,
        q("SELECT * FROM %s PER PARTITION LIMIT ?", 0, expect=error("Invalid", "LIMIT must be strictly positive")),
        q("SELECT * FROM %s PER PARTITION LIMIT ?", -1, expect=error("Invalid", "LIMIT must be strictly positive")),
        q("SELECT * FROM %s PER PARTITION LIMIT ?", 2, expect=rows_any_order(*PPL_ALL)),
        q("SELECT * FROM %s PER PARTITION LIMIT ? LIMIT ?", 2, 6, expect=rows(*PPL_ALL[:6])),
        q("SELECT * FROM %s PER PARTITION LIMIT ? LIMIT ?", 2, 5, expect=rows(*PPL_ALL[:5])),
        q("SELECT * FROM %s WHERE a IN (2,3) PER PARTITION LIMIT ?", 2,
          expect=rows([2, 0, 0], [2, 1, 1], [3, 0, 0], [3, 1, 1])),
        q("SELECT * FROM %s WHERE a IN (2,3) PER PARTITION LIMIT ? LIMIT 3", 2, expect=rows([2, 0, 0], [2, 1, 1], [3, 0, 0])),
        q("SELECT * FROM %s WHERE a IN (1,2,3) PER PARTITION LIMIT ? LIMIT 3", 2,
          expect=rows([1, 0, 0], [1, 1, 1], [2, 0, 0])),
        q("SELECT * FROM %s WHERE a = ? PER PARTITION LIMIT ?", 2, 3, expect=rows([2, 0, 0], [2, 1, 1], [2, 2, 2])),
    ]),
    case("SelectLimitTest.testPerPartitionLimit.ordering", origin=SRC % "testPerPartitionLimit", steps=[
        q("CREATE TABLE %s (a int, b int, c int, PRIMARY KEY (a, b))"),
        *PPL,
        # CQLTester's execute() does not page; through a driver (paging on) Cassandra refuses it
        q("SELECT * FROM %s WHERE a IN (3, 2) ORDER BY b DESC PER PARTITION LIMIT ?", 2, page_size=0,
          expect=rows([2, 4, 4], [3, 4, 4], [2, 3, 3], [3, 3, 3])),
        q("SELECT * FROM %s WHERE a IN (3, 2) ORDER BY b DESC PER PARTITION LIMIT ?", 2,
          expect=error("Invalid", "Cannot page queries with both ORDER BY and a IN restriction on the partition key")),
        q("SELECT * FROM %s WHERE a IN (3, 2) ORDER BY b DESC PER PARTITION LIMIT ? LIMIT ?", 3, 4,
          expect=rows([2, 4, 4], [3, 4, 4], [2, 3, 3], [3, 3, 3])),
        q("SELECT * FROM %s WHERE a = ? ORDER BY b DESC PER PARTITION LIMIT ?", 2, 3,
          expect=rows([2, 4, 4], [2, 3, 3], [2, 2, 2])),
    ]),
    case("SelectLimitTest.testPerPartitionLimit.filtering", origin=SRC % "testPerPartitionLimit", steps=[
        q("CREATE TABLE %s (a int, b int, c int, PRIMARY KEY (a, b))"),
        *PPL,
        q("SELECT * FROM %s WHERE a = ? AND b > ? PER PARTITION LIMIT ? ALLOW FILTERING", 2, 0, 2,
          expect=rows([2, 1, 1], [2, 2, 2])),
        q("SELECT * FROM %s WHERE a = ? AND b > ? ORDER BY b DESC PER PARTITION LIMIT ? ALLOW FILTERING", 2, 2, 2,
          expect=rows([2, 4, 4], [2, 3, 3])),
    ]),
    case("SelectLimitTest.testPerPartitionLimit.invalid", origin=SRC % "testPerPartitionLimit", steps=[
        q("CREATE TABLE %s (a int, b int, c int, PRIMARY KEY (a, b))"),
        q("SELECT DISTINCT a FROM %s PER PARTITION LIMIT ?", 3,
          expect=error("Invalid", "PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries"),
          cosmos=error("Invalid"), cosmos_source=DISTINCT_SRC),
        q("SELECT DISTINCT a FROM %s PER PARTITION LIMIT ? LIMIT ?", 3, 4,
          expect=error("Invalid", "PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries"),
          cosmos=error("Invalid"), cosmos_source=DISTINCT_SRC),
        q("SELECT COUNT(*) FROM %s PER PARTITION LIMIT ?", 3,
          expect=error("Invalid", "PER PARTITION LIMIT is not allowed with aggregate queries.")),
    ]),
]
