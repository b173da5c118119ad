/*
 * fuzz_request.c - libFuzzer target for the frame header and request body
 * decoders: any bytes must decode or fail with a Protocol error, never
 * crash, over-read or leak. The first byte picks the opcode and version.
 */
#include "wire/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    static const uint8_t opcodes[] = {WIRE_OP_STARTUP,  WIRE_OP_OPTIONS,      WIRE_OP_QUERY,
                                      WIRE_OP_PREPARE,  WIRE_OP_EXECUTE,      WIRE_OP_BATCH,
                                      WIRE_OP_REGISTER, WIRE_OP_AUTH_RESPONSE};
    wire_header_t h = {.version = (data[0] & 0x80) ? 3 : 4,
                       .flags = (uint8_t)(data[0] & WIRE_FLAG_CUSTOM_PAYLOAD),
                       .opcode = opcodes[data[0] % sizeof(opcodes)],
                       .length = (uint32_t)(size - 1)};
    base_arena_t a;
    base_error_t err;
    wire_request_t req;
    base_arena_init(&a, 4096);
    /* an exact-size copy, so any over-read hits the sanitizer */
    uint8_t *body = base_malloc(size - 1);
    memcpy(body, data + 1, size - 1);
    (void)wire_request_decode(&req, &h, body, size - 1, &a, &err);
    wire_header_t hh;
    (void)wire_header_decode(&hh, body, size - 1, 1u << 20, &err);
    uint8_t *out = NULL;
    size_t out_len = 0;
    if (wire_lz4_decompress(body, size - 1, 1u << 20, &out, &out_len, &err) == BASE_OK) {
        base_free(out);
    }
    base_free(body);
    base_arena_fini(&a);
    return 0;
}
