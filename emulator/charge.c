/*
 * charge.c - the RequestCharge payload value. Layer: emulator.
 *
 * Drivers decode it as a big-endian double (struct.unpack('>d'),
 * Buffer.readDoubleBE, ByteBuffer.getDouble), so the bits of the host
 * double are stored most significant byte first whatever the host order.
 */
#include "emulator/charge.h"

#include <string.h>

#include "base/base.h"

void emu_charge_encode(double charge, uint8_t out[8])
{
    uint64_t bits;
    memcpy(&bits, &charge, sizeof(bits));
    base_store_u64(out, bits);
}
