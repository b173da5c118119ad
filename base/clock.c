/*
 * clock.c - wall and monotonic clocks in microseconds, replaceable by tests
 * (TTL expiry, token buckets) so time-dependent logic is deterministic.
 */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "base/base.h"

static int64_t (*fake_now)(void);
static int64_t (*fake_mono)(void);


static int64_t read_clock(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}


int64_t base_now_us(void)
{
    return fake_now ? fake_now() : read_clock(CLOCK_REALTIME);
}


int64_t base_mono_us(void)
{
    return fake_mono ? fake_mono() : read_clock(CLOCK_MONOTONIC);
}


void base_clock_set_fake(int64_t (*now_us)(void), int64_t (*mono_us)(void))
{
    fake_now = now_us;
    fake_mono = mono_us;
}
