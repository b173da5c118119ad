/*
 * duration.c - the CQL duration type (cql layer): literal parsing with
 * Cassandra's three syntaxes and messages (12h30m, P1Y2M3DT4H5M6S / P2W,
 * P0001-02-03T04:05:06), the serialized form (three zig-zag signed vints:
 * months, days, nanoseconds, as Cassandra's VIntCoding writes them) and
 * Duration.toString formatting.
 *
 * Invariant: a decoded duration has months and days within int32 and all
 * three fields of one sign; decoding never reads past the given length.
 */
#include "cql/value/value_int.h"

#define NS_PER_US   1000LL
#define NS_PER_MS   1000000LL
#define NS_PER_SEC  1000000000LL
#define NS_PER_MIN  (60 * NS_PER_SEC)
#define NS_PER_HOUR (60 * NS_PER_MIN)

typedef struct builder_s {
    bool negative;
    int64_t months, days, nanos;
    int unit; /* index of the last unit added, 0 before the first */
} builder_t;

static const char *const unit_names[] = {
    "",        "years",   "months",       "weeks",        "days",        "hours",
    "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds",
};


static int invalid(base_error_t *err, const char *source)
{
    return base_error_set(err, WIRE_ERR_INVALID, "Unable to convert '%s' to a duration", source);
}


/* Refuses a unit count that would take the duration's total past max. */
static int check_total(base_error_t *err, int64_t units, int64_t max, const char *name)
{
    if (units > max) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid duration. The total number of %s must be less or equal to "
                              "%d",
                              name, INT32_MAX);
    }
    return BASE_OK;
}


/* Builder.add*: unit order, range checks, accumulation. */
static int add_unit(builder_t *b, int unit, int64_t n, base_error_t *err)
{
    BASE_ASSERT(unit >= 1 && unit < (int)(sizeof(unit_names) / sizeof(unit_names[0])));
    if (unit == b->unit) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid duration. The %s are specified multiple times",
                              unit_names[unit]);
    }
    if (unit < b->unit) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid duration. The %s should be after %s",
                              unit_names[b->unit], unit_names[unit]);
    }
    b->unit = unit;
    /* What one of each unit adds, indexed like unit_names: to months, days or nanoseconds. */
    static const struct {
        int64_t months, days, nanos;
    } per[] = {{0, 0, 0},         {12, 0, 0},          {1, 0, 0},          {0, 7, 0},
               {0, 1, 0},         {0, 0, NS_PER_HOUR}, {0, 0, NS_PER_MIN}, {0, 0, NS_PER_SEC},
               {0, 0, NS_PER_MS}, {0, 0, NS_PER_US},   {0, 0, 1}};
    if (per[unit].months != 0) {
        if (check_total(err, n, (INT32_MAX - b->months) / per[unit].months, "months") != BASE_OK) {
            return BASE_ERROR;
        }
        b->months += n * per[unit].months;
    } else if (per[unit].days != 0) {
        if (check_total(err, n, (INT32_MAX - b->days) / per[unit].days, "days") != BASE_OK) {
            return BASE_ERROR;
        }
        b->days += n * per[unit].days;
    } else {
        if (check_total(err, n, (INT64_MAX - b->nanos) / per[unit].nanos, "nanoseconds") !=
            BASE_OK) {
            return BASE_ERROR;
        }
        b->nanos += n * per[unit].nanos;
    }
    return BASE_OK;
}


/* Long.parseLong of exactly the digits at s (count n, at least one). */
static bool parse_long(const char *s, size_t n, int64_t *out)
{
    int64_t v = 0;
    if (n == 0) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9' || v > (INT64_MAX - (s[i] - '0')) / 10) {
            return false;
        }
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}


static size_t span_digits(const char *s)
{
    size_t n = 0;
    while (s[n] >= '0' && s[n] <= '9') {
        n++;
    }
    return n;
}


static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}


