/*
 * numeric.c - exact arithmetic on serialized varints (two's complement,
 * big-endian, empty = 0) and decimals ([int scale][varint unscaled]) for the
 * sum and avg aggregates, as Java's BigInteger and BigDecimal compute them:
 * an add keeps the larger scale, a division by a row count truncates
 * (BigInteger.divide) or rounds half-even at the dividend's scale
 * (BigDecimal.divide(n, HALF_EVEN)). Results are minimal encodings in the
 * arena; zero is one 0x00 byte, as BigInteger.toByteArray writes it.
 *
 * Numbers are a sign and a magnitude of little-endian 32-bit limbs in heap
 * scratch memory. Aligning two decimals multiplies the lower-scaled one by
 * 10^k: k is capped (MAX_RESCALE) so that a hostile scale cannot make one row
 * cost unbounded work; past the cap the operand too small to show at the
 * other's scale is dropped.
 */
#include "cql/value/value_int.h"

#define MAX_RESCALE 4096

typedef struct num_s {
    bool neg;
    uint32_t *limb; /* little-endian magnitude, heap */
    size_t n;       /* significant limbs; 0 is zero */
} num_t;


static void num_trim(num_t *x)
{
    while (x->n > 0 && x->limb[x->n - 1] == 0) {
        x->n--;
    }
    if (x->n == 0) {
        x->neg = false;
    }
}


/* Two's complement big-endian bytes to sign and magnitude. */
static num_t num_load(const uint8_t *p, size_t len)
{
    num_t x = {len > 0 && (p[0] & 0x80) != 0, NULL, (len + 3) / 4};
    x.limb = base_calloc(x.n + 1, sizeof(uint32_t));
    uint8_t *mag = base_calloc(len + 1, 1);
    if (len > 0) {
        memcpy(mag, p, len);
    }
    if (x.neg) { /* -v = ~v + 1; no carry leaves the top byte of a negative value */
        bool carry = true;
        for (size_t i = len; i-- > 0;) {
            mag[i] = (uint8_t)~mag[i];
            if (carry) {
                carry = ++mag[i] == 0;
            }
        }
    }
    for (size_t i = 0; i < len; i++) {
        size_t bit = (len - 1 - i) * 8;
        x.limb[bit / 32] |= (uint32_t)mag[i] << (bit % 32);
    }
    base_free(mag);
    num_trim(&x);
    return x;
}


/* Sign and magnitude to minimal two's complement bytes in a (prefix bytes before). */
static uint8_t *num_store(const num_t *x, size_t prefix, base_arena_t *a, size_t *len)
{
    size_t nb = x->n * 4 + 1;
    uint8_t *be = base_calloc(nb, 1);
    for (size_t i = 0; i < nb - 1; i++) {
        be[nb - 1 - i] = (uint8_t)(x->limb[i / 4] >> (i % 4 * 8));
    }
    if (x->neg) {
        bool carry = true;
        for (size_t i = nb; i-- > 0;) {
            be[i] = (uint8_t)~be[i];
            if (carry) {
                carry = ++be[i] == 0;
            }
        }
    }
    size_t skip = 0; /* drop sign-extension bytes */
    while (skip + 1 < nb && ((be[skip] == 0 && (be[skip + 1] & 0x80) == 0) ||
                             (be[skip] == 0xff && (be[skip + 1] & 0x80) != 0))) {
        skip++;
    }
    *len = nb - skip;
    uint8_t *out = base_arena_alloc(a, prefix + *len);
    memcpy(out + prefix, be + skip, *len);
    base_free(be);
    return out;
}


static int mag_cmp(const num_t *x, const num_t *y)
{
    if (x->n != y->n) {
        return x->n < y->n ? -1 : 1;
    }
    for (size_t i = x->n; i-- > 0;) {
        if (x->limb[i] != y->limb[i]) {
            return x->limb[i] < y->limb[i] ? -1 : 1;
        }
    }
    return 0;
}


/* x + y (signed) into a new number. */
static num_t num_add(const num_t *x, const num_t *y)
{
    size_t n = (x->n > y->n ? x->n : y->n) + 1;
    num_t r = {false, base_calloc(n + 1, sizeof(uint32_t)), n};
    if (x->neg == y->neg) {
        uint64_t carry = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t s = carry + (i < x->n ? x->limb[i] : 0) + (i < y->n ? y->limb[i] : 0);
            r.limb[i] = (uint32_t)s;
            carry = s >> 32;
        }
        r.neg = x->neg;
    } else {
        const num_t *big = mag_cmp(x, y) >= 0 ? x : y, *small = big == x ? y : x;
        int64_t borrow = 0;
        for (size_t i = 0; i < n; i++) {
            int64_t d = (int64_t)(i < big->n ? big->limb[i] : 0) -
                        (int64_t)(i < small->n ? small->limb[i] : 0) - borrow;
            borrow = d < 0;
            r.limb[i] = (uint32_t)(d + (borrow ? (int64_t)1 << 32 : 0));
        }
        r.neg = big->neg;
    }
    num_trim(&r);
    return r;
}


