/* Unit tests for emulator/auth.c: SASL PLAIN parsing and the answers
 * Cassandra gives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/auth.h"

#define ACCOUNT "localhost"
#define KEY \
    "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw=="

static int check(const char *token, size_t len, base_error_t *err)
{
    wire_value_t v = {(const uint8_t *)token, (int32_t)len};
    return emu_auth_check_plain(v, ACCOUNT, KEY, err);
}

#define CHECK(lit, err) check((lit), sizeof(lit) - 1, (err))

static void correct_credentials_are_accepted(void **state)
{
    (void)state;
    base_error_t err;
    assert_int_equal(CHECK("\0localhost\0" KEY, &err), BASE_OK);
}

static void an_authorization_id_is_ignored(void **state)
{
    (void)state;
    base_error_t err;
    assert_int_equal(CHECK("someone\0localhost\0" KEY, &err), BASE_OK);
}

static void wrong_key_gets_bad_credentials_with_cassandras_message(void **state)
{
    (void)state;
    base_error_t err;
    assert_int_equal(CHECK("\0localhost\0wrong", &err), BASE_ERROR);
    assert_int_equal(err.code, 0x0100);
    assert_string_equal(err.msg, "Provided username localhost and/or password are incorrect");
}

static void a_prefix_or_extension_of_the_key_is_refused(void **state)
{
    (void)state;
    base_error_t err;
    char token[256];
    size_t n = (size_t)snprintf(token, sizeof(token), "%c%s%c%s", 0, ACCOUNT, 0, KEY);
    assert_int_equal(check(token, n - 1, &err), BASE_ERROR);
    n = (size_t)snprintf(token, sizeof(token), "%c%s%c%sX", 0, ACCOUNT, 0, KEY);
    assert_int_equal(check(token, n, &err), BASE_ERROR);
}

static void wrong_user_is_refused_and_echoed_printably(void **state)
{
    (void)state;
    base_error_t err;
    assert_int_equal(CHECK("\0bad\x01user\0" KEY, &err), BASE_ERROR);
    assert_int_equal(err.code, 0x0100);
    assert_string_equal(err.msg, "Provided username bad?user and/or password are incorrect");
}

static void malformed_tokens_are_refused(void **state)
{
    (void)state;
    base_error_t err;
    wire_value_t null_token = {NULL, WIRE_VALUE_NULL};
    assert_int_equal(emu_auth_check_plain(null_token, ACCOUNT, KEY, &err), BASE_ERROR);
    assert_string_equal(err.msg, "Password must not be null");
    assert_int_equal(CHECK("localhost" KEY, &err), BASE_ERROR);
    assert_string_equal(err.msg, "Password must not be null");
    assert_int_equal(CHECK("localhost\0" KEY, &err), BASE_ERROR);
    assert_string_equal(err.msg, "Authentication ID must not be null");
    assert_int_equal(CHECK("\0\0" KEY, &err), BASE_ERROR);
    assert_string_equal(err.msg, "Authentication ID must not be null");
    assert_int_equal(CHECK("a\0b\0localhost\0" KEY, &err), BASE_ERROR);
    assert_int_equal(err.code, 0x0100);
    assert_int_equal(CHECK("\0localhost\0", &err), BASE_ERROR);
    assert_int_equal(err.code, 0x0100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct_credentials_are_accepted),
        cmocka_unit_test(an_authorization_id_is_ignored),
        cmocka_unit_test(wrong_key_gets_bad_credentials_with_cassandras_message),
        cmocka_unit_test(a_prefix_or_extension_of_the_key_is_refused),
        cmocka_unit_test(wrong_user_is_refused_and_echoed_printably),
        cmocka_unit_test(malformed_tokens_are_refused),
    };
    return cmocka_run_group_tests_name("emulator/auth", tests, NULL, NULL);
}
