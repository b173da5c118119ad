/* Unit tests for cql/keyenc.c: the order-preserving, prefix-free clustering
 * key encoding (checked against cql__value_compare on random values of
 * every type, ascending and descending, alone and concatenated), exact
 * decoding, malformed input, and partition-key composition. */
#include "cql/value/value_int.h"
#include "value_test.h"

static uint64_t rng = 0x2545F4914F6CDD1DULL;

static uint64_t rnd(void)
{
    return test_rand64(&rng);
}


static unsigned pick(unsigned n)
{
    return (unsigned)(rnd() % n);
}


static wire_value_t bytes_value(const uint8_t *p, size_t n)
{
    return (wire_value_t){base_arena_memdup(&ta, p, n), (int32_t)n};
}


static void fill_random(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        p[i] = (uint8_t)rnd();
    }
}


/* A small alphabet makes equal prefixes, zero bytes and 0xFF likely. */
static wire_value_t gen_bytes(size_t max)
{
    static const uint8_t alphabet[] = {0x00, 0x01, 'a', 'b', 0xFE, 0xFF};
    uint8_t p[16];
    size_t n = 1 + pick((unsigned)max);
    for (size_t i = 0; i < n; i++) {
        p[i] = alphabet[pick(sizeof(alphabet))];
    }
    return bytes_value(p, n);
}


static wire_value_t gen_fixed(size_t n)
{
    uint8_t p[16];
    fill_random(p, n);
    switch (pick(6)) {
    case 0:
        memset(p, 0, n);
        break;
    case 1:
        memset(p, 0xFF, n);
        break;
    case 2:
        memset(p, 0, n);
        p[0] = 0x80;
        break;
    case 3:
        p[0] = (uint8_t)(pick(2) ? 0x00 : 0xFF); /* near zero */
        break;
    default:
        break;
    }
    return bytes_value(p, n);
}


static wire_value_t gen_float(size_t n)
{
    static const char *const specials4[] = {"00000000", "80000000", "7f800000", "ff800000",
                                            "7fc00000", "00000001", "3f800000"};
    static const char *const specials8[] = {"0000000000000000", "8000000000000000",
                                            "7ff0000000000000", "fff0000000000000",
                                            "7ff8000000000000", "0000000000000001"};
    if (pick(3) == 0) {
        return n == 4 ? hexv(specials4[pick(7)]) : hexv(specials8[pick(6)]);
    }
    uint8_t p[8];
    fill_random(p, n);
    wire_value_t v = bytes_value(p, n);
    uint64_t key = n == 4 ? base_load_u32(p) : base_load_u64(p);
    bool nan = n == 4 ? ((key & 0x7F800000u) == 0x7F800000u && (key & 0x7FFFFFu))
                      : ((key & 0x7FF0000000000000ULL) == 0x7FF0000000000000ULL &&
                         (key & 0xFFFFFFFFFFFFFULL));
    return nan ? hexv(n == 4 ? "7fc00000" : "7ff8000000000000") : v;
}


static wire_value_t gen_varint(void)
{
    uint8_t p[12];
    size_t n = 1 + pick(pick(2) ? 2 : 12);
    fill_random(p, n);
    const uint8_t *m;
    size_t len = cql__varint_minimal(p, n, &m);
    return bytes_value(m, len);
}


static wire_value_t gen_value(const wire_type_t *t, int depth);


