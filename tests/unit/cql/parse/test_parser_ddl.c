/* Unit tests for the CQL parser: USE, keyspaces, tables, indexes, types,
 * TRUNCATE and the statements mapped to CQL_STMT_OTHER. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cql/parse/parse.h"
#include "parser_test_util.h"


static const cql_property_t *prop(const cql_property_t *props, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(props[i].name, name) == 0) {
            return &props[i];
        }
    }
    print_message("no property %s\n", name);
    fail();
    return NULL;
}


static void use_keyspace(void **state)
{
    cql_stmt_t *st = parse_ok(state, "USE MyKs;");
    assert_int_equal(st->kind, CQL_STMT_USE);
    assert_string_equal(st->u.use_keyspace, "myks");
    st = parse_ok(state, "use \"MyKs\"");
    assert_string_equal(st->u.use_keyspace, "MyKs");
}


static void create_keyspace_with_replication_and_options(void **state)
{
    cql_stmt_t *st =
        parse_ok(state, "CREATE KEYSPACE IF NOT EXISTS excalibur WITH replication = "
                        "{'class': 'NetworkTopologyStrategy', 'DC1' : 1, 'DC2' : 3} "
                        "AND durable_writes = true AND cosmosdb_provisioned_throughput "
                        "= 400");
    assert_int_equal(st->kind, CQL_STMT_CREATE_KEYSPACE);
    const cql_keyspace_def_t *ks = &st->u.keyspace;
    assert_string_equal(ks->name, "excalibur");
    assert_true(ks->if_not_exists);
    assert_int_equal(ks->n_props, 3);
    const cql_property_t *repl = prop(ks->props, ks->n_props, "replication");
    assert_int_equal(repl->value->kind, CQL_TERM_MAP);
    assert_int_equal(repl->value->n_items, 6);
    assert_lit(repl->value->items[0], CQL_LIT_STRING, "class");
    assert_lit(repl->value->items[1], CQL_LIT_STRING, "NetworkTopologyStrategy");
    assert_lit(repl->value->items[5], CQL_LIT_INTEGER, "3");
    assert_lit(prop(ks->props, ks->n_props, "durable_writes")->value, CQL_LIT_BOOLEAN, "true");
    assert_lit(prop(ks->props, ks->n_props, "cosmosdb_provisioned_throughput")->value,
               CQL_LIT_INTEGER, "400");
}


static void cosmos_keyspace_needs_no_replication(void **state)
{
    cql_stmt_t *st = parse_ok(state, "CREATE KEYSPACE ks WITH cosmosdb_provisioned_throughput=400");
    assert_false(st->u.keyspace.if_not_exists);
    assert_int_equal(st->u.keyspace.n_props, 1);
    assert_string_equal(st->u.keyspace.props[0].name, "cosmosdb_provisioned_throughput");
}


static void alter_and_drop_keyspace(void **state)
{
    cql_stmt_t *st =
        parse_ok(state, "ALTER KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
                        "'replication_factor': 4}");
    assert_int_equal(st->kind, CQL_STMT_ALTER_KEYSPACE);
    assert_string_equal(st->u.keyspace.name, "ks");
    assert_int_equal(st->u.keyspace.n_props, 1);

    st = parse_ok(state, "DROP KEYSPACE IF EXISTS ks");
    assert_int_equal(st->kind, CQL_STMT_DROP_KEYSPACE);
    assert_string_equal(st->u.drop.name.name, "ks");
    assert_null(st->u.drop.name.keyspace);
    assert_true(st->u.drop.if_exists);
    st = parse_ok(state, "DROP SCHEMA ks");
    assert_false(st->u.drop.if_exists);
}


static void sensor_data_model_with_composite_partition_key(void **state)
{
    cql_stmt_t *st = parse_ok(state, "CREATE TABLE sensor_data (sensor_id uuid, date date, "
                                     "reading_time timestamp, value double, PRIMARY KEY "
                                     "((sensor_id, date), reading_time)) WITH CLUSTERING ORDER "
                                     "BY (reading_time DESC)");
    assert_int_equal(st->kind, CQL_STMT_CREATE_TABLE);
    const cql_create_table_t *ct = &st->u.create_table;
    assert_string_equal(ct->table.name, "sensor_data");
    assert_false(ct->if_not_exists);
    assert_int_equal(ct->n_columns, 4);
    static const char *names[] = {"sensor_id", "date", "reading_time", "value"};
    static const char *types[] = {"uuid", "date", "timestamp", "double"};
    for (size_t i = 0; i < 4; i++) {
        assert_string_equal(ct->columns[i].name, names[i]);
        assert_string_equal(ct->columns[i].type->name, types[i]);
        assert_false(ct->columns[i].is_static || ct->columns[i].primary_key);
    }
    assert_int_equal(ct->n_partition, 2);
    assert_string_equal(ct->partition[0], "sensor_id");
    assert_string_equal(ct->partition[1], "date");
    assert_int_equal(ct->n_clustering, 1);
    assert_string_equal(ct->clustering[0], "reading_time");
    assert_int_equal(ct->n_order, 1);
    assert_string_equal(ct->order[0].column, "reading_time");
    assert_true(ct->order[0].desc);
    assert_int_equal(ct->n_props, 0);
    assert_false(ct->compact_storage);
}


static void create_table_inline_key_static_and_options(void **state)
{
    cql_stmt_t *st = parse_ok(
        state, "CREATE TABLE IF NOT EXISTS ks.t (k text PRIMARY KEY, s int STATIC, v blob,) "
               "WITH comment = 'It''s' AND compaction = {'class': 'LeveledCompactionStrategy'} "
               "AND COMPACT STORAGE AND gc_grace_seconds = 0 AND caching = ALL "
               "AND bloom_filter_fp_chance = 0.01");
    const cql_create_table_t *ct = &st->u.create_table;
    assert_true(ct->if_not_exists);
    assert_string_equal(ct->table.keyspace, "ks");
    assert_int_equal(ct->n_columns, 3);
    assert_true(ct->columns[0].primary_key);
    assert_true(ct->columns[1].is_static);
    assert_int_equal(ct->n_partition, 1);
    assert_string_equal(ct->partition[0], "k");
    assert_int_equal(ct->n_clustering, 0);
    assert_true(ct->compact_storage);
    assert_int_equal(ct->n_props, 5);
    assert_lit(prop(ct->props, ct->n_props, "comment")->value, CQL_LIT_STRING, "It's");
    assert_int_equal(prop(ct->props, ct->n_props, "compaction")->value->kind, CQL_TERM_MAP);
    assert_lit(prop(ct->props, ct->n_props, "caching")->value, CQL_LIT_STRING, "ALL");
    assert_lit(prop(ct->props, ct->n_props, "bloom_filter_fp_chance")->value, CQL_LIT_FLOAT,
               "0.01");
}


static void create_table_key_clause_anywhere_and_simple_key(void **state)
{
    cql_stmt_t *st = parse_ok(state, "CREATE TABLE t (PRIMARY KEY (a, c), a int, c int, "
                                     "d text) WITH CLUSTERING ORDER BY (c ASC) AND "
                                     "cosmosdb_provisioned_throughput = 400");
    const cql_create_table_t *ct = &st->u.create_table;
    assert_int_equal(ct->n_columns, 3);
    assert_int_equal(ct->n_partition, 1);
    assert_string_equal(ct->partition[0], "a");
    assert_int_equal(ct->n_clustering, 1);
    assert_false(ct->order[0].desc);
    assert_int_equal(ct->n_props, 1);

    st = parse_ok(state, "CREATE TABLE t (a int, b int)");
    assert_int_equal(st->u.create_table.n_partition, 0); /* the executor reports it */
}


