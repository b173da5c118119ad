/*
 * pause_probe.c - see pause_probe.h.
 *
 * Each thread sleeps to absolute deadlines 1 ms apart (clock_nanosleep,
 * TIMER_ABSTIME), so its own running time never drifts the schedule; a
 * wake-up at t for a deadline d with t - d >= late_ns is noted as the
 * interval [d, t]. After a late wake-up the next deadline is t + 1 ms: the
 * missed ones are one pause, not many. Notes go to a ring of PAUSES_MAX
 * under a mutex (rare: only late wake-ups take it); the oldest are
 * overwritten on a very long run, which only drops what the stall lines
 * printed as they went have used already. One probe for the whole
 * machine missed pauses of a single CPU (the host faulting in the
 * memory one vCPU touched): a probe on the other CPU ran on.
 */
#define _GNU_SOURCE /* pthread_setaffinity_np, CPU_SET */
#include "pause_probe.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#define TICK_NS    1000000u
#define PAUSES_MAX 4096
#define PROBES_MAX 64

typedef struct pause_s {
    uint64_t from_ns, to_ns;
} pause_t;

static struct {
    pthread_t thread[PROBES_MAX];
    int n_threads;
    atomic_bool stop;
    uint64_t late_ns;
    pthread_mutex_t mu;
    pause_t ring[PAUSES_MAX];
    uint64_t n; /* noted since the start; ring[i % PAUSES_MAX] */
    uint64_t worst_ns;
} pr = {.mu = PTHREAD_MUTEX_INITIALIZER};


uint64_t probe_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}


static void *probe_main(void *arg)
{
    long cpu = (long)(intptr_t)arg;
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET((int)cpu, &set);
        (void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
    }
    uint64_t due = probe_now_ns() + TICK_NS;
    while (!atomic_load(&pr.stop)) {
        struct timespec at = {(time_t)(due / 1000000000u), (long)(due % 1000000000u)};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) != 0) {
            /* EINTR: sleep on to the same deadline */
        }
        uint64_t now = probe_now_ns();
        if (now - due >= pr.late_ns) {
            pthread_mutex_lock(&pr.mu);
            pr.ring[pr.n++ % PAUSES_MAX] = (pause_t){due, now};
            if (now - due > pr.worst_ns) {
                pr.worst_ns = now - due;
            }
            pthread_mutex_unlock(&pr.mu);
        }
        due = (now > due ? now : due) + TICK_NS;
    }
    return NULL;
}


bool probe_start(uint64_t late_ns)
{
    pr.late_ns = late_ns > 0 ? late_ns : 1;
    atomic_store(&pr.stop, false);
    /* The CPUs this process may use (a container's cpuset, taskset), not
     * every CPU online: a thread pinned elsewhere would not start there.
     * Without the mask, one probe, unpinned. */
    cpu_set_t allowed;
    bool pinned = sched_getaffinity(0, sizeof(allowed), &allowed) == 0;
    for (int cpu = 0; cpu < (pinned ? CPU_SETSIZE : 1) && pr.n_threads < PROBES_MAX; cpu++) {
        void *arg = (void *)(intptr_t)(pinned ? cpu : -1);
        if ((!pinned || CPU_ISSET(cpu, &allowed)) &&
            pthread_create(&pr.thread[pr.n_threads], NULL, probe_main, arg) == 0) {
            pr.n_threads++;
        }
    }
    return pr.n_threads > 0;
}


void probe_stop(void)
{
    atomic_store(&pr.stop, true);
    for (int i = 0; i < pr.n_threads; i++) {
        pthread_join(pr.thread[i], NULL);
    }
    pr.n_threads = 0;
}


uint64_t probe_late_within(uint64_t from_ns, uint64_t to_ns)
{
    uint64_t worst = 0;
    pthread_mutex_lock(&pr.mu);
    uint64_t first = pr.n > PAUSES_MAX ? pr.n - PAUSES_MAX : 0;
    for (uint64_t i = first; i < pr.n; i++) {
        const pause_t *p = &pr.ring[i % PAUSES_MAX];
        if (p->from_ns <= to_ns && p->to_ns >= from_ns && p->to_ns - p->from_ns > worst) {
            worst = p->to_ns - p->from_ns;
        }
    }
    pthread_mutex_unlock(&pr.mu);
    return worst;
}


void probe_totals(uint64_t *n, uint64_t *worst_ns)
{
    pthread_mutex_lock(&pr.mu);
    *n = pr.n;
    *worst_ns = pr.worst_ns;
    pthread_mutex_unlock(&pr.mu);
}
