/* Unit tests for ru_meter/cost.c: every operation kind against hand-computed
 * charges, the coefficient setter, and cost_model.json = the defaults. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ru_meter/ru_meter.h"

#define KB 1024

static ru_model_t model;


static int setup(void **state)
{
    (void)state;
    ru_model_defaults(&model);
    return 0;
}


static double cost(const ru_op_t *op)
{
    return ru_cost(&model, RU_CONSISTENCY_SESSION, op);
}


static void assert_ru(double got, double want)
{
    if (fabs(got - want) > 1e-9) {
        fail_msg("charge %.4f, want %.4f", got, want);
    }
}


static void point_read_costs_1_ru_per_kb_row_and_10_for_100_kb(void **state)
{
    (void)state;
    ru_op_t op = {.kind = RU_OP_READ, .point_read = true, .rows_read = 1, .bytes_read = KB};
    assert_ru(cost(&op), 1.00);
    op.bytes_read = 100 * KB;
    assert_ru(cost(&op), 10.00);
    op.bytes_read = 1500; /* 2 KB: 1 + 9/99 = 1.0909 */
    assert_ru(cost(&op), 1.09);
    op.bytes_read = 200; /* small rows cost the 1 KB price */
    assert_ru(cost(&op), 1.00);
    op.rows_read = 0; /* a miss still costs the lookup */
    op.bytes_read = 0;
    assert_ru(cost(&op), 1.00);
    op.rows_read = 3; /* IN on the key: three point reads */
    op.bytes_read = 3 * KB;
    assert_ru(cost(&op), 3.00);
}


static void strong_accounts_double_reads_except_at_one(void **state)
{
    (void)state;
    ru_op_t op = {.kind = RU_OP_READ,
                  .point_read = true,
                  .rows_read = 1,
                  .bytes_read = KB,
                  .consistency = 0x0004}; /* QUORUM */
    assert_ru(ru_cost(&model, RU_CONSISTENCY_STRONG, &op), 2.00);
    assert_ru(ru_cost(&model, RU_CONSISTENCY_BOUNDED_STALENESS, &op), 2.00);
    assert_ru(ru_cost(&model, RU_CONSISTENCY_SESSION, &op), 1.00);
    op.consistency = RU_CL_ONE;
    assert_ru(ru_cost(&model, RU_CONSISTENCY_STRONG, &op), 1.00);
    op.consistency = RU_CL_LOCAL_ONE;
    assert_ru(ru_cost(&model, RU_CONSISTENCY_STRONG, &op), 1.00);
    /* writes are not reads */
    ru_op_t w = {.kind = RU_OP_WRITE, .rows_written = 1, .bytes_written = KB, .consistency = 4};
    assert_ru(ru_cost(&model, RU_CONSISTENCY_STRONG, &w), 5.50);
}


static void writes_grow_with_size_indexes_and_overwrites(void **state)
{
    (void)state;
    ru_op_t op = {.kind = RU_OP_WRITE, .rows_written = 1, .bytes_written = KB};
    assert_ru(cost(&op), 5.50);
    op.bytes_written = 10 * KB; /* 5.5 + 9 * 0.5 */
    assert_ru(cost(&op), 10.00);
    op.bytes_written = 100 * KB; /* 5.5 + 99 * 0.5 = 55 */
    assert_ru(cost(&op), 55.00);
    op.bytes_written = KB;
    op.n_indexes = 2; /* 5.5 + 2 */
    assert_ru(cost(&op), 7.50);
    op.n_indexes = 0;
    op.overwrites = 1; /* replace = 2x insert */
    assert_ru(cost(&op), 11.00);
}


static void batch_is_the_sum_of_its_rows(void **state)
{
    (void)state;
    /* 3 rows of 1 KB, one of them an overwrite: 5.5 + 5.5 + 11 */
    ru_op_t op = {.kind = RU_OP_BATCH,
                  .rows_written = 3,
                  .bytes_written = 3 * KB,
                  .overwrites = 1,
                  .n_statements = 3};
    assert_ru(cost(&op), 22.00);
    /* plus a deleted row of 1 KB */
    op.rows_deleted = 1;
    op.bytes_deleted = KB;
    op.n_statements = 4;
    assert_ru(cost(&op), 27.50);
    /* with a per-statement overhead of 0.25 */
    assert_int_equal(ru_model_set(&model, "batch_per_statement", 0.25), BASE_OK);
    assert_ru(cost(&op), 28.50);
}


