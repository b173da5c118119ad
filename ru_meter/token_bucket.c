/*
 * token_bucket.c - the RU budget of one physical partition: a token bucket
 * refilled continuously at the partition's share of the throughput, holding
 * at most one second of it (the service budgets per second). Layer: ru_meter.
 *
 * Invariants: tokens <= capacity (negative is debt from a charge larger than
 * the balance: the service bills after executing); 0 <= bank <= bank_cap;
 * 0 <= allowance <= allow_rate. Time only moves forward: a now_us older than
 * the last refill adds nothing.
 *
 * Burst capacity (burst-capacity.md): a partition below 3000 RU/s banks the
 * refill it could not hold, up to 300 s of its rate, and may spend it so
 * that it consumes up to 3000 RU/s in total. The allowance bucket, refilled
 * at 3000 - rate, meters that extra spending.
 */
#include <math.h>

#include "ru_meter/ru_int.h"


static void set_rate(ru_bucket_t *b, double rate)
{
    b->rate = rate > 0 ? rate : 0;
    b->capacity = b->rate;
    if (b->tokens > b->capacity) {
        b->tokens = b->capacity;
    }
    b->bank_cap = b->burst ? b->rate * RU_BURST_SECONDS : 0;
    if (b->bank > b->bank_cap) {
        b->bank = b->bank_cap;
    }
    b->allow_rate = b->burst && b->rate < RU_BURST_MAX_RU_S ? RU_BURST_MAX_RU_S - b->rate : 0;
    if (b->allowance > b->allow_rate) {
        b->allowance = b->allow_rate;
    }
}


void ru__bucket_init(ru_bucket_t *b, double rate, bool burst, int64_t now_us)
{
    memset(b, 0, sizeof(*b));
    b->burst = burst;
    b->last_us = now_us;
    b->tokens = rate; /* a new budget starts with one full second */
    set_rate(b, rate);
    b->allowance = b->allow_rate;
}


void ru__bucket_refill(ru_bucket_t *b, int64_t now_us)
{
    if (now_us <= b->last_us) {
        return;
    }
    double dt = (double)(now_us - b->last_us) / 1e6;
    b->last_us = now_us;
    b->tokens += b->rate * dt;
    if (b->tokens > b->capacity) {
        if (b->burst) {
            b->bank += b->tokens - b->capacity;
            if (b->bank > b->bank_cap) {
                b->bank = b->bank_cap;
            }
        }
        b->tokens = b->capacity;
    }
    b->allowance += b->allow_rate * dt;
    if (b->allowance > b->allow_rate) {
        b->allowance = b->allow_rate;
    }
}


void ru__bucket_set_rate(ru_bucket_t *b, double rate, int64_t now_us)
{
    ru__bucket_refill(b, now_us);
    set_rate(b, rate);
}


static double burst_draw(const ru_bucket_t *b)
{
    if (!b->burst) {
        return 0;
    }
    return b->bank < b->allowance ? b->bank : b->allowance;
}


double ru__bucket_available(ru_bucket_t *b, int64_t now_us)
{
    ru__bucket_refill(b, now_us);
    return b->tokens + burst_draw(b);
}


void ru__bucket_take(ru_bucket_t *b, double ru, int64_t now_us)
{
    ru__bucket_refill(b, now_us);
    double from_tokens = b->tokens > 0 ? b->tokens : 0;
    if (ru <= from_tokens) {
        b->tokens -= ru;
        return;
    }
    double from_bank = ru - from_tokens;
    double draw = burst_draw(b);
    if (from_bank > draw) {
        from_bank = draw;
    }
    b->bank -= from_bank;
    b->allowance -= from_bank;
    b->tokens -= ru - from_bank;
}


bool ru__bucket_try_take(ru_bucket_t *b, double ru, int64_t now_us)
{
    if (ru__bucket_available(b, now_us) < ru) {
        return false;
    }
    ru__bucket_take(b, ru, now_us);
    return true;
}


double ru__bucket_take_leftover(ru_bucket_t *b, double ru, int64_t now_us)
{
    ru__bucket_refill(b, now_us);
    double left = b->tokens > 0 ? b->tokens : 0;
    double t = ru < left ? ru : left;
    b->tokens -= t;
    return t;
}


int64_t ru__bucket_wait_us(ru_bucket_t *b, double ru, int64_t now_us)
{
    double avail = ru__bucket_available(b, now_us);
    double want = ru < b->capacity ? ru : b->capacity;
    if (avail >= want) {
        return 0;
    }
    /* Availability grows with the refill, plus the allowance while the bank
     * holds more than the allowance can draw. */
    double growth = b->rate;
    if (b->burst && b->bank > b->allowance) {
        growth += b->allow_rate;
    }
    if (growth <= 0) {
        return 1000000;
    }
    /* the epsilon keeps float noise (400 * 0.025 = 9.999...) from adding a microsecond */
    double us = ceil((want - avail) / growth * 1e6 - 1e-6);
    return us > 0 ? (int64_t)us : 0;
}
