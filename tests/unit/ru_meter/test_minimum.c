/* Unit tests for the service's minimum throughput (throughput.c and its use
 * in meter.c): the highest-ever, storage and shared-table terms with
 * hand-computed numbers, the texts, and what the meter refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ru_meter/ru_meter.h"

#define GB RU_GB


static int64_t table_min(ru_tp_kind_t kind, uint64_t storage, int64_t highest, ru_min_reason_t *why)
{
    ru_min_basis_t b = {RU_SCOPE_TABLE, storage, highest, 0};
    return ru_throughput_minimum(kind, &b, why);
}


static int64_t keyspace_min(ru_tp_kind_t kind, uint32_t tables, int64_t highest,
                            ru_min_reason_t *why)
{
    ru_min_basis_t b = {RU_SCOPE_KEYSPACE, 0, highest, tables};
    return ru_throughput_minimum(kind, &b, why);
}


static void manual_table_minimum_is_the_largest_of_400_storage_and_highest_over_100(void **state)
{
    (void)state;
    ru_min_reason_t why;
    assert_int_equal(table_min(RU_TP_MANUAL, 0, 0, &why), 400);
    assert_int_equal(why, RU_MIN_FLOOR);
    assert_int_equal(table_min(RU_TP_MANUAL, 0, 40000, &why), 400); /* 40000 / 100 = 400 */
    assert_int_equal(table_min(RU_TP_MANUAL, 0, 100000, &why), 1000);
    assert_int_equal(why, RU_MIN_HIGHEST);
    assert_int_equal(table_min(RU_TP_MANUAL, 0, 123400, &why), 1300); /* 1234 -> step */
    assert_int_equal(table_min(RU_TP_MANUAL, 1500 * GB, 0, &why), 1500);
    assert_int_equal(why, RU_MIN_STORAGE);
    assert_int_equal(table_min(RU_TP_MANUAL, 1500 * GB + 1, 0, &why), 1600); /* 1501 GB */
    assert_int_equal(table_min(RU_TP_MANUAL, 2000 * GB, 100000, &why), 2000);
    assert_int_equal(why, RU_MIN_STORAGE);
    assert_int_equal(table_min(RU_TP_NONE, 2000 * GB, 100000, NULL), 0);
}


static void autoscale_minimum_is_1000_or_ten_rus_per_gb(void **state)
{
    (void)state;
    ru_min_reason_t why;
    assert_int_equal(table_min(RU_TP_AUTOSCALE, 0, 0, &why), 1000);
    assert_int_equal(why, RU_MIN_FLOOR);
    assert_int_equal(table_min(RU_TP_AUTOSCALE, 250 * GB, 0, &why), 3000); /* 2500 -> step */
    assert_int_equal(why, RU_MIN_STORAGE);
    /* the facts state no highest-ever term for autoscale */
    assert_int_equal(table_min(RU_TP_AUTOSCALE, 0, 1000000, NULL), 1000);
}


static void shared_keyspace_minimum_grows_by_100_per_table_past_25(void **state)
{
    (void)state;
    ru_min_reason_t why;
    assert_int_equal(keyspace_min(RU_TP_MANUAL, 0, 0, &why), 400);
    assert_int_equal(keyspace_min(RU_TP_MANUAL, 25, 0, &why), 400);
    assert_int_equal(keyspace_min(RU_TP_MANUAL, 26, 0, &why), 500);
    assert_int_equal(why, RU_MIN_TABLES);
    assert_int_equal(keyspace_min(RU_TP_MANUAL, 30, 0, NULL), 900);
    assert_int_equal(keyspace_min(RU_TP_MANUAL, 30, 200000, &why), 2000);
    assert_int_equal(why, RU_MIN_HIGHEST);
    /* autoscale: 25 tables share a 1000 maximum, + 1000 per table beyond (inferred) */
    assert_int_equal(keyspace_min(RU_TP_AUTOSCALE, 25, 0, NULL), 1000);
    assert_int_equal(keyspace_min(RU_TP_AUTOSCALE, 26, 0, NULL), 2000);
    assert_int_equal(keyspace_min(RU_TP_AUTOSCALE, 27, 0, NULL), 3000);
}