static wire_value_t gen_elements(const wire_type_t *t, int depth)
{
    base_buf_t b;
    base_buf_init(&b);
    if (t->id == WIRE_TYPE_TUPLE || t->id == WIRE_TYPE_UDT) {
        size_t n = pick(t->n_sub + 1u), canonical = 0;
        for (size_t i = 0; i < n; i++) {
            wire_value_t e = pick(5) == 0 ? (wire_value_t){NULL, -1} : gen_value(t->sub[i], depth);
            canonical = e.len >= 0 ? b.len + 4 + (size_t)e.len : canonical;
            uint8_t len[4];
            uint32_t l = e.len < 0 ? 0xFFFFFFFFu : (uint32_t)e.len;
            len[0] = (uint8_t)(l >> 24), len[1] = (uint8_t)(l >> 16), len[2] = (uint8_t)(l >> 8),
            len[3] = (uint8_t)l;
            base_buf_put(&b, len, 4);
            if (e.len > 0) {
                base_buf_put(&b, e.ptr, (size_t)e.len);
            }
        }
        if (t->id == WIRE_TYPE_UDT) {
            b.len = canonical; /* a user type's trailing nulls are not kept */
        }
    } else {
        size_t n = pick(4);
        base_buf_put_u32(&b, (uint32_t)n);
        for (size_t i = 0; i < n; i++) {
            for (size_t k = 0; k < (t->id == WIRE_TYPE_MAP ? 2u : 1u); k++) {
                wire_value_t e = gen_value(t->sub[k], depth);
                base_buf_put_u32(&b, (uint32_t)e.len);
                base_buf_put(&b, e.ptr, (size_t)e.len);
            }
        }
    }
    wire_value_t v = bytes_value(b.data ? b.data : (const uint8_t *)"", b.len);
    base_buf_fini(&b);
    return v;
}


/* A canonical (as decode returns it) non-null value; empty now and then at the top. */
static wire_value_t gen_value(const wire_type_t *t, int depth)
{
    if (depth == 0 && pick(20) == 0) {
        return hexv("");
    }
    switch (t->id) {
    case WIRE_TYPE_TINYINT:
    case WIRE_TYPE_SMALLINT:
    case WIRE_TYPE_INT:
    case WIRE_TYPE_BIGINT:
    case WIRE_TYPE_COUNTER:
    case WIRE_TYPE_TIMESTAMP:
    case WIRE_TYPE_DATE:
        return gen_fixed(cql__type_fixed_size(t->id));
    case WIRE_TYPE_TIME: {
        uint8_t p[8];
        base_store_u64(p, rnd() % 86400000000000ULL);
        return bytes_value(p, 8);
    }
    case WIRE_TYPE_BOOLEAN:
        return hexv(pick(2) ? "01" : "00");
    case WIRE_TYPE_FLOAT:
        return gen_float(4);
    case WIRE_TYPE_DOUBLE:
        return gen_float(8);
    case WIRE_TYPE_UUID:
    case WIRE_TYPE_TIMEUUID: {
        uint8_t p[16];
        fill_random(p, 16);
        if (pick(3) == 0) {
            memset(p, pick(2) ? 0x00 : 0xFF, 16); /* extremes */
        }
        int version = t->id == WIRE_TYPE_TIMEUUID ? 1
                                                  : (int)(pick(3) == 0 ? 4
                                                          : pick(2)    ? 1
                                                                       : pick(16));
        p[6] = (uint8_t)(version << 4 | (p[6] & 0x0F));
        return bytes_value(p, 16);
    }
    case WIRE_TYPE_VARINT:
        return gen_varint();
    case WIRE_TYPE_DECIMAL: {
        wire_value_t u = pick(2) ? hexv(pick(2) ? "0a" : "01") : gen_varint();
        uint8_t p[16];
        int32_t scale = (int32_t)pick(7) - 3;
        base_store_u64(p, (uint64_t)(int64_t)scale << 32);
        memcpy(p + 4, u.ptr, (size_t)u.len);
        return bytes_value(p, 4 + (size_t)u.len);
    }
    case WIRE_TYPE_INET: {
        uint8_t p[16];
        size_t n = pick(2) ? 4 : 16;
        fill_random(p, n);
        return bytes_value(p, n);
    }
    case WIRE_TYPE_LIST:
    case WIRE_TYPE_SET:
    case WIRE_TYPE_MAP:
    case WIRE_TYPE_TUPLE:
    case WIRE_TYPE_UDT:
        return gen_elements(t, depth + 1);
    default:
        return gen_bytes(6);
    }
}


static wire_value_t enc(const wire_type_t *t, wire_value_t v, bool desc)
{
    base_buf_t b;
    base_buf_init(&b);
    cql__keyenc_append(&b, t, v, desc);
    wire_value_t out = bytes_value(b.data, b.len);
    base_buf_fini(&b);
    return out;
}


