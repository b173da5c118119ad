/*
 * functions.c - Cassandra's native scalar functions in terms (cql
 * layer): now(), uuid(), currentTimestamp/Date/Time/TimeUUID(),
 * min/maxTimeuuid, toDate, toTimestamp, toUnixTimestamp, dateOf,
 * unixTimestampOf and the <type>AsBlob / blobAs<type> conversions.
 *
 * Overload resolution follows FunctionResolver: a single candidate is
 * checked argument by argument ("Type error: ... cannot be passed as
 * argument 0 of function system.totimestamp of type timeuuid"); several are
 * matched, an exact match wins, one weak match is taken, more are
 * ambiguous. The result must be value-compatible with the receiver.
 * fromJson(text) reads its JSON argument as the receiver's type (json.c);
 * token() and toJson() are not term functions here: the executor handles
 * token relations and the selection clause.
 */
#include "cql/value/value_int.h"

typedef enum {
    FN_NOW,
    FN_UUID,
    FN_CURRENT_TIMESTAMP,
    FN_CURRENT_DATE,
    FN_CURRENT_TIME,
    FN_MIN_TIMEUUID,
    FN_MAX_TIMEUUID,
    FN_TO_TIMESTAMP,
    FN_TO_DATE,
    FN_TO_UNIX,
    FN_TO_BLOB,
    FN_FROM_BLOB,
} fn_kind_t;

typedef struct fn_s {
    const char *name; /* lower-case, as the parser gives it */
    fn_kind_t kind;
    size_t n_args; /* 0 or 1 */
    uint16_t arg;  /* argument type id */
    uint16_t ret;  /* return type id */
} fn_t;

static const fn_t catalog[] = {
    {"now", FN_NOW, 0, 0, WIRE_TYPE_TIMEUUID},
    {"currenttimeuuid", FN_NOW, 0, 0, WIRE_TYPE_TIMEUUID},
    {"uuid", FN_UUID, 0, 0, WIRE_TYPE_UUID},
    {"currenttimestamp", FN_CURRENT_TIMESTAMP, 0, 0, WIRE_TYPE_TIMESTAMP},
    {"currentdate", FN_CURRENT_DATE, 0, 0, WIRE_TYPE_DATE},
    {"currenttime", FN_CURRENT_TIME, 0, 0, WIRE_TYPE_TIME},
    {"mintimeuuid", FN_MIN_TIMEUUID, 1, WIRE_TYPE_TIMESTAMP, WIRE_TYPE_TIMEUUID},
    {"maxtimeuuid", FN_MAX_TIMEUUID, 1, WIRE_TYPE_TIMESTAMP, WIRE_TYPE_TIMEUUID},
    {"dateof", FN_TO_TIMESTAMP, 1, WIRE_TYPE_TIMEUUID, WIRE_TYPE_TIMESTAMP},
    {"unixtimestampof", FN_TO_UNIX, 1, WIRE_TYPE_TIMEUUID, WIRE_TYPE_BIGINT},
    {"todate", FN_TO_DATE, 1, WIRE_TYPE_TIMEUUID, WIRE_TYPE_DATE},
    {"todate", FN_TO_DATE, 1, WIRE_TYPE_TIMESTAMP, WIRE_TYPE_DATE},
    {"totimestamp", FN_TO_TIMESTAMP, 1, WIRE_TYPE_TIMEUUID, WIRE_TYPE_TIMESTAMP},
    {"totimestamp", FN_TO_TIMESTAMP, 1, WIRE_TYPE_DATE, WIRE_TYPE_TIMESTAMP},
    {"tounixtimestamp", FN_TO_UNIX, 1, WIRE_TYPE_TIMEUUID, WIRE_TYPE_BIGINT},
    {"tounixtimestamp", FN_TO_UNIX, 1, WIRE_TYPE_TIMESTAMP, WIRE_TYPE_BIGINT},
    {"tounixtimestamp", FN_TO_UNIX, 1, WIRE_TYPE_DATE, WIRE_TYPE_BIGINT},
};

#define MAX_CANDIDATES 4


