/*
 * Paging through a SELECT whose clustering restriction is several slices (an
 * IN list, an IN followed by a range, a tuple IN): every page size returns
 * exactly the rows of the unpaged query, in its order, with none repeated,
 * ascending and descending, with and without a reversed ORDER BY.
 */
#include "engine_test.h"

#define MAX_ROWS 256


static int run_page(fixture_t *f, const char *q, int32_t page_size, wire_value_t state)
{
    wire_query_params_t p = {
        .consistency = WIRE_CL_ONE, .page_size = page_size, .paging_state = state};
    base_arena_reset(&f->a);
    base_error_clear(&f->err);
    return cql_query(f->e, f->s, base_str_from(q), &p, &f->a, &f->r, &f->err);
}


/* The rows of q as k * 10000 + a * 100 + b (q selects k, a, b), every page followed. */
static size_t collect(fixture_t *f, const char *q, int32_t page_size, int32_t *out)
{
    uint8_t state_buf[1024];
    wire_value_t state = {NULL, -1};
    size_t n = 0;
    for (int pages = 0; pages < 1000; pages++) {
        if (run_page(f, q, page_size, state) != BASE_OK) {
            fail_msg("%s -> %s", q, f->err.msg);
        }
        for (size_t i = 0; i < f->r.n_rows; i++) {
            int32_t v = 0;
            for (size_t j = 0; j < 3; j++) {
                const wire_value_t *c = &f->r.cells[i * f->r.n_cols + j];
                assert_int_equal(c->len, 4);
                v = v * 100 + (int32_t)base_load_u32(c->ptr);
            }
            assert_true(n < MAX_ROWS);
            out[n++] = v;
        }
        if (f->r.paging_state.len < 0) {
            return n;
        }
        assert_true(f->r.paging_state.len <= (int32_t)sizeof(state_buf));
        memcpy(state_buf, f->r.paging_state.ptr, (size_t)f->r.paging_state.len);
        state.ptr = state_buf;
        state.len = f->r.paging_state.len;
    }
    fail_msg("%s: paging never ended", q);
    return 0;
}


static void pages_match_the_unpaged_rows(fixture_t *f, const char *q)
{
    int32_t all[MAX_ROWS], paged[MAX_ROWS];
    size_t n = collect(f, q, 0, all);
    assert_true(n > 3);
    for (int32_t size = 1; size <= 7; size++) {
        size_t m = collect(f, q, size, paged);
        if (m != n || memcmp(all, paged, n * sizeof(*all)) != 0) {
            fail_msg("%s: page size %d gave %zu rows, unpaged %zu", q, size, m, n);
        }
    }
}


static void fill(fixture_t *f, const char *table)
{
    char q[160];
    for (int k = 0; k < 3; k++) {
        for (int a = 0; a < 4; a++) {
            for (int b = 0; b < 4; b++) {
                snprintf(q, sizeof(q), "INSERT INTO %s (k, a, b) VALUES (%d, %d, %d)", table, k, a,
                         b);
                ok(f, q);
            }
        }
    }
}


static void paging_over_several_clustering_slices_repeats_no_row(void **state)
{
    fixture_t *f = *state;
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
    ok(f, "CREATE TABLE ks.up (k int, a int, b int, PRIMARY KEY (k, a, b))");
    ok(f, "CREATE TABLE ks.down (k int, a int, b int, PRIMARY KEY (k, a, b)) "
          "WITH CLUSTERING ORDER BY (a DESC, b DESC)");
    fill(f, "ks.up");
    fill(f, "ks.down");
    const char *tables[] = {"ks.up", "ks.down"};
    const char *wheres[] = {
        "k IN (0, 1, 2) AND a IN (0, 2, 3)",
        "k = 1 AND a IN (0, 1, 3)",
        "k IN (0, 2) AND a IN (1, 3) AND b IN (0, 2, 3)",
        "k IN (0, 1) AND a IN (0, 2) AND b > 0",
        "k = 2 AND a IN (3, 1) AND b <= 2",
        "k IN (0, 1) AND (a, b) IN ((0, 1), (1, 2), (2, 3), (3, 0))",
    };
    const char *orders[] = {"", " ORDER BY a ASC", " ORDER BY a DESC"};
    char q[256];
    for (size_t t = 0; t < 2; t++) {
        for (size_t w = 0; w < sizeof(wheres) / sizeof(wheres[0]); w++) {
            for (size_t o = 0; o < 3; o++) {
                bool multi_key = strstr(wheres[w], "k IN") != NULL;
                if (o > 0 && multi_key) {
                    continue; /* ORDER BY with a partition IN needs paging off */
                }
                snprintf(q, sizeof(q), "SELECT k, a, b FROM %s WHERE %s%s", tables[t], wheres[w],
                         orders[o]);
                pages_match_the_unpaged_rows(f, q);
            }
        }
    }
}


/* Rows come in clustering order whatever the order of the IN list, each once. */
static void in_lists_read_in_clustering_order_once(void **state)
{
    fixture_t *f = *state;
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
    ok(f, "CREATE TABLE ks.down (k int, a int, b int, PRIMARY KEY (k, a, b)) "
          "WITH CLUSTERING ORDER BY (a DESC, b DESC)");
    fill(f, "ks.down");
    int32_t rows[MAX_ROWS];
    assert_int_equal(
        collect(f, "SELECT k, a, b FROM ks.down WHERE k = 1 AND a IN (0, 3, 0)", 0, rows), 8);
    assert_int_equal(rows[0], 10303); /* k 1, a 3, b 3: DESC */
    assert_int_equal(rows[7], 10000);
    assert_int_equal(collect(f,
                             "SELECT k, a, b FROM ks.down WHERE k = 1 AND (a, b) IN ((0, 1), (2, "
                             "3), (0, 1))",
                             0, rows),
                     2);
    assert_int_equal(rows[0], 10203);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(paging_over_several_clustering_slices_repeats_no_row, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(in_lists_read_in_clustering_order_once, setup, teardown),
    };
    return cmocka_run_group_tests_name("cql/in_paging", tests, NULL, NULL);
}
