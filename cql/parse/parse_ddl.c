/*
 * parse_ddl.c - USE, CREATE/ALTER/DROP KEYSPACE, TABLE, INDEX and TYPE,
 * TRUNCATE, and the statements recognised but not implemented (roles,
 * users, permissions, functions, aggregates, triggers, materialized views),
 * which become CQL_STMT_OTHER (cql layer, internal to the parser).
 *
 * The parser accepts any property list (WITH a = ... AND b = ...): which
 * options exist and what they mean is the executor's business, so Cosmos
 * DB's "WITH cosmosdb_provisioned_throughput = 400" needs nothing here.
 * Nothing in this file recurses except through cql__parse_type() and
 * cql__parse_term(), which bound their own depth.
 */
#include "cql/parse/parse_int.h"


static bool if_not_exists(cql_parser_t *p)
{
    if (!cql__accept_kw(p, CQL_KW_IF)) {
        return false;
    }
    cql__expect_kw(p, CQL_KW_NOT);
    cql__expect_kw(p, CQL_KW_EXISTS);
    return true;
}


static bool if_exists(cql_parser_t *p)
{
    if (!cql__accept_kw(p, CQL_KW_IF)) {
        return false;
    }
    cql__expect_kw(p, CQL_KW_EXISTS);
    return true;
}


static void properties(cql_parser_t *p, size_t *n, cql_property_t **out)
{
    cql_vec_t v = {0};
    do {
        cql__parse_property(p, &v);
    } while (!p->failed && cql__accept_kw(p, CQL_KW_AND));
    *n = v.n;
    *out = v.data;
}


void cql__parse_other(cql_parser_t *p, cql_stmt_t *st, const char *what)
{
    st->kind = CQL_STMT_OTHER;
    st->u.other_what = what;
    /* Still lexed to the end, so an unterminated string is reported. */
    while (!p->failed && !cql__peek_is(p, 0, CQL_TOK_EOF)) {
        cql__advance(p);
    }
}


void cql__parse_use(cql_parser_t *p, cql_stmt_t *st)
{
    st->kind = CQL_STMT_USE;
    cql__advance(p); /* USE */
    const cql_token_t *t = cql__peek(p, 0);
    if (t->type == CQL_TOK_QMARK || t->type == CQL_TOK_COLON) {
        /* Cql.g's keyspaceName rule: a marker parses, then is refused in these words. */
        cql__error_at(p, t, "Bind variables cannot be used for keyspace names");
        return;
    }
    st->u.use_keyspace = cql__parse_ident(p);
}


void cql__parse_truncate(cql_parser_t *p, cql_stmt_t *st)
{
    st->kind = CQL_STMT_TRUNCATE;
    cql__advance(p); /* TRUNCATE */
    if (!cql__accept_kw(p, CQL_KW_TABLE)) {
        cql__accept_kw(p, CQL_KW_COLUMNFAMILY);
    }
    cql__parse_qname(p, &st->u.drop.name);
}


/* ---- keyspaces ------------------------------------------------------------------------ */

static void create_keyspace(cql_parser_t *p, cql_stmt_t *st)
{
    cql_keyspace_def_t *ks = &st->u.keyspace;
    st->kind = CQL_STMT_CREATE_KEYSPACE;
    cql__advance(p); /* KEYSPACE */
    ks->if_not_exists = if_not_exists(p);
    ks->name = cql__parse_ident(p);
    /* The grammar wants WITH and a property (Cosmos DB's forms all have one); whether
     * replication is among them is the executor's business. */
    cql__expect_kw(p, CQL_KW_WITH);
    if (!p->failed) {
        properties(p, &ks->n_props, &ks->props);
    }
}


static void alter_keyspace(cql_parser_t *p, cql_stmt_t *st)
{
    cql_keyspace_def_t *ks = &st->u.keyspace;
    st->kind = CQL_STMT_ALTER_KEYSPACE;
    cql__advance(p); /* KEYSPACE */
    ks->name = cql__parse_ident(p);
    cql__expect_kw(p, CQL_KW_WITH);
    properties(p, &ks->n_props, &ks->props);
}


/* ---- tables ------------------------------------------------------------------------------ */

/* PRIMARY KEY '(' (pk | '(' pk, ... ')') (',' ck)* ')', PRIMARY KEY already
 * consumed. */