static int mem_sign(wire_value_t a, wire_value_t b)
{
    size_t la = (size_t)a.len, lb = (size_t)b.len;
    int c = memcmp(a.ptr, b.ptr, la < lb ? la : lb);
    if (c != 0) {
        return c < 0 ? -1 : 1;
    }
    return la < lb ? -1 : la > lb;
}


static int sign(int c)
{
    return c < 0 ? -1 : c > 0;
}


/* Types whose compare has ties between different bytes that keyenc breaks. */
static bool has_ties(const wire_type_t *t)
{
    if (t->id == WIRE_TYPE_DECIMAL || t->id == WIRE_TYPE_TUPLE || t->id == WIRE_TYPE_UDT) {
        return true;
    }
    for (size_t i = 0; i < t->n_sub; i++) {
        if (has_ties(t->sub[i])) {
            return true;
        }
    }
    return false;
}


static const wire_type_t *all_types[32];
static size_t n_types;


static void build_types(void)
{
    static const char *const natives[] = {
        "ascii",     "bigint",   "blob",    "boolean", "counter",  "date",     "decimal",
        "double",    "float",    "inet",    "int",     "smallint", "text",     "time",
        "timestamp", "timeuuid", "tinyint", "uuid",    "varint",   "duration",
    };
    n_types = 0;
    for (size_t i = 0; i < sizeof(natives) / sizeof(natives[0]); i++) {
        all_types[n_types++] = T(natives[i]);
    }
    all_types[n_types++] = frozen(list_of(T("int")));
    all_types[n_types++] = frozen(set_of(T("text")));
    all_types[n_types++] = frozen(map_of(T("int"), T("text")));
    all_types[n_types++] = tuple_of(2, T("int"), T("text"));
    all_types[n_types++] = frozen(list_of(tuple_of(2, T("varint"), T("blob"))));
    all_types[n_types++] = udt_of("u", 2, "a", T("decimal"), "b", frozen(list_of(T("double"))));
}


/*
 * The order keyenc implements: cql__value_compare with its ties between
 * different bytes broken (decimals equal in value by scale, tuples that
 * differ only by trailing nulls by component count). Inside collections
 * and tuples the tie-break comes before later elements, which is the one
 * place where keyenc order and Cassandra order can disagree.
 */
static int ref_cmp(const wire_type_t *t, wire_value_t a, wire_value_t b)
{
    int c = sign(cql__value_compare(t, a, b));
    if (a.len <= 0 || b.len <= 0) {
        return c;
    }
    if (t->id == WIRE_TYPE_DECIMAL) {
        int32_t sa = (int32_t)base_load_u32(a.ptr), sb = (int32_t)base_load_u32(b.ptr);
        return c != 0 ? c : sa < sb ? -1 : sa > sb;
    }
    bool tuple = t->id == WIRE_TYPE_TUPLE || t->id == WIRE_TYPE_UDT;
    if (!tuple && !cql__type_is_collection(t)) {
        return c;
    }
    wire_value_t *ea, *eb, *va = NULL, *vb = NULL;
    ssize_t na, nb;
    if (tuple) {
        /* Split components by hand: [int len][bytes]... */
        wire_value_t *xs[2];
        ssize_t ns[2];
        wire_value_t in[2] = {a, b};
        for (int k = 0; k < 2; k++) {
            xs[k] = base_arena_alloc(&ta, 16 * sizeof(wire_value_t));
            ns[k] = 0;
            size_t pos = 0;
            while (pos < (size_t)in[k].len) {
                int32_t l = (int32_t)base_load_u32(in[k].ptr + pos);
                pos += 4;
                xs[k][ns[k]++] =
                    l < 0 ? (wire_value_t){NULL, -1} : (wire_value_t){in[k].ptr + pos, l};
                pos += l < 0 ? 0 : (size_t)l;
            }
        }
        ea = xs[0], eb = xs[1], na = ns[0], nb = ns[1];
    } else {
        na = cql__collection_split(t, a, &ta, &ea, &va);
        nb = cql__collection_split(t, b, &ta, &eb, &vb);
    }
    for (ssize_t i = 0; i < na && i < nb; i++) {
        int r = ref_cmp(tuple ? t->sub[i] : t->sub[0], ea[i], eb[i]);
        if (r == 0 && t->id == WIRE_TYPE_MAP) {
            r = ref_cmp(t->sub[1], va[i], vb[i]);
        }
        if (r != 0) {
            return r;
        }
    }
    return na < nb ? -1 : na > nb;
}


