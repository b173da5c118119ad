/*
 * fuzz_record.c - libFuzzer target for the durable storage decoders of storage/record.c:
 * the framing of a commit log or snapshot image ([u32 length][u32 crc32][payload]) and the
 * payload decoder that replays a record into memory. Files on disk are untrusted: any bytes
 * must be refused with a reason or applied, never crash, over-read or leak.
 * The first byte picks what the rest is:
 *   0     a log image, replayed frame by frame as storage__log_replay does;
 *   other a list of [u16 length][payload] applied in order, so the fuzzer reaches the
 *         mutation decoder without forging checksums.
 * Both apply to one in-memory database, so CREATE, MUTATION, TRUNCATE and DROP interact.
 * tests/fuzz/make_record_corpus.py writes the seeds from a real durable emulator.
 */
#include "storage/storage_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


/* An exact-size copy, so any over-read hits the sanitizer. */
static void apply_copy(storage_db_t *db, storage__replay_t *rp, const uint8_t *p, size_t n)
{
    uint8_t *copy = base_malloc(n ? n : 1);
    memcpy(copy, p, n);
    (void)storage__rec_apply(db, rp, copy, n);
    base_free(copy);
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    bool image = data[0] == 0;
    data++;
    size--;
    storage_db_t *db = storage_db_new();
    storage__replay_t rp = {0};
    size_t off = 0;
    if (image) {
        while (off < size) {
            const uint8_t *payload;
            size_t plen, next;
            if (storage__rec_frame(data, size, off, &payload, &plen, &next) != STORAGE__FRAME_OK ||
                next <= off) {
                break;
            }
            apply_copy(db, &rp, payload, plen);
            off = next;
        }
    } else {
        while (size - off >= 2) {
            size_t n = base_load_u16(data + off);
            off += 2;
            n = n < size - off ? n : size - off;
            apply_copy(db, &rp, data + off, n);
            off += n;
        }
    }
    storage__replay_fini(&rp);
    storage_db_free(db);
    return 0;
}
