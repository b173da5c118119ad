/*
 * crc32.c - CRC-32 (IEEE 802.3, reflected polynomial 0xedb88320, as zlib
 * and gzip compute it), part of storage/: the checksum of every commit log
 * and snapshot record. Slicing-by-8 (eight bytes per step through eight
 * tables derived from the classic one at first use): the byte-at-a-time loop
 * was the top entry of a durable write load's profile (15% of the loop).
 *
 * On x86-64 CPUs with carry-less multiplication (PCLMULQDQ, every x86-64 CPU
 * since 2010) buffers of 64 bytes and more are folded 64 bytes a step instead
 * (Gopal et al., "Fast CRC Computation for Generic Polynomials Using
 * PCLMULQDQ Instruction", Intel 2009, with its constants for this
 * polynomial in the bit-reflected domain), several times faster than the
 * tables: slicing-by-8 was still 9% of a durable insert load, each record
 * about 1 KB. The tail under 16 bytes goes through the tables, so both paths
 * compute the same function; the CPU is asked once.
 */
#include <pthread.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define CRC_CLMUL 1
#endif

#include "storage/storage_int.h"

static const uint32_t crc_table[256] = {
    0x00000000u, 0x77073096u, 0xee0e612cu, 0x990951bau, 0x076dc419u, 0x706af48fu, 0xe963a535u,
    0x9e6495a3u, 0x0edb8832u, 0x79dcb8a4u, 0xe0d5e91eu, 0x97d2d988u, 0x09b64c2bu, 0x7eb17cbdu,
    0xe7b82d07u, 0x90bf1d91u, 0x1db71064u, 0x6ab020f2u, 0xf3b97148u, 0x84be41deu, 0x1adad47du,
    0x6ddde4ebu, 0xf4d4b551u, 0x83d385c7u, 0x136c9856u, 0x646ba8c0u, 0xfd62f97au, 0x8a65c9ecu,
    0x14015c4fu, 0x63066cd9u, 0xfa0f3d63u, 0x8d080df5u, 0x3b6e20c8u, 0x4c69105eu, 0xd56041e4u,
    0xa2677172u, 0x3c03e4d1u, 0x4b04d447u, 0xd20d85fdu, 0xa50ab56bu, 0x35b5a8fau, 0x42b2986cu,
    0xdbbbc9d6u, 0xacbcf940u, 0x32d86ce3u, 0x45df5c75u, 0xdcd60dcfu, 0xabd13d59u, 0x26d930acu,
    0x51de003au, 0xc8d75180u, 0xbfd06116u, 0x21b4f4b5u, 0x56b3c423u, 0xcfba9599u, 0xb8bda50fu,
    0x2802b89eu, 0x5f058808u, 0xc60cd9b2u, 0xb10be924u, 0x2f6f7c87u, 0x58684c11u, 0xc1611dabu,
    0xb6662d3du, 0x76dc4190u, 0x01db7106u, 0x98d220bcu, 0xefd5102au, 0x71b18589u, 0x06b6b51fu,
    0x9fbfe4a5u, 0xe8b8d433u, 0x7807c9a2u, 0x0f00f934u, 0x9609a88eu, 0xe10e9818u, 0x7f6a0dbbu,
    0x086d3d2du, 0x91646c97u, 0xe6635c01u, 0x6b6b51f4u, 0x1c6c6162u, 0x856530d8u, 0xf262004eu,
    0x6c0695edu, 0x1b01a57bu, 0x8208f4c1u, 0xf50fc457u, 0x65b0d9c6u, 0x12b7e950u, 0x8bbeb8eau,
    0xfcb9887cu, 0x62dd1ddfu, 0x15da2d49u, 0x8cd37cf3u, 0xfbd44c65u, 0x4db26158u, 0x3ab551ceu,
    0xa3bc0074u, 0xd4bb30e2u, 0x4adfa541u, 0x3dd895d7u, 0xa4d1c46du, 0xd3d6f4fbu, 0x4369e96au,
    0x346ed9fcu, 0xad678846u, 0xda60b8d0u, 0x44042d73u, 0x33031de5u, 0xaa0a4c5fu, 0xdd0d7cc9u,
    0x5005713cu, 0x270241aau, 0xbe0b1010u, 0xc90c2086u, 0x5768b525u, 0x206f85b3u, 0xb966d409u,
    0xce61e49fu, 0x5edef90eu, 0x29d9c998u, 0xb0d09822u, 0xc7d7a8b4u, 0x59b33d17u, 0x2eb40d81u,
    0xb7bd5c3bu, 0xc0ba6cadu, 0xedb88320u, 0x9abfb3b6u, 0x03b6e20cu, 0x74b1d29au, 0xead54739u,
    0x9dd277afu, 0x04db2615u, 0x73dc1683u, 0xe3630b12u, 0x94643b84u, 0x0d6d6a3eu, 0x7a6a5aa8u,
    0xe40ecf0bu, 0x9309ff9du, 0x0a00ae27u, 0x7d079eb1u, 0xf00f9344u, 0x8708a3d2u, 0x1e01f268u,
    0x6906c2feu, 0xf762575du, 0x806567cbu, 0x196c3671u, 0x6e6b06e7u, 0xfed41b76u, 0x89d32be0u,
    0x10da7a5au, 0x67dd4accu, 0xf9b9df6fu, 0x8ebeeff9u, 0x17b7be43u, 0x60b08ed5u, 0xd6d6a3e8u,
    0xa1d1937eu, 0x38d8c2c4u, 0x4fdff252u, 0xd1bb67f1u, 0xa6bc5767u, 0x3fb506ddu, 0x48b2364bu,
    0xd80d2bdau, 0xaf0a1b4cu, 0x36034af6u, 0x41047a60u, 0xdf60efc3u, 0xa867df55u, 0x316e8eefu,
    0x4669be79u, 0xcb61b38cu, 0xbc66831au, 0x256fd2a0u, 0x5268e236u, 0xcc0c7795u, 0xbb0b4703u,
    0x220216b9u, 0x5505262fu, 0xc5ba3bbeu, 0xb2bd0b28u, 0x2bb45a92u, 0x5cb36a04u, 0xc2d7ffa7u,
    0xb5d0cf31u, 0x2cd99e8bu, 0x5bdeae1du, 0x9b64c2b0u, 0xec63f226u, 0x756aa39cu, 0x026d930au,
    0x9c0906a9u, 0xeb0e363fu, 0x72076785u, 0x05005713u, 0x95bf4a82u, 0xe2b87a14u, 0x7bb12baeu,
    0x0cb61b38u, 0x92d28e9bu, 0xe5d5be0du, 0x7cdcefb7u, 0x0bdbdf21u, 0x86d3d2d4u, 0xf1d4e242u,
    0x68ddb3f8u, 0x1fda836eu, 0x81be16cdu, 0xf6b9265bu, 0x6fb077e1u, 0x18b74777u, 0x88085ae6u,
    0xff0f6a70u, 0x66063bcau, 0x11010b5cu, 0x8f659effu, 0xf862ae69u, 0x616bffd3u, 0x166ccf45u,
    0xa00ae278u, 0xd70dd2eeu, 0x4e048354u, 0x3903b3c2u, 0xa7672661u, 0xd06016f7u, 0x4969474du,
    0x3e6e77dbu, 0xaed16a4au, 0xd9d65adcu, 0x40df0b66u, 0x37d83bf0u, 0xa9bcae53u, 0xdebb9ec5u,
    0x47b2cf7fu, 0x30b5ffe9u, 0xbdbdf21cu, 0xcabac28au, 0x53b39330u, 0x24b4a3a6u, 0xbad03605u,
    0xcdd70693u, 0x54de5729u, 0x23d967bfu, 0xb3667a2eu, 0xc4614ab8u, 0x5d681b02u, 0x2a6f2b94u,
    0xb40bbe37u, 0xc30c8ea1u, 0x5a05df1bu, 0x2d02ef8du,
};