static void primary_key(cql_parser_t *p, cql_create_table_t *ct)
{
    cql_vec_t part = {0}, clus = {0};
    cql__expect(p, CQL_TOK_LPAREN);
    if (cql__accept(p, CQL_TOK_LPAREN)) {
        do {
            const char *c = cql__parse_ident(p);
            cql__vec_push(p, &part, c);
        } while (!p->failed && cql__accept(p, CQL_TOK_COMMA));
        cql__expect(p, CQL_TOK_RPAREN);
    } else {
        const char *c = cql__parse_ident(p);
        cql__vec_push(p, &part, c);
    }
    while (!p->failed && cql__accept(p, CQL_TOK_COMMA)) {
        const char *c = cql__parse_ident(p);
        cql__vec_push(p, &clus, c);
    }
    cql__expect(p, CQL_TOK_RPAREN);
    ct->n_partition = part.n;
    ct->partition = part.data;
    ct->n_clustering = clus.n;
    ct->clustering = clus.data;
}


/* name type [STATIC] [PRIMARY KEY] */
static void column_def(cql_parser_t *p, cql_column_def_t *col, bool allow_pk)
{
    col->name = cql__parse_ident(p);
    col->type = cql__parse_type(p);
    if (cql__accept_kw(p, CQL_KW_STATIC)) {
        col->is_static = true;
    }
    if (allow_pk && cql__accept_kw(p, CQL_KW_PRIMARY)) {
        cql__expect_kw(p, CQL_KW_KEY);
        col->primary_key = true;
    }
}


static void table_options(cql_parser_t *p, cql_create_table_t *ct)
{
    cql_vec_t props = {0};
    do {
        if (cql__peek_kw(p, 0, CQL_KW_CLUSTERING) && cql__peek_kw(p, 1, CQL_KW_ORDER)) {
            cql__advance(p);
            cql__advance(p);
            cql__expect_kw(p, CQL_KW_BY);
            cql__expect(p, CQL_TOK_LPAREN);
            cql__parse_ordering(p, &ct->n_order, &ct->order);
            cql__expect(p, CQL_TOK_RPAREN);
        } else if (cql__peek_kw(p, 0, CQL_KW_COMPACT) && cql__peek_kw(p, 1, CQL_KW_STORAGE)) {
            cql__advance(p);
            cql__advance(p);
            ct->compact_storage = true;
        } else {
            cql__parse_property(p, &props);
        }
    } while (!p->failed && cql__accept_kw(p, CQL_KW_AND));
    ct->n_props = props.n;
    ct->props = props.data;
}


static void create_table(cql_parser_t *p, cql_stmt_t *st)
{
    cql_create_table_t *ct = &st->u.create_table;
    st->kind = CQL_STMT_CREATE_TABLE;
    cql__advance(p); /* TABLE */
    ct->if_not_exists = if_not_exists(p);
    cql__parse_qname(p, &ct->table);
    cql__expect(p, CQL_TOK_LPAREN);
    cql_vec_t cols = {0};
    int n_keys = 0; /* PRIMARY KEY clauses, inline or not */
    do {
        if (cql__peek(p, 0)->type == CQL_TOK_RPAREN && cols.n > 0) {
            break; /* a trailing comma is allowed */
        }
        if (cql__accept_kw(p, CQL_KW_PRIMARY)) {
            cql__expect_kw(p, CQL_KW_KEY);
            primary_key(p, ct);
            n_keys++;
            continue;
        }
        cql_column_def_t col = {0};
        column_def(p, &col, true);
        if (col.primary_key) {
            ct->n_partition = 1;
            ct->partition = cql__alloc(p, sizeof(*ct->partition));
            ct->partition[0] = col.name;
            n_keys++;
        }
        cql__vec_add(p, &cols, &col, sizeof(col));
    } while (!p->failed && cql__accept(p, CQL_TOK_COMMA));
    cql__expect(p, CQL_TOK_RPAREN);
    ct->n_columns = cols.n;
    ct->columns = cols.data;
    if (!p->failed && n_keys > 1) {
        cql__error_invalid(p, "Multiple PRIMARY KEYs specifed (exactly one required)");
        return;
    }
    if (cql__accept_kw(p, CQL_KW_WITH)) {
        table_options(p, ct);
    }
}


static void names(cql_parser_t *p, cql_vec_t *cols)
{
    do {
        cql_column_def_t col = {0};
        col.name = cql__parse_ident(p);
        cql__vec_add(p, cols, &col, sizeof(col));
    } while (!p->failed && cql__accept(p, CQL_TOK_COMMA));
}


