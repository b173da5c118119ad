"""cql3/validation/entities/SecondaryIndexOnStaticColumnTest (Apache Cassandra 4.0; 3.11 has no static indexes).

Rows from several partitions are in Murmur3 token order, as the original
asserts. Cosmos DB does not support secondary indexes on static columns
(secondary-indexing.md): under --profile cosmos every CREATE INDEX here is
refused and the index lookups then need ALLOW FILTERING, as the service says.
"""

from conformance import case, q, rows, error

O = "cql3/validation/entities/SecondaryIndexOnStaticColumnTest.java#%s"
NO_STATIC = "cosmos-cassandra-api-facts.md s5 (secondary-indexing.md): no secondary indexes on static columns"


def c(method, steps, **kw):
    return case("SecondaryIndexOnStaticColumnTest.%s" % method, origin=O % method, steps=steps,
                cassandra_version="4.0", **kw)


def index(text):
    return q(text, cosmos=error("Invalid"), cosmos_source=NO_STATIC)


def lookup(text, *values, expect):
    return q(text, *values, expect=expect, cosmos=error("Invalid", "ALLOW FILTERING"), cosmos_source=NO_STATIC)


CASES = [
    c("testSimpleStaticColumn", steps=[
        q("CREATE TABLE %s (id int, name text, age int static, PRIMARY KEY (id, name))"),
        index("CREATE INDEX static_age on %s(age)"),
        q("INSERT INTO %s (id, name, age) VALUES (?, ?, ?)", 1, "Taylor", 24),
        q("INSERT INTO %s (id, name, age) VALUES (?, ?, ?)", 1, "Swift", 24),
        q("INSERT INTO %s (id, name, age) VALUES (?, ?, ?)", 2, "Jamie", 32),
        lookup("SELECT id, name, age FROM %s WHERE age=?", 24, expect=rows([1, "Swift", 24], [1, "Taylor", 24])),
        lookup("SELECT id, name, age FROM %s WHERE age=?", 32, expect=rows([2, "Jamie", 32])),
        q("UPDATE %s SET age = ? WHERE id = ?", 40, 1),
        lookup("SELECT id, name, age FROM %s WHERE age=?", 24, expect=rows()),
        lookup("SELECT id, name, age FROM %s WHERE age=?", 40, expect=rows([1, "Swift", 40], [1, "Taylor", 40])),
        q("DELETE FROM %s WHERE id = ?", 2),
        lookup("SELECT id, name, age FROM %s WHERE age=?", 32, expect=rows()),
    ]),
    c("testIndexOnCompoundRowKey", steps=[
        q("CREATE TABLE %s (interval text, seq int, id int, severity int static, "
          "PRIMARY KEY ((interval, seq), id) ) WITH CLUSTERING ORDER BY (id DESC)"),
        index("CREATE INDEX ON %s (severity)"),
    ] + [q("insert into %s (interval, seq, id , severity) values('" + i + "'," + s + ", " + d + ", " + v + ")")
         for i, v in (("t", "10"), ("m", "11")) for s in ("1", "2") for d in ("3", "4")] + [
        lookup("select * from %s where severity = 10 and interval = 't' and seq = 1",
               expect=rows(["t", 1, 4, 10], ["t", 1, 3, 10])),
    ]),
    c("testIndexOnCollections", steps=[
        q("CREATE TABLE %s (k int, v int, l list<int> static, s set<text> static, m map<text, int> static, "
          "PRIMARY KEY (k, v))"),
        index("CREATE INDEX ON %s (l)"), index("CREATE INDEX ON %s (s)"),
        index("CREATE INDEX ON %s (m)"), index("CREATE INDEX ON %s (keys(m))"),
        q("INSERT INTO %s (k, v, l, s, m) VALUES (0, 0, [1, 2],    {'a'},      {'a' : 1, 'b' : 2})"),
        q("INSERT INTO %s (k, v)          VALUES (0, 1)                                  "),
        q("INSERT INTO %s (k, v, l, s, m) VALUES (1, 0, [4, 5],    {'d'},      {'b' : 1, 'c' : 4})"),
        lookup("SELECT k, v FROM %s WHERE l CONTAINS 1", expect=rows([0, 0], [0, 1])),
        lookup("SELECT k, v FROM %s WHERE k = 1 AND l CONTAINS 1", expect=rows()),
        lookup("SELECT k, v FROM %s WHERE l CONTAINS 4", expect=rows([1, 0])),
        lookup("SELECT k, v FROM %s WHERE l CONTAINS 6", expect=rows()),
        q("UPDATE %s SET l = l + [3] WHERE k = ?", 0),
        lookup("SELECT k, v FROM %s WHERE l CONTAINS 3", expect=rows([0, 0], [0, 1])),
        lookup("SELECT k, v FROM %s WHERE s CONTAINS 'a'", expect=rows([0, 0], [0, 1])),
        lookup("SELECT k, v FROM %s WHERE k = 0 AND s CONTAINS 'a'", expect=rows([0, 0], [0, 1])),
        lookup("SELECT k, v FROM %s WHERE s CONTAINS 'd'", expect=rows([1, 0])),
        lookup("SELECT k, v FROM %s  WHERE s CONTAINS 'e'", expect=rows()),
        q("UPDATE %s SET s = s + {'b'} WHERE k = ?", 0),
        lookup("SELECT k, v FROM %s WHERE s CONTAINS 'b'", expect=rows([0, 0], [0, 1])),
        q("UPDATE %s SET s = s - {'a'} WHERE k = ?", 0),
        lookup("SELECT k, v FROM %s WHERE s CONTAINS 'a'", expect=rows()),
        lookup("SELECT k, v FROM %s WHERE m CONTAINS 1", expect=rows([1, 0], [0, 0], [0, 1])),
        lookup("SELECT k, v FROM %s WHERE k = 0 AND m CONTAINS 1", expect=rows([0, 0], [0, 1])),
        lookup("SELECT k, v FROM %s WHERE m CONTAINS 4", expect=rows([1, 0])),
        lookup("SELECT k, v FROM %s  WHERE m CONTAINS 5", expect=rows()),
        lookup("SELECT k, v FROM %s WHERE m CONTAINS KEY 'b'", expect=rows([1, 0], [0, 0], [0, 1])),
        lookup("SELECT k, v FROM %s WHERE k = 0 AND m CONTAINS KEY 'b'", expect=rows([0, 0], [0, 1])),
        lookup("SELECT k, v FROM %s WHERE m CONTAINS KEY 'c'", expect=rows([1, 0])),
        lookup("SELECT k, v FROM %s  WHERE m CONTAINS KEY 'd'", expect=rows()),
        q("UPDATE %s SET m['c'] = 5 WHERE k = 0"),
        lookup("SELECT k, v FROM %s WHERE m CONTAINS 5", expect=rows([0, 0], [0, 1])),
        lookup("SELECT k, v FROM %s WHERE m CONTAINS KEY 'c'", expect=rows([1, 0], [0, 0], [0, 1])),
        q("DELETE m['a'] FROM %s WHERE k = 0"),
        lookup("SELECT k, v FROM %s  WHERE m CONTAINS KEY 'a'", expect=rows()),
    ]),
    c("testIndexOnFrozenCollections", steps=[
        q("CREATE TABLE %s (k int, v int, l frozen<list<int>> static, s frozen<set<text>> static, "
          "m frozen<map<text, int>> static, PRIMARY KEY (k, v))"),
        index("CREATE INDEX ON %s (FULL(l))"), index("CREATE INDEX ON %s (FULL(s))"),
        index("CREATE INDEX ON %s (FULL(m))"),
        q("INSERT INTO %s (k, v, l, s, m) VALUES (0, 0, [1, 2],    {'a'},      {'a' : 1, 'b' : 2})"),
        q("INSERT INTO %s (k, v)          VALUES (0, 1)                                  "),
        q("INSERT INTO %s (k, v, l, s, m) VALUES (1, 0, [4, 5],    {'d'},      {'b' : 1, 'c' : 4})"),
        q("UPDATE %s SET l=[3], s={'3'}, m={'3': 3} WHERE k=3"),
        lookup("SELECT k, v FROM %s WHERE l = [1, 2]", expect=rows([0, 0], [0, 1])),
        lookup("SELECT k, v FROM %s WHERE k = 1 AND l = [1, 2]", expect=rows()),
        lookup("SELECT k, v FROM %s WHERE l = [4]", expect=rows()),
        lookup("SELECT k, v FROM %s WHERE l = [3]", expect=rows([3, None])),
        q("UPDATE %s SET l = [1, 2, 3] WHERE k = ?", 0),
        lookup("SELECT k, v FROM %s WHERE l = [1, 2]", expect=rows()),
        lookup("SELECT k, v FROM %s WHERE l = [1, 2, 3]", expect=rows([0, 0], [0, 1])),
        lookup("SELECT k, v FROM %s WHERE s = {'a'}", expect=rows([0, 0], [0, 1])),
        lookup("SELECT k, v FROM %s WHERE k = 1 AND s = {'a'}", expect=rows()),
        lookup("SELECT k, v FROM %s WHERE s = {'b'}", expect=rows()),
        lookup("SELECT k, v FROM %s WHERE s = {'3'}", expect=rows([3, None])),
        q("UPDATE %s SET s = {'a', 'b'} WHERE k = ?", 0),
        lookup("SELECT k, v FROM %s WHERE s = {'a'}", expect=rows()),
        lookup("SELECT k, v FROM %s WHERE s = {'a', 'b'}", expect=rows([0, 0], [0, 1])),
        lookup("SELECT k, v FROM %s WHERE m = {'a' : 1, 'b' : 2}", expect=rows([0, 0], [0, 1])),
        lookup("SELECT k, v FROM %s WHERE k = 1 AND m = {'a' : 1, 'b' : 2}", expect=rows()),
        lookup("SELECT k, v FROM %s WHERE m = {'a' : 1, 'b' : 3}", expect=rows()),
        lookup("SELECT k, v FROM %s WHERE m = {'a' : 1, 'c' : 2}", expect=rows()),
        lookup("SELECT k, v FROM %s WHERE m = {'3': 3}", expect=rows([3, None])),
        q("UPDATE %s SET m = {'a': 2, 'b': 3} WHERE k = ?", 0),
        lookup("SELECT k, v FROM %s WHERE m = {'a': 1, 'b': 2}", expect=rows()),
        lookup("SELECT k, v FROM %s WHERE m = {'a': 2, 'b': 3}", expect=rows([0, 0], [0, 1])),
    ]),
    c("testStaticIndexAndNonStaticIndex", steps=[
        q("CREATE TABLE %s (id int, company text, age int static, salary int, PRIMARY KEY(id, company))"),
        index("CREATE INDEX on %s(age)"),
        q("CREATE INDEX on %s(salary)"),
        q("INSERT INTO %s(id, company, age, salary) VALUES(?, ?, ?, ?)", 1, "company1", 20, 1000),
        q("INSERT INTO %s(id, company,      salary) VALUES(?, ?,    ?)", 1, "company2", 2000),
        q("INSERT INTO %s(id, company, age, salary) VALUES(?, ?, ?, ?)", 2, "company1", 40, 2000),
        q("SELECT id, company, age, salary FROM %s WHERE age = 20 AND salary = 2000 ALLOW FILTERING",
          expect=rows([1, "company2", 20, 2000])),
    ]),
    c("testIndexOnUDT", steps=[
        q("CREATE TYPE {type1} (street text, city text)"),
        q("CREATE TABLE %s (id int, company text, home frozen<type1> static, price int, PRIMARY KEY(id, company))"),
        index("CREATE INDEX on %s(home)"),
        q("INSERT INTO %s(id, company, home, price) VALUES(1, 'Random', {street: 'Centre', city: 'C'}, 10000)"),
        lookup("SELECT id, company FROM %s WHERE home = {street: 'Centre', city: 'C'}", expect=rows([1, "Random"])),
        q("UPDATE %s SET home = {street: 'Fifth', city: 'P'} WHERE id = 1"),
        lookup("SELECT id, company FROM %s WHERE home = {street: 'Centre', city: 'C'}", expect=rows()),
        lookup("SELECT id, company FROM %s WHERE home = {street: 'Fifth', city: 'P'}", expect=rows([1, "Random"])),
    ]),
]
