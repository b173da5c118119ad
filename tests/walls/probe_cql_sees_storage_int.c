/*
 * probe_cql_sees_storage_int.c - cql/ reaching into storage/'s private header must not compile.
 * Built only by the ctest lint.walls.cql_sees_storage_int (never part of the build).
 */
#include "storage/storage_int.h"

int emu_wall_probe(void);
int emu_wall_probe(void)
{
    return 0;
}