static void check_pair(const wire_type_t *t, wire_value_t a, wire_value_t b)
{
    int c = sign(cql__value_compare(t, a, b));
    int want = ref_cmp(t, a, b);
    wire_value_t ea = enc(t, a, false), eb = enc(t, b, false);
    wire_value_t da = enc(t, a, true), db = enc(t, b, true);
    int m = mem_sign(ea, eb);
    if (m != want) {
        fail_msg("%s: compare(%s, %s) = %d, with ties broken %d, but keyenc orders %d",
                 cql__type_name(t, &ta), tohex(a), tohex(b), c, want, m);
    }
    if (!has_ties(t)) {
        assert_int_equal(want, c);
    } else if (c != 0 && t->id == WIRE_TYPE_DECIMAL) {
        assert_int_equal(want, c); /* top level: ties are only broken, never reordered */
    }
    assert_int_equal(mem_sign(da, db), -m);
    assert_int_equal(m == 0, value_eq(a, b));
    /* Exact decoding, both directions. */
    wire_value_t back;
    assert_int_equal(cql__keyenc_decode(t, ea.ptr, (size_t)ea.len, false, &ta, &back),
                     (size_t)ea.len);
    if (!value_eq(back, a)) {
        fail_msg("%s: %s decoded as %s", cql__type_name(t, &ta), tohex(a), tohex(back));
    }
    assert_int_equal(cql__keyenc_decode(t, da.ptr, (size_t)da.len, true, &ta, &back),
                     (size_t)da.len);
    assert_true(value_eq(back, a));
}


static void random_values_order_like_compare_and_decode_exactly(void **state)
{
    (void)state;
    build_types();
    for (size_t k = 0; k < n_types; k++) {
        const wire_type_t *t = all_types[k];
        for (int i = 0; i < 600; i++) {
            wire_value_t a = gen_value(t, 0);
            wire_value_t b = pick(8) == 0 ? a : gen_value(t, 0);
            check_pair(t, a, b);
        }
    }
}


static void concatenated_components_order_component_wise(void **state)
{
    (void)state;
    build_types();
    for (int i = 0; i < 6000; i++) {
        const wire_type_t *t1 = all_types[pick((unsigned)n_types)];
        const wire_type_t *t2 = all_types[pick((unsigned)n_types)];
        bool d1 = pick(2), d2 = pick(2);
        wire_value_t a1 = gen_value(t1, 0), a2 = gen_value(t2, 0);
        wire_value_t b1 = pick(3) == 0 ? a1 : gen_value(t1, 0), b2 = gen_value(t2, 0);
        base_buf_t ka, kb;
        base_buf_init(&ka);
        base_buf_init(&kb);
        cql__keyenc_append(&ka, t1, a1, d1);
        cql__keyenc_append(&ka, t2, a2, d2);
        cql__keyenc_append(&kb, t1, b1, d1);
        cql__keyenc_append(&kb, t2, b2, d2);
        int m1 = mem_sign(enc(t1, a1, d1), enc(t1, b1, d1));
        int m2 = mem_sign(enc(t2, a2, d2), enc(t2, b2, d2));
        int want = m1 != 0 ? m1 : m2;
        wire_value_t va = {ka.data, (int32_t)ka.len}, vb = {kb.data, (int32_t)kb.len};
        assert_int_equal(mem_sign(va, vb), want);
        if (m1 != 0 && !has_ties(t1)) {
            int c1 = sign(cql__value_compare(t1, a1, b1));
            assert_int_equal(m1, d1 ? -c1 : c1);
        }
        /* The components decode back one after the other. */
        wire_value_t x, y;
        size_t used = cql__keyenc_decode(t1, ka.data, ka.len, d1, &ta, &x);
        assert_true(used > 0);
        assert_int_equal(cql__keyenc_decode(t2, ka.data + used, ka.len - used, d2, &ta, &y),
                         ka.len - used);
        assert_true(value_eq(x, a1));
        assert_true(value_eq(y, a2));
        base_buf_fini(&ka);
        base_buf_fini(&kb);
    }
}