static void deletes_cost_like_writes_and_a_miss_like_a_read(void **state)
{
    (void)state;
    ru_op_t op = {.kind = RU_OP_DELETE, .rows_deleted = 1, .bytes_deleted = KB};
    assert_ru(cost(&op), 5.50);
    op.rows_deleted = 2;
    op.bytes_deleted = 4 * KB; /* 2 rows of 2 KB: 2 * 6.0 */
    assert_ru(cost(&op), 12.00);
    op.rows_deleted = 0;
    op.bytes_deleted = 0;
    assert_ru(cost(&op), 1.00);
    /* a range delete that scanned 10 rows of 100 bytes then removed them */
    ru_op_t range = {.kind = RU_OP_DELETE,
                     .rows_read = 10,
                     .bytes_read = 1000,
                     .rows_deleted = 10,
                     .bytes_deleted = 1000};
    /* R = 2 + 10 * 0.1 + 1000/1024 * 0.1 = 3.09766; D = 10 * 5.5 */
    assert_ru(cost(&range), 58.10);
}


static void ttl_expiry_costs_a_delete_per_row(void **state)
{
    (void)state;
    ru_op_t op = {.kind = RU_OP_TTL_EXPIRY, .rows_deleted = 2, .bytes_deleted = 2 * KB};
    assert_ru(cost(&op), 11.00);
    assert_int_equal(ru_model_set(&model, "ttl_delete_factor", 0.5), BASE_OK);
    assert_ru(cost(&op), 5.50);
}


static void queries_are_priced_by_what_they_scanned(void **state)
{
    (void)state;
    /* a page scanning 100 rows, 100 KB, returning 5: 2 + 10 + 10 */
    ru_op_t op = {.kind = RU_OP_READ, .rows_read = 100, .bytes_read = 100 * KB};
    assert_ru(cost(&op), 22.00);
    /* fan-out over 3 physical partitions: + 3 * 2.5 */
    op.cross_partition = true;
    op.n_physical = 3;
    assert_ru(cost(&op), 29.50);
    /* ALLOW FILTERING: + 100 * 0.05 */
    op.allow_filtering = true;
    assert_ru(cost(&op), 34.50);
    /* an empty page still costs the base */
    ru_op_t empty = {.kind = RU_OP_READ};
    assert_ru(cost(&empty), 2.00);
    /* under Strong the whole read doubles */
    assert_ru(ru_cost(&model, RU_CONSISTENCY_STRONG, &op), 69.00);
}


static void index_lookups_add_their_cost(void **state)
{
    (void)state;
    /* 4 rows of 256 bytes through an index: 2 + 0.4 + 1 KB * 0.1 + 1 */
    ru_op_t op = {.kind = RU_OP_READ, .index_lookup = true, .rows_read = 4, .bytes_read = KB};
    assert_ru(cost(&op), 3.50);
}


static void lwt_is_a_read_plus_a_write_and_more(void **state)
{
    (void)state;
    /* applied: 2 + 1 (point read) + 5.5 (insert) */
    ru_op_t op = {.kind = RU_OP_LWT,
                  .rows_read = 1,
                  .bytes_read = KB,
                  .rows_written = 1,
                  .bytes_written = KB};
    assert_ru(cost(&op), 8.50);
    /* not applied: no write */
    op.rows_written = 0;
    op.bytes_written = 0;
    assert_ru(cost(&op), 3.00);
    /* applied on Strong (LWT reads at SERIAL): read doubled */
    op.rows_written = 1;
    op.bytes_written = KB;
    op.consistency = 0x0008;
    assert_ru(ru_cost(&model, RU_CONSISTENCY_STRONG, &op), 9.50);
}


static void ddl_and_none_are_free_and_failures_pay_for_work_done(void **state)
{
    (void)state;
    ru_op_t ddl = {.kind = RU_OP_DDL, .rows_written = 3};
    assert_ru(cost(&ddl), 0);
    ru_op_t none = {.kind = RU_OP_NONE};
    assert_ru(cost(&none), 0);
    /* a write that failed before writing anything costs nothing */
    ru_op_t failed = {.kind = RU_OP_WRITE, .failed = true};
    assert_ru(cost(&failed), 0);
    /* a batch that wrote one row and then failed pays for that row */
    ru_op_t partial = {.kind = RU_OP_BATCH, .failed = true, .rows_written = 1, .bytes_written = 10};
    assert_ru(cost(&partial), 5.50);
}