/* The unit symbol at s, as STANDARD_PATTERN's alternation picks it. */
static int unit_at(const char *s, size_t *len)
{
    int c0 = lower((unsigned char)s[0]);
    int c1 = s[0] != '\0' ? lower((unsigned char)s[1]) : 0;
    static const struct {
        const char *sym;
        int unit;
    } two[] = {{"mo", 2}, {"ms", 8}, {"us", 9}, {"ns", 10}};
    for (size_t i = 0; i < sizeof(two) / sizeof(two[0]); i++) {
        if (c0 == two[i].sym[0] && c1 == two[i].sym[1]) {
            *len = 2;
            return two[i].unit;
        }
    }
    if ((unsigned char)s[0] == 0xC2 && (unsigned char)s[1] == 0xB5 && lower(s[2]) == 's') {
        *len = 3; /* µs */
        return 9;
    }
    *len = 1;
    switch (c0) {
    case 'y':
        return 1;
    case 'w':
        return 3;
    case 'd':
        return 4;
    case 'h':
        return 5;
    case 'm':
        return 6;
    case 's':
        return 7;
    default:
        return 0;
    }
}


static int parse_standard(builder_t *b, const char *src, base_error_t *err)
{
    const char *s = src;
    if (*s == '\0') {
        return invalid(err, src);
    }
    while (*s != '\0') {
        size_t nd = span_digits(s), ul;
        int64_t n;
        int unit = nd > 0 ? unit_at(s + nd, &ul) : 0;
        if (unit == 0 || !parse_long(s, nd, &n)) {
            return invalid(err, src);
        }
        if (add_unit(b, unit, n, err) != BASE_OK) {
            return BASE_ERROR;
        }
        s += nd + ul;
    }
    return BASE_OK;
}


/* P[nY][nM][nD][T[nH][nM][nS]] */
static int parse_iso(builder_t *b, const char *src, base_error_t *err)
{
    static const char date_units[] = {'Y', 'M', 'D'};
    static const int date_idx[] = {1, 2, 4};
    static const char time_units[] = {'H', 'M', 'S'};
    static const int time_idx[] = {5, 6, 7};
    const char *s = src + 1;
    size_t k = 0;
    bool in_time = false;
    while (*s != '\0') {
        if (*s == 'T' && !in_time) {
            in_time = true;
            k = 0;
            s++;
            continue;
        }
        size_t nd = span_digits(s);
        int64_t n;
        if (!parse_long(s, nd, &n)) {
            return invalid(err, src);
        }
        s += nd;
        const char *units = in_time ? time_units : date_units;
        while (k < 3 && units[k] != *s) {
            k++;
        }
        if (k == 3) {
            return invalid(err, src);
        }
        if (add_unit(b, in_time ? time_idx[k] : date_idx[k], n, err) != BASE_OK) {
            return BASE_ERROR;
        }
        k++;
        s++;
    }
    return BASE_OK;
}


static int parse_iso_week(builder_t *b, const char *src, base_error_t *err)
{
    size_t nd = span_digits(src + 1);
    int64_t n;
    if (nd == 0 || src[1 + nd] != 'W' || src[2 + nd] != '\0' || !parse_long(src + 1, nd, &n)) {
        return invalid(err, src);
    }
    return add_unit(b, 3, n, err);
}


