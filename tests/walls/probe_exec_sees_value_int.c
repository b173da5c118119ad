/*
 * probe_exec_sees_value_int.c - cql/exec/ reaching into cql/value/'s private header must not
 * compile. Built only by the ctest lint.walls.exec_sees_value_int (never part of the build).
 */
#include "cql/value/value_int.h"

int emu_wall_probe(void);
int emu_wall_probe(void)
{
    return 0;
}
