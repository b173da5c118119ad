/*
 * keygen.h - which key the next operation touches: uniform over [0, n) or
 * YCSB's scrambled zipfian (theta 0.99: a few keys get most requests, and
 * the hot keys are scattered over the key space by an FNV hash, not
 * clustered at 0). Each connection owns one generator; no global state.
 */
#ifndef BENCH_KEYGEN_H
#define BENCH_KEYGEN_H

#include <stdbool.h>
#include <stdint.h>

typedef struct keygen_s {
    uint64_t rng; /* splitmix64 state */
    uint64_t n;
    bool zipfian;
} keygen_t;

void keygen_init(keygen_t *g, uint64_t n, bool zipfian, uint64_t seed);
uint64_t keygen_next(keygen_t *g);
/* Raw generator output, for choices that are not keys (read or write?). */
uint64_t keygen_rand(keygen_t *g);
double keygen_rand01(keygen_t *g);

#endif