static void renames(cql_parser_t *p, cql_vec_t *cols)
{
    do {
        cql_column_def_t from = {0}, to = {0};
        from.name = cql__parse_ident(p);
        cql__expect_kw(p, CQL_KW_TO);
        to.name = cql__parse_ident(p);
        cql__vec_add(p, cols, &from, sizeof(from));
        cql__vec_add(p, cols, &to, sizeof(to));
    } while (!p->failed && cql__accept_kw(p, CQL_KW_AND));
}


/* ALTER TYPE t ADD f type | RENAME f TO g [AND ...] | ALTER f TYPE type (Cassandra 4.0). */
static void alter_type(cql_parser_t *p, cql_stmt_t *st)
{
    cql_alter_table_t *at = &st->u.alter_type;
    st->kind = CQL_STMT_ALTER_TYPE;
    cql__advance(p); /* TYPE */
    cql__parse_qname(p, &at->table);
    cql_vec_t fields = {0};
    cql_column_def_t f = {0};
    const cql_token_t *t = cql__peek(p, 0);
    cql_kw_t kw = t->type == CQL_TOK_IDENT ? t->kw : CQL_KW_NONE;
    switch (kw) {
    case CQL_KW_ADD:
    case CQL_KW_ALTER:
        cql__advance(p);
        at->kind = kw == CQL_KW_ADD ? CQL_ALTER_ADD : CQL_ALTER_ALTER;
        f.name = cql__parse_ident(p);
        if (at->kind == CQL_ALTER_ALTER) {
            cql__expect_kw(p, CQL_KW_TYPE);
        }
        f.type = cql__parse_type(p);
        cql__vec_add(p, &fields, &f, sizeof(f));
        break;
    case CQL_KW_RENAME:
        cql__advance(p);
        at->kind = CQL_ALTER_RENAME;
        renames(p, &fields);
        break;
    default:
        cql__error_no_viable(p);
        return;
    }
    at->n_columns = fields.n;
    at->columns = fields.data;
}


static void alter_table(cql_parser_t *p, cql_stmt_t *st)
{
    cql_alter_table_t *at = &st->u.alter_table;
    st->kind = CQL_STMT_ALTER_TABLE;
    cql__advance(p); /* TABLE */
    cql__parse_qname(p, &at->table);
    cql_vec_t cols = {0};
    const cql_token_t *t = cql__peek(p, 0);
    switch (t->type == CQL_TOK_IDENT ? t->kw : CQL_KW_NONE) {
    case CQL_KW_ADD: {
        cql__advance(p);
        at->kind = CQL_ALTER_ADD;
        bool paren = cql__accept(p, CQL_TOK_LPAREN);
        do {
            cql_column_def_t col = {0};
            column_def(p, &col, false);
            cql__vec_add(p, &cols, &col, sizeof(col));
        } while (!p->failed && cql__accept(p, CQL_TOK_COMMA));
        if (paren) {
            cql__expect(p, CQL_TOK_RPAREN);
        }
        break;
    }
    case CQL_KW_DROP:
        cql__advance(p);
        if (cql__peek_kw(p, 0, CQL_KW_COMPACT) && cql__peek_kw(p, 1, CQL_KW_STORAGE)) {
            cql__parse_other(p, st, "ALTER TABLE DROP COMPACT STORAGE");
            return;
        }
        at->kind = CQL_ALTER_DROP;
        if (cql__accept(p, CQL_TOK_LPAREN)) {
            names(p, &cols);
            cql__expect(p, CQL_TOK_RPAREN);
        } else {
            names(p, &cols);
        }
        if (cql__accept_kw(p, CQL_KW_USING)) {
            cql__expect_kw(p, CQL_KW_TIMESTAMP);
            at->drop_ts = cql__parse_int_value(p);
        }
        break;
    case CQL_KW_RENAME:
        cql__advance(p);
        at->kind = CQL_ALTER_RENAME;
        renames(p, &cols);
        break;
    case CQL_KW_ALTER: {
        cql__advance(p);
        at->kind = CQL_ALTER_ALTER;
        cql_column_def_t col = {0};
        col.name = cql__parse_ident(p);
        cql__expect_kw(p, CQL_KW_TYPE);
        col.type = cql__parse_type(p);
        cql__vec_add(p, &cols, &col, sizeof(col));
        break;
    }
    case CQL_KW_WITH:
        cql__advance(p);
        at->kind = CQL_ALTER_WITH;
        properties(p, &at->n_props, &at->props);
        break;
    default:
        cql__error_no_viable(p);
        return;
    }
    at->n_columns = cols.n;
    at->columns = cols.data;
}