static void check_minimum_names_the_minimum_and_its_reason(void **state)
{
    (void)state;
    base_error_t err;
    ru_throughput_t tp = {RU_TP_MANUAL, 400};
    ru_min_basis_t b = {RU_SCOPE_TABLE, 0, 100000, 0};
    base_error_clear(&err);
    assert_int_equal(ru_throughput_check_minimum(&tp, &b, &err), BASE_ERROR);
    assert_int_equal(err.code, 0x2200);
    assert_string_equal(err.msg, "The offer throughput value 400 is below the minimum of 1000 RU/s "
                                 "for this table (highest throughput ever provisioned 100000 / "
                                 "100).");
    tp.ru_s = 1000;
    assert_int_equal(ru_throughput_check_minimum(&tp, &b, &err), BASE_OK);

    b = (ru_min_basis_t){RU_SCOPE_TABLE, 1500 * GB + 1, 0, 0};
    assert_int_equal(ru_throughput_check_minimum(&tp, &b, &err), BASE_ERROR);
    assert_string_equal(err.msg, "The offer throughput value 1000 is below the minimum of 1600 "
                                 "RU/s for this table (current storage 1501 GB * 1 RU/s per GB, "
                                 "rounded up to the step).");

    b = (ru_min_basis_t){RU_SCOPE_KEYSPACE, 0, 400, 26};
    tp.ru_s = 400;
    assert_int_equal(ru_throughput_check_minimum(&tp, &b, &err), BASE_ERROR);
    assert_string_equal(err.msg, "The offer throughput value 400 is below the minimum of 500 RU/s "
                                 "for this keyspace (400 + (26 tables sharing it - 25) * 100 "
                                 "RU/s).");

    tp = (ru_throughput_t){RU_TP_AUTOSCALE, 2000};
    b = (ru_min_basis_t){RU_SCOPE_TABLE, 250 * GB, 0, 0};
    assert_int_equal(ru_throughput_check_minimum(&tp, &b, &err), BASE_ERROR);
    assert_string_equal(err.msg, "The offer autoscale maximum throughput value 2000 is below the "
                                 "minimum of 3000 RU/s for this table (current storage 250 GB * "
                                 "10 RU/s per GB, rounded up to the step).");
    tp.kind = RU_TP_NONE;
    assert_int_equal(ru_throughput_check_minimum(&tp, &b, &err), BASE_OK);
}


/* ---- the meter ------------------------------------------------------------ */

static int set_table(ru_meter_t *m, const char *table, ru_tp_kind_t kind, int64_t ru_s,
                     base_error_t *err)
{
    ru_throughput_t tp = {kind, ru_s};
    base_error_clear(err);
    return ru_meter_table_set(m, "ks", table, &tp, 0, err);
}


static int set_keyspace(ru_meter_t *m, ru_tp_kind_t kind, int64_t ru_s, base_error_t *err)
{
    ru_throughput_t tp = {kind, ru_s};
    base_error_clear(err);
    return ru_meter_keyspace_set(m, "ks", &tp, 0, err);
}


static const ru_table_stats_t *find(const ru_snapshot_t *s, const char *table)
{
    for (size_t i = 0; i < s->n_tables; i++) {
        if (strcmp(s->tables[i].table, table) == 0) {
            return &s->tables[i];
        }
    }
    fail_msg("table %s not in the snapshot", table);
    return NULL;
}