/* P[YYYY]-[MM]-[DD]T[hh]:[mm]:[ss] */
static int parse_iso_alternative(builder_t *b, const char *src, base_error_t *err)
{
    static const char shape[] = "P####-##-##T##:##:##";
    static const int start[] = {1, 6, 9, 12, 15, 18};
    static const int width[] = {4, 2, 2, 2, 2, 2};
    static const int unit[] = {1, 2, 4, 5, 6, 7};
    if (strlen(src) != sizeof(shape) - 1) {
        return invalid(err, src);
    }
    for (size_t i = 0; i < sizeof(shape) - 1; i++) {
        bool ok = shape[i] == '#' ? (src[i] >= '0' && src[i] <= '9') : src[i] == shape[i];
        if (!ok) {
            return invalid(err, src);
        }
    }
    for (size_t i = 0; i < 6; i++) {
        int64_t n;
        if (!parse_long(src + start[i], (size_t)width[i], &n) ||
            add_unit(b, unit[i], n, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    return BASE_OK;
}


int cql__duration_parse(const char *input, cql_duration_t *out, base_error_t *err)
{
    builder_t b = {.negative = input[0] == '-'};
    const char *src = b.negative ? input + 1 : input;
    int rc;
    if (src[0] == 'P') {
        size_t n = strlen(src);
        if (src[n - 1] == 'W') {
            rc = parse_iso_week(&b, src, err);
        } else if (strchr(src, '-') != NULL) {
            rc = parse_iso_alternative(&b, src, err);
        } else {
            rc = parse_iso(&b, src, err);
        }
    } else {
        rc = parse_standard(&b, src, err);
    }
    if (rc != BASE_OK) {
        return BASE_ERROR;
    }
    int sign = b.negative ? -1 : 1;
    out->months = (int32_t)(sign * b.months);
    out->days = (int32_t)(sign * b.days);
    out->nanos = sign * b.nanos;
    return BASE_OK;
}


static size_t put_vint(uint8_t *p, int64_t x)
{
    uint64_t v = ((uint64_t)x << 1) ^ (x < 0 ? UINT64_MAX : 0); /* zigzag, no signed shift */
    int magnitude = __builtin_clzll(v | 1);
    size_t size = (size_t)((639 - magnitude * 9) >> 6);
    if (size == 1) {
        p[0] = (uint8_t)v;
        return 1;
    }
    for (size_t i = size; i-- > 0;) {
        p[i] = (uint8_t)v;
        v >>= 8;
    }
    p[0] |= (uint8_t) ~(0xFFu >> (size - 1));
    return size;
}


void cql__duration_encode(const cql_duration_t *d, base_arena_t *a, wire_value_t *out)
{
    uint8_t *p = base_arena_alloc(a, 27);
    size_t n = put_vint(p, d->months);
    n += put_vint(p + n, d->days);
    n += put_vint(p + n, d->nanos);
    out->ptr = p;
    out->len = (int32_t)n;
}


static bool get_vint(const uint8_t *p, size_t len, size_t *pos, int64_t *out)
{
    if (*pos >= len) {
        return false;
    }
    uint8_t first = p[(*pos)++];
    size_t extra = 0;
    while (extra < 8 && (first & (0x80u >> extra))) {
        extra++;
    }
    if (len - *pos < extra) {
        return false;
    }
    uint64_t v = extra == 8 ? 0 : (first & (0xFFu >> extra));
    for (size_t i = 0; i < extra; i++) {
        v = (v << 8) | p[(*pos)++];
    }
    *out = (int64_t)((v >> 1) ^ (~(v & 1) + 1));
    return true;
}


bool cql__duration_decode_raw(const uint8_t *p, size_t len, int64_t *months, int64_t *days,
                              int64_t *nanos)
{
    size_t pos = 0;
    return get_vint(p, len, &pos, months) && get_vint(p, len, &pos, days) &&
           get_vint(p, len, &pos, nanos) && pos == len;
}


bool cql__duration_decode(const uint8_t *p, size_t len, cql_duration_t *out)
{
    int64_t m, d, n;
    if (!cql__duration_decode_raw(p, len, &m, &d, &n) || m < INT32_MIN || m > INT32_MAX ||
        d < INT32_MIN || d > INT32_MAX) {
        return false;
    }
    if (!((m >= 0 && d >= 0 && n >= 0) || (m <= 0 && d <= 0 && n <= 0))) {
        return false;
    }
    out->months = (int32_t)m;
    out->days = (int32_t)d;
    out->nanos = n;
    return true;
}


static uint64_t append(base_buf_t *b, uint64_t dividend, uint64_t divisor, const char *unit)
{
    if (dividend == 0 || dividend < divisor) {
        return dividend;
    }
    base_buf_printf(b, "%llu%s", (unsigned long long)(dividend / divisor), unit);
    return dividend % divisor;
}


static uint64_t uabs(int64_t x)
{
    return x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
}


char *cql__duration_format(const cql_duration_t *d, base_arena_t *a)
{
    base_buf_t b;
    base_buf_init(&b);
    if (d->months < 0 || d->days < 0 || d->nanos < 0) {
        base_buf_put_u8(&b, '-');
    }
    uint64_t rem = append(&b, uabs(d->months), 12, "y");
    append(&b, rem, 1, "mo");
    append(&b, uabs(d->days), 1, "d");
    if (d->nanos != 0) {
        rem = append(&b, uabs(d->nanos), NS_PER_HOUR, "h");
        rem = append(&b, rem, NS_PER_MIN, "m");
        rem = append(&b, rem, NS_PER_SEC, "s");
        rem = append(&b, rem, NS_PER_MS, "ms");
        rem = append(&b, rem, NS_PER_US, "us");
        append(&b, rem, 1, "ns");
    }
    char *s = base_arena_strndup(a, b.len ? (const char *)b.data : "", b.len);
    base_buf_fini(&b);
    return s;
}
