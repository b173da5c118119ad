/*
 * json.c - INSERT JSON: the JSON object is parsed into the same literal
 * terms the parser makes, chosen by each column's type (a JSON string is a
 * uuid for a uuid column, a number for an int column, 0x... for a blob), so
 * values go through the one evaluator and get its validation and messages.
 * Nesting is bounded; the input is untrusted client text.
 */
#include <ctype.h>
#include <errno.h>
#include <strings.h>

#include "cql/value/value_int.h"

#define JSON_MAX_DEPTH 64

typedef struct json_s {
    const char *p;
    const char *end;
    base_arena_t *a;
    base_error_t *err;
    int depth;
    const char *text; /* fromJson(): the whole argument, for the decode error */
} json_t;


/* Sets the Invalid error Cassandra gives for malformed JSON; returns BASE_ERROR. */
static int invalid_json(json_t *j, const char *what)
{
    if (j->text != NULL) {
        return base_error_set(j->err, WIRE_ERR_INVALID, "Could not decode JSON string '%s': %s",
                              j->text, what);
    }
    return base_error_set(j->err, WIRE_ERR_INVALID, "Could not decode JSON string as a map: %s",
                          what);
}


static void skip_ws(json_t *j)
{
    while (j->p < j->end && isspace((unsigned char)*j->p)) {
        j->p++;
    }
}


/* Skips whitespace, then consumes c if it comes next. */
static bool accept_char(json_t *j, char c)
{
    skip_ws(j);
    if (j->p < j->end && *j->p == c) {
        j->p++;
        return true;
    }
    return false;
}


static int put_utf8(base_buf_t *b, uint32_t cp)
{
    if (cp < 0x80) {
        base_buf_put_u8(b, (uint8_t)cp);
    } else if (cp < 0x800) {
        base_buf_put_u8(b, (uint8_t)(0xC0 | (cp >> 6)));
        base_buf_put_u8(b, (uint8_t)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        base_buf_put_u8(b, (uint8_t)(0xE0 | (cp >> 12)));
        base_buf_put_u8(b, (uint8_t)(0x80 | ((cp >> 6) & 0x3F)));
        base_buf_put_u8(b, (uint8_t)(0x80 | (cp & 0x3F)));
    } else {
        base_buf_put_u8(b, (uint8_t)(0xF0 | (cp >> 18)));
        base_buf_put_u8(b, (uint8_t)(0x80 | ((cp >> 12) & 0x3F)));
        base_buf_put_u8(b, (uint8_t)(0x80 | ((cp >> 6) & 0x3F)));
        base_buf_put_u8(b, (uint8_t)(0x80 | (cp & 0x3F)));
    }
    return BASE_OK;
}


static bool hex4(json_t *j, uint32_t *out)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        if (j->p >= j->end || !isxdigit((unsigned char)*j->p)) {
            return false;
        }
        char c = *j->p++;
        v = v * 16 + (uint32_t)(isdigit((unsigned char)c) ? c - '0' : tolower(c) - 'a' + 10);
    }
    *out = v;
    return true;
}


