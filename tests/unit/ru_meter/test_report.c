/* Unit tests for ru_meter/report.c: the terminal report shows the figures,
 * and the hand-written JSON is well formed and escaped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ru_meter/ru_meter.h"

#define SEC 1000000LL

static const char odd_shape[] = "SELECT \"v\" FROM t WHERE k = ? -- \\ \x01\n";


static void build(ru_snapshot_t *snap, ru_estimate_t *est)
{
    ru_config_t cfg;
    ru_config_defaults(&cfg);
    cfg.rate_limiting = true;
    ru_meter_t *m = ru_meter_new(&cfg);
    ru_request_t r = {.keyspace = "ks", .table = "t", .shape = odd_shape};
    ru_op_t w = {.kind = RU_OP_WRITE, .rows_written = 1, .bytes_written = 1024};
    for (int i = 0; i < 100; i++) {
        ru_decision_t d;
        ru_meter_admit(m, &r, i * 1000, &d); /* 100 writes in 0.1 s: 550 RU > 400 */
        if (!d.throttle) {
            ru_meter_charge(m, &r, &d, &w, i * 1000);
        }
    }
    ru_meter_snapshot(m, 60 * SEC, snap);
    ru_estimate_params_t p = {.scale = 100};
    ru_estimate(snap, &p, NULL, est);
    ru_meter_free(m);
}


/* Checks brackets balance outside strings, strings close, escapes are valid
 * and no raw control character appears. */
static void assert_json_shape(const char *s)
{
    int depth = 0;
    bool in_str = false;
    for (const char *p = s; *p; p++) {
        assert_true((unsigned char)*p >= 0x20 || (!in_str && *p == '\n'));
        if (in_str) {
            if (*p == '\\') {
                p++;
                assert_non_null(strchr("\"\\/bfnrtu", *p));
            } else if (*p == '"') {
                in_str = false;
            }
            continue;
        }
        if (*p == '"') {
            in_str = true;
        } else if (*p == '{' || *p == '[') {
            depth++;
        } else if (*p == '}' || *p == ']') {
            depth--;
            assert_true(depth >= 0);
        }
    }
    assert_false(in_str);
    assert_int_equal(depth, 0);
}


static void json_report_is_well_formed_and_escaped(void **state)
{
    (void)state;
    ru_snapshot_t snap;
    ru_estimate_t est;
    build(&snap, &est);
    base_buf_t out;
    base_buf_init(&out);
    ru_report_json(&snap, &est, &out);
    const char *j = (const char *)out.data;
    assert_int_equal(strlen(j), out.len);
    assert_json_shape(j);
    assert_non_null(
        strstr(j, "\"shape\":\"SELECT \\\"v\\\" FROM t WHERE k = ? -- \\\\ \\u0001\\n\""));
    assert_non_null(strstr(j, "\"throughput\":{\"kind\":\"manual\",\"ru_s\":400}"));
    assert_non_null(strstr(j, "\"as_of\":\"list prices as of 2022-03 (understand-your-bill.md)\""));
    assert_non_null(strstr(j, "\"rate_limiting\":true"));
    assert_non_null(strstr(j, "\"physical_partitions\":[{\"index\":0,"));
    assert_non_null(strstr(j, "\"estimate\":{"));
    assert_true(snap.total.throttled > 0);
    base_buf_fini(&out);

    /* statistics only */
    base_buf_init(&out);
    ru_report_json(&snap, NULL, &out);
    assert_json_shape((const char *)out.data);
    assert_null(strstr((const char *)out.data, "\"estimate\""));
    base_buf_fini(&out);
    ru_estimate_fini(&est);
    ru_snapshot_fini(&snap);
}


static void text_report_lists_shapes_tables_and_dollars(void **state)
{
    (void)state;
    ru_snapshot_t snap;
    ru_estimate_t est;
    build(&snap, &est);
    base_buf_t out;
    base_buf_init(&out);
    ru_report_text(&snap, &est, &out);
    const char *t = (const char *)out.data;
    assert_int_equal(strlen(t), out.len);
    assert_non_null(strstr(t, "RU report (provisioned, rate limiting on)"));
    assert_non_null(strstr(t, "Per statement shape"));
    assert_non_null(strstr(t, "ks.t"));
    assert_non_null(strstr(t, "manual 400 RU/s, 1 physical partition"));
    assert_non_null(strstr(t, "partition 0: budget 400.00 RU/s"));
    assert_non_null(strstr(t, "list prices as of 2022-03"));
    assert_non_null(strstr(t, "Total per month: manual $"));
    base_buf_fini(&out);
    ru_estimate_fini(&est);
    ru_snapshot_fini(&snap);
}


static void reports_of_an_empty_meter_still_render(void **state)
{
    (void)state;
    ru_meter_t *m = ru_meter_new(NULL);
    ru_snapshot_t snap;
    ru_meter_snapshot(m, 0, &snap);
    ru_estimate_t est;
    ru_estimate(&snap, NULL, NULL, &est);
    base_buf_t out;
    base_buf_init(&out);
    ru_report_json(&snap, &est, &out);
    assert_json_shape((const char *)out.data);
    assert_non_null(strstr((const char *)out.data, "\"tables\":[]"));
    base_buf_reset(&out);
    ru_report_text(&snap, &est, &out);
    assert_non_null(strstr((const char *)out.data, "0 requests"));
    base_buf_fini(&out);
    ru_estimate_fini(&est);
    ru_snapshot_fini(&snap);
    ru_meter_free(m);
}


static void dashboard_draws_each_table_and_reloads_itself(void **state)
{
    (void)state;
    ru_snapshot_t snap;
    ru_estimate_t est;
    build(&snap, &est); /* traffic in second 0, snapshot at 60 s */
    assert_int_equal(snap.tables[0].n_series, RU_SERIES_SECONDS);
    base_buf_t out;
    base_buf_init(&out);
    ru_report_dashboard(&snap, &est, 5, &out);
    const char *page = (const char *)out.data;
    assert_non_null(strstr(page, "<meta http-equiv=\"refresh\" content=\"5\">"));
    assert_non_null(strstr(page, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_non_null(strstr(page, "class=\"live\" data-table=\"ks.t\""));
    assert_non_null(strstr(page, "<polyline class=\"ru\""));
    assert_non_null(strstr(page, "<rect class=\"throttled\""));
    assert_non_null(strstr(page, "Hottest partitions now"));
    assert_null(strstr(page, "<script"));
    base_buf_reset(&out);
    ru_report_html(&snap, &est, &out); /* the report stays still */
    assert_null(strstr((const char *)out.data, "http-equiv=\"refresh\""));
    assert_null(strstr((const char *)out.data, "class=\"live\""));
    base_buf_fini(&out);
    ru_estimate_fini(&est);
    ru_snapshot_fini(&snap);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_report_is_well_formed_and_escaped),
        cmocka_unit_test(text_report_lists_shapes_tables_and_dollars),
        cmocka_unit_test(reports_of_an_empty_meter_still_render),
        cmocka_unit_test(dashboard_draws_each_table_and_reloads_itself),
    };
    return cmocka_run_group_tests_name("ru_meter/report", tests, NULL, NULL);
}
