/*
 * temporal.c - timestamp, date and time text forms (cql layer).
 *
 * Parsing follows Cassandra 3.11: timestamps accept the union of
 * TimestampSerializer's SimpleDateFormat patterns (date, optional ' ' or
 * 'T' time with optional seconds and milliseconds, optional zone as Z,
 * +hh, +hhmm, +hh:mm or a ' '-separated UTC/GMT[+hh:mm]); a zone-less
 * value is UTC. Fields are checked strictly, and milliseconds are read as
 * SimpleDateFormat does (".5" is 5 ms; more than 999 is rejected).
 * Dates are ISO yyyy-mm-dd, times hh:mm:ss[.fffffffff]. The calendar is
 * proleptic Gregorian throughout (Java would switch to Julian before
 * 1582-10-15 for timestamps; nobody stores those).
 */
#include <ctype.h>

#include "cql/value/value_int.h"

int64_t cql__days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned mp = m > 2 ? m - 3 : m + 9;
    unsigned doy = (153 * mp + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}


void cql__civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t yy = (int64_t)yoe + era * 400;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = yy + (*m <= 2);
}


static unsigned days_in_month(int64_t y, unsigned m)
{
    static const unsigned dim[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : dim[m - 1];
}


/* Reads between min and max digits; false if fewer than min are there. */
static bool digits(const char **s, int min, int max, int64_t *out)
{
    int64_t v = 0;
    int n = 0;
    while (n < max && isdigit((unsigned char)**s)) {
        v = v * 10 + (**s - '0');
        (*s)++;
        n++;
    }
    *out = v;
    return n >= min && !(n == max && isdigit((unsigned char)**s));
}


/* Exactly n digits, whatever follows. */
static bool fixed_digits(const char **s, int n, int64_t *out)
{
    int64_t v = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)(*s)[i])) {
            return false;
        }
        v = v * 10 + ((*s)[i] - '0');
    }
    *s += n;
    *out = v;
    return true;
}


/* [+-]h, [+-]hh, [+-]hhmm or [+-]hh:mm as minutes east of UTC. */
static bool offset(const char **s, int64_t *minutes)
{
    int sign = **s == '-' ? -1 : 1;
    if (**s != '+' && **s != '-') {
        return false;
    }
    (*s)++;
    int64_t h, m = 0;
    bool two = isdigit((unsigned char)(*s)[0]) && isdigit((unsigned char)(*s)[1]);
    if (!fixed_digits(s, two ? 2 : 1, &h)) {
        return false;
    }
    if (**s == ':' || (two && isdigit((unsigned char)**s))) {
        *s += **s == ':';
        if (!fixed_digits(s, 2, &m)) {
            return false;
        }
    }
    if (h > 23 || m > 59) {
        return false;
    }
    *minutes = sign * (h * 60 + m);
    return true;
}


static bool zone(const char **s, int64_t *minutes)
{
    *minutes = 0;
    if (**s == 'Z') {
        (*s)++;
        return true;
    }
    if (**s == '+' || **s == '-') {
        return offset(s, minutes);
    }
    if (**s != ' ') {
        return false;
    }
    (*s)++;
    static const char *const names[] = {"UTC", "GMT", "UT", "Z"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        size_t n = strlen(names[i]);
        if (strncmp(*s, names[i], n) == 0) {
            *s += n;
            return **s == '\0' || offset(s, minutes);
        }
    }
    return offset(s, minutes);
}


bool cql__timestamp_parse(const char *s, int64_t *ms)
{
    int64_t y, mo, d, h = 0, mi = 0, sec = 0, milli = 0, tz = 0;
    if (!digits(&s, 1, 6, &y) || *s++ != '-' || !digits(&s, 1, 2, &mo) || *s++ != '-' ||
        !digits(&s, 1, 2, &d)) {
        return false;
    }
    if ((*s == ' ' || *s == 'T') && isdigit((unsigned char)s[1])) {
        s++;
        if (!digits(&s, 1, 2, &h) || *s++ != ':' || !digits(&s, 1, 2, &mi)) {
            return false;
        }
        if (*s == ':') {
            s++;
            if (!digits(&s, 1, 2, &sec)) {
                return false;
            }
            if (*s == '.') {
                s++;
                if (!digits(&s, 1, 9, &milli) || milli > 999) {
                    return false;
                }
            }
        }
    }
    if (*s != '\0' && !zone(&s, &tz)) {
        return false;
    }
    if (*s != '\0' || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, (unsigned)mo) || h > 23 ||
        mi > 59 || sec > 59) {
        return false;
    }
    int64_t days = cql__days_from_civil(y, (unsigned)mo, (unsigned)d);
    *ms = days * CQL_MS_PER_DAY + ((h * 60 + mi - tz) * 60 + sec) * 1000 + milli;
    return true;
}