static const wire_type_t *native(uint16_t id)
{
    return cql__type_native_id(id);
}


/* <type>asblob and blobas<type> for every native type but blob. */
static bool conversion(const char *name, fn_t *out)
{
    size_t n = strlen(name);
    char type[32];
    if (n > 6 && n - 6 < sizeof(type) && strcmp(name + n - 6, "asblob") == 0) {
        memcpy(type, name, n - 6);
        type[n - 6] = '\0';
        const wire_type_t *t = cql__type_native(type);
        if (t != NULL && t->id != WIRE_TYPE_BLOB) {
            *out = (fn_t){name, FN_TO_BLOB, 1, t->id, WIRE_TYPE_BLOB};
            return true;
        }
    }
    if (n > 6 && strncmp(name, "blobas", 6) == 0) {
        const wire_type_t *t = cql__type_native(name + 6);
        if (t != NULL && t->id != WIRE_TYPE_BLOB) {
            *out = (fn_t){name, FN_FROM_BLOB, 1, WIRE_TYPE_BLOB, t->id};
            return true;
        }
    }
    return false;
}


static const char *signature(const fn_t *f, base_arena_t *a)
{
    if (f->n_args == 0) {
        return base_arena_sprintf(a, "system.%s : () -> %s", f->name,
                                  cql__type_name(native(f->ret), a));
    }
    return base_arena_sprintf(a, "system.%s : (%s) -> %s", f->name,
                              cql__type_name(native(f->arg), a), cql__type_name(native(f->ret), a));
}


static const char *signatures(const fn_t *fs, size_t n, base_arena_t *a)
{
    const char *s = "";
    for (size_t i = 0; i < n; i++) {
        s = base_arena_sprintf(a, "%s%s%s", s, i ? ", " : "", signature(&fs[i], a));
    }
    return s;
}


static cql_fit_t match_args(const fn_t *f, const cql_term_t *term)
{
    if (term->n_items != f->n_args) {
        return CQL_FIT_NOT;
    }
    cql_fit_t fit = CQL_FIT_EXACT;
    for (size_t i = 0; i < term->n_items; i++) {
        cql_fit_t r = term->items[i]->kind == CQL_TERM_BIND
                          ? CQL_FIT_WEAK
                          : cql__term_fit(term->items[i], native(f->arg));
        if (r == CQL_FIT_NOT) {
            return CQL_FIT_NOT;
        }
        fit = r < fit ? r : fit;
    }
    return fit;
}


/* FunctionResolver.get, for the native functions above. */
static int resolve(const cql_term_t *term, const wire_type_t *receiver, base_arena_t *a, fn_t *out,
                   base_error_t *err)
{
    const char *name = term->text != NULL ? term->text : "";
    const char *shown =
        term->keyspace != NULL ? base_arena_sprintf(a, "%s.%s", term->keyspace, name) : name;
    if (term->keyspace != NULL && strcmp(term->keyspace, "system") != 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Unknown function %s called", shown);
    }
    if (strcmp(name, "tojson") == 0) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "toJson() may only be used within the selection clause of SELECT "
                              "statements");
    }
    if (strcmp(name, "token") == 0 || strcmp(name, "fromjson") == 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "%s() is not supported in this context", name);
    }
    fn_t cand[MAX_CANDIDATES];
    size_t n = 0;
    for (size_t i = 0; i < sizeof(catalog) / sizeof(catalog[0]) && n < MAX_CANDIDATES; i++) {
        if (strcmp(catalog[i].name, name) == 0) {
            cand[n++] = catalog[i];
        }
    }
    if (n == 0 && conversion(name, &cand[0])) {
        n = 1;
    }
    if (n == 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Unknown function %s called", shown);
    }
    if (n == 1) {
        const fn_t *f = &cand[0];
        if (term->n_items != f->n_args) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Invalid number of arguments in call to function system.%s: %zu "
                                  "required but %zu provided",
                                  f->name, f->n_args, term->n_items);
        }
        for (size_t i = 0; i < term->n_items; i++) {
            if (term->items[i]->kind != CQL_TERM_BIND &&
                cql__term_fit(term->items[i], native(f->arg)) == CQL_FIT_NOT) {
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "Type error: %s cannot be passed as argument %zu of function "
                                      "system.%s of type %s",
                                      cql__term_text(term->items[i], a), i, f->name,
                                      cql__type_name(native(f->arg), a));
            }
        }
        *out = *f;
        return BASE_OK;
    }
    fn_t compat[MAX_CANDIDATES];
    size_t n_compat = 0;
    for (size_t i = 0; i < n; i++) {
        if (receiver != NULL && !cql__type_value_compatible(receiver, native(cand[i].ret))) {
            continue;
        }
        cql_fit_t fit = match_args(&cand[i], term);
        if (fit == CQL_FIT_EXACT) {
            *out = cand[i];
            return BASE_OK;
        }
        if (fit == CQL_FIT_WEAK) {
            compat[n_compat++] = cand[i];
        }
    }
    if (n_compat == 0) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid call to function %s, none of its type signatures match "
                              "(known type signatures: %s)",
                              shown, signatures(cand, n, a));
    }
    if (n_compat > 1) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Ambiguous call to function %s (can be matched by following "
                              "signatures: %s): use type casts to disambiguate",
                              shown, signatures(compat, n_compat, a));
    }
    *out = compat[0];
    return BASE_OK;
}