/* A JSON string (the opening quote already seen) as NUL-terminated UTF-8. */
static int string(json_t *j, const char **out)
{
    base_buf_t b;
    base_buf_init(&b);
    int rc = BASE_OK;
    for (;;) {
        if (j->p >= j->end) {
            rc = invalid_json(j, "unterminated string");
            break;
        }
        char c = *j->p++;
        if (c == '"') {
            break;
        }
        if (c != '\\') {
            base_buf_put_u8(&b, (uint8_t)c);
            continue;
        }
        if (j->p >= j->end) {
            rc = invalid_json(j, "unterminated escape");
            break;
        }
        char e = *j->p++;
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char *k = strchr(from, e);
        uint32_t cp;
        if (e != 'u' && k != NULL && e != '\0') {
            base_buf_put_u8(&b, (uint8_t)to[k - from]);
        } else if (e == 'u' && hex4(j, &cp)) {
            uint32_t lo;
            if (cp >= 0xD800 && cp < 0xDC00 && j->end - j->p >= 6 && j->p[0] == '\\' &&
                j->p[1] == 'u' && (j->p += 2, hex4(j, &lo)) && lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            put_utf8(&b, cp);
        } else {
            rc = invalid_json(j, "invalid escape");
            break;
        }
    }
    if (rc == BASE_OK) {
        *out = base_arena_strndup(j->a, b.data ? (const char *)b.data : "", b.len);
    }
    base_buf_fini(&b);
    return rc;
}


static cql_term_t *literal(json_t *j, cql_lit_kind_t kind, const char *text)
{
    cql_term_t *t = base_arena_calloc(j->a, 1, sizeof(*t));
    t->kind = CQL_TERM_LITERAL;
    t->lit = kind;
    t->text = text;
    return t;
}


static bool numeric(uint16_t id)
{
    return id == WIRE_TYPE_INT || id == WIRE_TYPE_BIGINT || id == WIRE_TYPE_SMALLINT ||
           id == WIRE_TYPE_TINYINT || id == WIRE_TYPE_VARINT || id == WIRE_TYPE_COUNTER ||
           id == WIRE_TYPE_FLOAT || id == WIRE_TYPE_DOUBLE || id == WIRE_TYPE_DECIMAL;
}


/* A JSON string becomes the literal kind the column's type reads. */
static cql_term_t *string_term(json_t *j, const char *s, const wire_type_t *type)
{
    uint16_t id = type ? type->id : WIRE_TYPE_VARCHAR;
    if (id == WIRE_TYPE_UUID || id == WIRE_TYPE_TIMEUUID) {
        return literal(j, CQL_LIT_UUID, s);
    }
    if (id == WIRE_TYPE_BLOB && (strncmp(s, "0x", 2) == 0 || strncmp(s, "0X", 2) == 0)) {
        return literal(j, CQL_LIT_HEX, s + 2);
    }
    if (id == WIRE_TYPE_BOOLEAN) {
        return literal(j, CQL_LIT_BOOLEAN, s);
    }
    if (numeric(id)) {
        bool frac = strpbrk(s, ".eE") != NULL || strstr(s, "NaN") || strstr(s, "Infinity");
        return literal(j, frac ? CQL_LIT_FLOAT : CQL_LIT_INTEGER, s);
    }
    if (id == WIRE_TYPE_DURATION) {
        return literal(j, CQL_LIT_DURATION, s);
    }
    return literal(j, CQL_LIT_STRING, s);
}


static int value(json_t *j, const wire_type_t *type, cql_term_t **out);
static bool is_native(const wire_type_t *t);


/* "key": */
static int read_key(json_t *j, const char **key)
{
    if (!accept_char(j, '"')) {
        return invalid_json(j, "expected a quoted key");
    }
    if (string(j, key) != BASE_OK) {
        return BASE_ERROR;
    }
    return accept_char(j, ':') ? BASE_OK : invalid_json(j, "expected ':' after a key");
}


static const wire_type_t *sub_type(const wire_type_t *t, size_t i)
{
    return t != NULL && i < t->n_sub ? t->sub[i] : NULL;
}


static int array(json_t *j, const wire_type_t *type, cql_term_t **out)
{
    cql_term_t *t = base_arena_calloc(j->a, 1, sizeof(*t));
    uint16_t id = type ? type->id : WIRE_TYPE_LIST;
    t->kind = id == WIRE_TYPE_SET     ? CQL_TERM_SET
              : id == WIRE_TYPE_TUPLE ? CQL_TERM_TUPLE
                                      : CQL_TERM_LIST;
    size_t cap = 0;
    if (accept_char(j, ']')) {
        *out = t;
        return BASE_OK;
    }
    do {
        if (t->n_items == cap) {
            cap = cap ? cap * 2 : 8;
            cql_term_t **items = base_arena_alloc(j->a, cap * sizeof(*items));
            if (t->n_items > 0) {
                memcpy(items, t->items, t->n_items * sizeof(*items));
            }
            t->items = items;
        }
        const wire_type_t *et =
            id == WIRE_TYPE_TUPLE ? sub_type(type, t->n_items) : sub_type(type, 0);
        if (value(j, et, &t->items[t->n_items]) != BASE_OK) {
            return BASE_ERROR;
        }
        t->n_items++;
    } while (accept_char(j, ','));
    if (!accept_char(j, ']')) {
        return invalid_json(j, "expected ',' or ']'");
    }
    *out = t;
    return BASE_OK;
}


/* A column or user type field named by a JSON key (Json.handleCaseSensitivity): "\"Name\""
 * keeps its case without the quotes, anything else is lower-cased. */
static const char *json_name(base_arena_t *a, const char *key)
{
    size_t klen = strlen(key);
    if (klen >= 2 && key[0] == '"' && key[klen - 1] == '"') {
        return base_arena_strndup(a, key + 1, klen - 2);
    }
    char *lower = base_arena_strndup(a, key, klen);
    for (char *p = lower; *p; p++) {
        *p = (char)tolower((unsigned char)*p);
    }
    return lower;
}


/* A map key: JSON keys are strings, so a key of a tuple, user type or collection type is
 * the JSON text of its value ({"[0, \"a\"]": true}), as MapType.fromJSONObject decodes it. */
static int map_key(json_t *j, const char *key, const wire_type_t *kt, cql_term_t **out)
{
    if (kt == NULL || is_native(kt)) {
        *out = string_term(j, key, kt);
        return BASE_OK;
    }
    json_t kj = {key, key + strlen(key), j->a, j->err, j->depth, key};
    if (value(&kj, kt, out) != BASE_OK) {
        return BASE_ERROR;
    }
    skip_ws(&kj);
    return kj.p == kj.end ? BASE_OK : invalid_json(&kj, "trailing characters after the value");
}


/* Objects are maps (keys typed by the map's key type) or user types (fields by name). */
static int object(json_t *j, const wire_type_t *type, cql_term_t **out)
{
    bool udt = type != NULL && type->id == WIRE_TYPE_UDT;
    cql_term_t *t = base_arena_calloc(j->a, 1, sizeof(*t));
    t->kind = udt ? CQL_TERM_UDT : CQL_TERM_MAP;
    size_t cap = 0, n_pairs = 0;
    if (accept_char(j, '}')) {
        *out = t;
        return BASE_OK;
    }
    do {
        const char *key;
        if (read_key(j, &key) != BASE_OK) {
            return BASE_ERROR;
        }
        if (2 * n_pairs + 2 > cap) {
            cap = cap ? cap * 2 : 16;
            cql_term_t **items = base_arena_alloc(j->a, cap * sizeof(*items));
            const char **names = base_arena_alloc(j->a, cap * sizeof(*names));
            if (n_pairs > 0) {
                memcpy(items, t->items, t->n_items * sizeof(*items));
                memcpy(names, t->field_names, n_pairs * sizeof(*names));
            }
            t->items = items;
            t->field_names = names;
        }
        const wire_type_t *vt = sub_type(type, 1);
        if (udt) {
            key = json_name(j->a, key);
            vt = NULL;
            for (size_t k = 0; k < type->n_sub; k++) {
                if (strcmp(type->field_names[k], key) == 0) {
                    vt = type->sub[k];
                }
            }
            t->field_names[n_pairs] = key;
            if (value(j, vt, &t->items[t->n_items++]) != BASE_OK) {
                return BASE_ERROR;
            }
        } else {
            if (map_key(j, key, sub_type(type, 0), &t->items[t->n_items++]) != BASE_OK) {
                return BASE_ERROR;
            }
            if (value(j, vt, &t->items[t->n_items++]) != BASE_OK) {
                return BASE_ERROR;
            }
        }
        n_pairs++;
    } while (accept_char(j, ','));
    if (!accept_char(j, '}')) {
        return invalid_json(j, "expected ',' or '}'");
    }
    *out = t;
    return BASE_OK;
}


static int number(json_t *j, cql_term_t **out)
{
    const char *start = j->p;
    bool frac = false;
    while (j->p < j->end && (isdigit((unsigned char)*j->p) || strchr("+-.eE", *j->p))) {
        frac |= *j->p == '.' || *j->p == 'e' || *j->p == 'E';
        j->p++;
    }
    if (j->p == start) {
        return invalid_json(j, "unexpected character");
    }
    *out = literal(j, frac ? CQL_LIT_FLOAT : CQL_LIT_INTEGER,
                   base_arena_strndup(j->a, start, (size_t)(j->p - start)));
    return BASE_OK;
}


static bool word(json_t *j, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(j->end - j->p) >= n && memcmp(j->p, w, n) == 0) {
        j->p += n;
        return true;
    }
    return false;
}


