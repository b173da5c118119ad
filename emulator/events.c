/*
 * events.c - the EVENT subscriptions of the process. Layer: emulator.
 *
 * A small array of (connection, kinds) pairs; drivers register one control
 * connection each, so it stays tiny. Only SCHEMA_CHANGE is ever pushed: a
 * single node has no topology or status changes to report, but the other
 * kinds are accepted because both drivers ask for all three.
 */
#include "emulator/events.h"

#include "emulator/conn.h"

typedef struct subscription_s {
    emu_conn_t *conn;
    unsigned kinds;
} subscription_t;

struct emu_events_s {
    subscription_t *subs;
    size_t n;
    size_t cap;
};

emu_events_t *emu_events_new(void)
{
    return base_calloc(1, sizeof(emu_events_t));
}

void emu_events_free(emu_events_t *ev)
{
    if (ev != NULL) {
        base_free(ev->subs);
        base_free(ev);
    }
}

unsigned emu_events_kind(base_str_t name)
{
    if (base_str_eq(name, BASE_STR("TOPOLOGY_CHANGE"))) {
        return EMU_EVENT_TOPOLOGY_CHANGE;
    }
    if (base_str_eq(name, BASE_STR("STATUS_CHANGE"))) {
        return EMU_EVENT_STATUS_CHANGE;
    }
    if (base_str_eq(name, BASE_STR("SCHEMA_CHANGE"))) {
        return EMU_EVENT_SCHEMA_CHANGE;
    }
    return 0;
}

void emu_events_register(emu_events_t *ev, emu_conn_t *c, unsigned kinds)
{
    for (size_t i = 0; i < ev->n; i++) {
        if (ev->subs[i].conn == c) {
            ev->subs[i].kinds |= kinds;
            return;
        }
    }
    if (ev->n == ev->cap) {
        ev->cap = ev->cap ? ev->cap * 2 : 8;
        ev->subs = base_realloc(ev->subs, ev->cap * sizeof(*ev->subs));
    }
    ev->subs[ev->n++] = (subscription_t){c, kinds};
}

void emu_events_unregister(emu_events_t *ev, emu_conn_t *c)
{
    for (size_t i = 0; i < ev->n; i++) {
        if (ev->subs[i].conn == c) {
            ev->subs[i] = ev->subs[--ev->n];
            return;
        }
    }
}

static void encode_schema_change(base_buf_t *b, const void *arg)
{
    wire_encode_event_schema_change(b, arg);
}

void emu_events_on_schema_change(void *ud, const wire_schema_change_t *sc)
{
    emu_events_t *ev = ud;
    for (size_t i = 0; i < ev->n; i++) {
        if (ev->subs[i].kinds & EMU_EVENT_SCHEMA_CHANGE) {
            emu_conn_push_event(ev->subs[i].conn, encode_schema_change, sc);
        }
    }
}
