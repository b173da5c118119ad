/*
 * test_physical.c - physical partitions: the token ring in n equal ranges,
 * range i starting at INT64_MIN + i * floor(2^64 / n).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "storage/storage.h"
#include "storage_test.h"


/* INT64_MIN + k * width, computed without signed overflow. */
static int64_t ring_at(uint64_t offset)
{
    uint64_t u = offset ^ (UINT64_C(1) << 63);
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)~u - 1;
}


static void one_partition_owns_the_whole_ring(void **state)
{
    test_fixture_t *f = *state;
    assert_int_equal(storage_table_physical_partitions(f->t), 1);
    assert_int_equal(storage_table_physical_of(f->t, INT64_MIN), 0);
    assert_int_equal(storage_table_physical_of(f->t, 0), 0);
    assert_int_equal(storage_table_physical_of(f->t, INT64_MAX), 0);
    storage_table_set_physical_partitions(f->t, 0);
    assert_int_equal(storage_table_physical_partitions(f->t), 1);
}


static void three_partitions_split_at_thirds(void **state)
{
    test_fixture_t *f = *state;
    const uint64_t w = UINT64_C(6148914691236517205); /* floor(2^64 / 3) */
    storage_table_set_physical_partitions(f->t, 3);
    assert_int_equal(storage_table_physical_partitions(f->t), 3);
    assert_int_equal(storage_table_physical_of(f->t, INT64_MIN), 0);
    assert_int_equal(storage_table_physical_of(f->t, ring_at(w - 1)), 0);
    assert_int_equal(storage_table_physical_of(f->t, ring_at(w)), 1);
    assert_int_equal(storage_table_physical_of(f->t, 0), 1);
    assert_int_equal(storage_table_physical_of(f->t, ring_at(2 * w - 1)), 1);
    assert_int_equal(storage_table_physical_of(f->t, ring_at(2 * w)), 2);
    /* 3w = 2^64 - 1: INT64_MAX is left over and belongs to the last. */
    assert_int_equal(storage_table_physical_of(f->t, INT64_MAX), 2);
}


static void ten_partitions_cover_the_ring_in_order(void **state)
{
    test_fixture_t *f = *state;
    const uint64_t w = UINT64_C(1844674407370955161); /* floor(2^64 / 10) */
    storage_table_set_physical_partitions(f->t, 10);
    for (uint64_t i = 0; i < 10; i++) {
        assert_int_equal(storage_table_physical_of(f->t, ring_at(i * w)), i);
        if (i > 0) {
            assert_int_equal(storage_table_physical_of(f->t, ring_at(i * w - 1)), i - 1);
        }
    }
    assert_int_equal(storage_table_physical_of(f->t, INT64_MIN), 0);
    assert_int_equal(storage_table_physical_of(f->t, INT64_MAX - 5), 9);
    assert_int_equal(storage_table_physical_of(f->t, INT64_MAX), 9);

    uint32_t last = 0;
    for (int64_t tok = INT64_MIN; tok < INT64_MAX - (INT64_C(1) << 56); tok += INT64_C(1) << 56) {
        uint32_t i = storage_table_physical_of(f->t, tok);
        assert_true(i >= last && i < 10);
        last = i;
    }
}


static void power_of_two_counts_split_exactly(void **state)
{
    test_fixture_t *f = *state;
    storage_table_set_physical_partitions(f->t, 4);
    assert_int_equal(storage_table_physical_of(f->t, INT64_MIN), 0);
    assert_int_equal(storage_table_physical_of(f->t, INT64_MIN / 2 - 1), 0);
    assert_int_equal(storage_table_physical_of(f->t, INT64_MIN / 2), 1);
    assert_int_equal(storage_table_physical_of(f->t, -1), 1);
    assert_int_equal(storage_table_physical_of(f->t, 0), 2);
    assert_int_equal(storage_table_physical_of(f->t, INT64_MAX / 2 + 1), 3);
    assert_int_equal(storage_table_physical_of(f->t, INT64_MAX), 3);
}


int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, test_setup, test_teardown)
    const struct CMUnitTest tests[] = {
        T(one_partition_owns_the_whole_ring),
        T(three_partitions_split_at_thirds),
        T(ten_partitions_cover_the_ring_in_order),
        T(power_of_two_counts_split_exactly),
    };
#undef T
    return cmocka_run_group_tests_name("storage/physical", tests, NULL, NULL);
}
