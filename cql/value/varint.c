/*
 * varint.c - arbitrary-precision integers and decimals (cql layer):
 * decimal text <-> minimal big-endian two's complement (CQL varint), Java
 * BigDecimal text <-> [int scale][varint unscaled] (CQL decimal), and the
 * normalised sign/exponent/digits form that compare.c and keyenc.c order by.
 *
 * Magnitudes are little-endian arrays of 32-bit limbs in temporary heap
 * memory; conversions are quadratic in the number of limbs, which is fine
 * for the sizes CQL values have. Text output is bounded: a plain decimal
 * whose scale would pad more than PLAIN_PAD_MAX zeros is printed in
 * scientific notation instead (Java would print them all).
 */
#include "cql/value/value_int.h"

#define PLAIN_PAD_MAX 4096

typedef struct mag_s {
    uint32_t *limb; /* little-endian */
    size_t n;       /* significant limbs; 0 means zero */
} mag_t;


static void mag_trim(mag_t *m)
{
    while (m->n > 0 && m->limb[m->n - 1] == 0) {
        m->n--;
    }
}


/* Big-endian unsigned bytes to limbs (heap). */
static mag_t mag_from_be(const uint8_t *p, size_t len)
{
    mag_t m;
    size_t n = (len + 3) / 4;
    m.limb = base_calloc(n ? n : 1, sizeof(uint32_t));
    for (size_t i = 0; i < len; i++) {
        size_t bit = (len - 1 - i) * 8;
        m.limb[bit / 32] |= (uint32_t)p[i] << (bit % 32);
    }
    m.n = n;
    mag_trim(&m);
    return m;
}


size_t cql__varint_minimal(const uint8_t *p, size_t len, const uint8_t **start)
{
    size_t i = 0;
    while (len - i > 1 &&
           ((p[i] == 0x00 && !(p[i + 1] & 0x80)) || (p[i] == 0xFF && (p[i + 1] & 0x80)))) {
        i++;
    }
    if (start != NULL) {
        *start = p + i;
    }
    return len - i;
}


int cql__varint_sign(const uint8_t *p, size_t len)
{
    if (len == 0) {
        return 0;
    }
    if (p[0] & 0x80) {
        return -1;
    }
    for (size_t i = 0; i < len; i++) {
        if (p[i] != 0) {
            return 1;
        }
    }
    return 0;
}


/* |x| of a two's complement number as big-endian unsigned bytes (heap). */
static uint8_t *abs_bytes(const uint8_t *p, size_t len, bool *neg)
{
    uint8_t *m = base_malloc(len ? len : 1);
    if (len > 0) {
        memcpy(m, p, len);
    }
    *neg = len > 0 && (p[0] & 0x80);
    if (*neg) {
        unsigned carry = 1;
        for (size_t i = len; i-- > 0;) {
            unsigned v = (uint8_t)~m[i] + carry;
            m[i] = (uint8_t)v;
            carry = v >> 8;
        }
    }
    return m;
}


/* Decimal digits of a magnitude, most significant first, NUL-terminated (heap). */
static char *mag_to_digits(mag_t *m, size_t *n_out)
{
    size_t cap = m->n * 10 + 2;
    char *rev = base_malloc(cap);
    size_t n = 0;
    while (m->n > 0) {
        uint64_t r = 0;
        for (size_t i = m->n; i-- > 0;) {
            uint64_t cur = (r << 32) | m->limb[i];
            m->limb[i] = (uint32_t)(cur / 1000000000u);
            r = cur % 1000000000u;
        }
        mag_trim(m);
        for (int k = 0; k < 9 && (m->n > 0 || r > 0); k++) {
            rev[n++] = (char)('0' + r % 10);
            r /= 10;
        }
    }
    if (n == 0) {
        rev[n++] = '0';
    }
    char *out = base_malloc(n + 1);
    for (size_t i = 0; i < n; i++) {
        out[i] = rev[n - 1 - i];
    }
    out[n] = '\0';
    base_free(rev);
    *n_out = n;
    return out;
}


/* Digits of |x| for two's complement bytes (heap). */
static char *abs_digits(const uint8_t *p, size_t len, bool *neg, size_t *n_digits)
{
    uint8_t *m = abs_bytes(p, len, neg);
    mag_t mag = mag_from_be(m, len);
    base_free(m);
    char *d = mag_to_digits(&mag, n_digits);
    base_free(mag.limb);
    return d;
}