/* slice[k][b]: the CRC of byte b followed by k zero bytes; slice[0] is crc_table */
static uint32_t slice[8][256];
static pthread_once_t slice_once = PTHREAD_ONCE_INIT;


static void slice_init(void)
{
    memcpy(slice[0], crc_table, sizeof(crc_table));
    for (int k = 1; k < 8; k++) {
        for (int b = 0; b < 256; b++) {
            uint32_t c = slice[k - 1][b];
            slice[k][b] = (c >> 8) ^ crc_table[c & 0xff];
        }
    }
}


static uint32_t load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}


/* c is the running (inverted) state, as in storage__crc32's loops. */
static uint32_t crc_tables(uint32_t c, const uint8_t *p, size_t n)
{
    for (; n >= 8; p += 8, n -= 8) {
        uint32_t lo = load_le32(p) ^ c, hi = load_le32(p + 4);
        c = slice[7][lo & 0xff] ^ slice[6][(lo >> 8) & 0xff] ^ slice[5][(lo >> 16) & 0xff] ^
            slice[4][lo >> 24] ^ slice[3][hi & 0xff] ^ slice[2][(hi >> 8) & 0xff] ^
            slice[1][(hi >> 16) & 0xff] ^ slice[0][hi >> 24];
    }
    for (size_t i = 0; i < n; i++) {
        c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    }
    return c;
}


