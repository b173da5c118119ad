/*
 * loadgen_report.c - cosmos-bench's output: a human summary (throughput,
 * latency percentiles overall and per operation kind, errors by CQL code
 * with an example message, mean RU, warnings, CPU per operation), then one
 * JSON line with the same figures for scripts (scripts/bench.sh reads it).
 * Latencies are printed in ms and written in us; the JSON is built by hand,
 * and the only free text in it (the host) is escaped.
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "loadgen.h"
#include "wire/wire.h"


static double us(uint64_t ns)
{
    return (double)ns / 1000.0;
}


static void print_latency_line(const char *label, const hist_t *h)
{
    printf("  %-11s p50 %.3f  p90 %.3f  p99 %.3f  p99.9 %.3f  max %.3f  mean %.3f (ms)\n", label,
           us(hist_quantile(h, 0.50)) / 1000, us(hist_quantile(h, 0.90)) / 1000,
           us(hist_quantile(h, 0.99)) / 1000, us(hist_quantile(h, 0.999)) / 1000, us(h->max) / 1000,
           hist_mean(h) / 1e6);
}


static void json_latency(base_buf_t *b, const char *name, const hist_t *h)
{
    base_buf_printf(b,
                    ",\"%s\":{\"p50\":%.1f,\"p90\":%.1f,\"p99\":%.1f,\"p999\":%.1f,\"max\":%.1f,"
                    "\"mean\":%.1f}",
                    name, us(hist_quantile(h, 0.50)), us(hist_quantile(h, 0.90)),
                    us(hist_quantile(h, 0.99)), us(hist_quantile(h, 0.999)), us(h->max),
                    hist_mean(h) / 1000.0);
}


static void json_string(base_buf_t *b, const char *s)
{
    base_buf_put_u8(b, '"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') {
            base_buf_printf(b, "\\%c", ch);
        } else if (ch < 0x20) {
            base_buf_printf(b, "\\u%04x", ch);
        } else {
            base_buf_put_u8(b, ch);
        }
    }
    base_buf_put_u8(b, '"');
}


/* CPU us per operation, or -1 when not measured. */
static double per_op(int64_t cpu_us, uint64_t ops)
{
    return cpu_us >= 0 && ops > 0 ? (double)cpu_us / (double)ops : -1;
}


static void json_per_op(base_buf_t *b, const char *name, double v)
{
    if (v >= 0) {
        base_buf_printf(b, ",\"%s\":%.3f", name, v);
    } else {
        base_buf_printf(b, ",\"%s\":null", name);
    }
}


