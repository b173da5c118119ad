/*
 * pause_probe.h - the machine's own pauses, seen from inside the client: a
 * thread per CPU, pinned to it, that sleeps 1 ms at a time and notes every
 * wake-up that came late (in the manner of redis-cli --intrinsic-latency,
 * without spinning a core). A thread that sleeps that much preempts
 * whatever runs on its CPU when it wakes, so a late wake-up is time in
 * which that CPU ran nothing of ours: the host pausing the virtual machine
 * or one of its CPUs. cosmos-bench --slow-ms names the probes' worst
 * lateness within each stall it prints, so a reader can tell the server's
 * stalls from the machine's.
 */
#ifndef BENCH_PAUSE_PROBE_H
#define BENCH_PAUSE_PROBE_H

#include <stdbool.h>
#include <stdint.h>

/* The clock of every time here: CLOCK_MONOTONIC in nanoseconds. */
uint64_t probe_now_ns(void);
/* Starts the threads; they note wake-ups at least late_ns late. False if
 * none can start. */
bool probe_start(uint64_t late_ns);
void probe_stop(void);
/* The longest lateness whose interval overlaps [from_ns, to_ns]; 0 if none. */
uint64_t probe_late_within(uint64_t from_ns, uint64_t to_ns);
/* The most steal the kernel counted on one CPU between the readings around
 * [from_ns, to_ns] (every 10 ms, to the clock tick: the host running
 * something else); 0 when there is none, or no reading to tell. */
uint64_t probe_steal_within(uint64_t from_ns, uint64_t to_ns);
/* Over the probe's life: wake-ups noted, and the longest. */
void probe_totals(uint64_t *n, uint64_t *worst_ns);

#endif
