/* Unit tests for emulator/replay.c: splitting workload files into
 * statements, @repeat directives, placeholder expansion, and running a
 * file against an in-process engine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "emulator/replay.h"
#include "replay_test.h"

/* ---- helpers ---------------------------------------------------------------- */

typedef struct split_s {
    size_t n;
    char text[16][256];
    unsigned line[16];
    uint64_t repeat[16];
    size_t n_errors;
    unsigned error_line[8];
    char error[8][BASE_ERROR_MSG_MAX];
} split_t;

static void split(const char *text, split_t *out)
{
    emu_replay_splitter_t sp;
    emu_replay_stmt_t st;
    base_error_t err;
    int rc;
    memset(out, 0, sizeof(*out));
    emu_replay_splitter_init(&sp, text, strlen(text));
    while ((rc = emu_replay_next(&sp, &st, &err)) != BASE_ENOTFOUND) {
        if (rc == BASE_OK) {
            assert_true(out->n < 16);
            snprintf(out->text[out->n], sizeof(out->text[0]), "%.*s", (int)st.len, st.text);
            out->line[out->n] = st.line;
            out->repeat[out->n] = st.repeat;
            out->n++;
        } else {
            assert_int_equal(rc, BASE_ERROR);
            assert_true(out->n_errors < 8);
            out->error_line[out->n_errors] = st.line;
            snprintf(out->error[out->n_errors], sizeof(out->error[0]), "%s", err.msg);
            out->n_errors++;
        }
    }
}

static char *expand(const char *text, uint64_t i, uint64_t seed, int *rc)
{
    static char result[4096];
    emu_replay_rng_t rng;
    base_buf_t b;
    base_error_t err;
    emu_replay_rng_seed(&rng, seed);
    base_buf_init(&b);
    *rc = emu_replay_expand(text, strlen(text), i, &rng, &b, &err);
    snprintf(result, sizeof(result), "%s", *rc == BASE_OK ? (const char *)b.data : err.msg);
    base_buf_fini(&b);
    return result;
}

/* ---- splitting --------------------------------------------------------------- */

static void splitter_separates_statements_and_counts_lines(void **state)
{
    (void)state;
    split_t s;
    split("CREATE TABLE ks.t (a int PRIMARY KEY);\n\nINSERT INTO ks.t (a)\n  VALUES (1);\n"
          "SELECT * FROM ks.t",
          &s);
    assert_int_equal(s.n, 3);
    assert_string_equal(s.text[0], "CREATE TABLE ks.t (a int PRIMARY KEY)");
    assert_string_equal(s.text[1], "INSERT INTO ks.t (a)\n  VALUES (1)");
    assert_string_equal(s.text[2], "SELECT * FROM ks.t");
    assert_int_equal(s.line[0], 1);
    assert_int_equal(s.line[1], 3);
    assert_int_equal(s.line[2], 5);
    assert_int_equal(s.repeat[0], 1);
}

static void splitter_keeps_semicolons_inside_strings(void **state)
{
    (void)state;
    split_t s;
    split("INSERT INTO t (a) VALUES ('x;y');INSERT INTO t (a) VALUES ('it''s; fine');"
          "SELECT \"we;ird\" FROM t;",
          &s);
    assert_int_equal(s.n, 3);
    assert_string_equal(s.text[0], "INSERT INTO t (a) VALUES ('x;y')");
    assert_string_equal(s.text[1], "INSERT INTO t (a) VALUES ('it''s; fine')");
    assert_string_equal(s.text[2], "SELECT \"we;ird\" FROM t");
}

static void splitter_keeps_semicolons_inside_dollar_strings(void **state)
{
    (void)state;
    split_t s;
    split("INSERT INTO t (a) VALUES ($$one; 'two'; three$$); SELECT 1 FROM t", &s);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.text[0], "INSERT INTO t (a) VALUES ($$one; 'two'; three$$)");
    assert_string_equal(s.text[1], "SELECT 1 FROM t");
}

