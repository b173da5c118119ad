/* Unit tests for emulator/estimate.c and admin.c: estimate arithmetic end to
 * end on a tiny replay, snapshots through JSON and back, the parsers, the
 * HTML report, and the admin endpoint answering its client. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "emulator/admin.h"
#include "emulator/estimate.h"
#include "emulator/replay.h"
#include "replay_test.h"

#define N_ROWS 100

typedef struct fixture_s {
    replay_env_t env;
    emu_replay_result_t res;
    pid_t child; /* an admin endpoint serving in a child process, or 0 */
} fixture_t;

static int setup(void **state)
{
    fixture_t *f = base_calloc(1, sizeof(*f));
    replay_env_open(&f->env, "/tmp/test_estimate_XXXXXX");
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture_t *f = *state;
    if (f->child > 0) {
        kill(f->child, SIGKILL);
        waitpid(f->child, NULL, 0);
    }
    replay_env_close(&f->env);
    base_free(f);
    return 0;
}

/* 100 fresh inserts of small rows, then 100 point reads of those rows. */
static void replay_tiny(fixture_t *f, double duration_s, ru_snapshot_t *snap)
{
    char text[1024];
    snprintf(text, sizeof(text),
             "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
             "'replication_factor': 1};\n"
             "CREATE TABLE ks.t (a int, b int, v text, PRIMARY KEY (a, b));\n"
             "-- @repeat %d\nINSERT INTO ks.t (a, b, v) VALUES ({{i}}, {{i}}, 'v{{i}}');\n"
             "-- @repeat %d\nSELECT * FROM ks.t WHERE a = {{i}} AND b = {{i}};\n",
             N_ROWS, N_ROWS);
    replay_env_write(&f->env, text);
    emu_replay_opts_t o;
    char msg[256];
    replay_env_opts(&f->env, &o);
    o.duration_s = duration_s;
    assert_int_equal(emu_replay_run(&o, f->env.m, &f->res, msg, sizeof(msg)), BASE_OK);
    assert_int_equal(f->res.failed, 0);
    ru_meter_snapshot(emu_metering_meter(f->env.m), f->res.ended_us, snap);
}

static const ru_shape_stats_t *shape_starting(const ru_snapshot_t *snap, const char *prefix)
{
    for (size_t i = 0; i < snap->n_shapes; i++) {
        if (strncmp(snap->shapes[i].shape, prefix, strlen(prefix)) == 0) {
            return &snap->shapes[i];
        }
    }
    fail_msg("no shape starting with %s", prefix);
    return NULL;
}

static void replay_totals_are_count_times_the_per_operation_charge(void **state)
{
    fixture_t *f = *state;
    ru_snapshot_t snap;
    replay_tiny(f, 1, &snap);
    const ru_shape_stats_t *ins = shape_starting(&snap, "INSERT INTO ks.t");
    const ru_shape_stats_t *sel = shape_starting(&snap, "SELECT * FROM ks.t");
    /* a fresh insert of a row under 1 KB: write_1kb = 5.5; a point read: 1 */
    assert_int_equal(ins->s.count, N_ROWS);
    assert_float_equal(ins->s.ru_max, 5.5, 1e-9);
    assert_float_equal(ins->s.ru_total, N_ROWS * 5.5, 1e-6);
    assert_int_equal(sel->s.count, N_ROWS);
    assert_float_equal(sel->s.ru_max, 1.0, 1e-9);
    assert_float_equal(sel->s.ru_total, N_ROWS * 1.0, 1e-6);
    assert_int_equal(snap.total.count, 2 * N_ROWS); /* DDL is not metered */
    assert_float_equal(snap.total.ru_total, N_ROWS * 6.5, 1e-6);
    assert_int_equal(snap.n_tables, 1);
    assert_float_equal(snap.observed_s, 1.0, 1e-6);
    /* the whole file in one virtual second: the peak is the total */
    assert_float_equal(snap.tables[0].peak_ru_s, N_ROWS * 6.5, 1e-6);
    assert_true(snap.tables[0].storage_bytes > 0);

    ru_estimate_t est;
    ru_estimate_params_t p = {.observed_s = 1};
    ru_estimate(&snap, &p, emu_metering_prices(f->env.m), &est);
    const ru_table_estimate_t *e = &est.tables[0];
    /* 650 RU/s -> 700 RU/s manual: 7 x $0.008 x 730 h */
    assert_float_equal(e->mean_ru_s, 650.0, 1e-6);
    assert_int_equal(e->manual_ru_s, 700);
    assert_float_equal(e->monthly_manual, 7 * 0.008 * 730, 1e-9);
    assert_int_equal(e->autoscale_max_ru_s, 1000);
    assert_int_equal(e->autoscale_billed, 700);
    assert_float_equal(e->monthly_autoscale, 7 * 0.008 * 1.5 * 730, 1e-9);
    assert_float_equal(e->monthly_serverless, 650.0 * 3600 * 730 / 1e6 * 0.25, 1e-6);
    assert_float_equal(est.monthly_manual, e->monthly_manual, 1e-9);
    ru_estimate_fini(&est);

    /* --ops-per-sec 1000: 200 ops/s observed, so x5: 3250 RU/s -> 3300 */
    p.target_ops_s = 1000;
    ru_estimate(&snap, &p, emu_metering_prices(f->env.m), &est);
    assert_float_equal(est.scale, 5.0, 1e-9);
    assert_int_equal(est.tables[0].manual_ru_s, 3300);
    assert_float_equal(est.tables[0].monthly_manual, 33 * 0.008 * 730, 1e-9);
    ru_estimate_fini(&est);
    ru_snapshot_fini(&snap);
}