/* The Java class Jackson gives a JSON value, as Cassandra's messages name it. */
static const char *java_class(char first, const char *num)
{
    if (first == '"') {
        return "String";
    }
    if (first == '[') {
        return "ArrayList";
    }
    if (first == '{') {
        return "LinkedHashMap";
    }
    if (first == 't' || first == 'f') {
        return "Boolean";
    }
    if (strpbrk(num, ".eE") != NULL) {
        return "Double";
    }
    errno = 0;
    char *end;
    long long v = strtoll(num, &end, 10);
    if (errno == ERANGE) {
        return "BigInteger";
    }
    return v >= INT32_MIN && v <= INT32_MAX ? "Integer" : "Long";
}


static bool all_digits(const char *s)
{
    s += *s == '-' || *s == '+';
    return *s != '\0' && strspn(s, "0123456789") == strlen(s);
}


/* The kind of one JSON value, as check_native weighs it. */
typedef struct jkind_s {
    const char *cls; /* Jackson's Java class */
    bool str, num, whole;
    char first;
    const char *text; /* string contents or number text */
} jkind_t;


/* Integer types: a whole number that fits, or a string of digits. */
static int check_integer(const wire_type_t *type, const jkind_t *k, base_error_t *err)
{
    uint16_t id = type->id;
    if (id == WIRE_TYPE_VARINT) {
        if (k->str) {
            return all_digits(k->text) ? BASE_OK
                                       : base_error_set(err, WIRE_ERR_INVALID,
                                                        "Unable to make java.math.BigInteger "
                                                        "from '%s'",
                                                        k->text);
        }
        return k->num && strcmp(k->cls, "Double") != 0
                   ? BASE_OK
                   : base_error_set(err, WIRE_ERR_INVALID,
                                    "Expected an integer value, but got a %s", k->cls);
    }
    bool is_int = id == WIRE_TYPE_INT;
    bool is_long = id == WIRE_TYPE_BIGINT || id == WIRE_TYPE_COUNTER;
    const char *java = is_long                    ? "long"
                       : is_int                   ? "int"
                       : id == WIRE_TYPE_SMALLINT ? "short"
                                                  : "byte";
    const char *cql = is_long                    ? "a bigint"
                      : is_int                   ? "an int"
                      : id == WIRE_TYPE_SMALLINT ? "a smallint"
                                                 : "a tinyint";
    if (k->str) {
        return all_digits(k->text) ? BASE_OK
                                   : base_error_set(err, WIRE_ERR_INVALID,
                                                    "Unable to make %s from '%s'", java, k->text);
    }
    bool fits = is_long ? k->whole : strcmp(k->cls, "Integer") == 0;
    return fits ? BASE_OK
                : base_error_set(err, WIRE_ERR_INVALID, "Expected %s value, but got a %s", cql,
                                 k->cls);
}