static void model_set_and_get_by_name(void **state)
{
    (void)state;
    double v = 0;
    assert_int_equal(ru_model_get(&model, "write_1kb", &v), BASE_OK);
    assert_true(v == 5.5);
    assert_int_equal(ru_model_set(&model, "write_1kb", 7.0), BASE_OK);
    assert_true(model.write_1kb == 7.0);
    assert_int_equal(ru_model_set(&model, "no_such_key", 1.0), BASE_ENOTFOUND);
    assert_int_equal(ru_model_get(&model, "no_such_key", &v), BASE_ENOTFOUND);
    assert_int_equal(ru_model_set(&model, "write_1kb", -1.0), BASE_EINVAL);
    assert_int_equal(ru_model_set(&model, "write_1kb", NAN), BASE_EINVAL);
    assert_true(model.write_1kb == 7.0);
    assert_true(ru_model_count() >= 17);
    assert_string_equal(ru_model_name(0), "point_read_1kb");
    assert_non_null(ru_model_doc(0));
    assert_null(ru_model_name(ru_model_count()));
}


static char *read_cost_model_json(void)
{
    /* __FILE__ is <root>/tests/unit/ru_meter/test_cost.c */
    char path[4096];
    const char *tail = strstr(__FILE__, "tests/unit/ru_meter/");
    assert_non_null(tail);
    snprintf(path, sizeof(path), "%.*sru_meter/cost_model.json", (int)(tail - __FILE__), __FILE__);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char text[65536];
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}


static void cost_model_json_holds_the_defaults(void **state)
{
    (void)state;
    const char *text = read_cost_model_json();
    size_t numeric = 0;
    for (size_t i = 0; i < ru_model_count(); i++) {
        char key[128];
        snprintf(key, sizeof(key), "\"%s\":", ru_model_name(i));
        bool found = false;
        for (const char *p = strstr(text, key); p != NULL; p = strstr(p + 1, key)) {
            char *end = NULL;
            double v = strtod(p + strlen(key), &end);
            if (end != p + strlen(key)) {
                double want = 0;
                assert_int_equal(ru_model_get(&model, ru_model_name(i), &want), BASE_OK);
                if (v != want) {
                    fail_msg("%s: json %g, default %g", ru_model_name(i), v, want);
                }
                found = true;
                numeric++;
                break;
            }
        }
        if (!found) {
            fail_msg("%s missing from cost_model.json", ru_model_name(i));
        }
    }
    assert_int_equal(numeric, ru_model_count());
}


static void consistency_names_parse_loosely(void **state)
{
    (void)state;
    ru_consistency_t c = RU_CONSISTENCY_EVENTUAL;
    assert_int_equal(ru_consistency_parse("Strong", &c), BASE_OK);
    assert_int_equal(c, RU_CONSISTENCY_STRONG);
    assert_int_equal(ru_consistency_parse("bounded_staleness", &c), BASE_OK);
    assert_int_equal(c, RU_CONSISTENCY_BOUNDED_STALENESS);
    assert_int_equal(ru_consistency_parse("SESSION", &c), BASE_OK);
    assert_int_equal(c, RU_CONSISTENCY_SESSION);
    assert_int_equal(ru_consistency_parse("quorum", &c), BASE_EINVAL);
    assert_string_equal(ru_consistency_name(RU_CONSISTENCY_CONSISTENT_PREFIX), "ConsistentPrefix");
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(point_read_costs_1_ru_per_kb_row_and_10_for_100_kb, setup),
        cmocka_unit_test_setup(strong_accounts_double_reads_except_at_one, setup),
        cmocka_unit_test_setup(writes_grow_with_size_indexes_and_overwrites, setup),
        cmocka_unit_test_setup(batch_is_the_sum_of_its_rows, setup),
        cmocka_unit_test_setup(deletes_cost_like_writes_and_a_miss_like_a_read, setup),
        cmocka_unit_test_setup(ttl_expiry_costs_a_delete_per_row, setup),
        cmocka_unit_test_setup(queries_are_priced_by_what_they_scanned, setup),
        cmocka_unit_test_setup(index_lookups_add_their_cost, setup),
        cmocka_unit_test_setup(lwt_is_a_read_plus_a_write_and_more, setup),
        cmocka_unit_test_setup(ddl_and_none_are_free_and_failures_pay_for_work_done, setup),
        cmocka_unit_test_setup(model_set_and_get_by_name, setup),
        cmocka_unit_test_setup(cost_model_json_holds_the_defaults, setup),
        cmocka_unit_test_setup(consistency_names_parse_loosely, setup),
    };
    return cmocka_run_group_tests_name("ru_meter/cost", tests, NULL, NULL);
}