void loadgen_report(const opts_t *op, const results_t *r)
{
    const opts_t o = *op;
    double secs = (double)(r->last_done_ns - r->run_start_ns) / 1e9;
    uint64_t done = r->n_ok + r->n_errors;
    double ops = secs > 0 ? (double)done / secs : 0;
    bool has_ru = r->ru_n > 0;
    double ru = has_ru ? r->ru_sum / (double)r->ru_n : 0;

    printf("cosmos-bench %s: %d connections x %d in flight, TLS %s, lz4 %s, %zu-byte values, "
           "%llu keys (%s), %s\n",
           loadgen_workload_names[o.workload], o.connections, o.inflight, o.tls ? "on" : "off",
           o.lz4 ? "on" : "off", o.value_size, (unsigned long long)o.keys,
           o.zipfian ? "zipfian" : "uniform", o.rate > 0 ? "open loop" : "closed loop");
    if (o.rate > 0) {
        printf("  target      %.0f ops/s\n", o.rate);
    }
    printf("  throughput  %.0f ops/s (%llu operations in %.2f s; %llu reads, %llu writes)\n", ops,
           (unsigned long long)done, secs, (unsigned long long)r->n_reads,
           (unsigned long long)r->n_writes);
    print_latency_line("latency", &r->h_all);
    if (r->n_reads > 0 && r->n_writes > 0) {
        print_latency_line("  reads", &r->h_read);
        print_latency_line("  writes", &r->h_write);
    }
    printf("  errors      %llu\n", (unsigned long long)r->n_errors);
    for (int i = 0; i < r->n_err_codes; i++) {
        printf("    0x%04x %-16s %llu  (%s)\n", r->err_counts[i].code,
               wire_error_name(r->err_counts[i].code), (unsigned long long)r->err_counts[i].n,
               r->err_counts[i].example);
    }
    if (has_ru) {
        printf("  RU/op       %.2f\n", ru);
    } else {
        printf("  RU/op       n/a (no RequestCharge in the responses)\n");
    }
    if (r->n_empty_reads > 0) {
        printf("  empty reads %llu (keys not loaded: use --preload)\n",
               (unsigned long long)r->n_empty_reads);
    }
    if (r->n_warned > 0) {
        printf("  warnings    %llu responses, e.g. \"%s\"\n", (unsigned long long)r->n_warned,
               r->first_warning);
    }
    double client_cpu = per_op(r->client_cpu_us, done);
    double server_cpu = per_op(r->server_cpu_us, done);
    if (client_cpu >= 0) {
        printf("  CPU/op      client %.2f us", client_cpu);
        if (server_cpu >= 0) {
            printf(", server %.2f us", server_cpu);
        }
        printf("\n");
    }

    base_buf_t b;
    base_buf_init(&b);
    base_buf_printf(&b, "{\"tool\":\"cosmos-bench\",\"workload\":\"%s\",\"host\":",
                    loadgen_workload_names[o.workload]);
    json_string(&b, o.host);
    base_buf_printf(&b,
                    ",\"port\":%d,\"connections\":%d,\"inflight\":%d,\"tls\":%s,\"lz4\":%s,"
                    "\"value_size\":%zu,\"keys\":%llu,\"dist\":\"%s\",",
                    o.port, o.connections, o.inflight, o.tls ? "true" : "false",
                    o.lz4 ? "true" : "false", o.value_size, (unsigned long long)o.keys,
                    o.zipfian ? "zipfian" : "uniform");
    if (o.rate > 0) {
        base_buf_printf(&b, "\"rate\":%.0f,", o.rate);
    } else {
        base_buf_printf(&b, "\"rate\":null,");
    }
    base_buf_printf(&b,
                    "\"seconds\":%.3f,\"ops\":%llu,\"ops_per_s\":%.1f,\"reads\":%llu,"
                    "\"writes\":%llu,\"empty_reads\":%llu",
                    secs, (unsigned long long)done, ops, (unsigned long long)r->n_reads,
                    (unsigned long long)r->n_writes, (unsigned long long)r->n_empty_reads);
    json_latency(&b, "latency_us", &r->h_all);
    if (r->n_reads > 0) {
        json_latency(&b, "read_latency_us", &r->h_read);
    }
    if (r->n_writes > 0) {
        json_latency(&b, "write_latency_us", &r->h_write);
    }
    base_buf_printf(&b, ",\"errors\":%llu,\"errors_by_code\":{", (unsigned long long)r->n_errors);
    for (int i = 0; i < r->n_err_codes; i++) {
        base_buf_printf(&b, "%s\"0x%04x\":%llu", i > 0 ? "," : "", r->err_counts[i].code,
                        (unsigned long long)r->err_counts[i].n);
    }
    base_buf_printf(&b, "}");
    if (has_ru) {
        base_buf_printf(&b, ",\"ru_per_op\":%.3f", ru);
    } else {
        base_buf_printf(&b, ",\"ru_per_op\":null");
    }
    base_buf_printf(&b, ",\"warnings\":%llu", (unsigned long long)r->n_warned);
    json_per_op(&b, "client_cpu_us_per_op", client_cpu);
    json_per_op(&b, "server_cpu_us_per_op", server_cpu);
    base_buf_printf(&b, "}\n");
    fwrite(b.data, 1, b.len, stdout);
    fflush(stdout);
    base_buf_fini(&b);
}
