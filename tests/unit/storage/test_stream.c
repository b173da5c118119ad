/*
 * test_stream.c - reading a durable file through windows a thread reads
 * ahead (storage/stream.c): records come back whole and in order wherever
 * the windows' edges fall, records larger than a window included, with a
 * thread or without; a record that is not OK is answered with the rest of
 * the file in view, as commit log replay needs to tell a torn tail from
 * corruption; windows lent by the caller come back. The LZ4 side is also
 * covered end to end by test_durable.c's snapshots.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>
#include <lz4frame.h>

#include "storage/storage_int.h"

/* The window is 8 MB: sizes chosen so records straddle its edges, and one
 * is larger than the window itself. */
static const size_t sizes[] = {9,  1 << 20, 3 << 20,  777,    2500000,       5 << 20,
                               1,  4096,    10 << 20, 65536,  (1 << 20) + 3, 3000000,
                               12, 7 << 20, 100,      6 << 20};
#define N_RECS (sizeof(sizes) / sizeof(sizes[0]))


typedef struct file_s {
    char path[64];
    base_buf_t b;
    size_t start[N_RECS]; /* where each record starts */
} file_t;


/* Records of the sizes above, each payload a pattern of its index. */
static void make_file(file_t *f)
{
    snprintf(f->path, sizeof(f->path), "/tmp/storage-stream-XXXXXX");
    int fd = mkstemp(f->path);
    assert_true(fd >= 0);
    base_buf_init(&f->b);
    for (size_t i = 0; i < N_RECS; i++) {
        f->start[i] = storage__rec_begin(&f->b, STORAGE__REC_MUTATION, i);
        for (size_t k = 0; k < sizes[i]; k++) {
            base_buf_put_u8(&f->b, (uint8_t)(i * 31 + k));
        }
        storage__rec_end(&f->b, f->start[i]);
    }
    storage__rec_seal(f->b.data, f->b.len);
    assert_int_equal(write(fd, f->b.data, f->b.len), (ssize_t)f->b.len);
    close(fd);
}


static void drop_file(file_t *f)
{
    unlink(f->path);
    base_buf_fini(&f->b);
}


static void expect_record(storage__stream_t *st, const file_t *f, size_t i)
{
    const uint8_t *p;
    size_t n;
    assert_int_equal(st->at, f->start[i]);
    assert_int_equal(storage__stream_record(st, &p, &n), STORAGE__FRAME_OK);
    assert_null(st->why);
    assert_int_equal(n, 9 + sizes[i]);
    assert_memory_equal(p, f->b.data + f->start[i] + STORAGE__REC_HEADER, n);
}


/* Every record of f in order, then the end of the stream. */
static void expect_all(storage__stream_t *st, const file_t *f)
{
    for (size_t i = 0; i < N_RECS; i++) {
        assert_true(storage__stream_more(st));
        expect_record(st, f, i);
    }
    assert_false(storage__stream_more(st));
    assert_null(st->why);
    assert_int_equal(st->at, f->b.len);
}


static void records_come_back_whole_wherever_the_window_ends(void **state)
{
    (void)state;
    file_t f;
    make_file(&f);
    storage__stream_t st;
    base_error_t err;
    assert_int_equal(storage__stream_open(&st, f.path, false, NULL, &err), BASE_OK);
    assert_true(storage__stream_threaded(&st));
    expect_all(&st, &f);
    storage__stream_close(&st);
    drop_file(&f);
}


/* The same records as an LZ4 frame: under 1 MB, so read without a thread,
 * yet inflating to several windows, one record larger than a window. */
static void a_small_compressed_file_inflates_whole_without_a_thread(void **state)
{
    (void)state;
    file_t f;
    make_file(&f);
    LZ4F_preferences_t prefs = {0};
    size_t bound = LZ4F_compressFrameBound(f.b.len, &prefs);
    uint8_t *z = malloc(bound);
    size_t zlen = LZ4F_compressFrame(z, bound, f.b.data, f.b.len, &prefs);
    assert_false(LZ4F_isError(zlen));
    assert_true(zlen < (1u << 20));
    int fd = open(f.path, O_WRONLY | O_TRUNC);
    assert_int_equal(write(fd, z, zlen), (ssize_t)zlen);
    close(fd);
    free(z);

    storage__stream_t st;
    base_error_t err;
    assert_int_equal(storage__stream_open(&st, f.path, true, NULL, &err), BASE_OK);
    assert_false(storage__stream_threaded(&st));
    expect_all(&st, &f);
    storage__stream_close(&st);
    drop_file(&f);
}