static void create_table_with_two_primary_keys_is_invalid(void **state)
{
    assert_string_equal(
        parse_invalid(state, "CREATE TABLE t (a int PRIMARY KEY, b int, PRIMARY KEY (b))"),
        "Multiple PRIMARY KEYs specifed (exactly one required)");
}


static void system_table_definitions_parse(void **state)
{
    cql_stmt_t *st =
        parse_ok(state, "CREATE TABLE system.local (key text PRIMARY KEY, bootstrapped text, "
                        "broadcast_address inet, cluster_name text, tokens set<text>, "
                        "truncated_at map<uuid, blob>)");
    assert_string_equal(st->u.create_table.columns[0].name, "key");
    st = parse_ok(state, "CREATE TABLE system_schema.columns (keyspace_name text, table_name "
                         "text, column_name text, clustering_order text, column_name_bytes blob, "
                         "kind text, position int, type text, PRIMARY KEY (keyspace_name, "
                         "table_name, column_name))");
    const cql_create_table_t *ct = &st->u.create_table;
    assert_string_equal(ct->columns[7].name, "type");
    assert_int_equal(ct->n_partition, 1);
    assert_int_equal(ct->n_clustering, 2);
}


static const cql_type_ast_t *column_type(void **state, const char *type)
{
    char q[512];
    snprintf(q, sizeof(q), "CREATE TABLE t (k int PRIMARY KEY, c %s)", type);
    cql_stmt_t *st = parse_ok(state, q);
    return st->u.create_table.columns[1].type;
}


