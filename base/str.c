/*
 * str.c - borrowed string slices. A base_str_t never owns its bytes.
 */
#include <ctype.h>

#include "base/base.h"


base_str_t base_str_from(const char *cstr)
{
    base_str_t s = {cstr, cstr ? strlen(cstr) : 0};
    return s;
}


bool base_str_eq(base_str_t a, base_str_t b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}


bool base_str_eq_ci(base_str_t a, base_str_t b)
{
    if (a.len != b.len) {
        return false;
    }
    for (size_t i = 0; i < a.len; i++) {
        if (tolower((unsigned char)a.ptr[i]) != tolower((unsigned char)b.ptr[i])) {
            return false;
        }
    }
    return true;
}


bool base_str_eq_cstr_ci(base_str_t a, const char *b)
{
    return base_str_eq_ci(a, base_str_from(b));
}