/* x *= m in place (x has a spare limb: callers grow it first). */
static void mag_mul_small(num_t *x, uint32_t m)
{
    uint64_t carry = 0;
    for (size_t i = 0; i < x->n; i++) {
        uint64_t p = (uint64_t)x->limb[i] * m + carry;
        x->limb[i] = (uint32_t)p;
        carry = p >> 32;
    }
    if (carry != 0) {
        x->limb[x->n++] = (uint32_t)carry;
    }
}


/* x * 10^k into x (reallocated). */
static void num_scale_up(num_t *x, size_t k)
{
    size_t cap = x->n + k / 9 + 2;
    uint32_t *limb = base_calloc(cap, sizeof(uint32_t));
    if (x->n > 0) {
        memcpy(limb, x->limb, x->n * sizeof(uint32_t));
    }
    base_free(x->limb);
    x->limb = limb;
    for (; k >= 9; k -= 9) {
        mag_mul_small(x, 1000000000u);
    }
    static const uint32_t pow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    mag_mul_small(x, pow10[k]);
}


/* |x| / d in place; returns the remainder. */
static uint64_t mag_div_small(num_t *x, uint32_t d)
{
    uint64_t rem = 0;
    for (size_t i = x->n; i-- > 0;) {
        uint64_t cur = (rem << 32) | x->limb[i];
        x->limb[i] = (uint32_t)(cur / d);
        rem = cur % d;
    }
    bool neg = x->neg;
    num_trim(x);
    x->neg = neg && x->n > 0;
    return rem;
}


static wire_value_t varint_value(const num_t *x, base_arena_t *a)
{
    size_t len;
    uint8_t *p = num_store(x, 0, a, &len);
    return (wire_value_t){p, (int32_t)len};
}


static wire_value_t decimal_value(const num_t *x, int32_t scale, base_arena_t *a)
{
    size_t len;
    uint8_t *p = num_store(x, 4, a, &len);
    uint32_t s = (uint32_t)scale;
    p[0] = (uint8_t)(s >> 24), p[1] = (uint8_t)(s >> 16), p[2] = (uint8_t)(s >> 8),
    p[3] = (uint8_t)s;
    return (wire_value_t){p, (int32_t)(len + 4)};
}


/* A decimal's scale and unscaled value (a null or short value reads as 0). */
static num_t decimal_load(wire_value_t v, int32_t *scale)
{
    if (v.len < 4) {
        *scale = 0;
        return num_load(NULL, 0);
    }
    *scale = (int32_t)base_load_u32(v.ptr);
    return num_load(v.ptr + 4, (size_t)v.len - 4);
}


wire_value_t cql__varint_add(wire_value_t x, wire_value_t y, base_arena_t *a)
{
    num_t p = num_load(x.ptr, x.len > 0 ? (size_t)x.len : 0);
    num_t q = num_load(y.ptr, y.len > 0 ? (size_t)y.len : 0);
    num_t r = num_add(&p, &q);
    wire_value_t out = varint_value(&r, a);
    base_free(p.limb), base_free(q.limb), base_free(r.limb);
    return out;
}


wire_value_t cql__varint_div(wire_value_t x, uint32_t n, base_arena_t *a)
{
    num_t p = num_load(x.ptr, x.len > 0 ? (size_t)x.len : 0);
    if (n > 1) {
        (void)mag_div_small(&p, n); /* truncated toward zero, as BigInteger.divide */
    }
    wire_value_t out = varint_value(&p, a);
    base_free(p.limb);
    return out;
}


wire_value_t cql__decimal_add(wire_value_t x, wire_value_t y, bool subtract, base_arena_t *a)
{
    int32_t sx, sy;
    num_t p = decimal_load(x, &sx), q = decimal_load(y, &sy);
    if (subtract) {
        q.neg = q.n > 0 && !q.neg;
    }
    int64_t diff = (int64_t)sx - (int64_t)sy;
    num_t *low = diff < 0 ? &p : &q; /* the operand with the smaller scale */
    uint64_t k = (uint64_t)(diff < 0 ? -diff : diff);
    int32_t scale = diff < 0 ? sy : sx;
    if (k > MAX_RESCALE && low->n > 0) {
        low->n = 0; /* dropped: see the file comment */
        low->neg = false;
    } else if (k > 0 && low->n > 0) {
        num_scale_up(low, (size_t)k);
    }
    num_t r = num_add(&p, &q);
    wire_value_t out = decimal_value(&r, scale, a);
    base_free(p.limb), base_free(q.limb), base_free(r.limb);
    return out;
}


wire_value_t cql__decimal_div(wire_value_t x, uint32_t n, base_arena_t *a)
{
    int32_t scale;
    num_t p = decimal_load(x, &scale);
    if (n > 1) {
        bool neg = p.neg;
        uint64_t rem = mag_div_small(&p, n);
        bool odd = p.n > 0 && (p.limb[0] & 1) != 0;
        if (rem * 2 > n || (rem * 2 == n && odd)) { /* HALF_EVEN, away from zero */
            num_t one = {false, (uint32_t[]){1}, 1};
            p.neg = false;
            num_t r = num_add(&p, &one);
            base_free(p.limb);
            p = r;
        }
        p.neg = neg && p.n > 0;
    }
    wire_value_t out = decimal_value(&p, scale, a);
    base_free(p.limb);
    return out;
}