static void splitter_ignores_semicolons_in_comments(void **state)
{
    (void)state;
    split_t s;
    split("-- a comment; not a statement\n"
          "// another; one\n"
          "/* block; comment\n over lines; */ SELECT a -- trailing; comment\n"
          "FROM t /* ; */;\n"
          ";;  ;\n"
          "SELECT b FROM t; -- done;\n",
          &s);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.text[0], "SELECT a -- trailing; comment\nFROM t /* ; */");
    assert_int_equal(s.line[0], 4);
    assert_string_equal(s.text[1], "SELECT b FROM t");
    assert_int_equal(s.line[1], 7);
    assert_int_equal(s.n_errors, 0);
}

static void splitter_keeps_a_batch_together(void **state)
{
    (void)state;
    split_t s;
    split("begin unlogged batch\n  INSERT INTO t (a) VALUES (1);\n  INSERT INTO t (a) VALUES "
          "(';');\napply batch;\nSELECT * FROM t;",
          &s);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.text[0], "begin unlogged batch\n  INSERT INTO t (a) VALUES (1);\n  "
                                   "INSERT INTO t (a) VALUES (';');\napply batch");
    assert_string_equal(s.text[1], "SELECT * FROM t");
}

static void repeat_directive_applies_to_the_next_statement_only(void **state)
{
    (void)state;
    split_t s;
    split("-- @repeat 1000\nINSERT INTO t (a) VALUES ({{i}});\n"
          "SELECT * FROM t;\n"
          "-- @repeat 5\n// @repeat 7\n-- just a note\nDELETE FROM t WHERE a = 1;\n"
          "--@repeat 0\nSELECT 1 FROM t;",
          &s);
    assert_int_equal(s.n, 4);
    assert_int_equal(s.repeat[0], 1000);
    assert_int_equal(s.line[0], 2);
    assert_int_equal(s.repeat[1], 1);
    assert_int_equal(s.repeat[2], 7);
    assert_int_equal(s.repeat[3], 0);
    assert_int_equal(s.n_errors, 0);
}

static void bad_directives_are_errors_with_their_line(void **state)
{
    (void)state;
    split_t s;
    split("SELECT 1 FROM t;\n-- @repaet 10\nSELECT 2 FROM t;\n-- @repeat ten\n"
          "-- @repeat 1000000000\nSELECT 3 FROM t;\n-- @repeat 3\n",
          &s);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.repeat[1], 1); /* the bad directive did not apply */
    assert_int_equal(s.n_errors, 4);
    assert_int_equal(s.error_line[0], 2);
    assert_non_null(strstr(s.error[0], "unknown directive '@repaet'"));
    assert_int_equal(s.error_line[1], 4);
    assert_non_null(strstr(s.error[1], "@repeat needs a count"));
    assert_int_equal(s.error_line[2], 5);
    assert_int_equal(s.error_line[3], 7);
    assert_non_null(strstr(s.error[3], "no statement after it"));
}

static void unterminated_comment_is_an_error(void **state)
{
    (void)state;
    split_t s;
    split("SELECT 1 FROM t;\n\n/* never closed; SELECT 2 FROM t;", &s);
    assert_int_equal(s.n, 1);
    assert_int_equal(s.n_errors, 1);
    assert_int_equal(s.error_line[0], 3);
    assert_non_null(strstr(s.error[0], "unterminated comment"));
}

static void unterminated_string_runs_to_the_end(void **state)
{
    (void)state;
    split_t s;
    split("SELECT 'open; FROM t;\nSELECT 2 FROM t;", &s);
    assert_int_equal(s.n, 1);
    assert_string_equal(s.text[0], "SELECT 'open; FROM t;\nSELECT 2 FROM t;");
}

/* ---- placeholders ------------------------------------------------------------ */

static void iteration_placeholder_is_replaced_everywhere(void **state)
{
    (void)state;
    int rc;
    assert_string_equal(expand("INSERT INTO t (a, b) VALUES ({{i}}, 'row-{{i}}')", 42, 1, &rc),
                        "INSERT INTO t (a, b) VALUES (42, 'row-42')");
    assert_int_equal(rc, BASE_OK);
}

static void rand_placeholders_stay_in_range(void **state)
{
    (void)state;
    int rc;
    for (uint64_t seed = 1; seed < 200; seed++) {
        long v = strtol(expand("{{rand:10}}", 0, seed, &rc), NULL, 10);
        assert_int_equal(rc, BASE_OK);
        assert_true(v >= 0 && v < 10);
        v = strtol(expand("{{rand:-5:5}}", 0, seed, &rc), NULL, 10);
        assert_true(v >= -5 && v < 5);
        v = strtol(expand("{{rand:1717200000000:1719800000000}}", 0, seed, &rc), NULL, 10);
        assert_true(v >= 1717200000000L && v < 1719800000000L);
    }
}

