/* Unit tests for emulator/charge.c: the payload encoding drivers decode
 * with struct.unpack('>d') / readDoubleBE. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
    emu_charge_encode(0.0, out);
    const uint8_t zero[8] = {0};
    assert_memory_equal(out, zero, 8);
}

static void fractional_charges_survive_the_round_trip(void **state)
{
    (void)state;
    uint8_t out[8];
    emu_charge_encode(8.19, out);
    uint64_t bits = 0;
    for (int i = 0; i < 8; i++) {
        bits = (bits << 8) | out[i];
    }
    double back;
    memcpy(&back, &bits, sizeof(back));
    assert_true(back == 8.19);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(charge_is_encoded_as_a_big_endian_double),
        cmocka_unit_test(fractional_charges_survive_the_round_trip),
    };
    return cmocka_run_group_tests_name("emulator/charge", tests, NULL, NULL);
}
