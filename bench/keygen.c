/*
 * keygen.c - uniform and scrambled-zipfian key choice (see keygen.h).
 *
 * The zipfian part is Gray et al.'s "Quickly generating billion-record
 * synthetic databases" as YCSB implements it (ZipfianGenerator), and the
 * scrambling is YCSB's ScrambledZipfianGenerator: draw from a zipfian over
 * 10^10 items whose zeta constant YCSB precomputed, hash the draw with
 * 64-bit FNV-1a and take it modulo n. So the popularity curve does not
 * depend on n and needs no O(n) set-up, exactly as in YCSB.
 */
#include "keygen.h"

#include <math.h>

#define ZIPF_THETA 0.99
#define ZIPF_ITEMS 10000000000.0     /* YCSB ScrambledZipfianGenerator.ITEM_COUNT */
#define ZIPF_ZETAN 26.46902820178302 /* zeta(10^10, 0.99), YCSB's constant */
#define FNV_OFFSET 0xCBF29CE484222325ull
#define FNV_PRIME  1099511628211ull


static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}


/* YCSB's Utils.fnvhash64: FNV-1a over the 8 little-end bytes, made positive. */
static uint64_t fnv64(uint64_t v)
{
    uint64_t h = FNV_OFFSET;
    for (int i = 0; i < 8; i++) {
        h ^= v & 0xFF;
        h *= FNV_PRIME;
        v >>= 8;
    }
    int64_t s = (int64_t)h;
    return s < 0 ? (uint64_t)(-(s + 1)) + 1 : (uint64_t)s;
}


void keygen_init(keygen_t *g, uint64_t n, bool zipfian, uint64_t seed)
{
    g->rng = seed * 0x2545F4914F6CDD1Dull + 1;
    g->n = n > 0 ? n : 1;
    g->zipfian = zipfian;
}


uint64_t keygen_rand(keygen_t *g)
{
    return splitmix64(&g->rng);
}


double keygen_rand01(keygen_t *g)
{
    return (double)(keygen_rand(g) >> 11) * (1.0 / 9007199254740992.0);
}


static uint64_t zipf_draw(keygen_t *g)
{
    static double eta = 0, alpha = 0, zeta2 = 0;
    if (alpha == 0) {
        zeta2 = 1.0 + pow(0.5, ZIPF_THETA);
        alpha = 1.0 / (1.0 - ZIPF_THETA);
        eta = (1.0 - pow(2.0 / ZIPF_ITEMS, 1.0 - ZIPF_THETA)) / (1.0 - zeta2 / ZIPF_ZETAN);
    }
    double u = keygen_rand01(g);
    double uz = u * ZIPF_ZETAN;
    if (uz < 1.0) {
        return 0;
    }
    if (uz < zeta2) {
        return 1;
    }
    return (uint64_t)(ZIPF_ITEMS * pow(eta * u - eta + 1.0, alpha));
}


uint64_t keygen_next(keygen_t *g)
{
    if (!g->zipfian) {
        return keygen_rand(g) % g->n;
    }
    return fnv64(zipf_draw(g)) % g->n;
}
