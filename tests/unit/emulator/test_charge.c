/* Unit tests for emulator/charge.c: the payload encoding drivers decode
 * with struct.unpack('>d') / readDoubleBE, and the charge's shape. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/charge.h"

static void charge_is_encoded_as_a_big_endian_double(void **state)
{
    (void)state;
    uint8_t out[8];
    emu_charge_encode(5.5, out);
    const uint8_t want[8] = {0x40, 0x16, 0, 0, 0, 0, 0, 0};
    assert_memory_equal(out, want, 8);
    emu_charge_encode(1.0, out);
    const uint8_t one[8] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0};
    assert_memory_equal(out, one, 8);
}

static void every_request_costs_something_and_writes_cost_more(void **state)
{
    (void)state;
    cql_stats_t read = {.kind = CQL_OP_READ, .rows_read = 1, .bytes_read = 100};
    cql_stats_t write = {.kind = CQL_OP_WRITE, .rows_written = 1, .bytes_written = 100};
    cql_stats_t none = {.kind = CQL_OP_NONE};
    assert_true(emu_charge(&none, false) > 0.0);
    assert_true(emu_charge(&read, false) >= 1.0);
    assert_true(emu_charge(&write, false) > emu_charge(&read, false));
    assert_true(emu_charge(&write, true) <= emu_charge(&write, false));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(charge_is_encoded_as_a_big_endian_double),
        cmocka_unit_test(every_request_costs_something_and_writes_cost_more),
    };
    return cmocka_run_group_tests_name("emulator/charge", tests, NULL, NULL);
}
