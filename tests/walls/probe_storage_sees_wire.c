/*
 * probe_storage_sees_wire.c - storage/ including a layer it does not link (wire/) must not compile.
 * Built only by the ctest lint.walls.storage_sees_wire (never part of the build).
 */
#include "wire/wire.h"

int emu_wall_probe(void);
int emu_wall_probe(void)
{
    return 0;
}
