/*
 * histogram.h - a latency histogram in the manner of HdrHistogram: log-linear
 * buckets (64 linear sub-buckets per power of two, so any recorded value is
 * known to within 1/64, about 1.6%), fixed size, no allocation. Values are
 * nanoseconds; the exact maximum is kept beside the buckets. Used by
 * cosmos-bench; one per run, or one per connection merged at the end.
 */
#ifndef BENCH_HISTOGRAM_H
#define BENCH_HISTOGRAM_H

#include <stdint.h>

#define HIST_SUB_BITS 6
#define HIST_SUB      (1u << HIST_SUB_BITS)
#define HIST_MAX_EXP  44 /* 2^44 ns: about 4.9 hours, far past any timeout */
#define HIST_BUCKETS  (2 * HIST_SUB + (HIST_MAX_EXP - HIST_SUB_BITS - 1) * HIST_SUB)

typedef struct hist_s {
    uint64_t counts[HIST_BUCKETS];
    uint64_t n;
    uint64_t max;
    uint64_t min;
    double sum;
} hist_t;

void hist_init(hist_t *h);
void hist_record(hist_t *h, uint64_t value_ns);
void hist_merge(hist_t *into, const hist_t *from);
/* The value at quantile q (0..1): the upper edge of the bucket holding it,
 * never more than the recorded maximum. 0 when the histogram is empty. */
uint64_t hist_quantile(const hist_t *h, double q);
double hist_mean(const hist_t *h);

#endif
