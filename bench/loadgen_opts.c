/*
 * loadgen_opts.c - cosmos-bench's command line: every option with its
 * default, checked once here so the rest of the program can trust opts_t
 * (ranges, workload names, the preload and warm-up defaults that depend on
 * other options). A bad option is a set-up failure: message, exit 2.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen.h"

#define DEFAULT_KEY \
    "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw=="

const char *const loadgen_workload_names[] = {"insert", "select", "mixed",
                                              "ycsb-a", "ycsb-c", "null"};


_Noreturn void loadgen_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "cosmos-bench: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(2);
}


bool loadgen_is_read_workload(workload_t w)
{
    return w == W_SELECT || w == W_MIXED || w == W_YCSB_A || w == W_YCSB_C;
}


static void usage(FILE *f)
{
    fprintf(f,
            "Usage: cosmos-bench [options]\n"
            "A CQL load generator for cosmos-cassandra-emulator (or any CQL v4 server).\n\n"
            "  --host H              server address (default 127.0.0.1)\n"
            "  --port N              server port (default 10350)\n"
            "  --connections N       connections (default 4)\n"
            "  --inflight N          requests in flight per connection (default 64)\n"
            "  --tls on|off          TLS (default on; certificate not verified without --ca)\n"
            "  --ca FILE             verify the server against this CA (PEM)\n"
            "  --lz4                 negotiate lz4 compression\n"
            "  --user NAME           account name (default localhost)\n"
            "  --key KEY             account key (default: the emulator's well-known key)\n"
            "  --workload W          insert, select, mixed, ycsb-a, ycsb-c or null (OPTIONS "
            "round trips; default insert)\n"
            "  --value-size BYTES    value size (default 1024; YCSB: the whole row, split over "
            "10 fields)\n"
            "  --keys N              key space (default 100000)\n"
            "  --dist D              uniform or zipfian (YCSB's scrambled zipfian, theta 0.99)\n"
            "  --duration S          measured seconds (default 10)\n"
            "  --requests N          measured requests instead of a duration\n"
            "  --warmup S            unrecorded load before measuring (default 1; 0 with "
            "--requests)\n"
            "  --rate OPS            open loop at this total rate; latency from the scheduled "
            "time\n"
            "  --tick-us US          open loop: wake at most this often, sending what is due "
            "(default 200)\n"
            "  --read-pct P          mixed: percentage of reads (default 50)\n"
            "  --preload/--no-preload  write every key once first (default: for read workloads)\n"
            "  --keyspace NAME       keyspace (default bench)\n"
            "  --table-options STR   CREATE TABLE ... WITH STR (default "
            "cosmosdb_provisioned_throughput = 1000000; '' for none)\n"
            "  --seed N              random seed (default 1)\n"
            "  --slow-ms MS          print each run of responses slower than MS to stderr, with "
            "when the first was sent (UTC, to line up with the server's log) and how late a "
            "probe thread per CPU, sleeping 1 ms at a time, woke meanwhile (the machine's own "
            "pauses)\n"
            "  --server-pid PID      also report the CPU that process (the server, on this "
            "machine) used per operation over the measured phase\n"
            "  --help\n\n"
            "Prints a summary and, last, one JSON line with every figure. Exit status: 0 when "
            "every measured request succeeded, 1 when some failed, 2 on a set-up failure.\n");
}


static double parse_num(const char *opt, const char *v, double min)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (errno != 0 || end == v || *end != '\0' || !(d >= min)) {
        loadgen_die("--%s: bad value '%s'", opt, v);
    }
    return d;
}


static bool parse_on_off(const char *opt, const char *v)
{
    if (strcmp(v, "on") == 0) {
        return true;
    }
    if (strcmp(v, "off") == 0) {
        return false;
    }
    loadgen_die("%s: expected on or off, got '%s'", opt, v);
}


void loadgen_parse_args(int argc, char **argv, opts_t *out)
{
    opts_t o = (opts_t){.host = "127.0.0.1",
                        .port = 10350,
                        .connections = 4,
                        .inflight = 64,
                        .tls = true,
                        .user = "localhost",
                        .key = DEFAULT_KEY,
                        .workload = W_INSERT,
                        .value_size = 1024,
                        .keys = 100000,
                        .duration = 10,
                        .warmup = 1,
                        .read_pct = 50,
                        .tick_us = 200,
                        .preload = -1,
                        .keyspace = "bench",
                        .table_options = "cosmosdb_provisioned_throughput = 1000000",
                        .seed = 1};
    enum {
        O_HOST = 256,
        O_PORT,
        O_CONN,
        O_INFLIGHT,
        O_TLS,
        O_CA,
        O_LZ4,
        O_USER,
        O_KEY,
        O_WORK,
        O_VSIZE,
        O_KEYS,
        O_DIST,
        O_DUR,
        O_REQ,
        O_WARM,
        O_RATE,
        O_READ,
        O_PRE,
        O_NOPRE,
        O_KS,
        O_TOPT,
        O_SEED,
        O_TICK,
        O_SLOW,
        O_SPID,
        O_HELP
    };
    static const struct option longopts[] = {
        {"host", 1, NULL, O_HOST},        {"port", 1, NULL, O_PORT},
        {"connections", 1, NULL, O_CONN}, {"inflight", 1, NULL, O_INFLIGHT},
        {"tls", 1, NULL, O_TLS},          {"ca", 1, NULL, O_CA},
        {"lz4", 0, NULL, O_LZ4},          {"user", 1, NULL, O_USER},
        {"key", 1, NULL, O_KEY},          {"workload", 1, NULL, O_WORK},
        {"value-size", 1, NULL, O_VSIZE}, {"keys", 1, NULL, O_KEYS},
        {"dist", 1, NULL, O_DIST},        {"duration", 1, NULL, O_DUR},
        {"requests", 1, NULL, O_REQ},     {"warmup", 1, NULL, O_WARM},
        {"rate", 1, NULL, O_RATE},        {"read-pct", 1, NULL, O_READ},
        {"preload", 0, NULL, O_PRE},      {"no-preload", 0, NULL, O_NOPRE},
        {"keyspace", 1, NULL, O_KS},      {"table-options", 1, NULL, O_TOPT},
        {"seed", 1, NULL, O_SEED},        {"tick-us", 1, NULL, O_TICK},
        {"slow-ms", 1, NULL, O_SLOW},     {"server-pid", 1, NULL, O_SPID},
        {"help", 0, NULL, O_HELP},        {NULL, 0, NULL, 0},
    };
    int ch;
    int li = -1;
    while ((ch = getopt_long(argc, argv, "", longopts, &li)) != -1) {
        const char *name = li >= 0 ? longopts[li].name : "option";
        switch (ch) {
        case O_HOST:
            o.host = optarg;
            break;
        case O_PORT:
            o.port = (int)parse_num(name, optarg, 1);
            break;
        case O_CONN:
            o.connections = (int)parse_num(name, optarg, 1);
            break;
        case O_INFLIGHT:
            o.inflight = (int)parse_num(name, optarg, 1);
            break;
        case O_TLS:
            o.tls = parse_on_off("--tls", optarg);
            break;
        case O_CA:
            o.ca = optarg;
            break;
        case O_LZ4:
            o.lz4 = true;
            break;
        case O_USER:
            o.user = optarg;
            break;
        case O_KEY:
            o.key = optarg;
            break;
        case O_WORK: {
            int w = -1;
            for (int i = 0; i <= W_NULL; i++) {
                if (strcmp(optarg, loadgen_workload_names[i]) == 0) {
                    w = i;
                }
            }
            if (w < 0) {
                loadgen_die("--workload: expected insert, select, mixed, ycsb-a, ycsb-c or null");
            }
            o.workload = (workload_t)w;
            break;
        }
        case O_VSIZE:
            o.value_size = (size_t)parse_num(name, optarg, 1);
            break;
        case O_KEYS:
            o.keys = (uint64_t)parse_num(name, optarg, 1);
            break;
        case O_DIST:
            if (strcmp(optarg, "uniform") != 0 && strcmp(optarg, "zipfian") != 0) {
                loadgen_die("--dist: expected uniform or zipfian");
            }
            o.zipfian = strcmp(optarg, "zipfian") == 0;
            break;
        case O_DUR:
            o.duration = parse_num(name, optarg, 0.001);
            break;
        case O_REQ:
            o.requests = (uint64_t)parse_num(name, optarg, 1);
            break;
        case O_WARM:
            o.warmup = parse_num(name, optarg, 0);
            o.warmup_given = true;
            break;
        case O_RATE:
            o.rate = parse_num(name, optarg, 0.001);
            break;
        case O_READ:
            o.read_pct = (int)parse_num(name, optarg, 0);
            break;
        case O_PRE:
            o.preload = 1;
            break;
        case O_NOPRE:
            o.preload = 0;
            break;
        case O_KS:
            o.keyspace = optarg;
            break;
        case O_TOPT:
            o.table_options = optarg;
            break;
        case O_TICK:
            o.tick_us = parse_num(name, optarg, 0);
            break;
        case O_SLOW:
            o.slow_ms = parse_num(name, optarg, 0.001);
            break;
        case O_SPID:
            o.server_pid = (int)parse_num(name, optarg, 1);
            break;
        case O_SEED:
            o.seed = (uint64_t)parse_num(name, optarg, 0);
            break;
        case O_HELP:
            usage(stdout);
            exit(0);
        default:
            usage(stderr);
            exit(2);
        }
    }
    if (optind < argc) {
        loadgen_die("unexpected argument '%s' (see --help)", argv[optind]);
    }
    if (o.inflight > MAX_INFLIGHT) {
        loadgen_die("--inflight: at most %d streams per connection", MAX_INFLIGHT);
    }
    if (o.read_pct > 100) {
        loadgen_die("--read-pct: at most 100");
    }
    if (o.preload < 0) {
        o.preload = loadgen_is_read_workload(o.workload);
    }
    if (o.workload == W_NULL) {
        o.preload = 0;
    }
    if (o.requests > 0 && !o.warmup_given) {
        o.warmup = 0;
    }
    if (o.value_size > 16 * 1024 * 1024) {
        loadgen_die("--value-size: at most 16 MB");
    }
    *out = o;
}
