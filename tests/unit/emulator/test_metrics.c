/* Unit tests for emulator/metrics.c: the Prometheus exposition of made-up
 * figures: families declared once with HELP and TYPE before their samples,
 * label values escaped, cumulative histogram buckets, partitions labelled. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "emulator/metrics.h"
#include "emulator/telemetry.h"

static void render(const emu_telemetry_t *t, const ru_snapshot_t *snap, base_buf_t *out)
{
    emu_metrics_input_t in = {
        .version = "1.2.3",
        .ready = true,
        .uptime_s = 5,
        .telemetry = t,
        .snapshot = snap,
        .have_connections = true,
        .connections_open = 2,
        .connections_accepted = 7,
        .durable = true,
        .commitlog_bytes = 4096,
        .small_chunks = 3,
        .chunk_moves = 11,
    };
    base_buf_init(out);
    emu_metrics_render(&in, out);
}

/* Every sample's family has a TYPE line before it; every line is a
 * comment or "name{labels} value". */
static void assert_well_formed(const char *text)
{
    char typed[64][96];
    size_t n_typed = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        assert_non_null(end);
        char l[512];
        size_t len = (size_t)(end - line);
        assert_true(len < sizeof(l));
        memcpy(l, line, len);
        l[len] = '\0';
        line = end + 1;
        if (strncmp(l, "# TYPE ", 7) == 0) {
            assert_true(n_typed < 64);
            sscanf(l + 7, "%95s", typed[n_typed++]);
            continue;
        }
        if (l[0] == '#') {
            assert_true(strncmp(l, "# HELP ", 7) == 0);
            continue;
        }
        char name[96];
        size_t k = strspn(l, "abcdefghijklmnopqrstuvwxyz_0123456789");
        assert_true(k > 0 && k < sizeof(name));
        memcpy(name, l, k);
        name[k] = '\0';
        bool found = false;
        for (size_t i = 0; i < n_typed && !found; i++) {
            size_t tl = strlen(typed[i]);
            found = strncmp(name, typed[i], tl) == 0 &&
                    (name[tl] == '\0' || strcmp(name + tl, "_bucket") == 0 ||
                     strcmp(name + tl, "_sum") == 0 || strcmp(name + tl, "_count") == 0);
        }
        if (!found) {
            fail_msg("sample without a TYPE: %s", l);
        }
        const char *value = strrchr(l, ' ');
        assert_non_null(value);
        assert_true(l[k] == ' ' || (l[k] == '{' && value[-1] == '}'));
    }
}