static void known_encodings(void **state)
{
    (void)state;
    assert_string_equal(tohex(enc(T("int"), hexv("00000001"), false)), "0280000001");
    assert_string_equal(tohex(enc(T("int"), hexv("00000001"), true)), "fd7ffffffe");
    assert_string_equal(tohex(enc(T("int"), hexv(""), false)), "01");
    assert_string_equal(tohex(enc(T("int"), hexv(NULL), false)), "00");
    assert_string_equal(tohex(enc(T("text"), hexv("610062"), false)), "026100ff620000");
    assert_string_equal(tohex(enc(T("date"), hexv("80000000"), false)), "0280000000");
    assert_string_equal(tohex(enc(T("boolean"), hexv("05"), false)), "0201");
    assert_string_equal(tohex(enc(T("varint"), hexv("00"), false)), "0280");
    assert_string_equal(tohex(enc(T("varint"), hexv("0001"), false)), "02810101");
    assert_string_equal(tohex(enc(T("varint"), hexv("ff"), false)), "027ffeff");
    assert_string_equal(tohex(enc(T("int"), hexv("000001"), false)), "0300ff00ff010000");
    assert_string_equal(tohex(enc(frozen(list_of(T("int"))),
                                  hexv("00000001"
                                       "0000000400000005"),
                                  false)),
                        "0201028000000500");
    /* A non-canonical boolean decodes to the canonical one. */
    wire_value_t out;
    wire_value_t e = enc(T("boolean"), hexv("05"), false);
    assert_int_equal(cql__keyenc_decode(T("boolean"), e.ptr, (size_t)e.len, false, &ta, &out), 2);
    assert_string_equal(tohex(out), "01");
    e = enc(T("int"), hexv(NULL), true);
    assert_int_equal(cql__keyenc_decode(T("int"), e.ptr, (size_t)e.len, true, &ta, &out), 1);
    assert_int_equal(out.len, WIRE_VALUE_NULL);
    /* Decimals equal in value are distinct keys, ordered by scale. */
    wire_value_t one = hexv("0000000001"), one_0 = hexv("000000010a");
    assert_int_equal(cql__value_compare(T("decimal"), one, one_0), 0);
    assert_int_equal(mem_sign(enc(T("decimal"), one, false), enc(T("decimal"), one_0, false)), -1);
    /* A user type's trailing null fields are the absent fields ALTER TYPE ADD makes:
     * {a: 1} written before the ADD and {a: 1, b: null} after are one key. */
    const wire_type_t *u = udt_of("u", 2, "a", T("int"), "b", T("text"));
    wire_value_t short_u = hexv("0000000400000001"), long_u = hexv("0000000400000001ffffffff");
    assert_string_equal(tohex(enc(u, long_u, false)), tohex(enc(u, short_u, false)));
    e = enc(u, long_u, false);
    assert_int_equal(cql__keyenc_decode(u, e.ptr, (size_t)e.len, false, &ta, &out), e.len);
    assert_string_equal(tohex(out), "0000000400000001");
    /* Not so for a tuple, whose arity never changes. */
    const wire_type_t *tu = tuple_of(2, T("int"), T("text"));
    assert_int_equal(mem_sign(enc(tu, short_u, false), enc(tu, long_u, false)), -1);
}


