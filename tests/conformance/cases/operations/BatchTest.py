"""Cases ported from Apache Cassandra's BatchTest (cql3/validation/operations, 3.11 line).

Every original batch is a logged batch (BEGIN BATCH), which the service refuses; each method is
therefore ported twice: as written (cosmos: refused, nothing applied) and with BEGIN UNLOGGED
BATCH (suffix .unlogged), whose results both profiles share.
Left out: the COMPACT STORAGE option of testBatchRangeDelete (run on a regular table), flush().
"""
from cassandra.query import UNSET_VALUE

from conformance import case, q, rows, rows_any_order, ok, error

SRC = "cql3/validation/operations/BatchTest.java#%s (3.11)"
LOGGED = "cosmos-cassandra-api-facts.md §5.1/§8: logged batches are not supported (unlogged only)"
REFUSED = error("Server", "Logged batches are not supported")

CASES = []


def both(name, build):
    """build(kind) returns the steps; kind is 'BATCH' or 'UNLOGGED BATCH'."""
    CASES.append(case("BatchTest." + name, origin=SRC % name, steps=build("BATCH", True)))
    CASES.append(case("BatchTest." + name + ".unlogged", origin=SRC % name + " with UNLOGGED",
                      steps=build("UNLOGGED BATCH", False)))


def batch(kind, logged, body, *values):
    if logged:
        return q("BEGIN %s %s APPLY BATCH" % (kind, body), *values, cosmos=REFUSED, cosmos_source=LOGGED)
    return q("BEGIN %s %s APPLY BATCH" % (kind, body), *values)


def after(logged, text, *values, expect, cosmos_rows):
    if logged:
        return q(text, *values, expect=expect, cosmos=cosmos_rows, cosmos_source=LOGGED)
    return q(text, *values, expect=expect)


both("testBatch", lambda kind, logged: [
    q("CREATE TABLE %s (userid text PRIMARY KEY, name text, password text)"),
    batch(kind, logged,
          "INSERT INTO %s (userid, password, name) VALUES ('user2', 'ch@ngem3b', 'second user');\n"
          "UPDATE %s SET password = 'ps22dhds' WHERE userid = 'user3';\n"
          "INSERT INTO %s (userid, password) VALUES ('user4', 'ch@ngem3c');\n"
          "DELETE name FROM %s WHERE userid = 'user1';\n"),
    after(logged, "SELECT * FROM %s WHERE userid IN ('user1', 'user2', 'user3', 'user4')",
          expect=rows(["user2", "second user", "ch@ngem3b"], ["user3", None, "ps22dhds"], ["user4", None, "ch@ngem3c"]),
          cosmos_rows=rows()),
])

both("testBatchAndList", lambda kind, logged: [
    q("CREATE TABLE %s (k int PRIMARY KEY, l list<int>)"),
    batch(kind, logged, "UPDATE %s SET l = l +[ 1 ] WHERE k = 0; UPDATE %s SET l = l + [ 2 ] WHERE k = 0; "
                        "UPDATE %s SET l = l + [ 3 ] WHERE k = 0; "),
    after(logged, "SELECT l FROM %s WHERE k = 0", expect=rows([[1, 2, 3]]), cosmos_rows=rows()),
    batch(kind, logged, "UPDATE %s SET l =[ 1 ] + l WHERE k = 1; UPDATE %s SET l = [ 2 ] + l WHERE k = 1; "
                        "UPDATE %s SET l = [ 3 ] + l WHERE k = 1; "),
    after(logged, "SELECT l FROM %s WHERE k = 1", expect=rows([[3, 2, 1]]), cosmos_rows=rows()),
])

both("testBatchDeleteInsert", lambda kind, logged: [
    q("CREATE TABLE %s (k int, v int, PRIMARY KEY (k, v))"),
    q("INSERT INTO %s (k, v) VALUES (0, 1)"),
    batch(kind, logged, "DELETE FROM %s WHERE k=0 AND v=1; INSERT INTO %s (k, v) VALUES (0, 2);"),
    after(logged, "SELECT * FROM %s", expect=rows([0, 2]), cosmos_rows=rows([0, 1])),
])

