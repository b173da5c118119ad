/* Unit tests for emulator/log.c: the JSON line format (escaping, bytes that
 * are not UTF-8, a message cut at the buffer's end), the log file and the
 * rate-limited line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "emulator/log.h"

static void json_lines_carry_ts_level_conn_and_msg(void **state)
{
    (void)state;
    char out[256];
    size_t n = emu_log_format_json(out, sizeof(out), "2026-12-03T10:00:00.000Z", EMU_LOG_WARN, 12,
                                   "listening on 127.0.0.1:1");
    assert_string_equal(out, "{\"ts\":\"2026-12-03T10:00:00.000Z\",\"level\":\"warn\",\"conn\":12,"
                             "\"msg\":\"listening on 127.0.0.1:1\"}");
    assert_int_equal(n, strlen(out));
    emu_log_format_json(out, sizeof(out), "T", EMU_LOG_INFO, 0, "ready");
    assert_string_equal(out, "{\"ts\":\"T\",\"level\":\"info\",\"msg\":\"ready\"}");
}

static void json_escapes_quotes_controls_and_bytes_that_are_not_utf8(void **state)
{
    (void)state;
    char out[256];
    emu_log_format_json(out, sizeof(out), "T", EMU_LOG_ERROR, 0,
                        "a \"q\" \\ \n\t\x01 caf\xc3\xa9 bad\xff\xc0\x80 \xed\xa0\x80");
    assert_string_equal(out, "{\"ts\":\"T\",\"level\":\"error\",\"msg\":\"a \\\"q\\\" \\\\ "
                             "\\u000a\\u0009\\u0001 caf\xc3\xa9 bad\\ufffd\\ufffd\\ufffd "
                             "\\ufffd\\ufffd\\ufffd\"}");
}

static void a_long_message_is_cut_and_the_object_still_closes(void **state)
{
    (void)state;
    char msg[400];
    char out[64];
    memset(msg, '"', sizeof(msg) - 1);
    msg[sizeof(msg) - 1] = '\0';
    size_t n = emu_log_format_json(out, sizeof(out), "T", EMU_LOG_INFO, 0, msg);
    assert_true(n < sizeof(out));
    assert_int_equal(out[n], '\0');
    assert_string_equal(out + n - 2, "\"}");
    assert_true(out[n - 3] != '\\' || out[n - 4] == '\\'); /* never a dangling escape */
}

static void lines_go_to_the_log_file_and_reopen_follows_the_name(void **state)
{
    (void)state;
    char path[] = "/tmp/emu-log-test-XXXXXX";
    char moved[64];
    char msg[256];
    char buf[4096];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    snprintf(moved, sizeof(moved), "%s.1", path);
    assert_int_equal(emu_log_open_file(path, msg, sizeof(msg)), 0);
    emu_log_set_format(EMU_LOG_JSON);
    emu_log(EMU_LOG_INFO, 3, "first %d", 1);
    assert_int_equal(rename(path, moved), 0); /* logrotate moves it */
    emu_log(EMU_LOG_INFO, 0, "second");       /* still into the moved file */
    assert_int_equal(emu_log_reopen(), 0);
    emu_log(EMU_LOG_INFO, 0, "third");
    emu_log_close();
    emu_log_set_format(EMU_LOG_TEXT);

    FILE *f = fopen(moved, "r");
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = '\0';
    fclose(f);
    assert_non_null(strstr(buf, "\"level\":\"info\",\"conn\":3,\"msg\":\"first 1\"}\n"));
    assert_non_null(strstr(buf, "\"msg\":\"second\"}\n"));
    assert_null(strstr(buf, "third"));
    f = fopen(path, "r");
    n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = '\0';
    fclose(f);
    assert_non_null(strstr(buf, "\"msg\":\"third\"}\n"));
    unlink(path);
    unlink(moved);

    assert_int_equal(emu_log_open_file("/nonexistent/dir/emu.log", msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "cannot open the log file /nonexistent/dir/emu.log"));
}

static void a_limited_line_is_written_once_an_interval_with_the_count(void **state)
{
    (void)state;
    char path[] = "/tmp/emu-log-limit-XXXXXX";
    char msg[256];
    char buf[8192];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(emu_log_open_file(path, msg, sizeof(msg)), 0);
    emu_log_limit_t limit = {0};
    int written = 0;
    for (int i = 0; i < 1000; i++) {
        written += emu_log_limited(&limit, 60000, EMU_LOG_WARN, 0, "accept failed: %d", i);
    }
    assert_int_equal(written, 1);
    limit.next_us = 0; /* the interval has passed */
    assert_true(emu_log_limited(&limit, 60000, EMU_LOG_WARN, 0, "accept failed: %s", "again"));
    emu_log_close();

    FILE *f = fopen(path, "r");
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = '\0';
    fclose(f);
    unlink(path);
    assert_non_null(strstr(buf, "WARN  accept failed: 0\n"));
    assert_non_null(strstr(buf, "WARN  accept failed: again; 999 more since the last such line\n"));
    assert_null(strstr(buf, "accept failed: 1\n"));
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_lines_carry_ts_level_conn_and_msg),
        cmocka_unit_test(json_escapes_quotes_controls_and_bytes_that_are_not_utf8),
        cmocka_unit_test(a_long_message_is_cut_and_the_object_still_closes),
        cmocka_unit_test(lines_go_to_the_log_file_and_reopen_follows_the_name),
        cmocka_unit_test(a_limited_line_is_written_once_an_interval_with_the_count),
    };
    return cmocka_run_group_tests_name("emulator/log", tests, NULL, NULL);
}
