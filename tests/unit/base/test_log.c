/*
 * test_log.c - base/log.c: a lower layer's line reaches the sink the
 * process installed, at its level and formatted, is cut rather than
 * overflowing, and goes to stderr again once the sink is taken away.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/base.h"

static struct {
    int calls;
    base_log_level_t level;
    char line[2048];
} got;


static void sink(base_log_level_t level, const char *line)
{
    got.calls++;
    got.level = level;
    snprintf(got.line, sizeof(got.line), "%s", line);
}


static void a_line_reaches_the_sink_at_its_level(void **state)
{
    (void)state;
    memset(&got, 0, sizeof(got));
    base_log_set_sink(sink);
    base_log(BASE_LOG_WARN, "storage: %s: dropping a torn record at offset %zu", "x.log",
             (size_t)136);
    assert_int_equal(got.calls, 1);
    assert_int_equal(got.level, BASE_LOG_WARN);
    assert_string_equal(got.line, "storage: x.log: dropping a torn record at offset 136");
    base_log(BASE_LOG_ERROR, "e");
    base_log(BASE_LOG_INFO, "i");
    assert_int_equal(got.calls, 3);
    assert_int_equal(got.level, BASE_LOG_INFO);
    base_log_set_sink(NULL);
}


static void a_long_line_is_cut_not_overflowed(void **state)
{
    (void)state;
    char big[4000];
    memset(big, 'a', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    memset(&got, 0, sizeof(got));
    base_log_set_sink(sink);
    base_log(BASE_LOG_INFO, "%s", big);
    assert_int_equal(got.calls, 1);
    assert_true(strlen(got.line) > 0 && strlen(got.line) < sizeof(big) - 1);
    base_log_set_sink(NULL);
}


static void without_a_sink_lines_go_to_stderr(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    int saved = dup(STDERR_FILENO);
    assert_true(saved >= 0);
    assert_true(dup2(fds[1], STDERR_FILENO) >= 0);
    memset(&got, 0, sizeof(got));
    base_log_set_sink(NULL);
    base_log(BASE_LOG_ERROR, "cql: %d", 7);
    fflush(stderr);
    assert_true(dup2(saved, STDERR_FILENO) >= 0);
    close(saved);
    close(fds[1]);
    char buf[64] = {0};
    assert_int_equal(read(fds[0], buf, sizeof(buf) - 1), 7);
    close(fds[0]);
    assert_string_equal(buf, "cql: 7\n");
    assert_int_equal(got.calls, 0);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_line_reaches_the_sink_at_its_level),
        cmocka_unit_test(a_long_line_is_cut_not_overflowed),
        cmocka_unit_test(without_a_sink_lines_go_to_stderr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
