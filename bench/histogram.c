/*
 * histogram.c - log-linear latency buckets (see histogram.h).
 *
 * Bucket layout: values below 2*HIST_SUB are their own bucket (exact);
 * above, a value with highest set bit e lands in the group of exponent e,
 * split into HIST_SUB equal sub-buckets by the HIST_SUB_BITS bits under the
 * top bit. Groups are contiguous, so index order is value order and a
 * quantile is one cumulative walk.
 */
#include "histogram.h"

#include <string.h>


static unsigned index_of(uint64_t v)
{
    if (v < 2 * HIST_SUB) {
        return (unsigned)v;
    }
    unsigned e = 63u - (unsigned)__builtin_clzll(v); /* e >= HIST_SUB_BITS + 1 */
    if (e >= HIST_MAX_EXP) {
        return HIST_BUCKETS - 1;
    }
    unsigned sub = (unsigned)(v >> (e - HIST_SUB_BITS)) & (HIST_SUB - 1);
    return 2 * HIST_SUB + (e - HIST_SUB_BITS - 1) * HIST_SUB + sub;
}


/* The largest value that maps to bucket i. */
static uint64_t upper_edge(unsigned i)
{
    if (i < 2 * HIST_SUB) {
        return i;
    }
    unsigned g = (i - 2 * HIST_SUB) / HIST_SUB;
    unsigned sub = (i - 2 * HIST_SUB) % HIST_SUB;
    unsigned e = g + HIST_SUB_BITS + 1;
    uint64_t base = (uint64_t)1 << e;
    uint64_t step = (uint64_t)1 << (e - HIST_SUB_BITS);
    return base + (uint64_t)(sub + 1) * step - 1;
}


void hist_init(hist_t *h)
{
    memset(h, 0, sizeof(*h));
    h->min = UINT64_MAX;
}


void hist_record(hist_t *h, uint64_t v)
{
    h->counts[index_of(v)]++;
    h->n++;
    h->sum += (double)v;
    if (v > h->max) {
        h->max = v;
    }
    if (v < h->min) {
        h->min = v;
    }
}


void hist_merge(hist_t *into, const hist_t *from)
{
    for (unsigned i = 0; i < HIST_BUCKETS; i++) {
        into->counts[i] += from->counts[i];
    }
    into->n += from->n;
    into->sum += from->sum;
    if (from->max > into->max) {
        into->max = from->max;
    }
    if (from->min < into->min) {
        into->min = from->min;
    }
}


uint64_t hist_quantile(const hist_t *h, double q)
{
    if (h->n == 0) {
        return 0;
    }
    double want = q * (double)h->n;
    uint64_t rank = (uint64_t)want;
    if ((double)rank < want || rank == 0) {
        rank++; /* the smallest value with at least q of the samples at or below it */
    }
    uint64_t seen = 0;
    for (unsigned i = 0; i < HIST_BUCKETS; i++) {
        seen += h->counts[i];
        if (seen >= rank) {
            uint64_t edge = upper_edge(i);
            return edge < h->max ? edge : h->max;
        }
    }
    return h->max;
}


double hist_mean(const hist_t *h)
{
    return h->n > 0 ? h->sum / (double)h->n : 0.0;
}