static void replay_duration_spreads_the_traffic_over_seconds(void **state)
{
    fixture_t *f = *state;
    ru_snapshot_t snap;
    replay_tiny(f, 10, &snap);
    /* 202 executions over 10 s, 20 a second, inserts in the first five; the
     * meter starts at the first insert, after the two DDL statements */
    assert_true(snap.observed_s > 9.8 && snap.observed_s <= 10.0);
    assert_float_equal(snap.tables[0].peak_ru_s, 20 * 5.5, 1e-6);
    ru_estimate_t est;
    ru_estimate_params_t p = {.observed_s = 10}; /* as the command passes --duration */
    ru_estimate(&snap, &p, emu_metering_prices(f->env.m), &est);
    assert_float_equal(est.tables[0].mean_ru_s, 65.0, 0.01);
    assert_float_equal(est.tables[0].peak_ru_s, 110.0, 1e-6);
    assert_int_equal(est.tables[0].manual_ru_s, 400);
    ru_estimate_fini(&est);
    ru_snapshot_fini(&snap);
}

static void snapshot_read_back_from_json_estimates_as_the_original(void **state)
{
    fixture_t *f = *state;
    ru_snapshot_t snap, back;
    ru_estimate_t e1, e2;
    base_buf_t json;
    char msg[256];
    replay_tiny(f, 1, &snap);
    base_buf_init(&json);
    emu_snapshot_to_json(&snap, NULL, &json);
    assert_int_equal(
        emu_snapshot_from_json((const char *)json.data, json.len, &back, msg, sizeof(msg)),
        BASE_OK);
    assert_int_equal(back.n_tables, snap.n_tables);
    assert_int_equal(back.n_shapes, snap.n_shapes);
    assert_int_equal(back.total.count, snap.total.count);
    assert_string_equal(back.tables[0].table, "t");
    assert_int_equal(back.tables[0].n_parts, snap.tables[0].n_parts);
    assert_int_equal(back.tables[0].storage_bytes, snap.tables[0].storage_bytes);
    for (size_t s = 0; s < RU_SLICES; s++) {
        assert_float_equal(back.tables[0].token_slices[s], snap.tables[0].token_slices[s], 1e-3);
    }
    for (size_t i = 0; i < snap.n_shapes; i++) {
        assert_string_equal(back.shapes[i].shape, snap.shapes[i].shape);
        assert_int_equal(back.shapes[i].s.count, snap.shapes[i].s.count);
    }
    ru_estimate_params_t p = {.scale = 200};
    ru_estimate(&snap, &p, NULL, &e1);
    ru_estimate(&back, &p, NULL, &e2);
    assert_int_equal(e2.tables[0].manual_ru_s, e1.tables[0].manual_ru_s);
    assert_int_equal(e2.tables[0].n_partitions, e1.tables[0].n_partitions);
    assert_float_equal(e2.tables[0].hot_share, e1.tables[0].hot_share, 1e-4);
    assert_float_equal(e2.monthly_manual, e1.monthly_manual, 0.01);
    assert_float_equal(e2.monthly_serverless, e1.monthly_serverless, 0.01);
    ru_estimate_fini(&e1);
    ru_estimate_fini(&e2);
    ru_snapshot_fini(&back);
    ru_snapshot_fini(&snap);
    base_buf_fini(&json);
}

static void json_that_is_not_statistics_is_rejected(void **state)
{
    (void)state;
    ru_snapshot_t snap;
    char msg[256];
    const char *bad[] = {"", "[]", "{\"tables\":[]}", "{not json", "{\"error\":\"x\"}"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(emu_snapshot_from_json(bad[i], strlen(bad[i]), &snap, msg, sizeof(msg)),
                         BASE_EINVAL);
        ru_snapshot_fini(&snap);
    }
}

