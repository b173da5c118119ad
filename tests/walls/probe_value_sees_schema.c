/*
 * probe_value_sees_schema.c - cql/value/ reaching up into cql/schema/ must not compile.
 * Built only by the ctest lint.walls.value_sees_schema (never part of the build).
 */
#include "cql/schema/schema.h"

int emu_wall_probe(void);
int emu_wall_probe(void)
{
    return 0;
}