static void figures_render_as_well_formed_families(void **state)
{
    (void)state;
    emu_telemetry_t t;
    memset(&t, 0, sizeof(t));
    t.requests[0x07] = 3;
    t.latency[0x07].count = 3;
    t.latency[0x07].sum_s = 0.004;
    t.latency[0x07].buckets[3] = 2; /* <= 1 ms */
    t.latency[0x07].buckets[EMU_TELEMETRY_BUCKETS] = 1;
    t.n_errors = 1;
    t.errors[0] = (emu_error_count_t){0x07, 0x2200, 2};
    t.checkpoints = 4;

    ru_partition_stats_t parts[2] = {{.index = 0, .ru_total = 1.5, .throttled = 1},
                                     {.index = 1, .ru_total = 2.25, .budget_ru_s = 5000}};
    ru_table_stats_t table = {.keyspace = "ks",
                              .table = "we\"ird\\na\nme",
                              .n_parts = 2,
                              .parts = parts,
                              .budget_ru_s = 10000};
    table.s.count = 9;
    ru_snapshot_t snap = {.n_tables = 1, .tables = &table};
    base_buf_t out;
    render(&t, &snap, &out);
    const char *text = (const char *)out.data;
    assert_well_formed(text);
    assert_non_null(strstr(text, "cosmos_emulator_build_info{version=\"1.2.3\"} 1\n"));
    assert_non_null(strstr(text, "cosmos_emulator_requests_total{opcode=\"QUERY\"} 3\n"));
    assert_non_null(strstr(
        text,
        "cosmos_emulator_errors_total{opcode=\"QUERY\",code=\"0x2200\",error=\"INVALID\"} 2\n"));
    assert_non_null(strstr(
        text,
        "cosmos_emulator_request_duration_seconds_bucket{opcode=\"QUERY\",le=\"0.0005\"} 0\n"));
    assert_non_null(strstr(
        text,
        "cosmos_emulator_request_duration_seconds_bucket{opcode=\"QUERY\",le=\"0.001\"} 2\n"));
    assert_non_null(strstr(
        text, "cosmos_emulator_request_duration_seconds_bucket{opcode=\"QUERY\",le=\"10\"} 2\n"));
    assert_non_null(strstr(
        text, "cosmos_emulator_request_duration_seconds_bucket{opcode=\"QUERY\",le=\"+Inf\"} 3\n"));
    assert_non_null(
        strstr(text, "cosmos_emulator_request_duration_seconds_count{opcode=\"QUERY\"} 3\n"));
    assert_non_null(strstr(text,
                           "cosmos_emulator_ru_consumed_total{keyspace=\"ks\",table=\"we\\\"ird"
                           "\\\\na\\nme\",partition=\"1\"} 2.25\n"));
    assert_non_null(strstr(text, "cosmos_emulator_requests_throttled_total{keyspace=\"ks\","));
    assert_non_null(strstr(text, "cosmos_emulator_connections_open 2\n"));
    assert_non_null(strstr(text, "cosmos_emulator_connections_accepted_total 7\n"));
    assert_non_null(strstr(text, "cosmos_emulator_commitlog_bytes 4096\n"));
    assert_non_null(strstr(text, "cosmos_emulator_storage_small_chunks 3\n"));
    assert_non_null(strstr(text, "cosmos_emulator_storage_chunk_moves_total 11\n"));
    assert_non_null(strstr(text, "cosmos_emulator_checkpoints_total 4\n"));
    /* each family declared once */
    const char *first = strstr(text, "# TYPE cosmos_emulator_ru_consumed_total counter");
    assert_non_null(first);
    assert_null(strstr(first + 1, "# TYPE cosmos_emulator_ru_consumed_total"));
    base_buf_fini(&out);
}

static void an_idle_emulator_declares_its_families_without_samples(void **state)
{
    (void)state;
    emu_telemetry_t t;
    memset(&t, 0, sizeof(t));
    base_buf_t out;
    render(&t, NULL, &out);
    const char *text = (const char *)out.data;
    assert_well_formed(text);
    assert_non_null(strstr(text, "# TYPE cosmos_emulator_request_duration_seconds histogram\n"));
    assert_non_null(strstr(text, "# TYPE cosmos_emulator_ru_consumed_total counter\n"));
    assert_null(strstr(text, "cosmos_emulator_requests_total{"));
    base_buf_fini(&out);
}

/* A read's requests are counted together (conn.c): n of one opcode at one
 * latency weigh as n requests do one by one. */
static void requests_counted_together_weigh_as_many(void **state)
{
    (void)state;
    emu_telemetry_reset();
    emu_telemetry_requests(0x0A, 5, 700);  /* 0.7 ms: the <= 1 ms bucket */
    emu_telemetry_request(0x0A, 3000);     /* 3 ms: the <= 5 ms bucket */
    emu_telemetry_requests(0x0A, 2, 20e6); /* 20 s: +Inf */
    const emu_telemetry_t *t = emu_telemetry();
    const emu_latency_t *l = &t->latency[0x0A];
    assert_int_equal(t->requests[0x0A], 8);
    assert_int_equal(l->count, 8);
    assert_int_equal(l->buckets[3], 5);
    assert_int_equal(l->buckets[5], 1);
    assert_int_equal(l->buckets[EMU_TELEMETRY_BUCKETS], 2);
    assert_true(l->sum_s > 40.0064 && l->sum_s < 40.0066); /* 5 x 0.0007 + 0.003 + 2 x 20 */
    emu_telemetry_reset();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(figures_render_as_well_formed_families),
        cmocka_unit_test(an_idle_emulator_declares_its_families_without_samples),
        cmocka_unit_test(requests_counted_together_weigh_as_many),
    };
    return cmocka_run_group_tests_name("emulator/metrics", tests, NULL, NULL);
}