static void text_and_uuid_placeholders_have_their_shape(void **state)
{
    (void)state;
    int rc;
    const char *t = expand("'{{text:32}}'", 0, 7, &rc);
    assert_int_equal(strlen(t), 34);
    for (size_t k = 1; k < 33; k++) {
        assert_true((t[k] >= 'a' && t[k] <= 'z') || (t[k] >= '0' && t[k] <= '9'));
    }
    assert_string_equal(expand("'{{text:0}}'", 0, 7, &rc), "''");
    const char *u = expand("{{uuid}}", 0, 7, &rc);
    assert_int_equal(strlen(u), 36);
    assert_true(u[8] == '-' && u[13] == '-' && u[18] == '-' && u[23] == '-');
    assert_int_equal(u[14], '4'); /* version 4 */
    assert_non_null(strchr("89ab", u[19]));
}

static void same_seed_gives_the_same_values(void **state)
{
    (void)state;
    int rc;
    char a[4096];
    snprintf(a, sizeof(a), "%s", expand("{{uuid}} {{rand:1000000}} {{text:16}}", 3, 99, &rc));
    assert_string_equal(expand("{{uuid}} {{rand:1000000}} {{text:16}}", 3, 99, &rc), a);
    assert_string_not_equal(expand("{{uuid}} {{rand:1000000}} {{text:16}}", 3, 100, &rc), a);
}

static void other_double_braces_are_kept(void **state)
{
    (void)state;
    int rc;
    assert_string_equal(expand("SET s = {{1, 2}, {3}} WHERE a = {{i}}", 5, 1, &rc),
                        "SET s = {{1, 2}, {3}} WHERE a = 5");
    assert_string_equal(expand("{{{i}}}", 5, 1, &rc), "{5}");
    assert_string_equal(expand("{{unknown}} {{i} {", 5, 1, &rc), "{{unknown}} {{i} {");
    assert_int_equal(rc, BASE_OK);
}

static void bad_placeholder_arguments_are_errors(void **state)
{
    (void)state;
    int rc;
    assert_non_null(strstr(expand("{{rand:0}}", 0, 1, &rc), "bad placeholder {{rand:0}}"));
    assert_int_equal(rc, BASE_ERROR);
    expand("{{rand:5:5}}", 0, 1, &rc);
    assert_int_equal(rc, BASE_ERROR);
    expand("{{rand:x}}", 0, 1, &rc);
    assert_int_equal(rc, BASE_ERROR);
    expand("{{text:-1}}", 0, 1, &rc);
    assert_int_equal(rc, BASE_ERROR);
    expand("{{text:99999999}}", 0, 1, &rc);
    assert_int_equal(rc, BASE_ERROR);
}

/* ---- running ----------------------------------------------------------------- */

static int run_setup(void **state)
{
    replay_env_t *f = base_calloc(1, sizeof(*f));
    replay_env_open(f, "/tmp/test_replay_XXXXXX");
    *state = f;
    return 0;
}

static int run_teardown(void **state)
{
    replay_env_close(*state);
    base_free(*state);
    return 0;
}

static int run_text(replay_env_t *f, const char *text, bool stop, emu_replay_result_t *res,
                    char *msg)
{
    replay_env_write(f, text);
    emu_replay_opts_t o;
    replay_env_opts(f, &o);
    o.stop_on_error = stop;
    return emu_replay_run(&o, f->m, res, msg, 256);
}

static char *error_text(replay_env_t *f)
{
    static char buf[2048];
    size_t n;
    rewind(f->errors);
    n = fread(buf, 1, sizeof(buf) - 1, f->errors);
    buf[n] = '\0';
    return buf;
}

static const char SCHEMA[] = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
                             "'replication_factor': 1};\n"
                             "CREATE TABLE ks.t (a int, b int, v text, PRIMARY KEY (a, b));\n";