/* Windows lent by the caller come back, grown for the largest record, and
 * serve the next stream. */
static void windows_lent_to_a_stream_come_back_for_the_next(void **state)
{
    (void)state;
    file_t f;
    make_file(&f);
    storage__windows_t w = {0};
    for (int round = 0; round < 2; round++) {
        storage__stream_t st;
        base_error_t err;
        assert_int_equal(storage__stream_open(&st, f.path, false, &w, &err), BASE_OK);
        assert_true(storage__stream_threaded(&st));
        for (int i = 0; i < STORAGE__STREAM_WINDOWS; i++) {
            assert_null(w.buf[i]); /* lent */
        }
        expect_all(&st, &f);
        storage__stream_close(&st);
        size_t largest = 0;
        for (int i = 0; i < STORAGE__STREAM_WINDOWS; i++) {
            assert_non_null(w.buf[i]);
            largest = w.cap[i] > largest ? w.cap[i] : largest;
        }
        assert_true(largest >= STORAGE__REC_HEADER + 9 + (10u << 20));
    }
    storage__windows_free(&w);
    drop_file(&f);
}


static void a_missing_file_fails_to_open_with_its_name(void **state)
{
    (void)state;
    storage__stream_t st;
    base_error_t err = {0};
    assert_int_equal(storage__stream_open(&st, "/tmp/storage-stream-none/x.log", false, NULL, &err),
                     BASE_ERROR);
    assert_non_null(strstr(err.msg, "/tmp/storage-stream-none/x.log"));
}


/* Reads records up to i, then expects what the frame check says of record i
 * with every byte after its start in view. */
static void expect_rest_at(const file_t *f, size_t i, size_t file_len, storage__frame_t want)
{
    storage__stream_t st;
    base_error_t err;
    assert_int_equal(storage__stream_open(&st, f->path, false, NULL, &err), BASE_OK);
    for (size_t k = 0; k < i; k++) {
        expect_record(&st, f, k);
    }
    const uint8_t *p;
    size_t n;
    assert_true(storage__stream_more(&st));
    assert_int_equal(storage__stream_record(&st, &p, &n), want);
    assert_null(st.why);
    assert_int_equal(st.at, f->start[i]);
    assert_int_equal(st.len - st.pos, file_len - f->start[i]);
    assert_memory_equal(st.buf + st.pos, f->b.data + f->start[i], file_len - f->start[i]);
    storage__stream_close(&st);
}


static void a_record_cut_short_is_torn_with_the_rest_in_view(void **state)
{
    (void)state;
    file_t f;
    make_file(&f);
    /* Cut inside the 10 MB record, then inside a small one's header. */
    size_t cut = f.start[8] + 9 * 1024 * 1024;
    assert_int_equal(truncate(f.path, (off_t)cut), 0);
    expect_rest_at(&f, 8, cut, STORAGE__FRAME_TORN);
    drop_file(&f);
    make_file(&f);
    cut = f.start[12] + 5;
    assert_int_equal(truncate(f.path, (off_t)cut), 0);
    expect_rest_at(&f, 12, cut, STORAGE__FRAME_TORN);
    drop_file(&f);
}


static void a_bad_record_is_answered_with_the_whole_rest_in_view(void **state)
{
    (void)state;
    file_t f;
    make_file(&f);
    /* A flipped byte in the payload of a record far past the first window. */
    size_t at = f.start[9] + STORAGE__REC_HEADER + 20;
    f.b.data[at] ^= 1;
    int fd = open(f.path, O_WRONLY);
    assert_int_equal(pwrite(fd, &f.b.data[at], 1, (off_t)at), 1);
    close(fd);
    expect_rest_at(&f, 9, f.b.len, STORAGE__FRAME_BAD);

    /* An impossible length: the same, however far the rest goes on. */
    memset(f.b.data + f.start[5], 0, 4);
    fd = open(f.path, O_WRONLY);
    assert_int_equal(pwrite(fd, f.b.data + f.start[5], 4, (off_t)f.start[5]), 4);
    close(fd);
    expect_rest_at(&f, 5, f.b.len, STORAGE__FRAME_BAD);
    drop_file(&f);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(records_come_back_whole_wherever_the_window_ends),
        cmocka_unit_test(a_small_compressed_file_inflates_whole_without_a_thread),
        cmocka_unit_test(windows_lent_to_a_stream_come_back_for_the_next),
        cmocka_unit_test(a_missing_file_fails_to_open_with_its_name),
        cmocka_unit_test(a_record_cut_short_is_torn_with_the_rest_in_view),
        cmocka_unit_test(a_bad_record_is_answered_with_the_whole_rest_in_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