static void types_of_every_shape(void **state)
{
    const cql_type_ast_t *t = column_type(state, "VARCHAR");
    assert_string_equal(t->name, "varchar");
    assert_false(t->frozen);
    assert_int_equal(t->n_params, 0);

    t = column_type(state, "list<int>");
    assert_string_equal(t->name, "list");
    assert_int_equal(t->n_params, 1);
    assert_string_equal(t->params[0]->name, "int");

    t = column_type(state, "SET<timeuuid>");
    assert_string_equal(t->name, "set");

    t = column_type(state, "map<text, frozen<list<int>>>");
    assert_string_equal(t->name, "map");
    assert_int_equal(t->n_params, 2);
    assert_string_equal(t->params[1]->name, "list");
    assert_true(t->params[1]->frozen);
    assert_string_equal(t->params[1]->params[0]->name, "int");

    t = column_type(state, "frozen<tuple<int, text, float>>");
    assert_string_equal(t->name, "tuple");
    assert_true(t->frozen);
    assert_int_equal(t->n_params, 3);

    t = column_type(state, "frozen<ks.address>");
    assert_string_equal(t->name, "address");
    assert_string_equal(t->keyspace, "ks");
    assert_true(t->frozen);

    t = column_type(state, "\"MyType\"");
    assert_string_equal(t->name, "MyType");
    assert_null(t->keyspace);

    t = column_type(state, "'org.apache.cassandra.db.marshal.UTF8Type'");
    assert_string_equal(t->custom, "org.apache.cassandra.db.marshal.UTF8Type");

    t = column_type(state, "counter");
    assert_string_equal(t->name, "counter");
}


static void malformed_collection_types_are_syntax_errors(void **state)
{
    assert_starts_with(parse_err(state, "CREATE TABLE t (k int PRIMARY KEY, c list<int, int>)"),
                       "line 1:45 mismatched input ',' expecting '>'");
    assert_starts_with(parse_err(state, "CREATE TABLE t (k int PRIMARY KEY, c map<int>)"),
                       "line 1:44 mismatched input '>' expecting ','");
    assert_starts_with(parse_err(state, "CREATE TABLE t (k int PRIMARY KEY, c set)"),
                       "line 1:37 no viable alternative at input 'set'");
}


