"""cql3/validation/entities/CountersTest (Apache Cassandra 3.11 and 4.0).

testCounters drops the original's WITH COMPACT STORAGE (removed in 4.0, not
offered by Cosmos DB). testRegularCounters has 4.0's message (3.11: "Cannot add
a non counter column", a ConfigurationException).
"""

from conformance import case, q, rows, rows_any_order, error, unset

O = "cql3/validation/entities/CountersTest.java#%s"


def c(method, steps, suffix=None, **kw):
    return case("CountersTest.%s%s" % (method, "." + suffix if suffix else ""),
                origin=O % method, steps=steps, **kw)


CASES = [
    c("testCounters", steps=[
        q("CREATE TABLE %s (userid int, url text, total counter, PRIMARY KEY (userid, url))"),
        q("UPDATE %s SET total = total + 1 WHERE userid = 1 AND url = 'http://foo.com'"),
        q("SELECT total FROM %s WHERE userid = 1 AND url = 'http://foo.com'", expect=rows([1])),
        q("UPDATE %s SET total = total - 4 WHERE userid = 1 AND url = 'http://foo.com'"),
        q("SELECT total FROM %s WHERE userid = 1 AND url = 'http://foo.com'", expect=rows([-3])),
        q("UPDATE %s SET total = total+1 WHERE userid = 1 AND url = 'http://foo.com'"),
        q("SELECT total FROM %s WHERE userid = 1 AND url = 'http://foo.com'", expect=rows([-2])),
        q("UPDATE %s SET total = total -2 WHERE userid = 1 AND url = 'http://foo.com'"),
        q("SELECT total FROM %s WHERE userid = 1 AND url = 'http://foo.com'", expect=rows([-4])),
    ]),
    c("testRegularCounters", cassandra_version="4.0", steps=[
        q("CREATE TABLE {ks}.{t2} (id bigint PRIMARY KEY, count counter, things set<text>)",
          expect=error("Invalid", "Cannot mix counter and non counter columns in the same table")),
    ]),
    c("testCannotAlterWithNonCounterColumn", cassandra_version="4.0", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, c counter)"),
        q("ALTER TABLE %s ADD t text",
          expect=error("Config", 'Cannot have a non counter column ("t") in a counter table')),
        q("CREATE TABLE {t2} (k int PRIMARY KEY, t text)"),
        q("ALTER TABLE {t2} ADD c counter",
          expect=error("Config", 'Cannot have a counter column ("c") in a non counter table')),
    ]),
    c("testCountersOnCollections", steps=[
        q("CREATE TABLE {ks}.{t2} (k int PRIMARY KEY, l list<counter>)", expect=error("Invalid")),
        q("CREATE TABLE {ks}.{t3} (k int PRIMARY KEY, s set<counter>)", expect=error("Invalid")),
        q("CREATE TABLE {ks}.{t4} (k int PRIMARY KEY, m map<text, counter>)", expect=error("Invalid")),
    ]),
    c("testCounterUpdatesWithUnset", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, c counter)"),
        q("UPDATE %s SET c = c + 1 WHERE k = 10"),
        q("SELECT c FROM %s WHERE k = 10", expect=rows([1])),
        q("UPDATE %s SET c = c + ? WHERE k = 10", 1),
        q("SELECT c FROM %s WHERE k = 10", expect=rows([2])),
        q("UPDATE %s SET c = c + ? WHERE k = 10", unset),
        q("SELECT c FROM %s WHERE k = 10", expect=rows([2])),
        q("UPDATE %s SET c = c - ? WHERE k = 10", 1),
        q("SELECT c FROM %s WHERE k = 10", expect=rows([1])),
        q("UPDATE %s SET c = c - ? WHERE k = 10", unset),
        q("SELECT c FROM %s WHERE k = 10", expect=rows([1])),
    ]),
    c("testCounterFiltering", variants=("prepared", "simple"), steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, a counter)"),
    ] + [q("UPDATE %s SET a = a + ? WHERE k = ?", i, i) for i in range(10)] + [
        q("UPDATE %s SET a = a + ? WHERE k = ?", 6, 10),
        q("SELECT * FROM %s WHERE a > ? ALLOW FILTERING", 5,
          expect=rows_any_order([6, 6], [7, 7], [8, 8], [9, 9], [10, 6])),
        q("SELECT * FROM %s WHERE a >= ? ALLOW FILTERING", 6,
          expect=rows_any_order([6, 6], [7, 7], [8, 8], [9, 9], [10, 6])),
        q("SELECT * FROM %s WHERE a < ? ALLOW FILTERING", 3,
          expect=rows_any_order([0, 0], [1, 1], [2, 2])),
        q("SELECT * FROM %s WHERE a <= ? ALLOW FILTERING", 3,
          expect=rows_any_order([0, 0], [1, 1], [2, 2], [3, 3])),
        q("SELECT * FROM %s WHERE a = ? ALLOW FILTERING", 6, expect=rows_any_order([6, 6], [10, 6])),
    ]),
    c("testCounterFilteringWithNull", steps=[
        q("CREATE TABLE %s (k int PRIMARY KEY, a counter, b counter)"),
        q("UPDATE %s SET a = a + ? WHERE k = ?", 1, 1),
        q("SELECT * FROM %s WHERE a > ? ALLOW FILTERING", 0, expect=rows([1, 1, None])),
        q("SELECT * FROM %s WHERE b > ? ALLOW FILTERING", 1, expect=rows()),
        q("SELECT * FROM %s WHERE b >= ? ALLOW FILTERING", 1, expect=rows()),
        q("SELECT * FROM %s WHERE b < ? ALLOW FILTERING", 1, expect=rows()),
        q("SELECT * FROM %s WHERE b <= ? ALLOW FILTERING", 1, expect=rows()),
        q("SELECT * FROM %s WHERE b = ? ALLOW FILTERING", 1, expect=rows()),
        q("SELECT * FROM %s WHERE b = null ALLOW FILTERING",
          expect=error("Invalid", "Invalid null value for counter increment/decrement")),
    ]),
    c("testProhibitReversedCounterAsPartOfPrimaryKey", steps=[
        q("CREATE TABLE {ks}.{t2} (a counter, b int, PRIMARY KEY (b, a)) WITH CLUSTERING ORDER BY (a desc);",
          expect=error("Invalid", "counter type is not supported for PRIMARY KEY column 'a'")),
    ]),
    c("testCounterBatch", suffix="sameTable", steps=[
        q("CREATE TABLE %s (userid int, url text, total counter, PRIMARY KEY (userid, url))"),
        q("BEGIN UNLOGGED BATCH "
          "UPDATE %s SET total = total + 1 WHERE userid = 1 AND url = 'http://foo.com'; "
          "UPDATE %s SET total = total + 1 WHERE userid = 1 AND url = 'http://foo.com'; "
          "UPDATE %s SET total = total + 1 WHERE userid = 1 AND url = 'http://foo.com'; "
          "APPLY BATCH; "),
        q("SELECT total FROM %s WHERE userid = 1 AND url = 'http://foo.com'", expect=rows([3])),
        q("BEGIN UNLOGGED BATCH "
          "UPDATE %s SET total = total + 1 WHERE userid = 1 AND url = 'http://bar.com'; "
          "UPDATE %s SET total = total + 1 WHERE userid = 1 AND url = 'http://baz.com'; "
          "UPDATE %s SET total = total + 1 WHERE userid = 1 AND url = 'http://bad.com'; "
          "APPLY BATCH; "),
        q("SELECT url, total FROM %s WHERE userid = 1", expect=rows(
            ["http://bad.com", 1], ["http://bar.com", 1], ["http://baz.com", 1], ["http://foo.com", 3])),
    ]),
    c("testCounterBatch", suffix="severalCounters", steps=[
        q("CREATE TABLE %s (userid int, url text, first counter, second counter, third counter, "
          "PRIMARY KEY (userid, url))"),
        q("BEGIN UNLOGGED BATCH "
          "UPDATE %s SET first = first + 1 WHERE userid = 1 AND url = 'http://foo.com'; "
          "UPDATE %s SET first = first + 1 WHERE userid = 1 AND url = 'http://foo.com'; "
          "UPDATE %s SET second = second + 1 WHERE userid = 1 AND url = 'http://foo.com'; "
          "APPLY BATCH; "),
        q("SELECT first, second, third FROM %s WHERE userid = 1 AND url = 'http://foo.com'",
          expect=rows([2, 1, None])),
        q("BEGIN UNLOGGED BATCH "
          "UPDATE %s SET first = first + 1 WHERE userid = 1 AND url = 'http://bad.com'; "
          "UPDATE %s SET first = first + 1, second = second + 1 WHERE userid = 1 AND url = 'http://bar.com'; "
          "UPDATE %s SET first = first - 1, second = second - 1 WHERE userid = 1 AND url = 'http://bar.com'; "
          "UPDATE %s SET second = second + 1 WHERE userid = 1 AND url = 'http://baz.com'; "
          "APPLY BATCH; "),
        q("SELECT url, first, second, third FROM %s WHERE userid = 1", expect=rows(
            ["http://bad.com", 1, None, None], ["http://bar.com", 0, 0, None],
            ["http://baz.com", None, 1, None], ["http://foo.com", 2, 1, None])),
        q("BEGIN UNLOGGED BATCH "
          "UPDATE %s SET first = first + 1 WHERE userid = 2 AND url = 'http://bad.com'; "
          "UPDATE %s SET first = first + 1, second = second + 1 WHERE userid = 3 AND url = 'http://bar.com'; "
          "UPDATE %s SET first = first - 1, second = second - 1 WHERE userid = 4 AND url = 'http://bar.com'; "
          "UPDATE %s SET second = second + 1 WHERE userid = 5 AND url = 'http://baz.com'; "
          "APPLY BATCH; "),
        q("SELECT userid, url, first, second, third FROM %s WHERE userid IN (2, 3, 4, 5)",
          expect=rows_any_order([2, "http://bad.com", 1, None, None], [3, "http://bar.com", 1, 1, None],
                                [4, "http://bar.com", -1, -1, None], [5, "http://baz.com", None, 1, None])),
    ]),
]