static void lowering_a_table_stops_at_its_highest_throughput_over_100(void **state)
{
    (void)state;
    base_error_t err;
    ru_meter_t *m = ru_meter_new(NULL);
    assert_int_equal(set_table(m, "t", RU_TP_MANUAL, 100000, &err), BASE_OK);
    assert_int_equal(set_table(m, "t", RU_TP_MANUAL, 400, &err), BASE_ERROR);
    assert_int_equal(err.code, 0x2200);
    assert_non_null(strstr(err.msg, "minimum of 1000 RU/s"));
    assert_int_equal(set_table(m, "t", RU_TP_MANUAL, 900, &err), BASE_ERROR);
    assert_int_equal(set_table(m, "t", RU_TP_MANUAL, 1000, &err), BASE_OK);
    /* the highest ever is remembered: 1000 now, yet 400 is still too low */
    assert_int_equal(set_table(m, "t", RU_TP_MANUAL, 400, &err), BASE_ERROR);

    ru_snapshot_t s;
    ru_meter_snapshot(m, 0, &s);
    assert_int_equal(find(&s, "t")->throughput.ru_s, 1000);
    assert_int_equal(find(&s, "t")->min_ru_s, 1000);
    base_buf_t json;
    base_buf_init(&json);
    ru_report_json(&s, NULL, &json);
    assert_non_null(strstr((const char *)json.data, "\"min_throughput\":1000"));
    base_buf_fini(&json);
    ru_snapshot_fini(&s);

    /* a re-created table is a new container with no history */
    ru_meter_table_drop(m, "ks", "t");
    assert_int_equal(set_table(m, "t", RU_TP_NONE, 0, &err), BASE_OK);
    assert_int_equal(set_table(m, "t", RU_TP_MANUAL, 400, &err), BASE_OK);
    ru_meter_free(m);
}


static void lowering_a_table_stops_at_one_ru_per_stored_gb(void **state)
{
    (void)state;
    base_error_t err;
    ru_meter_t *m = ru_meter_new(NULL);
    assert_int_equal(set_table(m, "t", RU_TP_MANUAL, 20000, &err), BASE_OK);
    ru_meter_table_storage(m, "ks", "t", 1500 * GB, 0);
    assert_int_equal(set_table(m, "t", RU_TP_MANUAL, 1400, &err), BASE_ERROR);
    assert_non_null(strstr(err.msg, "current storage 1500 GB * 1 RU/s per GB"));
    assert_int_equal(set_table(m, "t", RU_TP_MANUAL, 1500, &err), BASE_OK);
    /* autoscale: 10 RU/s per GB */
    assert_int_equal(set_table(m, "t", RU_TP_AUTOSCALE, 14000, &err), BASE_ERROR);
    assert_int_equal(set_table(m, "t", RU_TP_AUTOSCALE, 15000, &err), BASE_OK);
    ru_meter_free(m);
}


static void a_shared_keyspace_refuses_the_26th_table_until_raised(void **state)
{
    (void)state;
    base_error_t err;
    char name[16];
    ru_meter_t *m = ru_meter_new(NULL);
    assert_int_equal(set_keyspace(m, RU_TP_MANUAL, 400, &err), BASE_OK);
    for (int i = 1; i <= 25; i++) {
        snprintf(name, sizeof(name), "t%d", i);
        assert_int_equal(set_table(m, name, RU_TP_NONE, 0, &err), BASE_OK);
    }
    assert_int_equal(set_table(m, "t26", RU_TP_NONE, 0, &err), BASE_ERROR);
    assert_int_equal(err.code, 0x2200);
    assert_string_equal(err.msg, "Cannot create table ks.t26: The offer throughput value 400 is "
                                 "below the minimum of 500 RU/s for this keyspace (400 + (26 "
                                 "tables sharing it - 25) * 100 RU/s). Raise the keyspace's "
                                 "cosmosdb_provisioned_throughput to at least 500 first.");
    /* a table with its own throughput does not share, so it does not count */
    assert_int_equal(set_table(m, "own", RU_TP_MANUAL, 400, &err), BASE_OK);
    /* re-declaring a table already sharing adds nothing */
    assert_int_equal(set_table(m, "t25", RU_TP_NONE, 0, &err), BASE_OK);

    assert_int_equal(set_keyspace(m, RU_TP_MANUAL, 500, &err), BASE_OK);
    assert_int_equal(set_table(m, "t26", RU_TP_NONE, 0, &err), BASE_OK);
    ru_snapshot_t s;
    ru_meter_snapshot(m, 0, &s);
    assert_int_equal(find(&s, "t26")->min_ru_s, 500);
    assert_int_equal(find(&s, "own")->min_ru_s, 400);
    ru_snapshot_fini(&s);

    assert_int_equal(set_keyspace(m, RU_TP_MANUAL, 400, &err), BASE_ERROR);
    assert_string_equal(err.msg, "The offer throughput value 400 is below the minimum of 500 RU/s "
                                 "for this keyspace (400 + (26 tables sharing it - 25) * 100 "
                                 "RU/s).");
    assert_int_equal(ru_meter_partition_count(m, "ks", "t1"), 1);
    /* dropping a table brings the minimum back to 400 */
    ru_meter_table_drop(m, "ks", "t3");
    assert_int_equal(set_keyspace(m, RU_TP_MANUAL, 400, &err), BASE_OK);
    ru_meter_free(m);
}