static void alter_table_instructions(void **state)
{
    cql_stmt_t *st = parse_ok(state, "ALTER TABLE ks.t ADD gravesite varchar");
    assert_int_equal(st->kind, CQL_STMT_ALTER_TABLE);
    const cql_alter_table_t *at = &st->u.alter_table;
    assert_string_equal(at->table.keyspace, "ks");
    assert_int_equal(at->kind, CQL_ALTER_ADD);
    assert_int_equal(at->n_columns, 1);
    assert_string_equal(at->columns[0].name, "gravesite");
    assert_string_equal(at->columns[0].type->name, "varchar");

    st = parse_ok(state, "ALTER TABLE t ADD (a int, b set<text>, s int static)");
    assert_int_equal(st->u.alter_table.n_columns, 3);
    assert_true(st->u.alter_table.columns[2].is_static);
    st = parse_ok(state, "ALTER TABLE t ADD a int, b text");
    assert_int_equal(st->u.alter_table.n_columns, 2);

    st = parse_ok(state, "ALTER TABLE t DROP a");
    assert_int_equal(st->u.alter_table.kind, CQL_ALTER_DROP);
    assert_int_equal(st->u.alter_table.n_columns, 1);
    assert_null(st->u.alter_table.columns[0].type);
    st = parse_ok(state, "ALTER TABLE t DROP (a, b) USING TIMESTAMP 5");
    assert_int_equal(st->u.alter_table.n_columns, 2);

    st = parse_ok(state, "ALTER TABLE t RENAME a TO b AND \"C\" TO d");
    at = &st->u.alter_table;
    assert_int_equal(at->kind, CQL_ALTER_RENAME);
    assert_int_equal(at->n_columns, 4);
    assert_string_equal(at->columns[0].name, "a");
    assert_string_equal(at->columns[1].name, "b");
    assert_string_equal(at->columns[2].name, "C");
    assert_string_equal(at->columns[3].name, "d");

    st = parse_ok(state, "ALTER TABLE t ALTER v TYPE blob");
    assert_int_equal(st->u.alter_table.kind, CQL_ALTER_ALTER);
    assert_string_equal(st->u.alter_table.columns[0].type->name, "blob");

    st = parse_ok(state, "ALTER TABLE t WITH comment = 'x' AND default_time_to_live = 10");
    assert_int_equal(st->u.alter_table.kind, CQL_ALTER_WITH);
    assert_int_equal(st->u.alter_table.n_props, 2);

    st = parse_ok(state, "ALTER TABLE t DROP COMPACT STORAGE");
    assert_int_equal(st->kind, CQL_STMT_OTHER);
}


static void drop_table_and_truncate(void **state)
{
    cql_stmt_t *st = parse_ok(state, "DROP TABLE IF EXISTS ks.t");
    assert_int_equal(st->kind, CQL_STMT_DROP_TABLE);
    assert_string_equal(st->u.drop.name.keyspace, "ks");
    assert_string_equal(st->u.drop.name.name, "t");
    assert_true(st->u.drop.if_exists);

    st = parse_ok(state, "TRUNCATE t");
    assert_int_equal(st->kind, CQL_STMT_TRUNCATE);
    assert_string_equal(st->u.drop.name.name, "t");
    st = parse_ok(state, "TRUNCATE TABLE ks.\"T\"");
    assert_string_equal(st->u.drop.name.keyspace, "ks");
    assert_string_equal(st->u.drop.name.name, "T");
}


