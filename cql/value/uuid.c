/*
 * uuid.c - uuid generation, parsing and formatting (cql layer).
 *
 * Version 4 uuids come from a xoshiro256** generator seeded once from the
 * kernel (getrandom, else /dev/urandom, else time and address bits): fast,
 * and unpredictable enough for ids. Version 1 (timeuuid) values carry 100ns
 * ticks since 1582-10-15 and are strictly increasing within the process:
 * when the clock does not move (or moves back) the tick is bumped by one,
 * so now() never returns the same value twice. The clock sequence and node
 * are random per process, the node with the multicast bit set as RFC 4122
 * asks for random nodes. The process is single-threaded (one event loop).
 */
#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include "cql/value/value_int.h"

/* 100ns ticks between 1582-10-15 and 1970-01-01. */
#define UUID_EPOCH_OFFSET 0x01B21DD213814000ULL

static uint64_t rng_state[4];
static bool rng_seeded;
static uint64_t last_ticks;
static uint8_t clock_and_node[8];


static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}


static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}


static void seed_once(void)
{
    if (rng_seeded) {
        return;
    }
    uint8_t seed[32];
    size_t got = 0;
    while (got < sizeof(seed)) {
        ssize_t n = getrandom(seed + got, sizeof(seed) - got, 0);
        if (n <= 0) {
            break;
        }
        got += (size_t)n;
    }
    if (got < sizeof(seed)) {
        int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            ssize_t n = read(fd, seed, sizeof(seed));
            got = n > 0 ? (size_t)n : 0;
            close(fd);
        }
    }
    /* Mix in the clock and an address so even a failed read gives distinct seeds. */
    uint64_t x = (uint64_t)base_now_us() ^ ((uint64_t)(uintptr_t)&got << 16) ^ (uint64_t)getpid();
    for (int i = 0; i < 4; i++) {
        uint64_t s = 0;
        if (got == sizeof(seed)) {
            memcpy(&s, seed + 8 * i, 8);
        }
        rng_state[i] = s ^ splitmix(&x);
    }
    rng_seeded = true;
    uint64_t cn = rng_state[0] ^ rotl(rng_state[2], 17);
    base_store_u64(clock_and_node, cn);
    clock_and_node[0] = (uint8_t)(0x80 | (clock_and_node[0] & 0x3F)); /* variant 10 */
    clock_and_node[2] |= 0x01;                                        /* multicast */
}


static uint64_t rng_next(void)
{
    seed_once();
    uint64_t *s = rng_state;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}


void cql__uuid_random(uint8_t out[16])
{
    base_store_u64(out, rng_next());
    base_store_u64(out + 8, rng_next());
    out[6] = (uint8_t)(0x40 | (out[6] & 0x0F));
    out[8] = (uint8_t)(0x80 | (out[8] & 0x3F));
}


/* Lays out a 60-bit tick count as time_low, time_mid, version|time_hi. */
static void put_time(uint8_t out[16], uint64_t ticks)
{
    out[0] = (uint8_t)(ticks >> 24);
    out[1] = (uint8_t)(ticks >> 16);
    out[2] = (uint8_t)(ticks >> 8);
    out[3] = (uint8_t)ticks;
    out[4] = (uint8_t)(ticks >> 40);
    out[5] = (uint8_t)(ticks >> 32);
    out[6] = (uint8_t)(0x10 | ((ticks >> 56) & 0x0F));
    out[7] = (uint8_t)(ticks >> 48);
}


void cql__timeuuid_now(uint8_t out[16])
{
    seed_once();
    uint64_t ticks = (uint64_t)base_now_us() * 10 + UUID_EPOCH_OFFSET;
    if (ticks <= last_ticks) {
        ticks = last_ticks + 1;
    }
    last_ticks = ticks;
    put_time(out, ticks);
    memcpy(out + 8, clock_and_node, 8);
}


void cql__timeuuid_from_ms(uint8_t out[16], int64_t ms, bool max)
{
    /* Cassandra's UUIDGen.minTimeUUID/maxTimeUUID: the first or last tick of the
     * millisecond, with the clock-and-node bytes that sort lowest/highest under
     * TimeUUIDType's signed byte comparison. */
    uint64_t ticks = (uint64_t)ms * 10000u + UUID_EPOCH_OFFSET;
    if (max) {
        ticks += 9999;
    }
    put_time(out, ticks);
    memset(out + 8, max ? 0x7F : 0x80, 8);
}


int64_t cql__timeuuid_ms(const uint8_t uuid[16])
{
    uint64_t ticks = ((uint64_t)(uuid[6] & 0x0F) << 56) | ((uint64_t)uuid[7] << 48) |
                     ((uint64_t)uuid[4] << 40) | ((uint64_t)uuid[5] << 32) | base_load_u32(uuid);
    return (int64_t)(ticks / 10000) - 12219292800000LL;
}


void cql__uuid_format(const uint8_t uuid[16], char out[37])
{
    static const char hex[] = "0123456789abcdef";
    size_t j = 0;
    for (size_t i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            out[j++] = '-';
        }
        out[j++] = hex[uuid[i] >> 4];
        out[j++] = hex[uuid[i] & 15];
    }
    out[j] = '\0';
}


static int hexval(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}


bool cql__uuid_parse(const char *text, uint8_t out[16])
{
    if (text == NULL) {
        return false;
    }
    size_t j = 0;
    for (size_t i = 0; i < 36; i++) {
        char c = text[i];
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (c != '-') {
                return false;
            }
            continue;
        }
        int hi = hexval(c);
        int lo = hi < 0 ? -1 : hexval(text[++i]);
        if (lo < 0) {
            return false;
        }
        out[j++] = (uint8_t)(hi << 4 | lo);
    }
    return text[36] == '\0';
}
