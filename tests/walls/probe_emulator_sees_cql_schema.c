/*
 * probe_emulator_sees_cql_schema.c - emulator/ reaching into cql/'s internals must not compile.
 * Built only by the ctest lint.walls.emulator_sees_cql_schema (never part of the build).
 */
#include "cql/schema/schema.h"

int emu_wall_probe(void);
int emu_wall_probe(void)
{
    return 0;
}
