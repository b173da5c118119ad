/*
 * histogram.c - a fixed-size log-linear histogram of RU charges (HDR-like),
 * for p50/p99 without keeping samples. Layer: ru_meter.
 *
 * Values are counted in hundredths of an RU (u). u < 16 has a bucket each;
 * above, each power of two [2^e, 2^(e+1)) is cut into 16 equal sub-buckets,
 * so a bucket's width is at most 1/16 of its values and its midpoint within
 * about 3% of any of them. u beyond 2^41 (2e10 RU) lands in the last bucket.
 * Percentiles report the bucket midpoint clamped to the exact min and max
 * (and the min or max itself for the first or last rank).
 */
#include <math.h>

#include "ru_meter/ru_int.h"


/* v * 100 rounded half away from zero, as round() does, without the libm
 * call: every request adds its charge to three histograms. The fraction
 * is exact (u - floor(u) for u below 2^53; above, u is whole). */
static uint64_t to_units(double v)
{
    if (!(v > 0)) {
        return 0;
    }
    double u = v * 100.0;
    if (u >= 9.0e18) {
        return UINT64_MAX;
    }
    uint64_t whole = (uint64_t)u;
    return whole + (u - (double)whole >= 0.5);
}


static int msb(uint64_t u)
{
    return 63 - __builtin_clzll(u); /* u >= RU_HIST_SUB here */
}


size_t ru__hist_index(double v)
{
    uint64_t u = to_units(v);
    if (u < RU_HIST_SUB) {
        return (size_t)u;
    }
    int e = msb(u);
    if (e > RU_HIST_MAX_EXP) {
        return RU_HIST_BUCKETS - 1;
    }
    uint64_t sub = (u >> (e - 4)) - RU_HIST_SUB;
    return RU_HIST_SUB + (size_t)(e - 4) * RU_HIST_SUB + (size_t)sub;
}


/* The midpoint of bucket i, in RU. */
static double bucket_mid(size_t i)
{
    if (i < RU_HIST_SUB) {
        return (double)i / 100.0;
    }
    size_t e = (i - RU_HIST_SUB) / RU_HIST_SUB + 4;
    size_t sub = (i - RU_HIST_SUB) % RU_HIST_SUB;
    double width = ldexp(1.0, (int)e - 4);
    double lo = (double)(RU_HIST_SUB + sub) * width;
    /* integer units: the bucket holds lo .. lo + width - 1 */
    return (lo + (width - 1) / 2.0) / 100.0;
}


void ru__hist_add(ru_hist_t *h, double v)
{
    if (!(v >= 0)) {
        v = 0;
    }
    if (h->count == 0 || v < h->min) {
        h->min = v;
    }
    if (h->count == 0 || v > h->max) {
        h->max = v;
    }
    h->count++;
    h->buckets[ru__hist_index(v)]++;
}


double ru__hist_percentile(const ru_hist_t *h, double pct)
{
    if (h->count == 0) {
        return 0;
    }
    double want = ceil(pct / 100.0 * (double)h->count);
    uint64_t rank = want < 1 ? 1 : (uint64_t)want;
    if (rank >= h->count) {
        return h->max; /* the extremes are known exactly */
    }
    if (rank == 1) {
        return h->min;
    }
    uint64_t seen = 0;
    size_t i = 0;
    for (; i < RU_HIST_BUCKETS; i++) {
        seen += h->buckets[i];
        if (seen >= rank) {
            break;
        }
    }
    double v = bucket_mid(i < RU_HIST_BUCKETS ? i : RU_HIST_BUCKETS - 1);
    if (v < h->min) {
        v = h->min;
    }
    if (v > h->max) {
        v = h->max;
    }
    return v;
}
