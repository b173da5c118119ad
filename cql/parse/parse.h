/*
 * parse.h - the parse room of cql/ (cql/parse/): the parsed form of one CQL
 * statement (the AST), the parser entry point and statement shapes. The
 * bottom room: it includes nothing of cql/ but itself.
 *
 * The parser (parser.c) builds it in a request arena; the analyzer and
 * executor (cql/exec/) read it; nothing mutates it after parsing, so a
 * prepared statement keeps its AST for its whole life and is never parsed
 * again.
 *
 * Conventions:
 *  - Identifiers are already normalised: unquoted names are lower-cased,
 *    "quoted" names keep their case with the quotes removed and "" undone.
 *    All strings are NUL-terminated and arena-allocated.
 *  - Keywords are case-insensitive; keyword-like column names that
 *    Cassandra allows unquoted (e.g. key, type, value, ttl, writetime, date,
 *    time, timestamp, count, token...) are accepted as identifiers.
 *  - Bind markers are numbered in order of appearance from 0: '?' and
 *    ':name' alike (a repeated ':name' keeps one index per occurrence, as
 *    in Cassandra). stmt->n_binds counts them; bind_names[i] is NULL for '?'.
 */
#ifndef CQL_PARSE_PARSE_H
#define CQL_PARSE_PARSE_H

#include "base/base.h"

/* ---- terms ----------------------------------------------------------------- */

typedef enum {
    CQL_LIT_STRING,   /* 'text' (quotes removed, '' undone) or $$text$$ */
    CQL_LIT_INTEGER,  /* -?[0-9]+ as text */
    CQL_LIT_FLOAT,    /* decimal/exponent as text, also NaN and Infinity (with sign) */
    CQL_LIT_BOOLEAN,  /* text "true"/"false" (lower-cased) */
    CQL_LIT_UUID,     /* canonical 8-4-4-4-12 hex as text */
    CQL_LIT_HEX,      /* 0x... as text without the 0x */
    CQL_LIT_DURATION, /* 1h30m, P1D, ... as text */
    CQL_LIT_NULL,
} cql_lit_kind_t;

typedef enum {
    CQL_TERM_LITERAL,
    CQL_TERM_BIND,     /* bind_index, bind_name (may be NULL) */
    CQL_TERM_LIST,     /* [a, b]       items */
    CQL_TERM_SET,      /* {a, b}       items ({} alone parses as CQL_TERM_MAP with 0 items) */
    CQL_TERM_MAP,      /* {k: v, ...}  items as k0, v0, k1, v1... (n_items even) */
    CQL_TERM_TUPLE,    /* (a, b)       items */
    CQL_TERM_UDT,      /* {f: v, ...}  field_names[i], items[i]; chosen over MAP when every key
                          is a bare identifier */
    CQL_TERM_FUNCTION, /* name(args): now(), uuid(), toTimestamp(now()), token(..) ... */
    CQL_TERM_CAST,     /* (type) term: items[0], cast_type */
    CQL_TERM_NEGATE,   /* -term on a non-literal (rare) */
} cql_term_kind_t;

typedef struct cql_type_ast_s cql_type_ast_t;

typedef struct cql_term_s {
    cql_term_kind_t kind;
    cql_lit_kind_t lit;    /* LITERAL */
    const char *text;      /* LITERAL value text; FUNCTION name (lower-cased) */
    const char *keyspace;  /* FUNCTION keyspace qualifier or NULL */
    int bind_index;        /* BIND */
    const char *bind_name; /* BIND, NULL for '?' */
    size_t n_items;
    struct cql_term_s **items;
    const char **field_names; /* UDT */
    const cql_type_ast_t *cast_type;
} cql_term_t;

/* ---- types (as written in DDL and casts) ------------------------------------- */

struct cql_type_ast_s {
    const char *name;     /* lower-cased: "int", "text", "list", "map", "set", "tuple",
                             "frozen" is folded into frozen=true; otherwise a UDT name */
    const char *keyspace; /* UDT keyspace qualifier, or NULL */
    bool frozen;
    size_t n_params;
    const cql_type_ast_t **params;
    const char *custom; /* 'quoted.class.Name' custom types */
};

/* ---- names ------------------------------------------------------------------ */

typedef struct cql_qname_s {
    const char *keyspace; /* NULL when not qualified */
    const char *name;
} cql_qname_t;