/* float, double, decimal: a number, or a string that parses as one. */
static int check_decimal(const wire_type_t *type, const jkind_t *k, base_error_t *err)
{
    char *end;
    bool parses = false;
    if (k->str || k->num) {
        (void)strtod(k->text, &end); /* only where the parse ends matters */
        parses = *k->text != '\0' && *end == '\0';
    }
    if (type->id == WIRE_TYPE_DECIMAL) {
        return parses ? BASE_OK
                      : base_error_set(err, WIRE_ERR_INVALID,
                                       "Value '%s' is not a valid representation of a decimal "
                                       "value",
                                       k->first == 't'   ? "true"
                                       : k->first == 'f' ? "false"
                                                         : k->text);
    }
    const char *name = type->id == WIRE_TYPE_FLOAT ? "float" : "double";
    if (k->str) {
        parses |= strcmp(k->text, "NaN") == 0 || strcmp(k->text, "Infinity") == 0 ||
                  strcmp(k->text, "-Infinity") == 0;
        return parses ? BASE_OK
                      : base_error_set(err, WIRE_ERR_INVALID, "Unable to make %s from '%s'", name,
                                       k->text);
    }
    return k->num ? BASE_OK
                  : base_error_set(err, WIRE_ERR_INVALID, "Expected a %s value, but got a %s", name,
                                   k->cls);
}


