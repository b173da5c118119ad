/*
 * charge.h - how the request charge (RU) travels: every response to QUERY,
 * PREPARE, EXECUTE and BATCH carries the custom payload key "RequestCharge"
 * with an 8-byte big-endian IEEE-754 double. The number itself comes from
 * metering.c (emu_metering_charge).
 */
#ifndef EMULATOR_CHARGE_H
#define EMULATOR_CHARGE_H

#include <stdint.h>

#define EMU_CHARGE_KEY "RequestCharge"

/* The 8 payload bytes: the IEEE-754 double, big-endian. */
void emu_charge_encode(double charge, uint8_t out[8]);

#endif
