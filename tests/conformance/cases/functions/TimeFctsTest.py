"""cql3/functions/TimeFctsTest (Apache Cassandra 3.11 and 4.0).

The original calls the native time functions directly in Java; each case here
calls the same function through CQL on a one-row table holding the input
(2019-08-03 11:03:02 UTC). Left out: testBigIntegerToDate (a Java-only
overload). The empty-input cases pass an empty value via blobAsTimestamp(0x).
"""

import datetime
import uuid

from cassandra.util import Date

from conformance import case, q, rows

O = "cql3/functions/TimeFctsTest.java#%s"
DATE_TIME = datetime.datetime(2019, 8, 3, 11, 3, 2)
DATE = datetime.datetime(2019, 8, 3)
MS = 1564830182000  # DATE_TIME in unix milliseconds
DATE_MS = 1564790400000


def tu(ms, lsb, extra_ticks=0):
    ticks = ms * 10000 + 0x01B21DD213814000 + extra_ticks
    msb = ((ticks & 0xFFFFFFFF) << 32) | (((ticks >> 32) & 0xFFFF) << 16) | (((ticks >> 48) & 0x0FFF) | 0x1000)
    return uuid.UUID(int=(msb << 64) | lsb)


TU = tu(MS, 0x8000000000000000)
SETUP = [
    q("CREATE TABLE %s (k int PRIMARY KEY, ts timestamp, u timeuuid, d date)"),
    q("INSERT INTO %s (k, ts, u, d) VALUES (0, '2019-08-03 11:03:02+00', ?, '2019-08-03')", TU),
]


def c(method, select, expect):
    return case("TimeFctsTest.%s" % method, origin=O % method,
                steps=SETUP + [q("SELECT " + select + " FROM %s WHERE k = 0", expect=rows([expect]))])


CASES = [
    c("testMinTimeUuid", "minTimeuuid('2019-08-03 11:03:02+00')", tu(MS, 0x8080808080808080)),
    # UUIDGen.maxTimeUUID: the last 100 ns tick of the millisecond (fromUnixTimestamp(ms + 1) - 1)
    c("testMaxTimeUuid", "maxTimeuuid('2019-08-03 11:03:02+00')", tu(MS, 0x7F7F7F7F7F7F7F7F, 9999)),
    c("testDateOf", "dateOf(u)", DATE_TIME),
    c("testTimeUuidToTimestamp", "toTimestamp(u)", DATE_TIME),
    c("testUnixTimestampOfFct", "unixTimestampOf(u)", MS),
    c("testTimeUuidToUnixTimestamp", "toUnixTimestamp(u)", MS),
    c("testTimeUuidToDate", "toDate(u)", Date(datetime.date(2019, 8, 3))),
    c("testDateToTimestamp", "toTimestamp(d)", DATE),
    c("testDateToUnixTimestamp", "toUnixTimestamp(d)", DATE_MS),
    c("testTimestampToDate", "toDate(ts)", Date(datetime.date(2019, 8, 3))),
    c("testTimestampToDateWithEmptyInput", "toDate(blobAsTimestamp(0x))", None),
    c("testTimestampToUnixTimestamp", "toUnixTimestamp(ts)", MS),
    c("testTimestampToUnixTimestampWithEmptyInput", "toUnixTimestamp(blobAsTimestamp(0x))", None),
]