/* boolean and blob: their own literal forms. */
static int check_bool_blob(json_t *j, const wire_type_t *type, const jkind_t *k)
{
    base_error_t *err = j->err;
    if (type->id == WIRE_TYPE_BOOLEAN) {
        if (k->str) {
            return strcasecmp(k->text, "true") == 0 || strcasecmp(k->text, "false") == 0
                       ? BASE_OK
                       : base_error_set(err, WIRE_ERR_INVALID, "Unable to make boolean from '%s'",
                                        k->text);
        }
        return k->first == 't' || k->first == 'f'
                   ? BASE_OK
                   : base_error_set(err, WIRE_ERR_INVALID, "Expected a boolean value, but got a %s",
                                    k->cls);
    }
    const char *why = NULL, *hex = k->text + 2;
    if (!k->str) {
        why = "the value is not a string";
    } else if (strncmp(k->text, "0x", 2) != 0) {
        why = base_arena_sprintf(j->a, "String representation of blob is missing 0x prefix: %s",
                                 k->text);
    } else if (strlen(hex) % 2 != 0 || strspn(hex, "0123456789abcdefABCDEF") != strlen(hex)) {
        why = "cannot parse the hex digits";
    }
    return why == NULL
               ? BASE_OK
               : base_error_set(err, WIRE_ERR_INVALID,
                                "Value '%s' is not a valid blob representation: %s", k->text, why);
}


/* The types that read only a JSON string (timestamps also take a whole number). */
static int check_stringly(const wire_type_t *type, const jkind_t *k, base_error_t *err)
{
    const char *what;
    switch (type->id) {
    case WIRE_TYPE_ASCII:
        what = "an ascii string";
        break;
    case WIRE_TYPE_VARCHAR:
        what = "a UTF-8 string";
        break;
    case WIRE_TYPE_DATE:
        what = "a string representation of a date value";
        break;
    case WIRE_TYPE_TIME:
        what = "a string representation of a time value";
        break;
    case WIRE_TYPE_TIMESTAMP:
        if (k->whole) {
            return BASE_OK;
        }
        what = "a long or a datestring representation of a timestamp value";
        break;
    case WIRE_TYPE_UUID:
        what = "a string representation of a uuid";
        break;
    case WIRE_TYPE_TIMEUUID:
        what = "a string representation of a timeuuid";
        break;
    case WIRE_TYPE_INET:
        what = "a string representation of an inet value";
        break;
    case WIRE_TYPE_DURATION:
        what = "a string representation of a duration";
        break;
    default:
        return BASE_OK;
    }
    return k->str
               ? BASE_OK
               : base_error_set(err, WIRE_ERR_INVALID, "Expected %s, but got a %s", what, k->cls);
}


/* What Cassandra's <Type>.fromJSONObject accepts for a native type, with its messages:
 * first is the JSON value's first character, text its string contents or number text.
 * Values of the right kind are parsed later by the evaluator, which shares the CQL
 * literal messages ("Unable to make inet address from 'x'"). */
static int check_native(json_t *j, const wire_type_t *type, char first, const char *text)
{
    jkind_t k = {java_class(first, text), first == '"', false, false, first, text};
    k.whole = strcmp(k.cls, "Integer") == 0 || strcmp(k.cls, "Long") == 0;
    k.num = k.whole || strcmp(k.cls, "BigInteger") == 0 || strcmp(k.cls, "Double") == 0;
    switch (type->id) {
    case WIRE_TYPE_BIGINT:
    case WIRE_TYPE_COUNTER:
    case WIRE_TYPE_INT:
    case WIRE_TYPE_SMALLINT:
    case WIRE_TYPE_TINYINT:
    case WIRE_TYPE_VARINT:
        return check_integer(type, &k, j->err);
    case WIRE_TYPE_FLOAT:
    case WIRE_TYPE_DOUBLE:
    case WIRE_TYPE_DECIMAL:
        return check_decimal(type, &k, j->err);
    case WIRE_TYPE_BOOLEAN:
    case WIRE_TYPE_BLOB:
        return check_bool_blob(j, type, &k);
    default:
        return check_stringly(type, &k, j->err);
    }
}