/* ---- indexes and types ------------------------------------------------------------------- */

static void create_index(cql_parser_t *p, cql_stmt_t *st)
{
    cql_create_index_t *ci = &st->u.create_index;
    st->kind = CQL_STMT_CREATE_INDEX;
    cql__accept_kw(p, CQL_KW_CUSTOM);
    cql__advance(p); /* INDEX */
    ci->if_not_exists = if_not_exists(p);
    if (!cql__peek_kw(p, 0, CQL_KW_ON)) {
        ci->name = cql__parse_ident(p);
    }
    cql__expect_kw(p, CQL_KW_ON);
    cql__parse_qname(p, &ci->table);
    cql__expect(p, CQL_TOK_LPAREN);
    const cql_token_t *t = cql__peek(p, 0);
    if (t->type == CQL_TOK_IDENT && cql__peek_is(p, 1, CQL_TOK_LPAREN) &&
        (t->kw == CQL_KW_KEYS || t->kw == CQL_KW_VALUES || t->kw == CQL_KW_ENTRIES ||
         t->kw == CQL_KW_FULL)) {
        ci->target_kind = cql__keyword_name(t->kw);
        cql__advance(p);
        cql__advance(p);
        ci->column = cql__parse_ident(p);
        cql__expect(p, CQL_TOK_RPAREN);
    } else {
        ci->column = cql__parse_ident(p);
    }
    cql__expect(p, CQL_TOK_RPAREN);
    if (cql__accept_kw(p, CQL_KW_USING)) {
        if (!cql__peek_is(p, 0, CQL_TOK_STRING)) {
            cql__error_mismatch(p, "STRING_LITERAL");
            return;
        }
        const cql_term_t *cls = cql__parse_term(p);
        ci->custom_class = cls ? cls->text : NULL;
    }
    if (cql__accept_kw(p, CQL_KW_WITH)) { /* WITH OPTIONS = {...}: accepted, unused */
        size_t n;
        cql_property_t *props;
        properties(p, &n, &props);
    }
}


static void create_type(cql_parser_t *p, cql_stmt_t *st)
{
    cql_create_type_t *ct = &st->u.create_type;
    st->kind = CQL_STMT_CREATE_TYPE;
    cql__advance(p); /* TYPE */
    ct->if_not_exists = if_not_exists(p);
    cql__parse_qname(p, &ct->type);
    cql__expect(p, CQL_TOK_LPAREN);
    cql_vec_t names = {0}, types = {0};
    do {
        const char *name = cql__parse_ident(p);
        const cql_type_ast_t *type = cql__parse_type(p);
        cql__vec_push(p, &names, name);
        cql__vec_push(p, &types, type);
        /* Cassandra's grammar lets a field list end with a comma: ( a int, ) */
    } while (!p->failed && cql__accept(p, CQL_TOK_COMMA) && !cql__peek_is(p, 0, CQL_TOK_RPAREN));
    cql__expect(p, CQL_TOK_RPAREN);
    ct->n_fields = names.n;
    ct->field_names = names.data;
    ct->field_types = types.data;
}


/* ---- dispatch ---------------------------------------------------------------------------- */

/* The statements after CREATE/ALTER/DROP that map to CQL_STMT_OTHER. */
static const char *other_object(cql_parser_t *p, const char *verb)
{
    static const struct {
        cql_kw_t kw;
        const char *create, *alter, *drop;
    } objects[] = {
        {CQL_KW_ROLE, "CREATE ROLE", "ALTER ROLE", "DROP ROLE"},
        {CQL_KW_USER, "CREATE USER", "ALTER USER", "DROP USER"},
        {CQL_KW_FUNCTION, "CREATE FUNCTION", NULL, "DROP FUNCTION"},
        {CQL_KW_AGGREGATE, "CREATE AGGREGATE", NULL, "DROP AGGREGATE"},
        {CQL_KW_TRIGGER, "CREATE TRIGGER", NULL, "DROP TRIGGER"},
        {CQL_KW_MATERIALIZED, "CREATE MATERIALIZED VIEW", "ALTER MATERIALIZED VIEW",
         "DROP MATERIALIZED VIEW"},
    };
    const cql_token_t *t = cql__peek(p, 0);
    if (t->type != CQL_TOK_IDENT) {
        return NULL;
    }
    if (t->kw == CQL_KW_MATERIALIZED && !cql__peek_kw(p, 1, CQL_KW_VIEW)) {
        return NULL;
    }
    for (size_t i = 0; i < sizeof(objects) / sizeof(objects[0]); i++) {
        if (objects[i].kw == t->kw) {
            return verb[0] == 'C'   ? objects[i].create
                   : verb[0] == 'A' ? objects[i].alter
                                    : objects[i].drop;
        }
    }
    return NULL;
}