static void malformed_values_round_trip_through_the_raw_tag(void **state)
{
    (void)state;
    static const struct {
        const char *type;
        const char *hex;
    } cases[] = {{"int", "000001"}, {"uuid", "0102"}, {"decimal", "0001"}, {"bigint", "00"}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const wire_type_t *t = T(cases[i].type);
        wire_value_t v = hexv(cases[i].hex), out;
        wire_value_t e = enc(t, v, false);
        assert_int_equal(cql__keyenc_decode(t, e.ptr, (size_t)e.len, false, &ta, &out),
                         (size_t)e.len);
        assert_string_equal(tohex(out), cases[i].hex);
    }
    const wire_type_t *lt = frozen(list_of(T("int")));
    wire_value_t bad = hexv("00000005"), out;
    wire_value_t e = enc(lt, bad, true);
    assert_int_equal(cql__keyenc_decode(lt, e.ptr, (size_t)e.len, true, &ta, &out), (size_t)e.len);
    assert_string_equal(tohex(out), "00000005");
}


static void truncated_and_hostile_input_is_rejected(void **state)
{
    (void)state;
    build_types();
    for (size_t k = 0; k < n_types; k++) {
        const wire_type_t *t = all_types[k];
        for (int i = 0; i < 100; i++) {
            wire_value_t v = gen_value(t, 0);
            bool desc = pick(2);
            wire_value_t e = enc(t, v, desc);
            for (int32_t cut = 0; cut < e.len; cut++) {
                uint8_t *p = base_arena_memdup(&ta, e.ptr, (size_t)cut);
                wire_value_t out;
                assert_int_equal(cql__keyenc_decode(t, p, (size_t)cut, desc, &ta, &out), 0);
            }
        }
        for (int i = 0; i < 300; i++) {
            uint8_t buf[40];
            size_t n = pick(sizeof(buf));
            for (size_t j = 0; j < n; j++) {
                uint64_t r = rnd();
                buf[j] = (r & 3) == 0   ? 0x00
                         : (r & 3) == 1 ? (uint8_t)((r >> 8) % 4)
                                        : (uint8_t)(r >> 8);
            }
            uint8_t *p = base_arena_memdup(&ta, buf, n);
            wire_value_t out;
            size_t used = cql__keyenc_decode(t, p, n, pick(2), &ta, &out);
            assert_true(used <= n);
        }
    }
}


static void partition_keys_compose_like_composite_type(void **state)
{
    (void)state;
    wire_value_t one[1] = {hexv("00000001")};
    assert_string_equal(tohex(cql__pk_compose(one, 1, &ta)), "00000001");
    wire_value_t two[2] = {hexv("00000001"), textv("ab")};
    wire_value_t pk = cql__pk_compose(two, 2, &ta);
    assert_string_equal(tohex(pk), "00040000000100"
                                   "0002616200");
    wire_value_t parts[2];
    assert_true(cql__pk_decompose(pk, 2, parts));
    assert_string_equal(tohex(parts[0]), "00000001");
    assert_string_equal(tohex(parts[1]), "6162");
    assert_true(cql__pk_decompose(pk, 1, parts));
    assert_string_equal(tohex(parts[0]), tohex(pk));
    wire_value_t empty[2] = {hexv(""), hexv("")};
    assert_string_equal(tohex(cql__pk_compose(empty, 2, &ta)), "000000000000");
    static const char *const bad[] = {"",
                                      "00",
                                      "0004000000",
                                      "0004000000010100",
                                      "000400000001",
                                      "00040000000100"
                                      "00026162",
                                      "00040000000100"
                                      "0002616200"
                                      "00"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_false(cql__pk_decompose(hexv(bad[i]), 2, parts));
    }
    assert_false(cql__pk_decompose(hexv(NULL), 1, parts));
    wire_value_t with_null[2] = {hexv("01"), hexv(NULL)};
    assert_int_equal(cql__pk_compose(with_null, 2, &ta).len, 0);
    uint8_t *big = base_arena_calloc(&ta, 70000, 1);
    wire_value_t too_long[2] = {hexv("01"), {big, 70000}};
    assert_int_equal(cql__pk_compose(too_long, 2, &ta).len, 0);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        VT(random_values_order_like_compare_and_decode_exactly),
        VT(concatenated_components_order_component_wise),
        VT(known_encodings),
        VT(malformed_values_round_trip_through_the_raw_tag),
        VT(truncated_and_hostile_input_is_rejected),
        VT(partition_keys_compose_like_composite_type),
    };
    return cmocka_run_group_tests_name("cql/keyenc", tests, NULL, NULL);
}
