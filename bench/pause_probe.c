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
 *
 * The first probe also reads the kernel's steal counters (/proc/stat, in
 * clock ticks, per CPU: the time the host ran something else while a
 * virtual CPU wanted to run) every STEAL_EVERY ticks, about 15 us each, so
 * a stall can be checked against the host's own accounting. A late probe
 * does not say why it was late; steal does, but only to a tick (10 ms) and
 * only for the host's scheduling: memory the host backs at a vCPU's touch
 * is time that vCPU seems to run.
 */
#define _GNU_SOURCE /* pthread_setaffinity_np, CPU_SET */
#include "pause_probe.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TICK_NS     1000000u
#define PAUSES_MAX  4096
#define PROBES_MAX  64
#define STEAL_EVERY 10   /* ticks between readings of the steal counters */
#define STEALS_MAX  1024 /* readings kept: 10 s at one per 10 ms */
#define STEAL_CPUS  64

typedef struct pause_s {
    uint64_t from_ns, to_ns;
} pause_t;

/* The steal counters at at_ns, in clock ticks, per CPU of /proc/stat. */
typedef struct steal_s {
    uint64_t at_ns;
    uint64_t ticks[STEAL_CPUS];
} steal_t;

static struct {
    pthread_t thread[PROBES_MAX];
    int n_threads;
    atomic_bool stop;
    uint64_t late_ns;
    pthread_mutex_t mu;
    pause_t ring[PAUSES_MAX];
    uint64_t n; /* noted since the start; ring[i % PAUSES_MAX] */
    uint64_t worst_ns;
    atomic_bool steal_taken; /* by the probe that reads the counters */
    steal_t *steals;         /* readings, steals[i % STEALS_MAX] */
    uint64_t n_steals;
    int n_cpus; /* counted in the first reading */
} pr = {.mu = PTHREAD_MUTEX_INITIALIZER};


/* Each "cpuN" line's eighth value (steal) into out; the CPUs read, 0 if none. */
static int read_steal(uint64_t *out)
{
    FILE *f = fopen("/proc/stat", "r");
    if (f == NULL) {
        return 0;
    }
    char line[512];
    int n = 0;
    while (n < STEAL_CPUS && fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9') {
            continue;
        }
        char *p = strchr(line, ' ');
        unsigned long long v = 0;
        int got = 0;
        for (; p != NULL && got < 8; got++) { /* user nice system idle iowait irq softirq steal */
            char *end;
            v = strtoull(p, &end, 10);
            p = end != p ? end : NULL;
        }
        if (p == NULL) {
            break; /* a kernel without the steal column */
        }
        out[n++] = v;
    }
    (void)fclose(f);
    return n;
}


static void note_steal(uint64_t now)
{
    steal_t s = {.at_ns = now};
    int n = read_steal(s.ticks);
    pthread_mutex_lock(&pr.mu);
    if (n > 0 && pr.steals != NULL) {
        pr.n_cpus = pr.n_cpus > 0 ? pr.n_cpus : n;
        pr.steals[pr.n_steals++ % STEALS_MAX] = s;
    }
    pthread_mutex_unlock(&pr.mu);
}


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
    bool reads_steal = !atomic_exchange(&pr.steal_taken, true);
    uint64_t ticks = 0;
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
        if (reads_steal && ticks++ % STEAL_EVERY == 0) {
            note_steal(now);
        }
        due = (now > due ? now : due) + TICK_NS;
    }
    return NULL;
}


bool probe_start(uint64_t late_ns)
{
    pr.late_ns = late_ns > 0 ? late_ns : 1;
    atomic_store(&pr.stop, false);
    atomic_store(&pr.steal_taken, false);
    if (pr.steals == NULL) {
        pr.steals = calloc(STEALS_MAX, sizeof(steal_t)); /* NULL: no steal figures */
    }
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
    free(pr.steals);
    pr.steals = NULL;
    pr.n_steals = 0;
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


uint64_t probe_steal_within(uint64_t from_ns, uint64_t to_ns)
{
    uint64_t worst = 0;
    pthread_mutex_lock(&pr.mu);
    uint64_t first = pr.n_steals > STEALS_MAX ? pr.n_steals - STEALS_MAX : 0;
    uint64_t n = pr.steals != NULL ? pr.n_steals : 0;
    const steal_t *before = NULL;
    const steal_t *after = NULL;
    for (uint64_t i = first; i < n && after == NULL; i++) {
        const steal_t *s = &pr.steals[i % STEALS_MAX];
        if (s->at_ns <= from_ns) {
            before = s;
        } else if (s->at_ns >= to_ns) {
            after = s;
        }
    }
    for (int c = 0; before != NULL && after != NULL && c < pr.n_cpus; c++) {
        uint64_t d = after->ticks[c] - before->ticks[c];
        worst = d > worst ? d : worst;
    }
    pthread_mutex_unlock(&pr.mu);
    long hz = sysconf(_SC_CLK_TCK);
    return worst * (1000000000u / (uint64_t)(hz > 0 ? hz : 100));
}


void probe_totals(uint64_t *n, uint64_t *worst_ns)
{
    pthread_mutex_lock(&pr.mu);
    *n = pr.n;
    *worst_ns = pr.worst_ns;
    pthread_mutex_unlock(&pr.mu);
}
