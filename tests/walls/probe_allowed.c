/*
 * probe_allowed.c - the control: with cql/exec/'s include path, every header
 * it may include compiles, so the failing probes fail for the wall alone.
 * Built only by the ctest lint.walls.allowed (never part of the build).
 */
#include "base/base.h"
#include "cql/cql.h"
#include "cql/exec/exec.h"
#include "cql/parse/parse.h"
#include "cql/schema/schema.h"
#include "cql/value/value.h"
#include "storage/storage.h"
#include "wire/wire.h"

int emu_wall_probe(void);
int emu_wall_probe(void)
{
    return 0;
}
