/*
 * charge.c - what one request costs in request units. Layer: emulator.
 *
 * The single place the RU number is decided. For now a placeholder that
 * follows the published shape of the service's costs (a point read is
 * about 1 RU per KB read, a 1 KB write about 5.5 RU); ru_meter will replace
 * the body of emu_charge, not its callers.
 */
#include "emulator/charge.h"

#include <math.h>

double emu_charge(const cql_stats_t *stats, bool failed)
{
    double kb_read = (double)stats->bytes_read / 1024.0;
    double kb_written = (double)stats->bytes_written / 1024.0;
    double rows_written = (double)(stats->rows_written > 0 ? stats->rows_written : 1);
    double charge;
    switch (stats->kind) {
    case CQL_OP_READ:
        charge = fmax(1.0, ceil(kb_read));
        break;
    case CQL_OP_WRITE:
    case CQL_OP_DELETE:
    case CQL_OP_BATCH:
        charge = 5.5 * fmax(rows_written, ceil(kb_written));
        break;
    case CQL_OP_LWT:
        charge = 1.0 + 5.5 * fmax(rows_written, ceil(kb_written));
        break;
    case CQL_OP_DDL:
    case CQL_OP_NONE:
    default:
        charge = 1.0;
        break;
    }
    return failed ? fmin(charge, 1.0) : charge;
}

void emu_charge_encode(double charge, uint8_t out[8])
{
    uint64_t bits;
    memcpy(&bits, &charge, sizeof(bits));
    base_store_u64(out, bits);
}