void cql__parse_create(cql_parser_t *p, cql_stmt_t *st)
{
    cql__advance(p); /* CREATE */
    const cql_token_t *t = cql__peek(p, 0);
    switch (t->type == CQL_TOK_IDENT ? t->kw : CQL_KW_NONE) {
    case CQL_KW_KEYSPACE:
    case CQL_KW_SCHEMA:
        create_keyspace(p, st);
        return;
    case CQL_KW_TABLE:
    case CQL_KW_COLUMNFAMILY:
        create_table(p, st);
        return;
    case CQL_KW_INDEX:
        create_index(p, st);
        return;
    case CQL_KW_CUSTOM:
        if (cql__peek_kw(p, 1, CQL_KW_INDEX)) {
            create_index(p, st);
            return;
        }
        break;
    case CQL_KW_TYPE:
        create_type(p, st);
        return;
    case CQL_KW_OR:
        if (cql__peek_kw(p, 1, CQL_KW_REPLACE)) {
            if (cql__peek_kw(p, 2, CQL_KW_FUNCTION)) {
                cql__parse_other(p, st, "CREATE FUNCTION");
                return;
            }
            if (cql__peek_kw(p, 2, CQL_KW_AGGREGATE)) {
                cql__parse_other(p, st, "CREATE AGGREGATE");
                return;
            }
        }
        break;
    default: {
        const char *what = other_object(p, "CREATE");
        if (what != NULL) {
            cql__parse_other(p, st, what);
            return;
        }
        break;
    }
    }
    cql__error_no_viable(p);
}


void cql__parse_alter(cql_parser_t *p, cql_stmt_t *st)
{
    cql__advance(p); /* ALTER */
    const cql_token_t *t = cql__peek(p, 0);
    switch (t->type == CQL_TOK_IDENT ? t->kw : CQL_KW_NONE) {
    case CQL_KW_KEYSPACE:
    case CQL_KW_SCHEMA:
        alter_keyspace(p, st);
        return;
    case CQL_KW_TABLE:
    case CQL_KW_COLUMNFAMILY:
        alter_table(p, st);
        return;
    case CQL_KW_TYPE:
        alter_type(p, st);
        return;
    default: {
        const char *what = other_object(p, "ALTER");
        if (what != NULL) {
            cql__parse_other(p, st, what);
            return;
        }
        break;
    }
    }
    cql__error_no_viable(p);
}


void cql__parse_drop(cql_parser_t *p, cql_stmt_t *st)
{
    cql__advance(p); /* DROP */
    const cql_token_t *t = cql__peek(p, 0);
    cql_drop_t *d = &st->u.drop;
    switch (t->type == CQL_TOK_IDENT ? t->kw : CQL_KW_NONE) {
    case CQL_KW_KEYSPACE:
    case CQL_KW_SCHEMA:
        st->kind = CQL_STMT_DROP_KEYSPACE;
        cql__advance(p);
        d->if_exists = if_exists(p);
        d->name.name = cql__parse_ident(p);
        return;
    case CQL_KW_TABLE:
    case CQL_KW_COLUMNFAMILY:
        st->kind = CQL_STMT_DROP_TABLE;
        break;
    case CQL_KW_INDEX:
        st->kind = CQL_STMT_DROP_INDEX;
        break;
    case CQL_KW_TYPE:
        st->kind = CQL_STMT_DROP_TYPE;
        break;
    default: {
        const char *what = other_object(p, "DROP");
        if (what != NULL) {
            cql__parse_other(p, st, what);
        } else {
            cql__error_no_viable(p);
        }
        return;
    }
    }
    cql__advance(p);
    d->if_exists = if_exists(p);
    cql__parse_qname(p, &d->name);
}
