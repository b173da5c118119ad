/*
 * test_thread.c - base/thread.c: a thread's name (cut to Linux's 15 bytes)
 * nice value and batch policy are its own, as /proc and the scheduler
 * show them, and leave the caller's alone.
 */
#define _GNU_SOURCE /* SCHED_BATCH */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/base.h"

typedef struct seen_s {
    char comm[32];
    int nice;
} seen_t;


/* The calling thread's name and nice value, from /proc. */
static void read_self(seen_t *out)
{
    char path[64];
    long tid = (long)syscall(SYS_gettid);
    snprintf(path, sizeof(path), "/proc/self/task/%ld/comm", tid);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(out->comm, sizeof(out->comm), f));
    fclose(f);
    out->comm[strcspn(out->comm, "\n")] = '\0';
    snprintf(path, sizeof(path), "/proc/self/task/%ld/stat", tid);
    f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    assert_non_null(fgets(line, sizeof(line), f));
    fclose(f);
    /* after "(comm) ": state is field 3, nice field 19 */
    const char *p = strrchr(line, ')');
    assert_non_null(p);
    int field = 2;
    long nice = 0;
    for (const char *q = p + 1; *q != '\0' && field < 19; q++) {
        if (*q == ' ') {
            field++;
            if (field == 19) {
                nice = strtol(q + 1, NULL, 10);
            }
        }
    }
    out->nice = (int)nice;
}


static void *named_and_niced(void *arg)
{
    base_thread_name("cce-a-name-longer-than-fifteen");
    base_thread_nice(10);
    read_self(arg);
    return NULL;
}


static void a_thread_names_and_lowers_only_itself(void **state)
{
    (void)state;
    seen_t before, inside, after;
    read_self(&before);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, named_and_niced, &inside), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    read_self(&after);
    assert_string_equal(inside.comm, "cce-a-name-long"); /* 15 bytes */
    /* lowering needs no privilege; a process nicer already stays so unless privileged */
    assert_true(inside.nice == 10 || (before.nice > 10 && inside.nice == before.nice));
    assert_string_equal(after.comm, before.comm);
    assert_int_equal(after.nice, before.nice);
}


static void *batched(void *arg)
{
    base_thread_batch();
    *(int *)arg = sched_getscheduler(0); /* 0: the calling thread, on Linux */
    return NULL;
}


static void a_thread_makes_only_itself_a_batch_thread(void **state)
{
    (void)state;
    int inside = -1;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, batched, &inside), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(inside, SCHED_BATCH); /* needs no privilege */
    assert_int_equal(sched_getscheduler(0), SCHED_OTHER);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_thread_names_and_lowers_only_itself),
        cmocka_unit_test(a_thread_makes_only_itself_a_batch_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