/* ---- WHERE ------------------------------------------------------------------ */

typedef enum {
    CQL_OP_EQ,
    CQL_OP_LT,
    CQL_OP_LTE,
    CQL_OP_GT,
    CQL_OP_GTE,
    CQL_OP_NEQ,
    CQL_OP_IN,
    CQL_OP_CONTAINS,
    CQL_OP_CONTAINS_KEY,
    CQL_OP_LIKE,
    CQL_OP_IS_NOT_NULL,
} cql_rel_op_t;

typedef enum {
    CQL_LHS_COLUMN,  /* col */
    CQL_LHS_TOKEN,   /* token(c1, c2, ...) */
    CQL_LHS_TUPLE,   /* (c1, c2) multi-column relation */
    CQL_LHS_ELEMENT, /* col[term] (map element) */
} cql_lhs_kind_t;

typedef struct cql_relation_s {
    cql_lhs_kind_t lhs;
    size_t n_columns;
    const char **columns;      /* 1 for COLUMN/ELEMENT, n for TOKEN/TUPLE */
    const cql_term_t *element; /* ELEMENT key */
    cql_rel_op_t op;
    /* IN: in_values (n_in) or, for "IN ?", rhs is a single bind term.
       Everything else: rhs. IS NOT NULL: rhs NULL. */
    const cql_term_t *rhs;
    size_t n_in;
    const cql_term_t **in_values;
} cql_relation_t;

/* ---- SELECT ----------------------------------------------------------------- */

typedef enum {
    CQL_SEL_STAR,       /* * (only selector) */
    CQL_SEL_COLUMN,     /* name */
    CQL_SEL_FUNCTION,   /* name(args...) incl. ttl(c), writetime(c), token(..), count(*),
                           count(c), min/max/sum/avg, toJson, cast handled as CAST */
    CQL_SEL_COUNT_STAR, /* count(*) / count(1) */
    CQL_SEL_CAST,       /* CAST(selector AS type) */
    CQL_SEL_TERM,       /* a literal/bind term as a selector (rare) */
    CQL_SEL_FIELD,      /* args[0].field: a user type field, at any depth (b.x.a) */
    CQL_SEL_ELEMENT,    /* args[0][term]: a set or map element */
    CQL_SEL_SLICE,      /* args[0][term..term_hi]: a set or map slice, either end open (NULL) */
} cql_sel_kind_t;

typedef struct cql_selector_s {
    cql_sel_kind_t kind;
    const char *name;  /* COLUMN: column; FUNCTION: function name (lower-cased) */
    const char *field; /* FIELD: the field's name */
    size_t n_args;
    struct cql_selector_s **args;
    const cql_type_ast_t *cast_type;
    const cql_term_t *term;    /* TERM; ELEMENT key; SLICE lower end */
    const cql_term_t *term_hi; /* SLICE upper end */
    const char *alias;         /* AS alias or NULL */
    const char *text;          /* the selector as written, for default column names
                                  (e.g. "system.count(*)" uses name, "ttl(v)") */
} cql_selector_t;

typedef struct cql_ordering_s {
    const char *column;
    bool desc;
} cql_ordering_t;

typedef struct cql_select_s {
    cql_qname_t table;
    bool json;
    bool distinct;
    size_t n_selectors;
    cql_selector_t **selectors; /* n_selectors == 1 && kind STAR for * */
    size_t n_where;
    cql_relation_t *where;
    size_t n_group_by;
    const char **group_by;
    size_t n_order;
    cql_ordering_t *order;
    const cql_term_t *per_partition_limit; /* NULL when absent */
    const cql_term_t *limit;               /* NULL when absent */
    bool allow_filtering;
} cql_select_t;

/* ---- modifications ------------------------------------------------------------ */

typedef struct cql_using_s {
    const cql_term_t *ttl;       /* NULL when absent */
    const cql_term_t *timestamp; /* NULL when absent */
} cql_using_t;

typedef struct cql_condition_s { /* IF col op term, IF col[k] op term, IF col.f op term */
    const char *column;
    const cql_term_t *element; /* col[element] or NULL */
    const char *field;         /* col.field (a user type's field) or NULL */
    cql_rel_op_t op;           /* EQ, NEQ, LT..., IN */
    const cql_term_t *rhs;
    size_t n_in;
    const cql_term_t **in_values;
} cql_condition_t;