const wire_type_t *cql__function_return_type(const cql_term_t *term)
{
    base_arena_t tmp;
    base_arena_init(&tmp, 1024);
    fn_t f;
    const wire_type_t *r = resolve(term, NULL, &tmp, &f, NULL) == BASE_OK ? native(f.ret) : NULL;
    base_arena_fini(&tmp);
    return r;
}


static bool is_from_json(const cql_term_t *term)
{
    return term->text != NULL && strcmp(term->text, "fromjson") == 0 &&
           (term->keyspace == NULL || strcmp(term->keyspace, "system") == 0);
}


const wire_type_t *cql__function_arg_type(const cql_term_t *fn, size_t i)
{
    const char *name = fn->text != NULL ? fn->text : "";
    if (fn->keyspace != NULL && strcmp(fn->keyspace, "system") != 0) {
        return NULL;
    }
    if (is_from_json(fn)) {
        return i == 0 ? cql__native_text() : NULL;
    }
    fn_t conv;
    if (conversion(name, &conv)) {
        return i < conv.n_args ? native(conv.arg) : NULL;
    }
    const wire_type_t *t = NULL;
    for (size_t k = 0; k < sizeof(catalog) / sizeof(catalog[0]); k++) {
        if (strcmp(catalog[k].name, name) != 0 || catalog[k].n_args != fn->n_items ||
            i >= catalog[k].n_args) {
            continue;
        }
        if (t != NULL && t != native(catalog[k].arg)) {
            return NULL; /* overloads disagree: Cassandra asks for a cast */
        }
        t = native(catalog[k].arg);
    }
    return t;
}


int64_t cql__time_value_ms(uint16_t id, wire_value_t v)
{
    /* callers hand a non-null value that validated as this type */
    BASE_ASSERT(v.len == (id == WIRE_TYPE_TIMEUUID ? 16 : id == WIRE_TYPE_DATE ? 4 : 8));
    switch (id) {
    case WIRE_TYPE_TIMEUUID:
        return cql__timeuuid_ms(v.ptr);
    case WIRE_TYPE_DATE:
        return ((int64_t)base_load_u32(v.ptr) - CQL_DATE_EPOCH_DAY) * CQL_MS_PER_DAY;
    default:
        return (int64_t)base_load_u64(v.ptr);
    }
}


static int from_blob(const fn_t *f, wire_value_t v, base_arena_t *a, wire_value_t *out,
                     base_error_t *err)
{
    base_error_t ignored;
    BASE_ASSERT(v.len >= 0); /* cql__function_eval refused a null argument */
    if (cql__value_validate(native(f->ret), v, &ignored) != BASE_OK) {
        size_t n = v.len > 64 ? 64 : (size_t)v.len;
        char hex[2 * 64 + 4];
        for (size_t i = 0; i < n; i++) {
            snprintf(hex + 2 * i, 3, "%02x", v.ptr[i]);
        }
        hex[2 * n] = '\0';
        return base_error_set(err, WIRE_ERR_INVALID,
                              "In call to function %s, value 0x%s%s is not a valid binary "
                              "representation for type %s",
                              f->name, hex, (size_t)v.len > n ? "..." : "",
                              cql__type_name(native(f->ret), a));
    }
    *out = v;
    return BASE_OK;
}