char *cql__varint_to_text(const uint8_t *p, size_t len, base_arena_t *a)
{
    bool neg;
    size_t n;
    char *d = abs_digits(p, len, &neg, &n);
    char *s = base_arena_sprintf(a, "%s%s", neg ? "-" : "", d);
    base_free(d);
    return s;
}


/* Digits (validated by the caller) to minimal two's complement bytes. */
static void digits_to_varint(const char *d, size_t nd, bool neg, base_arena_t *a, wire_value_t *out)
{
    mag_t m;
    m.limb = base_calloc(nd / 9 + 2, sizeof(uint32_t));
    m.n = 0;
    size_t i = 0;
    while (i < nd) {
        size_t k = nd - i < 9 ? nd - i : 9;
        uint32_t chunk = 0, mul = 1;
        for (size_t j = 0; j < k; j++) {
            chunk = chunk * 10 + (uint32_t)(d[i + j] - '0');
            mul *= 10;
        }
        i += k;
        uint64_t carry = chunk;
        for (size_t j = 0; j < m.n; j++) {
            uint64_t v = (uint64_t)m.limb[j] * mul + carry;
            m.limb[j] = (uint32_t)v;
            carry = v >> 32;
        }
        if (carry != 0) {
            m.limb[m.n++] = (uint32_t)carry;
        }
    }
    /* One extra byte so the sign bit always has room. */
    size_t nb = m.n * 4 + 1;
    uint8_t *b = base_arena_alloc(a, nb);
    for (size_t j = 0; j < nb; j++) {
        size_t bit = (nb - 1 - j) * 8;
        b[j] = bit / 32 < m.n ? (uint8_t)(m.limb[bit / 32] >> (bit % 32)) : 0;
    }
    base_free(m.limb);
    if (neg) {
        unsigned carry = 1;
        for (size_t j = nb; j-- > 0;) {
            unsigned v = (uint8_t)~b[j] + carry;
            b[j] = (uint8_t)v;
            carry = v >> 8;
        }
    }
    const uint8_t *start;
    size_t n = cql__varint_minimal(b, nb, &start);
    out->ptr = start;
    out->len = (int32_t)n;
}


bool cql__varint_from_text(const char *s, size_t len, base_arena_t *a, wire_value_t *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < len && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        i++;
    }
    if (i == len || len - i > (size_t)INT32_MAX / 2) {
        return false;
    }
    for (size_t j = i; j < len; j++) {
        if (s[j] < '0' || s[j] > '9') {
            return false;
        }
    }
    digits_to_varint(s + i, len - i, neg, a, out);
    return true;
}


bool cql__decimal_from_text(const char *s, size_t len, base_arena_t *a, wire_value_t *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < len && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        i++;
    }
    char *digits = base_malloc(len + 1);
    size_t nd = 0, n_frac = 0;
    bool dot = false;
    for (; i < len; i++) {
        if (s[i] >= '0' && s[i] <= '9') {
            digits[nd++] = s[i];
            n_frac += dot;
        } else if (s[i] == '.' && !dot) {
            dot = true;
        } else {
            break;
        }
    }
    int64_t exp = 0;
    bool ok = nd > 0;
    if (ok && i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < len && (s[i] == '-' || s[i] == '+')) {
            eneg = s[i] == '-';
            i++;
        }
        size_t start = i;
        for (; i < len && s[i] >= '0' && s[i] <= '9' && exp <= INT32_MAX; i++) {
            exp = exp * 10 + (s[i] - '0');
        }
        ok = i > start;
        exp = eneg ? -exp : exp;
    }
    int64_t scale = (int64_t)n_frac - exp;
    ok = ok && i == len && scale >= INT32_MIN && scale <= INT32_MAX;
    if (ok) {
        wire_value_t unscaled;
        digits_to_varint(digits, nd, neg, a, &unscaled);
        uint8_t *b = base_arena_alloc(a, 4 + (size_t)unscaled.len);
        uint32_t sc = (uint32_t)(int32_t)scale;
        b[0] = (uint8_t)(sc >> 24);
        b[1] = (uint8_t)(sc >> 16);
        b[2] = (uint8_t)(sc >> 8);
        b[3] = (uint8_t)sc;
        memcpy(b + 4, unscaled.ptr, (size_t)unscaled.len);
        out->ptr = b;
        out->len = 4 + unscaled.len;
    }
    base_free(digits);
    return ok;
}


