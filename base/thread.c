/*
 * thread.c - the process's threads: their names, as `top -H`, `ps -L`,
 * `perf` and gdb show them, so the event loop and each storage thread
 * (the log's writer and syncer, the snapshot compressor, ...) can be told
 * apart when one of them takes the CPU or blocks in the disk; and a lower
 * priority for background work that must not take a core from the loop.
 *
 * Batch threads: the commit log's writer is woken by the loop once a turn.
 * As a normal thread it preempted the loop on the loop's own core at each
 * wake-up (the woken thread had slept, so the scheduler owed it time):
 * 15,000 involuntary switches and 0.3 s of the loop's 6 s in a durable
 * insert load. SCHED_BATCH turns wake-up preemption off for it and nothing
 * else; its share of the CPU is unchanged.
 *
 * Linux keeps at most 15 bytes of a name; longer ones are cut there. A
 * thread's nice value is its own on Linux (setpriority on its thread id),
 * and raising it needs no privilege.
 */
#define _GNU_SOURCE /* pthread_setname_np, gettid */
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/base.h"


void base_thread_name(const char *name)
{
    char cut[16];
    size_t n = strlen(name);
    n = n < sizeof(cut) - 1 ? n : sizeof(cut) - 1;
    memcpy(cut, name, n);
    cut[n] = '\0';
    (void)pthread_setname_np(pthread_self(), cut); /* a name is a convenience: no error to act on */
}


void base_thread_nice(int nice)
{
    (void)setpriority(PRIO_PROCESS, (id_t)gettid(), nice); /* best effort, as the name */
}


void base_thread_batch(void)
{
    struct sched_param p = {.sched_priority = 0};
    (void)pthread_setschedparam(pthread_self(), SCHED_BATCH, &p); /* best effort, as nice */
}
