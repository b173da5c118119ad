/*
 * names.c - printable names for opcodes, error codes and consistency
 * levels, generated from the X-macro tables in wire.h so they cannot drift.
 */
#include "wire/wire.h"


const char *wire_opcode_name(int opcode)
{
    switch (opcode) {
#define XX(name, value) \
    case value:         \
        return #name;
        WIRE_OPCODE_MAP(XX)
#undef XX
    default:
        return "UNKNOWN";
    }
}


const char *wire_error_name(int code)
{
    switch (code) {
#define XX(name, value) \
    case value:         \
        return #name;
        WIRE_ERROR_MAP(XX)
#undef XX
    default:
        return "UNKNOWN";
    }
}


const char *wire_consistency_name(int cl)
{
    static const char *const names[] = {"ANY",    "ONE",          "TWO",          "THREE",
                                        "QUORUM", "ALL",          "LOCAL_QUORUM", "EACH_QUORUM",
                                        "SERIAL", "LOCAL_SERIAL", "LOCAL_ONE"};
    if (cl < 0 || (size_t)cl >= sizeof(names) / sizeof(names[0])) {
        return NULL;
    }
    return names[cl];
}