bool cql__date_parse(const char *s, uint32_t *days)
{
    int sign = 1;
    bool signed_year = *s == '+' || *s == '-';
    if (signed_year) {
        sign = *s == '-' ? -1 : 1;
        s++;
    }
    int64_t y, mo, d;
    const char *start = s;
    /* ISO: a year of more than four digits must carry its sign. */
    if (!digits(&s, 4, 10, &y) || (s - start > 4 && !signed_year) || *s++ != '-' ||
        !digits(&s, 2, 2, &mo) || *s++ != '-' || !digits(&s, 2, 2, &d) || *s != '\0') {
        return false;
    }
    y *= sign;
    if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, (unsigned)mo)) {
        return false;
    }
    int64_t z = cql__days_from_civil(y, (unsigned)mo, (unsigned)d);
    if (z < INT32_MIN || z > INT32_MAX) {
        return false;
    }
    *days = (uint32_t)(z + CQL_DATE_EPOCH_DAY);
    return true;
}


/* Integer.parseInt: optional sign, digits, within int range. */
static bool java_int(const char *s, size_t n, int64_t *out)
{
    size_t i = 0;
    int sign = 1;
    if (n > 0 && (s[0] == '+' || s[0] == '-')) {
        sign = s[0] == '-' ? -1 : 1;
        i++;
    }
    if (i == n) {
        return false;
    }
    int64_t v = 0;
    for (; i < n; i++) {
        if (!isdigit((unsigned char)s[i]) || v > INT32_MAX) {
            return false;
        }
        v = v * 10 + (s[i] - '0');
    }
    *out = sign * v;
    return *out >= INT32_MIN && *out <= INT32_MAX;
}


bool cql__time_parse(const char *s, int64_t *ns)
{
    /* TimeSerializer.parseTimeStrictly, on the trimmed string. */
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
        s++;
    }
    size_t len = strlen(s);
    while (len > 0 &&
           (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\n' || s[len - 1] == '\r')) {
        len--;
    }
    const char *c1 = memchr(s, ':', len);
    const char *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - s)) : NULL;
    if (c1 == NULL || c1 == s || c2 == NULL || c2 >= s + len - 1) {
        return false;
    }
    int64_t h, m, sec, nanos = 0;
    if (!java_int(s, (size_t)(c1 - s), &h) || h < 0 || h >= 24 ||
        !java_int(c1 + 1, (size_t)(c2 - c1 - 1), &m) || m < 0 || m >= 60) {
        return false;
    }
    const char *end = s + len;
    const char *dot = memchr(c2 + 1, '.', (size_t)(end - c2 - 1));
    if (dot != NULL) {
        size_t nf = (size_t)(end - dot - 1);
        if (nf == 0 || nf > 9 || !isdigit((unsigned char)dot[1])) {
            return false;
        }
        char frac[10] = "000000000";
        memcpy(frac, dot + 1, nf);
        if (!java_int(c2 + 1, (size_t)(dot - c2 - 1), &sec) || !java_int(frac, 9, &nanos)) {
            return false;
        }
    } else if (!java_int(c2 + 1, (size_t)(end - c2 - 1), &sec)) {
        return false;
    }
    if (sec < 0 || sec >= 60 || nanos < 0) {
        return false;
    }
    *ns = ((h * 60 + m) * 60 + sec) * 1000000000LL + nanos;
    return true;
}


static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}


char *cql__timestamp_format(int64_t ms, bool json, base_arena_t *a)
{
    int64_t days = floor_div(ms, CQL_MS_PER_DAY);
    int64_t rem = ms - days * CQL_MS_PER_DAY;
    int64_t y;
    unsigned mo, d;
    cql__civil_from_days(days, &y, &mo, &d);
    int h = (int)(rem / 3600000), mi = (int)(rem / 60000 % 60), s = (int)(rem / 1000 % 60);
    int milli = (int)(rem % 1000);
    if (json) {
        return base_arena_sprintf(a, "%04lld-%02u-%02u %02d:%02d:%02d.%03dZ", (long long)y, mo, d,
                                  h, mi, s, milli);
    }
    return base_arena_sprintf(a, "%04lld-%02u-%02u %02d:%02d:%02d.%06d+0000", (long long)y, mo, d,
                              h, mi, s, milli * 1000);
}


char *cql__date_format(uint32_t days, base_arena_t *a)
{
    int64_t y;
    unsigned mo, d;
    cql__civil_from_days((int64_t)days - CQL_DATE_EPOCH_DAY, &y, &mo, &d);
    if (y > 9999) {
        return base_arena_sprintf(a, "+%lld-%02u-%02u", (long long)y, mo, d);
    }
    if (y < 0) {
        return base_arena_sprintf(a, "-%04lld-%02u-%02u", (long long)-y, mo, d);
    }
    return base_arena_sprintf(a, "%04lld-%02u-%02u", (long long)y, mo, d);
}


char *cql__time_format(int64_t ns, base_arena_t *a)
{
    if (ns < 0 || ns >= CQL_NS_PER_DAY) {
        return base_arena_sprintf(a, "%lld", (long long)ns);
    }
    int64_t s = ns / 1000000000LL;
    return base_arena_sprintf(a, "%02d:%02d:%02d.%09lld", (int)(s / 3600), (int)(s / 60 % 60),
                              (int)(s % 60), (long long)(ns % 1000000000LL));
}