typedef struct cql_conditions_s {
    bool if_exists;
    bool if_not_exists;
    size_t n;
    cql_condition_t *conds;
} cql_conditions_t;

typedef struct cql_insert_s {
    cql_qname_t table;
    size_t n_columns;
    const char **columns;
    const cql_term_t **values; /* n_columns entries */
    const cql_term_t *json;    /* INSERT JSON 'text' / ?: then columns are empty */
    bool json_default_unset;   /* DEFAULT UNSET (default is NULL) */
    cql_using_t using_;
    bool if_not_exists;
} cql_insert_t;

typedef enum {
    CQL_ASSIGN_SET,     /* c = term */
    CQL_ASSIGN_ADD,     /* c = c + term   (also counter increments, collection append) */
    CQL_ASSIGN_SUB,     /* c = c - term */
    CQL_ASSIGN_PREPEND, /* c = term + c (lists) */
    CQL_ASSIGN_ELEMENT, /* c[key] = term */
    CQL_ASSIGN_FIELD,   /* c.field = term (UDT) */
} cql_assign_kind_t;

typedef struct cql_assignment_s {
    cql_assign_kind_t kind;
    const char *column;
    const cql_term_t *key; /* ELEMENT */
    const char *field;     /* FIELD */
    const cql_term_t *value;
} cql_assignment_t;

typedef struct cql_update_s {
    cql_qname_t table;
    cql_using_t using_;
    size_t n_assign;
    cql_assignment_t *assign;
    size_t n_where;
    cql_relation_t *where;
    cql_conditions_t cond;
} cql_update_t;

typedef struct cql_delete_target_s {
    const char *column;
    const cql_term_t *element; /* DELETE m['k'] FROM ... */
    const char *field;         /* DELETE u.f FROM ... */
} cql_delete_target_t;

typedef struct cql_delete_s {
    cql_qname_t table;
    size_t n_targets; /* 0: the whole row/partition/range */
    cql_delete_target_t *targets;
    cql_using_t using_; /* only timestamp is legal */
    size_t n_where;
    cql_relation_t *where;
    cql_conditions_t cond;
} cql_delete_t;

struct cql_stmt_s;

typedef struct cql_batch_s {
    int type; /* WIRE_BATCH_LOGGED / UNLOGGED / COUNTER */
    cql_using_t using_;
    size_t n_stmts;
    struct cql_stmt_s **stmts; /* INSERT / UPDATE / DELETE only */
} cql_batch_t;

/* ---- DDL --------------------------------------------------------------------- */

/* WITH a = 1 AND b = {'k': 'v'} AND CLUSTERING ORDER BY (...) AND COMPACT STORAGE */
typedef struct cql_property_s {
    const char *name;        /* lower-cased */
    const cql_term_t *value; /* literal (string/number/boolean) or MAP */
} cql_property_t;

typedef struct cql_column_def_s {
    const char *name;
    const cql_type_ast_t *type;
    bool is_static;
    bool primary_key; /* "c int PRIMARY KEY" inline form */
} cql_column_def_t;

typedef struct cql_create_table_s {
    cql_qname_t table;
    bool if_not_exists;
    size_t n_columns;
    cql_column_def_t *columns;
    /* PRIMARY KEY ((a, b), c, d): partition a, b; clustering c, d. For the
       inline form the parser fills n_partition = 1 from the column. 0 when no
       primary key was given (an error the executor reports). */
    size_t n_partition;
    const char **partition;
    size_t n_clustering;
    const char **clustering;
    size_t n_props;
    cql_property_t *props;
    size_t n_order; /* CLUSTERING ORDER BY */
    cql_ordering_t *order;
    bool compact_storage;
} cql_create_table_t;

typedef enum {
    CQL_ALTER_ADD,    /* ADD c type [, d type] (also ADD (c type, d type)) */
    CQL_ALTER_DROP,   /* DROP c [, d] */
    CQL_ALTER_RENAME, /* RENAME a TO b [AND c TO d] (columns[2i] -> columns[2i+1]) */
    CQL_ALTER_ALTER,  /* ALTER c TYPE t */
    CQL_ALTER_WITH,   /* WITH props */
} cql_alter_kind_t;