static void create_index_forms(void **state)
{
    cql_stmt_t *st = parse_ok(state, "CREATE INDEX ON users (birth_year)");
    assert_int_equal(st->kind, CQL_STMT_CREATE_INDEX);
    const cql_create_index_t *ci = &st->u.create_index;
    assert_null(ci->name);
    assert_string_equal(ci->table.name, "users");
    assert_string_equal(ci->column, "birth_year");
    assert_null(ci->target_kind);
    assert_null(ci->custom_class);
    assert_false(ci->if_not_exists);

    static const char *kinds[] = {"keys", "values", "entries", "full"};
    static const char *queries[] = {
        "CREATE INDEX IF NOT EXISTS idx ON ks.t (KEYS(m))",
        "CREATE INDEX idx ON ks.t (values(m))",
        "CREATE INDEX idx ON ks.t (ENTRIES(m))",
        "CREATE INDEX idx ON ks.t (full(m))",
    };
    for (size_t i = 0; i < 4; i++) {
        st = parse_ok(state, queries[i]);
        ci = &st->u.create_index;
        assert_string_equal(ci->name, "idx");
        assert_string_equal(ci->table.keyspace, "ks");
        assert_string_equal(ci->target_kind, kinds[i]);
        assert_string_equal(ci->column, "m");
        assert_int_equal(ci->if_not_exists, i == 0);
    }

    st = parse_ok(state, "CREATE CUSTOM INDEX fn_idx ON t (name) USING "
                         "'org.apache.cassandra.index.sasi.SASIIndex' WITH OPTIONS = "
                         "{'mode': 'CONTAINS'}");
    assert_string_equal(st->u.create_index.custom_class,
                        "org.apache.cassandra.index.sasi.SASIIndex");

    st = parse_ok(state, "CREATE INDEX ON t (keys)"); /* a column called keys */
    assert_string_equal(st->u.create_index.column, "keys");
    assert_null(st->u.create_index.target_kind);
}


static void drop_index_and_types(void **state)
{
    cql_stmt_t *st = parse_ok(state, "DROP INDEX IF EXISTS ks.idx");
    assert_int_equal(st->kind, CQL_STMT_DROP_INDEX);
    assert_string_equal(st->u.drop.name.keyspace, "ks");
    assert_string_equal(st->u.drop.name.name, "idx");

    st = parse_ok(state, "CREATE TYPE IF NOT EXISTS ks.address (street text, city text, "
                         "zip int, phones frozen<set<text>>)");
    assert_int_equal(st->kind, CQL_STMT_CREATE_TYPE);
    const cql_create_type_t *ct = &st->u.create_type;
    assert_true(ct->if_not_exists);
    assert_string_equal(ct->type.keyspace, "ks");
    assert_string_equal(ct->type.name, "address");
    assert_int_equal(ct->n_fields, 4);
    assert_string_equal(ct->field_names[3], "phones");
    assert_string_equal(ct->field_types[3]->name, "set");
    assert_true(ct->field_types[3]->frozen);

    st = parse_ok(state, "DROP TYPE address");
    assert_int_equal(st->kind, CQL_STMT_DROP_TYPE);
    assert_string_equal(st->u.drop.name.name, "address");

    st = parse_ok(state, "CREATE TYPE t (a int, b text,)"); /* trailing comma, as Cassandra */
    assert_int_equal(st->u.create_type.n_fields, 2);
}


static void alter_type(void **state)
{
    cql_stmt_t *st = parse_ok(state, "ALTER TYPE ks.address ADD country text");
    assert_int_equal(st->kind, CQL_STMT_ALTER_TYPE);
    const cql_alter_table_t *at = &st->u.alter_type;
    assert_string_equal(at->table.keyspace, "ks");
    assert_string_equal(at->table.name, "address");
    assert_int_equal(at->kind, CQL_ALTER_ADD);
    assert_int_equal(at->n_columns, 1);
    assert_string_equal(at->columns[0].name, "country");
    assert_string_equal(at->columns[0].type->name, "text");

    st = parse_ok(state, "ALTER TYPE address RENAME a TO b AND c TO d");
    at = &st->u.alter_type;
    assert_int_equal(at->kind, CQL_ALTER_RENAME);
    assert_int_equal(at->n_columns, 4);
    assert_string_equal(at->columns[2].name, "c");
    assert_string_equal(at->columns[3].name, "d");

    st = parse_ok(state, "ALTER TYPE address ALTER a TYPE blob");
    assert_int_equal(st->u.alter_type.kind, CQL_ALTER_ALTER);
    parse_err(state, "ALTER TYPE address RENAME b TO \"\""); /* an empty quoted name */
}


