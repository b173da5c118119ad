"""cql3/validation/entities/TimeuuidTest (Apache Cassandra 3.11 and 4.0).

The original inserts now() four times and reads the values back; here four
fixed version-1 UUIDs (known times) are inserted so the expectations can be
written out, plus one now() insert as in the original. dateOf/unixTimestampOf
are 3.x names, still there (deprecated) in 4.0.
"""

import datetime
import uuid

from conformance import case, q, rows, error

O = "cql3/validation/entities/TimeuuidTest.java#%s"


def timeuuid(ms, seq):
    """A version-1 UUID for the unix time ms, fixed clock sequence and node."""
    ticks = ms * 10000 + 0x01B21DD213814000
    return uuid.UUID(fields=(ticks & 0xFFFFFFFF, (ticks >> 32) & 0xFFFF,
                             ((ticks >> 48) & 0x0FFF) | 0x1000, 0x80 | (seq >> 8), seq & 0xFF,
                             0x0123456789AB))


MS = [1564830183000, 1564830184000, 1564830185000, 1564830186000]
T = [timeuuid(m, 7) for m in MS]


def dt(ms):
    return datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=ms)


CASES = [
    case("TimeuuidTest.testTimeuuid", origin=O % "testTimeuuid", variants=("prepared", "simple"), steps=[
        q("CREATE TABLE %s (k int, t timeuuid, PRIMARY KEY(k, t))"),
        q("INSERT INTO %s (k, t) VALUES (0, 2012-11-07 18:18:22-0800)", expect=error("Syntax")),
    ] + [q("INSERT INTO %s (k, t) VALUES (0, ?)", t) for t in T] + [
        q("SELECT * FROM %s", expect=rows(*[[0, t] for t in T])),
        q("SELECT * FROM %s WHERE k = 0 AND t >= ?", T[0], expect=rows(*[[0, t] for t in T])),
        q("SELECT * FROM %s WHERE k = 0 AND t < ?", T[0], expect=rows()),
        q("SELECT * FROM %s WHERE k = 0 AND t > ? AND t <= ?", T[0], T[2], expect=rows([0, T[1]], [0, T[2]])),
        q("SELECT * FROM %s WHERE k = 0 AND t = ?", T[0], expect=rows([0, T[0]])),
        q("SELECT dateOf(k) FROM %s WHERE k = 0 AND t = ?", T[0], expect=error("Invalid")),
    ] + [q("SELECT dateOf(t), unixTimestampOf(t) FROM %s WHERE k = 0 AND t = ?", T[i],
           expect=rows([dt(MS[i]), MS[i]])) for i in range(4)] + [
        q("SELECT t FROM %s WHERE k = 0 AND t > maxTimeuuid(1564830182000) AND "
          "t < minTimeuuid('2012-11-07 18:18:22-0800')", expect=rows()),
        q("SELECT t FROM %s WHERE k = 0 AND t > maxTimeuuid(1564830183000) AND "
          "t < minTimeuuid(1564830186000)", expect=rows([T[1]], [T[2]])),
        q("INSERT INTO %s (k, t) VALUES (0, now())"),
        q("SELECT count(*) FROM %s WHERE k = 0", expect=rows([5])),
    ]),
    case("TimeuuidTest.testDescClusteringOnTimeuuid", origin=O % "testDescClusteringOnTimeuuid", steps=[
        q("CREATE TABLE %s (k int, c timeuuid, v int, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC)"),
        q("INSERT INTO %s (k, c, v) VALUES (0, now(), 0)"),
        q("SELECT k, v FROM %s", expect=rows([0, 0])),
    ]),
]