both("testBatchWithUnset", lambda kind, logged: [
    q("CREATE TABLE %s (k int PRIMARY KEY, s text, i int)"),
    batch(kind, logged,
          "INSERT INTO %s (k, s, i) VALUES (100, 'batchtext', 7); INSERT INTO %s (k, s, i) VALUES (111, 'batchtext', 7); "
          "UPDATE %s SET s=?, i=? WHERE k = 100; UPDATE %s SET s=?, i=? WHERE k=111; ",
          None, UNSET_VALUE, UNSET_VALUE, None),
    after(logged, "SELECT k, s, i FROM %s where k in (100,111)",
          expect=rows([100, None, 7], [111, "batchtext", None]), cosmos_rows=rows()),
])


def range_delete(kind, logged):
    steps = [q("CREATE TABLE %s (partitionKey int, clustering int, value int, PRIMARY KEY (partitionKey, clustering))")]
    v = 0
    for pk in range(4):
        for c in range(5):
            steps.append(q("INSERT INTO %s (partitionKey, clustering, value) VALUES (?, ?, ?)", pk, c, v))
            v += 1
    steps.append(batch(kind, logged,
                       "DELETE FROM %s WHERE partitionKey = 1;"
                       "DELETE FROM %s WHERE partitionKey = 0 AND  clustering >= 4;"
                       "DELETE FROM %s WHERE partitionKey = 0 AND clustering <= 0;"
                       "DELETE FROM %s WHERE partitionKey = 2 AND clustering >= 0 AND clustering <= 3;"
                       "DELETE FROM %s WHERE partitionKey = 2 AND clustering <= 3 AND clustering >= 4;"
                       "DELETE FROM %s WHERE partitionKey = 3 AND (clustering) >= (3) AND (clustering) <= (6);"))
    steps.append(after(logged, "SELECT * FROM %s WHERE partitionKey IN (0, 1, 2, 3)",
                       expect=rows([0, 1, 1], [0, 2, 2], [0, 3, 3], [2, 4, 14], [3, 0, 15], [3, 1, 16], [3, 2, 17]),
                       cosmos_rows=rows(*[[pk, c, pk * 5 + c] for pk in range(4) for c in range(5)])))
    return steps


both("testBatchRangeDelete", range_delete)


def batch_update(kind, logged):
    steps = [q("CREATE TABLE %s (partitionKey int, clustering_1 int, value int, PRIMARY KEY (partitionKey, clustering_1))")]
    steps += [q("INSERT INTO %s (partitionKey, clustering_1, value) VALUES (0, ?, ?)", i, i) for i in range(7)]
    steps.append(batch(kind, logged,
                       "UPDATE %s SET value = 7 WHERE partitionKey = 0 AND clustering_1 = 1"
                       " UPDATE %s SET value = 8 WHERE partitionKey = 0 AND (clustering_1) = (2)"
                       " UPDATE %s SET value = 10 WHERE partitionKey = 0 AND clustering_1 IN (3, 4)"
                       " UPDATE %s SET value = 20 WHERE partitionKey = 0 AND (clustering_1) IN ((5), (6))"))
    steps.append(after(logged, "SELECT * FROM %s",
                       expect=rows([0, 0, 0], [0, 1, 7], [0, 2, 8], [0, 3, 10], [0, 4, 10], [0, 5, 20], [0, 6, 20]),
                       cosmos_rows=rows(*[[0, i, i] for i in range(7)])))
    return steps


both("testBatchUpdate", batch_update)

both("testBatchEmpty", lambda kind, logged: [
    batch(kind, logged, ""),
])

both("testBatchMultipleTable", lambda kind, logged: [
    q("CREATE TABLE {ks}.{t2} (k1 int PRIMARY KEY, v11 int, v12 int)"),
    q("CREATE TABLE {ks}.{t3} (k2 int PRIMARY KEY, v21 int, v22 int)"),
    batch(kind, logged, "UPDATE {ks}.{t2} SET v11 = 1 WHERE k1 = 0; UPDATE {ks}.{t2} SET v12 = 2 WHERE k1 = 0; "
                        "UPDATE {ks}.{t3} SET v21 = 3 WHERE k2 = 0; UPDATE {ks}.{t3} SET v22 = 4 WHERE k2 = 0; "),
    after(logged, "SELECT * FROM {ks}.{t2}", expect=rows([0, 1, 2]), cosmos_rows=rows()),
    after(logged, "SELECT * FROM {ks}.{t3}", expect=rows([0, 3, 4]), cosmos_rows=rows()),
])
