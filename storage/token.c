/*
 * token.c - Cassandra's Murmur3Partitioner token, part of storage/.
 *
 * The token is the first half (h1) of MurmurHash3_x64_128 with seed 0, as
 * org.apache.cassandra.utils.MurmurHash.hash3_x64_128 computes it. That port
 * reads the tail bytes as Java (signed) bytes, so a tail byte >= 0x80 is
 * sign-extended before it is shifted into k1/k2; the result differs from the
 * reference C MurmurHash3 and drivers replicate the quirk, so must we.
 * Murmur3Partitioner then maps Long.MIN_VALUE to Long.MAX_VALUE (MIN_VALUE is
 * the ring's minimum token, which no key may own) and gives the empty key
 * the minimum token itself.
 */
#include "storage/storage.h"

#define C1 UINT64_C(0x87c37b91114253d5)
#define C2 UINT64_C(0x4cf5ad432745937f)


static uint64_t rotl64(uint64_t v, int n)
{
    return (v << n) | (v >> (64 - n));
}


static uint64_t fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= UINT64_C(0xff51afd7ed558ccd);
    k ^= k >> 33;
    k *= UINT64_C(0xc4ceb9fe1a85ec53);
    k ^= k >> 33;
    return k;
}


static uint64_t load_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) {
        v = (v << 8) | p[i];
    }
    return v;
}


/* A Java byte widened to long: the quirk. */
static uint64_t signed_byte(uint8_t b)
{
    return b >= 0x80 ? (uint64_t)b | UINT64_C(0xffffffffffffff00) : (uint64_t)b;
}


static int64_t as_signed(uint64_t v)
{
    return v <= (uint64_t)INT64_MAX ? (int64_t)v : -(int64_t)~v - 1;
}


int64_t storage_token(const uint8_t *key, size_t len)
{
    if (len == 0) {
        return INT64_MIN;
    }

    uint64_t h1 = 0;
    uint64_t h2 = 0;
    size_t n_blocks = len / 16;

    for (size_t i = 0; i < n_blocks; i++) {
        uint64_t k1 = load_le64(key + i * 16);
        uint64_t k2 = load_le64(key + i * 16 + 8);

        k1 *= C1;
        k1 = rotl64(k1, 31);
        k1 *= C2;
        h1 ^= k1;
        h1 = rotl64(h1, 27);
        h1 += h2;
        h1 = h1 * 5 + 0x52dce729;

        k2 *= C2;
        k2 = rotl64(k2, 33);
        k2 *= C1;
        h2 ^= k2;
        h2 = rotl64(h2, 31);
        h2 += h1;
        h2 = h2 * 5 + 0x38495ab5;
    }

    const uint8_t *tail = key + n_blocks * 16;
    size_t n_tail = len & 15;
    uint64_t k1 = 0;
    uint64_t k2 = 0;

    for (size_t i = n_tail; i > 8; i--) {
        k2 ^= signed_byte(tail[i - 1]) << ((i - 9) * 8);
    }
    if (n_tail > 8) {
        k2 *= C2;
        k2 = rotl64(k2, 33);
        k2 *= C1;
        h2 ^= k2;
    }
    for (size_t i = n_tail < 8 ? n_tail : 8; i > 0; i--) {
        k1 ^= signed_byte(tail[i - 1]) << ((i - 1) * 8);
    }
    if (n_tail > 0) {
        k1 *= C1;
        k1 = rotl64(k1, 31);
        k1 *= C2;
        h1 ^= k1;
    }

    h1 ^= (uint64_t)len;
    h2 ^= (uint64_t)len;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;

    int64_t token = as_signed(h1);
    return token == INT64_MIN ? INT64_MAX : token;
}