static int execute(const fn_t *f, wire_value_t arg, base_arena_t *a, wire_value_t *out,
                   base_error_t *err)
{
    uint8_t u[16];
    int64_t now_us = base_now_us();
    bool empty = f->n_args == 1 && arg.len == 0;
    if (empty && f->kind != FN_TO_BLOB && f->kind != FN_FROM_BLOB) {
        *out = (wire_value_t){NULL, WIRE_VALUE_NULL};
        return BASE_OK;
    }
    switch (f->kind) {
    case FN_NOW:
        cql__timeuuid_now(u);
        *out = (wire_value_t){base_arena_memdup(a, u, 16), 16};
        return BASE_OK;
    case FN_UUID:
        cql__uuid_random(u);
        *out = (wire_value_t){base_arena_memdup(a, u, 16), 16};
        return BASE_OK;
    case FN_CURRENT_TIMESTAMP:
        *out = cql__be_value(a, (uint64_t)(now_us / 1000), 8);
        return BASE_OK;
    case FN_CURRENT_DATE:
        *out = cql__be_value(a, (uint64_t)(now_us / 1000 / CQL_MS_PER_DAY + CQL_DATE_EPOCH_DAY), 4);
        return BASE_OK;
    case FN_CURRENT_TIME:
        *out = cql__be_value(a, (uint64_t)((now_us % 86400000000LL) * 1000), 8);
        return BASE_OK;
    case FN_MIN_TIMEUUID:
    case FN_MAX_TIMEUUID:
        cql__timeuuid_from_ms(u, cql__time_value_ms(f->arg, arg), f->kind == FN_MAX_TIMEUUID);
        *out = (wire_value_t){base_arena_memdup(a, u, 16), 16};
        return BASE_OK;
    case FN_TO_TIMESTAMP:
    case FN_TO_UNIX:
        *out = cql__be_value(a, (uint64_t)cql__time_value_ms(f->arg, arg), 8);
        return BASE_OK;
    case FN_TO_DATE:
        /* Duration.ofMillis(ms).toDays() truncates toward zero. */
        *out = cql__be_value(
            a, (uint64_t)(cql__time_value_ms(f->arg, arg) / CQL_MS_PER_DAY + CQL_DATE_EPOCH_DAY),
            4);
        return BASE_OK;
    case FN_TO_BLOB:
        *out = arg;
        return BASE_OK;
    case FN_FROM_BLOB:
        return from_blob(f, arg, a, out, err);
    }
    return base_error_set(err, WIRE_ERR_SERVER_ERROR, "unknown function kind");
}


/* fromJson(text): the JSON value read as the receiver's type (FromJsonFct). */
static int from_json(const cql_term_t *term, const wire_type_t *t, const char *col,
                     const cql_binds_t *binds, base_arena_t *a, wire_value_t *out,
                     base_error_t *err)
{
    if (binds != NULL && binds->no_json_fn) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "fromJson() is not supported by Azure Cosmos DB for Apache "
                              "Cassandra");
    }
    if (term->n_items != 1) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid number of arguments in call to function system.fromjson: "
                              "1 required but %zu provided",
                              term->n_items);
    }
    wire_value_t arg;
    if (cql__term_eval(term->items[0], cql__native_text(), "arg0(system.fromjson)", binds, a, &arg,
                       err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (arg.len == WIRE_VALUE_UNSET) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid unset value for argument in call to function fromjson");
    }
    if (arg.len < 0) {
        *out = arg;
        return BASE_OK;
    }
    const cql_term_t *value;
    if (cql__json_value((const char *)arg.ptr, (size_t)arg.len, t, a, &value, err) != BASE_OK) {
        return BASE_ERROR;
    }
    return cql__term_eval(value, t, col, NULL, a, out, err);
}