static void a_shared_keyspace_stops_at_its_highest_throughput_over_100(void **state)
{
    (void)state;
    base_error_t err;
    ru_meter_t *m = ru_meter_new(NULL);
    assert_int_equal(set_keyspace(m, RU_TP_MANUAL, 100000, &err), BASE_OK);
    assert_int_equal(set_keyspace(m, RU_TP_MANUAL, 400, &err), BASE_ERROR);
    assert_non_null(strstr(err.msg, "minimum of 1000 RU/s for this keyspace (highest throughput "
                                    "ever provisioned 100000 / 100)"));
    assert_int_equal(set_keyspace(m, RU_TP_MANUAL, 1000, &err), BASE_OK);
    /* a dropped and re-created keyspace starts afresh */
    ru_meter_keyspace_drop(m, "ks");
    assert_int_equal(set_keyspace(m, RU_TP_MANUAL, 100000, &err), BASE_OK);
    ru_meter_keyspace_drop(m, "ks");
    assert_int_equal(set_keyspace(m, RU_TP_MANUAL, 400, &err), BASE_OK);
    ru_meter_free(m);
}


static void an_autoscale_keyspace_shares_1000_among_its_first_25_tables(void **state)
{
    (void)state;
    base_error_t err;
    char name[16];
    ru_meter_t *m = ru_meter_new(NULL);
    assert_int_equal(set_keyspace(m, RU_TP_AUTOSCALE, 1000, &err), BASE_OK);
    for (int i = 1; i <= 25; i++) {
        snprintf(name, sizeof(name), "t%d", i);
        assert_int_equal(set_table(m, name, RU_TP_NONE, 0, &err), BASE_OK);
    }
    assert_int_equal(set_table(m, "t26", RU_TP_NONE, 0, &err), BASE_ERROR);
    assert_non_null(strstr(err.msg, "cosmosdb_autoscale_max_throughput to at least 2000 first."));
    assert_int_equal(set_keyspace(m, RU_TP_AUTOSCALE, 2000, &err), BASE_OK);
    assert_int_equal(set_table(m, "t26", RU_TP_NONE, 0, &err), BASE_OK);
    assert_int_equal(set_keyspace(m, RU_TP_AUTOSCALE, 1000, &err), BASE_ERROR);
    ru_meter_free(m);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(manual_table_minimum_is_the_largest_of_400_storage_and_highest_over_100),
        cmocka_unit_test(autoscale_minimum_is_1000_or_ten_rus_per_gb),
        cmocka_unit_test(shared_keyspace_minimum_grows_by_100_per_table_past_25),
        cmocka_unit_test(check_minimum_names_the_minimum_and_its_reason),
        cmocka_unit_test(lowering_a_table_stops_at_its_highest_throughput_over_100),
        cmocka_unit_test(lowering_a_table_stops_at_one_ru_per_stored_gb),
        cmocka_unit_test(a_shared_keyspace_refuses_the_26th_table_until_raised),
        cmocka_unit_test(a_shared_keyspace_stops_at_its_highest_throughput_over_100),
        cmocka_unit_test(an_autoscale_keyspace_shares_1000_among_its_first_25_tables),
    };
    return cmocka_run_group_tests_name("ru_meter/minimum", tests, NULL, NULL);
}
