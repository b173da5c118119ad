/*
 * charge.h - the request charge (RU) reported with every response to
 * QUERY, PREPARE, EXECUTE and BATCH, in the custom payload key
 * "RequestCharge" as an 8-byte big-endian double.
 */
#ifndef EMULATOR_CHARGE_H
#define EMULATOR_CHARGE_H

#include "cql/cql.h"

#define EMU_CHARGE_KEY "RequestCharge"

/* The charge for one request; failed is true when it ended in an ERROR. */
double emu_charge(const cql_stats_t *stats, bool failed);

/* The 8 payload bytes: the IEEE-754 double, big-endian. */
void emu_charge_encode(double charge, uint8_t out[8]);

#endif