int cql__function_eval(const cql_term_t *term, const wire_type_t *t, const char *col,
                       const cql_binds_t *binds, base_arena_t *a, wire_value_t *out,
                       base_error_t *err)
{
    if (is_from_json(term)) {
        return from_json(term, t, col, binds, a, out, err);
    }
    fn_t f;
    if (resolve(term, t, a, &f, err) != BASE_OK) {
        return BASE_ERROR;
    }
    const wire_type_t *ret = native(f.ret);
    if (!cql__type_value_compatible(t, ret)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Type error: cannot assign result of function system.%s (type %s) "
                              "to %s (type %s)",
                              f.name, cql__type_name(ret, a), col, cql__type_name(t, a));
    }
    wire_value_t arg = {NULL, WIRE_VALUE_NULL};
    if (f.n_args == 1) {
        const char *spec = base_arena_sprintf(a, "arg0(system.%s)", f.name);
        if (cql__term_eval(term->items[0], native(f.arg), spec, binds, a, &arg, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (arg.len == WIRE_VALUE_UNSET) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Invalid unset value for argument in call to function %s",
                                  f.name);
        }
        if (arg.len < 0) {
            return base_error_set(err, WIRE_ERR_INVALID, "Invalid null value for argument to %s",
                                  signature(&f, a));
        }
    }
    return execute(&f, arg, a, out, err);
}


/* ---- functions of values (selectors) ------------------------------------------------------ */

int cql__function_term_arg_type(const char *name, const cql_term_t *arg, base_arena_t *a,
                                const wire_type_t **type, base_error_t *err)
{
    cql_term_t *items[1] = {(cql_term_t *)arg};
    cql_term_t call = {.kind = CQL_TERM_FUNCTION, .text = name, .n_items = 1, .items = items};
    fn_t f;
    if (resolve(&call, NULL, a, &f, err) != BASE_OK) {
        return BASE_ERROR;
    }
    *type = native(f.arg);
    return BASE_OK;
}


/* The native function name taking n_args arguments of type arg (NULL when none); 1 when
 * found, 0 when the name is known but no signature takes arg, -1 when unknown. */
static int find_for_value(const char *name, size_t n_args, const wire_type_t *arg, fn_t *out)
{
    int known = -1;
    for (size_t i = 0; i < sizeof(catalog) / sizeof(catalog[0]); i++) {
        if (strcmp(catalog[i].name, name) != 0) {
            continue;
        }
        known = 0;
        if (catalog[i].n_args == n_args && (n_args == 0 || catalog[i].arg == arg->id)) {
            *out = catalog[i];
            return 1;
        }
    }
    if (known < 0 && conversion(name, out)) {
        return n_args == 1 && out->arg == arg->id ? 1 : 0;
    }
    return known;
}


int cql__function_value_type(const char *name, size_t n_args, const wire_type_t *arg,
                             const char *arg_text, base_arena_t *a, const wire_type_t **ret,
                             base_error_t *err)
{
    fn_t f;
    int found = n_args > 1 ? -1 : find_for_value(name, n_args, arg, &f);
    if (found < 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Unknown function '%s'", name);
    }
    if (found == 0) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Type error: %s cannot be passed as argument 0 of function "
                              "system.%s of type %s",
                              arg_text, name, arg ? cql__type_name(arg, a) : "?");
    }
    *ret = native(f.ret);
    return BASE_OK;
}


wire_value_t cql__function_apply(const char *name, size_t n_args, const wire_type_t *arg_type,
                                 wire_value_t arg, base_arena_t *a)
{
    wire_value_t out = {NULL, WIRE_VALUE_NULL};
    fn_t f;
    base_error_t ignored;
    if (find_for_value(name, n_args, arg_type, &f) != 1 || (n_args == 1 && arg.len < 0) ||
        execute(&f, arg, a, &out, &ignored) != BASE_OK) {
        return (wire_value_t){NULL, WIRE_VALUE_NULL};
    }
    return out;
}