static void run_executes_every_repetition_and_reports_errors_with_file_and_line(void **state)
{
    replay_env_t *f = *state;
    emu_replay_result_t res;
    char msg[256];
    char text[1024];
    snprintf(text, sizeof(text),
             "%s-- @repeat 50\nINSERT INTO ks.t (a, b, v) VALUES ({{rand:5}}, {{i}}, "
             "'{{text:10}}');\nSELECT * FROM ks.missing;\n-- @repeat 3\nSELEC oops;\n"
             "SELECT * FROM ks.t WHERE a = 1;\n",
             SCHEMA);
    assert_int_equal(run_text(f, text, false, &res, msg), BASE_OK);
    assert_int_equal(res.executed, 2 + 50 + 1 + 3 + 1);
    assert_int_equal(res.failed, 4);
    assert_int_equal(res.throttled, 0);
    assert_true(res.ended_us - res.started_us >= 1000000);
    const char *e = error_text(f);
    char want[128];
    snprintf(want, sizeof(want), "%s:5: unconfigured table missing", f->path);
    assert_non_null(strstr(e, want));
    snprintf(want, sizeof(want), "%s:7: ", f->path);
    assert_non_null(strstr(e, want));
    assert_non_null(strstr(e, "SYNTAX_ERROR"));
    assert_non_null(strstr(e, "3 of 3 executions failed"));

    ru_snapshot_t snap;
    ru_meter_snapshot(emu_metering_meter(f->m), res.ended_us, &snap);
    assert_int_equal(snap.n_tables, 1);
    assert_int_equal(snap.tables[0].s.count, 51);
    assert_true(snap.tables[0].storage_bytes > 50 * 10);
    ru_snapshot_fini(&snap);
}

static void stop_on_error_stops_at_the_first_failure(void **state)
{
    replay_env_t *f = *state;
    emu_replay_result_t res;
    char msg[256];
    char text[1024];
    snprintf(text, sizeof(text),
             "%s-- @repeat 4\nINSERT INTO ks.nope (a) VALUES (1);\n"
             "INSERT INTO ks.t (a, b) VALUES (1, 1);\n",
             SCHEMA);
    assert_int_equal(run_text(f, text, true, &res, msg), BASE_ERROR);
    assert_int_equal(res.executed, 3);
    assert_int_equal(res.failed, 1);
    assert_non_null(strstr(msg, ":4: stopped at the first error"));
}

static void unreadable_file_is_an_io_error(void **state)
{
    replay_env_t *f = *state;
    emu_replay_opts_t o;
    emu_replay_result_t res;
    char msg[256];
    replay_env_opts(f, &o);
    o.path = "/nonexistent/workload.cql";
    assert_int_equal(emu_replay_run(&o, f->m, &res, msg, sizeof(msg)), BASE_EIO);
    assert_non_null(strstr(msg, "cannot open /nonexistent/workload.cql"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(splitter_separates_statements_and_counts_lines),
        cmocka_unit_test(splitter_keeps_semicolons_inside_strings),
        cmocka_unit_test(splitter_keeps_semicolons_inside_dollar_strings),
        cmocka_unit_test(splitter_ignores_semicolons_in_comments),
        cmocka_unit_test(splitter_keeps_a_batch_together),
        cmocka_unit_test(repeat_directive_applies_to_the_next_statement_only),
        cmocka_unit_test(bad_directives_are_errors_with_their_line),
        cmocka_unit_test(unterminated_comment_is_an_error),
        cmocka_unit_test(unterminated_string_runs_to_the_end),
        cmocka_unit_test(iteration_placeholder_is_replaced_everywhere),
        cmocka_unit_test(rand_placeholders_stay_in_range),
        cmocka_unit_test(text_and_uuid_placeholders_have_their_shape),
        cmocka_unit_test(same_seed_gives_the_same_values),
        cmocka_unit_test(other_double_braces_are_kept),
        cmocka_unit_test(bad_placeholder_arguments_are_errors),
        cmocka_unit_test_setup_teardown(
            run_executes_every_repetition_and_reports_errors_with_file_and_line, run_setup,
            run_teardown),
        cmocka_unit_test_setup_teardown(stop_on_error_stops_at_the_first_failure, run_setup,
                                        run_teardown),
        cmocka_unit_test_setup_teardown(unreadable_file_is_an_io_error, run_setup, run_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