typedef struct cql_alter_table_s {
    cql_qname_t table;
    cql_alter_kind_t kind;
    size_t n_columns;
    cql_column_def_t *columns; /* ADD / ALTER (type) / DROP+RENAME (names only) */
    size_t n_props;
    cql_property_t *props;
    const cql_term_t *drop_ts; /* DROP ... USING TIMESTAMP t, else NULL */
} cql_alter_table_t;

typedef struct cql_keyspace_def_s {
    const char *name;
    bool if_not_exists; /* CREATE */
    size_t n_props;
    cql_property_t *props; /* replication map, durable_writes, cosmosdb_* */
} cql_keyspace_def_t;

typedef struct cql_drop_s {
    cql_qname_t name; /* keyspace in name.name for DROP KEYSPACE */
    bool if_exists;
} cql_drop_t;

typedef struct cql_create_index_s {
    const char *name; /* NULL: default <table>_<column>_idx */
    cql_qname_t table;
    bool if_not_exists;
    const char *column;
    const char *target_kind;  /* NULL, "keys", "values", "entries", "full" */
    const char *custom_class; /* USING 'class' */
} cql_create_index_t;

typedef struct cql_create_type_s {
    cql_qname_t type;
    bool if_not_exists;
    size_t n_fields;
    const char **field_names;
    const cql_type_ast_t **field_types;
} cql_create_type_t;

/* ---- statements ---------------------------------------------------------------- */

typedef enum {
    CQL_STMT_SELECT,
    CQL_STMT_INSERT,
    CQL_STMT_UPDATE,
    CQL_STMT_DELETE,
    CQL_STMT_BATCH,
    CQL_STMT_USE,
    CQL_STMT_CREATE_KEYSPACE,
    CQL_STMT_ALTER_KEYSPACE,
    CQL_STMT_DROP_KEYSPACE,
    CQL_STMT_CREATE_TABLE,
    CQL_STMT_ALTER_TABLE,
    CQL_STMT_DROP_TABLE,
    CQL_STMT_TRUNCATE,
    CQL_STMT_CREATE_INDEX,
    CQL_STMT_DROP_INDEX,
    CQL_STMT_CREATE_TYPE,
    CQL_STMT_DROP_TYPE,
    CQL_STMT_ALTER_TYPE,
    CQL_STMT_OTHER, /* recognised but unimplemented: other_what says e.g. "CREATE ROLE" */
} cql_stmt_kind_t;

typedef struct cql_stmt_s {
    cql_stmt_kind_t kind;
    size_t n_binds;
    const char **bind_names; /* n_binds entries, NULL for '?' */
    union {
        cql_select_t select;
        cql_insert_t insert;
        cql_update_t update;
        cql_delete_t del;
        cql_batch_t batch;
        const char *use_keyspace;
        cql_keyspace_def_t keyspace; /* CREATE/ALTER KEYSPACE */
        cql_drop_t drop;             /* DROP KEYSPACE/TABLE/INDEX/TYPE, TRUNCATE (name) */
        cql_create_table_t create_table;
        cql_alter_table_t alter_table;
        /* ALTER TYPE: `table` names the type, `columns` the fields (ADD: one
           name and type; RENAME: from/to pairs; ALTER: the field and its type) */
        cql_alter_table_t alter_type;
        cql_create_index_t create_index;
        cql_create_type_t create_type;
        const char *other_what;
    } u;
} cql_stmt_t;

/*
 * Parses exactly one statement (an optional trailing ';' is allowed).
 * Returns BASE_OK with *out in the arena, or BASE_ERROR with a Syntax error
 * (0x2000) whose message follows Cassandra's shape, e.g.
 *   line 1:9 no viable alternative at input 'FORM' (SELECT * [FORM]...)
 *   line 1:22 mismatched input 'x' expecting ')' (...)
 * Nesting (terms, types) is bounded, so hostile input cannot exhaust the stack.
 */
int cql__parse(const char *text, size_t len, base_arena_t *a, cql_stmt_t **out, base_error_t *err);

/* A parsed type as Cassandra prints a raw type in its errors ("map<ks.u, int>"; arena). */
const char *cql__type_ast_text(const cql_type_ast_t *t, base_arena_t *a);

/* Statement text with literals replaced by '?' (shape.c; arena). */
const char *cql__shape(const char *text, size_t len, base_arena_t *a);

#endif
