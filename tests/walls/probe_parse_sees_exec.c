/*
 * probe_parse_sees_exec.c - cql/parse/ reaching up into cql/exec/ must not compile.
 * Built only by the ctest lint.walls.parse_sees_exec (never part of the build).
 */
#include "cql/exec/exec.h"

int emu_wall_probe(void);
int emu_wall_probe(void)
{
    return 0;
}
