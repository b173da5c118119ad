/*
 * events.h - who REGISTERed for which server-pushed EVENTs, and pushing
 * them. The cql engine's schema listener lands here after every DDL.
 */
#ifndef EMULATOR_EVENTS_H
#define EMULATOR_EVENTS_H

#include "wire/wire.h"

typedef struct emu_conn_s emu_conn_t;
typedef struct emu_events_s emu_events_t;

#define EMU_EVENT_TOPOLOGY_CHANGE 0x1u
#define EMU_EVENT_STATUS_CHANGE   0x2u
#define EMU_EVENT_SCHEMA_CHANGE   0x4u

emu_events_t *emu_events_new(void);
void emu_events_free(emu_events_t *ev);

/* Maps an event type name to its bit; returns 0 for an unknown name. */
unsigned emu_events_kind(base_str_t name);

/* Adds kinds to what c receives. */
void emu_events_register(emu_events_t *ev, emu_conn_t *c, unsigned kinds);
/* Forgets c (called when the connection is freed). */
void emu_events_unregister(emu_events_t *ev, emu_conn_t *c);

/* A cql_schema_listener_t: ud is the emu_events_t. Queues an EVENT
 * SCHEMA_CHANGE (stream -1) on every connection registered for it. */
void emu_events_on_schema_change(void *ud, const wire_schema_change_t *sc);

#endif