static bool is_native(const wire_type_t *t)
{
    return t != NULL && t->n_sub == 0 && t->id != WIRE_TYPE_UDT && t->id != WIRE_TYPE_TUPLE &&
           t->id != WIRE_TYPE_LIST && t->id != WIRE_TYPE_SET && t->id != WIRE_TYPE_MAP &&
           t->id != WIRE_TYPE_CUSTOM;
}


static int value(json_t *j, const wire_type_t *type, cql_term_t **out)
{
    skip_ws(j);
    if (j->p >= j->end) {
        return invalid_json(j, "unexpected end of input");
    }
    if (++j->depth > JSON_MAX_DEPTH) {
        return invalid_json(j, "nested too deeply");
    }
    int rc = BASE_OK;
    const char *s;
    char first = *j->p;
    bool native =
        is_native(type) && !(first == 'n' && j->end - j->p >= 4 && memcmp(j->p, "null", 4) == 0);
    if (native && (first == '[' || first == '{')) {
        rc = check_native(j, type, first, first == '[' ? "[...]" : "{...}");
    } else if (*j->p == '"') {
        j->p++;
        rc = string(j, &s);
        if (rc == BASE_OK && native) {
            rc = check_native(j, type, first, s);
        }
        if (rc == BASE_OK) {
            *out = string_term(j, s, type);
        }
    } else if (*j->p == '[') {
        j->p++;
        rc = array(j, type, out);
    } else if (*j->p == '{') {
        j->p++;
        rc = object(j, type, out);
    } else if (word(j, "true") || word(j, "false")) {
        rc = native ? check_native(j, type, first, first == 't' ? "true" : "false") : BASE_OK;
        *out = literal(j, CQL_LIT_BOOLEAN, first == 't' ? "true" : "false");
    } else if (word(j, "null")) {
        *out = literal(j, CQL_LIT_NULL, "null");
    } else {
        rc = number(j, out);
        if (rc == BASE_OK && native) {
            rc = check_native(j, type, first, (*out)->text);
        }
    }
    j->depth--;
    return rc;
}


static ssize_t column_index(const cql_json_columns_t *cols, const char *name)
{
    for (size_t i = 0; i < cols->n; i++) {
        if (strcmp(cols->names[i], name) == 0) {
            return (ssize_t)i;
        }
    }
    return -1;
}


int cql__json_row(const char *text, size_t len, const cql_json_columns_t *cols, base_arena_t *a,
                  cql_json_row_t *row, base_error_t *err)
{
    json_t j = {text, text + len, a, err, 0, NULL};
    memset(row, 0, sizeof(*row));
    row->terms = base_arena_calloc(a, cols->n + 1, sizeof(*row->terms));
    if (!accept_char(&j, '{')) {
        return invalid_json(&j, "expected a JSON object");
    }
    if (accept_char(&j, '}')) {
        return BASE_OK;
    }
    do {
        const char *key;
        if (read_key(&j, &key) != BASE_OK) {
            return BASE_ERROR;
        }
        const char *name = json_name(a, key);
        ssize_t col = column_index(cols, name);
        if (col < 0) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "JSON values map contains unrecognized column: %s", key);
        }
        cql_term_t *term;
        if (value(&j, cols->types[col], &term) != BASE_OK) {
            return BASE_ERROR;
        }
        row->terms[col] = term;
    } while (accept_char(&j, ','));
    if (!accept_char(&j, '}')) {
        return invalid_json(&j, "expected ',' or '}'");
    }
    skip_ws(&j);
    if (j.p != j.end) {
        return invalid_json(&j, "trailing characters after the object");
    }
    return BASE_OK;
}


int cql__json_value(const char *text, size_t len, const wire_type_t *type, base_arena_t *a,
                    const cql_term_t **out, base_error_t *err)
{
    json_t j = {text, text + len, a, err, 0, base_arena_strndup(a, text, len)};
    cql_term_t *term;
    if (value(&j, type, &term) != BASE_OK) {
        return BASE_ERROR;
    }
    skip_ws(&j);
    if (j.p != j.end) {
        return invalid_json(&j, "trailing characters after the value");
    }
    *out = term;
    return BASE_OK;
}
