/*
 * loadgen.h - what the parts of cosmos-bench share: the options
 * (loadgen_opts.c), the results (filled by cosmos-bench.c), their report
 * (loadgen_report.c) and processes' CPU time (proc_cpu.c). Single-threaded program state; nothing
 * here is a library interface.
 */
#ifndef BENCH_LOADGEN_H
#define BENCH_LOADGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "histogram.h"

#define MAX_ERROR_CODES 32
#define MAX_INFLIGHT    32000

typedef enum { W_INSERT, W_SELECT, W_MIXED, W_YCSB_A, W_YCSB_C, W_NULL } workload_t;
extern const char *const loadgen_workload_names[];

typedef struct opts_s {
    const char *host;
    int port;
    int connections;
    int inflight;
    bool tls;
    const char *ca;
    bool lz4;
    const char *user;
    const char *key;
    workload_t workload;
    size_t value_size;
    uint64_t keys;
    bool zipfian;
    double duration;
    uint64_t requests;
    double warmup;
    bool warmup_given;
    double rate;
    double tick_us;
    int read_pct;
    int preload; /* -1: for the workloads that read */
    const char *keyspace;
    const char *table_options;
    uint64_t seed;
    double slow_ms; /* 0: no slow-response report */
    int server_pid; /* 0: the server's CPU is not measured */
} opts_t;

typedef struct err_count_s {
    int code;
    uint64_t n;
    char example[160];
} err_count_t;

/* Every figure of one run; latencies in nanoseconds. */
typedef struct results_s {
    hist_t h_all, h_read, h_write;
    uint64_t n_ok, n_reads, n_writes, n_empty_reads, n_warned, n_errors;
    double ru_sum; /* RequestCharge of the successful operations */
    uint64_t ru_n;
    err_count_t err_counts[MAX_ERROR_CODES];
    int n_err_codes;
    char first_warning[200];
    uint64_t run_start_ns; /* measured phase start (monotonic) */
    uint64_t last_done_ns; /* last measured response */
    /* CPU used from the measured phase's start to its last response, in us
     * (-1: not measured): this process's and --server-pid's. */
    int64_t client_cpu_us, server_cpu_us;
} results_t;

/* Prints "cosmos-bench: <message>" to stderr and exits 2 (a set-up failure). */
_Noreturn void loadgen_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool loadgen_is_read_workload(workload_t w);
/* CPU time used so far by process pid (0: this one), in us; -1 if unknown. */
int64_t loadgen_cpu_us(int pid);
/* What pid used since start_us (its loadgen_cpu_us then; -1: not measured, -1 returned). */
int64_t loadgen_cpu_since(int pid, int64_t start_us);
/* Parses the command line into o (exits on --help and on bad options). */
void loadgen_parse_args(int argc, char **argv, opts_t *o);
/* The summary, then one JSON line, on stdout. */
void loadgen_report(const opts_t *o, const results_t *r);

#endif