static void put_zeros(base_buf_t *b, size_t n)
{
    base_buf_reserve(b, n);
    memset(b->data + b->len, '0', n);
    b->len += n;
}


/* BigDecimal.toString's scientific layout: d.ddd[E[+-]n]. */
static void put_scientific(base_buf_t *b, const char *d, size_t nd, int64_t adjusted)
{
    base_buf_put_u8(b, (uint8_t)d[0]);
    if (nd > 1) {
        base_buf_put_u8(b, '.');
        base_buf_put(b, d + 1, nd - 1);
    }
    if (adjusted != 0) {
        base_buf_printf(b, "E%s%lld", adjusted > 0 ? "+" : "", (long long)adjusted);
    }
}


char *cql__decimal_to_text(const uint8_t *p, size_t len, bool plain, base_arena_t *a)
{
    if (len < 4) {
        return base_arena_strndup(a, "", 0);
    }
    int64_t scale = (int32_t)base_load_u32(p);
    bool neg;
    size_t nd;
    char *d = abs_digits(p + 4, len - 4, &neg, &nd);
    bool zero = nd == 1 && d[0] == '0';
    int64_t adjusted = -scale + (int64_t)(nd - 1);
    base_buf_t b;
    base_buf_init(&b);
    if (neg) {
        base_buf_put_u8(&b, '-');
    }
    bool too_long =
        (scale < 0 && -scale > PLAIN_PAD_MAX) || (scale > 0 && scale - (int64_t)nd > PLAIN_PAD_MAX);
    if (scale == 0) {
        base_buf_put(&b, d, nd);
    } else if (plain && !too_long) {
        if (scale < 0) {
            base_buf_put(&b, d, nd);
            if (!zero) {
                put_zeros(&b, (size_t)-scale);
            }
        } else if ((int64_t)nd > scale) {
            base_buf_put(&b, d, nd - (size_t)scale);
            base_buf_put_u8(&b, '.');
            base_buf_put(&b, d + nd - (size_t)scale, (size_t)scale);
        } else {
            base_buf_put(&b, "0.", 2);
            put_zeros(&b, (size_t)(scale - (int64_t)nd));
            base_buf_put(&b, d, nd);
        }
    } else if (!plain && scale > 0 && adjusted >= -6) {
        if ((int64_t)nd > scale) {
            base_buf_put(&b, d, nd - (size_t)scale);
            base_buf_put_u8(&b, '.');
            base_buf_put(&b, d + nd - (size_t)scale, (size_t)scale);
        } else {
            base_buf_put(&b, "0.", 2);
            put_zeros(&b, (size_t)(scale - (int64_t)nd));
            base_buf_put(&b, d, nd);
        }
    } else {
        put_scientific(&b, d, nd, adjusted);
    }
    char *s = base_arena_strndup(a, (const char *)b.data, b.len);
    base_buf_fini(&b);
    base_free(d);
    return s;
}


void cql__decimal_normalize(const uint8_t *unscaled, size_t len, int32_t scale, base_arena_t *a,
                            cql_decnorm_t *out)
{
    bool neg;
    size_t nd;
    char *d = abs_digits(unscaled, len, &neg, &nd);
    if (nd == 1 && d[0] == '0') {
        out->sign = 0;
        out->exp = 0;
        out->digits = "";
        out->n_digits = 0;
        base_free(d);
        return;
    }
    out->sign = neg ? -1 : 1;
    out->exp = (int64_t)nd - scale;
    while (nd > 1 && d[nd - 1] == '0') {
        nd--;
    }
    out->digits = base_arena_memdup(a, d, nd);
    out->n_digits = nd;
    base_free(d);
}


int cql__decnorm_compare(const cql_decnorm_t *x, const cql_decnorm_t *y)
{
    if (x->sign != y->sign) {
        return x->sign < y->sign ? -1 : 1;
    }
    if (x->sign == 0) {
        return 0;
    }
    int c = 0;
    if (x->exp != y->exp) {
        c = x->exp < y->exp ? -1 : 1;
    } else {
        size_t n = x->n_digits < y->n_digits ? x->n_digits : y->n_digits;
        c = memcmp(x->digits, y->digits, n);
        if (c == 0 && x->n_digits != y->n_digits) {
            c = x->n_digits < y->n_digits ? -1 : 1;
        }
        c = c < 0 ? -1 : c > 0;
    }
    return x->sign < 0 ? -c : c;
}