#ifdef CRC_CLMUL
static bool have_clmul;


/* x folded over 128 bits onto next: x.lo * k.lo ^ x.hi * k.hi ^ next. */
__attribute__((target("pclmul,sse2"))) static __m128i fold(__m128i x, __m128i k, __m128i next)
{
    __m128i lo = _mm_clmulepi64_si128(x, k, 0x00);
    __m128i hi = _mm_clmulepi64_si128(x, k, 0x11);
    return _mm_xor_si128(_mm_xor_si128(lo, hi), next);
}


/* The state c carried over the n bytes at p (n >= 64), consuming whole
 * 16-byte blocks; *used says how many. */
__attribute__((target("pclmul,sse2"))) static uint32_t crc_clmul(uint32_t c, const uint8_t *p,
                                                                 size_t n, size_t *used)
{
    /* x^(4*128+32) and x^(4*128-32) mod P, reflected: fold 512 bits ahead */
    const __m128i k_4 = _mm_set_epi64x(0x1c6e41596, 0x154442bd4);
    /* x^(128+32) and x^(128-32) mod P: fold 128 bits ahead */
    const __m128i k_1 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);
    const __m128i k_64 = _mm_set_epi64x(0, 0x163cd6124); /* x^64 mod P: 64 bits to 32 */
    /* P(x) itself and floor(x^64 / P(x)) for the Barrett reduction */
    const __m128i barrett = _mm_set_epi64x(0x1f7011641, 0x1db710641);
    const __m128i low32 = _mm_set_epi32(0, -1, 0, -1);
    const uint8_t *start = p;

    __m128i x0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), _mm_cvtsi32_si128((int)c));
    __m128i x1 = _mm_loadu_si128((const __m128i *)(p + 16));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(p + 32));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(p + 48));
    for (p += 64, n -= 64; n >= 64; p += 64, n -= 64) {
        x0 = fold(x0, k_4, _mm_loadu_si128((const __m128i *)p));
        x1 = fold(x1, k_4, _mm_loadu_si128((const __m128i *)(p + 16)));
        x2 = fold(x2, k_4, _mm_loadu_si128((const __m128i *)(p + 32)));
        x3 = fold(x3, k_4, _mm_loadu_si128((const __m128i *)(p + 48)));
    }
    __m128i x = fold(fold(fold(x0, k_1, x1), k_1, x2), k_1, x3);
    for (; n >= 16; p += 16, n -= 16) {
        x = fold(x, k_1, _mm_loadu_si128((const __m128i *)p));
    }
    /* 128 bits to 64: the low half times x^(128-32)... onto the high half */
    x = _mm_xor_si128(_mm_srli_si128(x, 8), _mm_clmulepi64_si128(x, k_1, 0x10));
    /* 64 bits to 32 */
    x = _mm_xor_si128(_mm_srli_si128(x, 4),
                      _mm_clmulepi64_si128(_mm_and_si128(x, low32), k_64, 0x00));
    /* Barrett: the quotient by P times P, subtracted, leaves the remainder */
    __m128i q = _mm_clmulepi64_si128(_mm_and_si128(x, low32), barrett, 0x10);
    q = _mm_clmulepi64_si128(_mm_and_si128(q, low32), barrett, 0x00);
    x = _mm_xor_si128(x, q);
    *used = (size_t)(p - start);
    return (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(x, 4));
}
#endif


static void crc_init(void)
{
    slice_init();
#ifdef CRC_CLMUL
    have_clmul = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse2");
#endif
}


uint32_t storage__crc32(const uint8_t *p, size_t n)
{
    pthread_once(&slice_once, crc_init);
    uint32_t c = 0xffffffffu;
#ifdef CRC_CLMUL
    if (have_clmul && n >= 64) {
        size_t used;
        c = crc_clmul(c, p, n, &used);
        p += used;
        n -= used;
    }
#endif
    return crc_tables(c, p, n) ^ 0xffffffffu;
}