static void recognised_statements_map_to_other(void **state)
{
    static const struct {
        const char *q, *what;
    } cases[] = {
        {"CREATE ROLE IF NOT EXISTS alice WITH PASSWORD = 'x' AND LOGIN = true", "CREATE ROLE"},
        {"ALTER ROLE alice WITH PASSWORD = 'y'", "ALTER ROLE"},
        {"DROP ROLE alice", "DROP ROLE"},
        {"CREATE USER bob WITH PASSWORD 'x' NOSUPERUSER", "CREATE USER"},
        {"ALTER USER bob WITH PASSWORD 'y'", "ALTER USER"},
        {"DROP USER IF EXISTS bob", "DROP USER"},
        {"GRANT SELECT ON ALL KEYSPACES TO alice", "GRANT"},
        {"REVOKE MODIFY ON KEYSPACE ks FROM alice", "REVOKE"},
        {"LIST ROLES", "LIST ROLES"},
        {"LIST USERS", "LIST USERS"},
        {"LIST ALL PERMISSIONS OF alice", "LIST PERMISSIONS"},
        {"CREATE FUNCTION f (a int) CALLED ON NULL INPUT RETURNS int LANGUAGE java AS "
         "$$ return a; $$",
         "CREATE FUNCTION"},
        {"CREATE OR REPLACE FUNCTION f (a int) RETURNS NULL ON NULL INPUT RETURNS int "
         "LANGUAGE java AS 'return a;'",
         "CREATE FUNCTION"},
        {"DROP FUNCTION IF EXISTS ks.f", "DROP FUNCTION"},
        {"CREATE AGGREGATE a (int) SFUNC s STYPE int INITCOND 0", "CREATE AGGREGATE"},
        {"DROP AGGREGATE a", "DROP AGGREGATE"},
        {"CREATE TRIGGER tr ON t USING 'org.Trig'", "CREATE TRIGGER"},
        {"DROP TRIGGER tr ON t", "DROP TRIGGER"},
        {"CREATE MATERIALIZED VIEW v AS SELECT * FROM t WHERE a IS NOT NULL PRIMARY KEY (a)",
         "CREATE MATERIALIZED VIEW"},
        {"ALTER MATERIALIZED VIEW v WITH comment = 'x'", "ALTER MATERIALIZED VIEW"},
        {"DROP MATERIALIZED VIEW v", "DROP MATERIALIZED VIEW"},
        {"DESCRIBE KEYSPACES", "DESCRIBE"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        cql_stmt_t *st = parse_ok(state, cases[i].q);
        assert_int_equal(st->kind, CQL_STMT_OTHER);
        assert_string_equal(st->u.other_what, cases[i].what);
    }
}


static void other_statements_are_still_lexed(void **state)
{
    assert_starts_with(parse_err(state, "CREATE FUNCTION f () AS $$ never closed"),
                       "line 1:39 mismatched character '<EOF>' expecting '$$'");
    assert_starts_with(parse_err(state, "CREATE SOMETHING x"),
                       "line 1:7 no viable alternative at input 'SOMETHING'");
}


int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, fx_setup, fx_teardown)
    const struct CMUnitTest tests[] = {
        T(use_keyspace),
        T(create_keyspace_with_replication_and_options),
        T(cosmos_keyspace_needs_no_replication),
        T(alter_and_drop_keyspace),
        T(sensor_data_model_with_composite_partition_key),
        T(create_table_inline_key_static_and_options),
        T(create_table_key_clause_anywhere_and_simple_key),
        T(create_table_with_two_primary_keys_is_invalid),
        T(system_table_definitions_parse),
        T(types_of_every_shape),
        T(malformed_collection_types_are_syntax_errors),
        T(alter_table_instructions),
        T(drop_table_and_truncate),
        T(create_index_forms),
        T(drop_index_and_types),
        T(alter_type),
        T(recognised_statements_map_to_other),
        T(other_statements_are_still_lexed),
    };
#undef T
    return cmocka_run_group_tests_name("cql/parser_ddl", tests, NULL, NULL);
}