static void scale_and_format_parse(void **state)
{
    (void)state;
    double v = 0;
    emu_format_t fmt;
    assert_int_equal(emu_scale_parse("200x", &v), BASE_OK);
    assert_float_equal(v, 200, 0);
    assert_int_equal(emu_scale_parse("0.5X", &v), BASE_OK);
    assert_float_equal(v, 0.5, 0);
    assert_int_equal(emu_scale_parse("12", &v), BASE_OK);
    assert_float_equal(v, 12, 0);
    const char *bad[] = {"", "x", "0", "-3x", "2xx", "abc", "inf", "nan", "1e999"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(emu_scale_parse(bad[i], &v), BASE_EINVAL);
    }
    assert_int_equal(emu_format_parse("html", &fmt), BASE_OK);
    assert_int_equal(fmt, EMU_FORMAT_HTML);
    assert_int_equal(emu_format_parse("json", &fmt), BASE_OK);
    assert_int_equal(fmt, EMU_FORMAT_JSON);
    assert_int_equal(emu_format_parse("text", &fmt), BASE_OK);
    assert_int_equal(fmt, EMU_FORMAT_TEXT);
    assert_int_equal(emu_format_parse("HTML", &fmt), BASE_EINVAL);
}

static void html_report_is_self_contained_and_escapes_text(void **state)
{
    (void)state;
    ru_config_t cfg;
    ru_config_defaults(&cfg);
    ru_meter_t *m = ru_meter_new(&cfg);
    ru_request_t req = {.keyspace = "ks", .table = "t&<b>", .shape = "<script>alert('x')</script>"};
    ru_op_t op = {.kind = RU_OP_WRITE, .rows_written = 1, .bytes_written = 100};
    for (int i = 0; i < 10; i++) {
        req.has_token = true;
        req.token = (int64_t)i * 1000003;
        ru_meter_charge(m, &req, NULL, &op, 5000000 + i);
    }
    ru_snapshot_t snap;
    ru_estimate_t est;
    base_buf_t html;
    ru_meter_snapshot(m, 6000000, &snap);
    ru_estimate(&snap, NULL, NULL, &est);
    base_buf_init(&html);
    emu_report_render(EMU_FORMAT_HTML, &snap, &est, &html);
    const char *h = (const char *)html.data;
    assert_int_equal(strncmp(h, "<!DOCTYPE html>", 15), 0);
    assert_non_null(strstr(h, "</html>\n"));
    assert_non_null(strstr(h, "<style>"));
    assert_non_null(strstr(h, "<svg"));
    assert_non_null(strstr(h, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
    assert_non_null(strstr(h, "ks.t&amp;&lt;b&gt;"));
    assert_null(strstr(h, "<script"));
    assert_null(strstr(h, "src="));
    assert_null(strstr(h, "href="));
    assert_null(strstr(h, "url("));
    assert_null(strstr(h, "https://"));
    /* the only URL is the SVG namespace */
    for (const char *p = strstr(h, "http://"); p != NULL; p = strstr(p + 1, "http://")) {
        assert_int_equal(strncmp(p, "http://www.w3.org/2000/svg", 26), 0);
    }
    assert_non_null(strstr(h, "Throughput each table needs"));
    assert_non_null(strstr(h, "Physical partition heat"));
    base_buf_fini(&html);
    /* statistics only: no estimate sections */
    base_buf_init(&html);
    emu_report_render(EMU_FORMAT_HTML, &snap, NULL, &html);
    assert_null(strstr((const char *)html.data, "Throughput each table needs"));
    base_buf_fini(&html);
    ru_estimate_fini(&est);
    ru_snapshot_fini(&snap);
    ru_meter_free(m);
}

/* The endpoint runs in a child process (its own event loop); the test is
 * the client. */
static void admin_endpoint_serves_statistics_and_reports(void **state)
{
    fixture_t *f = *state;
    ru_snapshot_t snap;
    char msg[512];
    replay_tiny(f, 1, &snap);
    ru_snapshot_fini(&snap);

    struct event_base *base = event_base_new();
    emu_admin_info_t info = {"9.9.9", "127.0.0.1:10350", "cosmos", true};
    emu_admin_t *a = emu_admin_new(base, "127.0.0.1", 0, &info, f->env.m, msg, sizeof(msg));
    assert_non_null(a);
    char addr[80];
    snprintf(addr, sizeof(addr), "%s", emu_admin_endpoint(a));
    fflush(NULL);
    f->child = fork();
    assert_true(f->child >= 0);
    if (f->child == 0) {
        event_reinit(base); /* its own epoll: the parent's cleanup must not reach it */
        event_base_dispatch(base);
        _exit(0);
    }
    emu_admin_free(a);
    event_base_free(base);

    base_buf_t body;
    base_buf_init(&body);
    assert_int_equal(emu_admin_get(addr, "/status", 10, &body, msg, sizeof(msg)), BASE_OK);
    assert_non_null(strstr((const char *)body.data, "\"version\":\"9.9.9\""));
    assert_non_null(strstr((const char *)body.data, "\"profile\":\"cosmos\""));
    base_buf_reset(&body);
    assert_int_equal(emu_admin_get(addr, "/stats", 10, &body, msg, sizeof(msg)), BASE_OK);
    assert_int_equal(
        emu_snapshot_from_json((const char *)body.data, body.len, &snap, msg, sizeof(msg)),
        BASE_OK);
    assert_int_equal(snap.total.count, 2 * N_ROWS);
    assert_null(strstr((const char *)body.data, "\"estimate\""));
    ru_snapshot_fini(&snap);
    base_buf_reset(&body);
    assert_int_equal(emu_admin_get(addr, "/estimate?scale=10x", 10, &body, msg, sizeof(msg)),
                     BASE_OK);
    assert_non_null(strstr((const char *)body.data, "\"scale\":10.0000"));
    base_buf_reset(&body);
    assert_int_equal(emu_admin_get(addr, "/report.html?ops=100", 10, &body, msg, sizeof(msg)),
                     BASE_OK);
    assert_non_null(strstr((const char *)body.data, "<svg"));
    base_buf_reset(&body);
    assert_int_equal(emu_admin_get(addr, "/report", 10, &body, msg, sizeof(msg)), BASE_OK);
    assert_non_null(strstr((const char *)body.data, "Per statement shape"));
    base_buf_reset(&body);
    assert_int_equal(emu_admin_get(addr, "/estimate?scale=-1", 10, &body, msg, sizeof(msg)),
                     BASE_EIO);
    assert_non_null(strstr(msg, "answered 400"));
    base_buf_reset(&body);
    assert_int_equal(emu_admin_get(addr, "/nope", 10, &body, msg, sizeof(msg)), BASE_EIO);
    assert_non_null(strstr(msg, "answered 404"));
    base_buf_fini(&body);
}

static void admin_client_rejects_bad_addresses_and_reports_no_answer(void **state)
{
    (void)state;
    base_buf_t body;
    char msg[512];
    base_buf_init(&body);
    assert_int_equal(emu_admin_get("https://127.0.0.1:1", "/stats", 1, &body, msg, sizeof(msg)),
                     BASE_EINVAL);
    assert_int_equal(emu_admin_get("127.0.0.1:1/x?y", "/stats", 1, &body, msg, sizeof(msg)),
                     BASE_EINVAL);
    /* port 1 on loopback: nothing listens */
    assert_int_equal(emu_admin_get("127.0.0.1:1", "/stats", 2, &body, msg, sizeof(msg)), BASE_EIO);
    assert_non_null(strstr(msg, "no answer from the admin endpoint"));
    base_buf_fini(&body);
}

static void config_takes_the_admin_endpoint_options(void **state)
{
    (void)state;
    emu_config_t c;
    char msg[256];
    char *args[] = {"emu", "--admin-port", "0", "--admin-bind", "0.0.0.0"};
    emu_config_init(&c);
    assert_int_equal(c.admin_port, 10351);
    assert_string_equal(c.admin_bind, "127.0.0.1");
    assert_int_equal(emu_config_load(&c, 5, args, NULL, msg, sizeof(msg)), 0);
    assert_int_equal(c.admin_port, 0);
    assert_string_equal(c.admin_bind, "0.0.0.0");
    emu_config_fini(&c);
    char *bad[] = {"emu", "--admin-port", "70000"};
    emu_config_init(&c);
    assert_int_equal(emu_config_load(&c, 3, bad, NULL, msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "not a port number"));
    emu_config_fini(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(replay_totals_are_count_times_the_per_operation_charge,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(replay_duration_spreads_the_traffic_over_seconds, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(snapshot_read_back_from_json_estimates_as_the_original,
                                        setup, teardown),
        cmocka_unit_test(json_that_is_not_statistics_is_rejected),
        cmocka_unit_test(scale_and_format_parse),
        cmocka_unit_test(html_report_is_self_contained_and_escapes_text),
        cmocka_unit_test_setup_teardown(admin_endpoint_serves_statistics_and_reports, setup,
                                        teardown),
        cmocka_unit_test(admin_client_rejects_bad_addresses_and_reports_no_answer),
        cmocka_unit_test(config_takes_the_admin_endpoint_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
