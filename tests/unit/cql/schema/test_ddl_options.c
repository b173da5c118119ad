/*
 * Tests of the table and keyspace options as Cassandra checks and stores them
 * (cql/schema/options.c, ddl.c): compression, compaction and caching maps read
 * back from system_schema.tables with their defaults, refused in Cassandra's
 * words; TableParams' bounds; WITH ID; replication maps (class required,
 * a key given twice, the replication factor warning); USE with a marker.
 */
#include "tests/unit/cql/exec/engine_test.h"


/* Whether the text cell (row 0, col) of the last result holds needle. */
static bool cell_has(const fixture_t *f, size_t col, const char *needle)
{
    const wire_value_t *v = &f->r.cells[col];
    size_t n = strlen(needle);
    for (int32_t i = 0; v->len > 0 && i + (int32_t)n <= v->len; i++) {
        if (memcmp(v->ptr + i, needle, n) == 0) {
            return true;
        }
    }
    return false;
}


static void refused(fixture_t *f, const char *q, int code, const char *words)
{
    assert_int_equal(run(f, q), BASE_ERROR);
    assert_int_equal(f->err.code, code);
    if (strstr(f->err.msg, words) == NULL) {
        fail_msg("%s -> %s (wanted \"%s\")", q, f->err.msg, words);
    }
}


#define TABLES                                                                         \
    "SELECT compression, compaction, caching, min_index_interval, max_index_interval " \
    "FROM system_schema.tables WHERE keyspace_name = 'ks' AND table_name = 't'"


static void compression_is_kept_with_defaults_and_checked(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
    ok(f, TABLES);
    assert_true(cell_has(f, 0, "org.apache.cassandra.io.compress.LZ4Compressor"));
    assert_true(cell_has(f, 1, "SizeTieredCompactionStrategy"));
    assert_int_equal(cell_int(f, 0, 3), 128);
    ok(f, "ALTER TABLE ks.t WITH compression = {'class': 'SnappyCompressor', "
          "'chunk_length_in_kb': 32}");
    ok(f, TABLES);
    assert_true(cell_has(f, 0, "org.apache.cassandra.io.compress.SnappyCompressor"));
    assert_true(cell_has(f, 0, "32"));
    ok(f, "ALTER TABLE ks.t WITH compression = {'enabled': false}");
    ok(f, TABLES);
    assert_true(cell_has(f, 0, "enabled"));
    assert_false(cell_has(f, 0, "class"));
    refused(f, "ALTER TABLE ks.t WITH compression = {'chunk_length_in_kb': 32}",
            WIRE_ERR_CONFIG_ERROR, "Missing sub-option 'class' for the 'compression' option.");
    refused(f, "ALTER TABLE ks.t WITH compression = {'sstable_compressor': 'DeflateCompressor'}",
            WIRE_ERR_CONFIG_ERROR, "Missing sub-option 'class'");
    refused(f, "ALTER TABLE ks.t WITH compression = {'class': 'LZ4Compressor', 'foo': 1}",
            WIRE_ERR_CONFIG_ERROR, "Unknown compression options foo");
    refused(f,
            "ALTER TABLE ks.t WITH compression = {'class': 'SnappyCompressor', "
            "'chunk_length_in_kb': 3}",
            WIRE_ERR_CONFIG_ERROR, "chunk_length_in_kb must be a power of 2");
    /* a refused ALTER leaves the table as it was */
    ok(f, TABLES);
    assert_true(cell_has(f, 0, "enabled"));
}


static void compaction_caching_and_intervals_are_kept(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (k int PRIMARY KEY, v int) WITH compaction = "
          "{'class': 'LeveledCompactionStrategy'} AND caching = {'rows_per_partition': 'ALL'}");
    ok(f, "ALTER TABLE ks.t WITH min_index_interval = 256 AND max_index_interval = 512");
    ok(f, TABLES);
    assert_true(cell_has(f, 1, "org.apache.cassandra.db.compaction.LeveledCompactionStrategy"));
    assert_true(cell_has(f, 1, "min_threshold"));
    assert_true(cell_has(f, 2, "ALL"));
    assert_int_equal(cell_int(f, 0, 3), 256);
    assert_int_equal(cell_int(f, 0, 4), 512);
    refused(f, "ALTER TABLE ks.t WITH compaction = {'min_threshold': 4}", WIRE_ERR_CONFIG_ERROR,
            "Missing sub-option 'class' for the 'compaction' option");
    refused(f, "ALTER TABLE ks.t WITH max_index_interval = 100", WIRE_ERR_CONFIG_ERROR,
            "max_index_interval must be greater than or equal to min_index_interval (256)");
    refused(f, "ALTER TABLE ks.t WITH caching = {'keys': 'some'}", WIRE_ERR_CONFIG_ERROR,
            "for caching sub-option 'keys'");
}


static void table_params_are_bounded_in_cassandras_words(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    refused(f, "CREATE TABLE ks.t (k int PRIMARY KEY) WITH default_time_to_live = -1",
            WIRE_ERR_CONFIG_ERROR,
            "default_time_to_live must be greater than or equal to 0 (got -1)");
    refused(f, "CREATE TABLE ks.t (k int PRIMARY KEY) WITH default_time_to_live = 630720001",
            WIRE_ERR_CONFIG_ERROR,
            "default_time_to_live must be less than or equal to 630720000 (got 630720001)");
    refused(f, "CREATE TABLE ks.t (k int PRIMARY KEY) WITH ID = 55", WIRE_ERR_CONFIG_ERROR,
            "Invalid table id");
    ok(f, "CREATE TABLE ks.t (k int PRIMARY KEY) WITH ID = 5a1c395e-b41f-11e5-9f22-ba0be0483c18");
    refused(f, "ALTER TABLE ks.t WITH ID = 5a1c395e-b41f-11e5-9f22-ba0be0483c18",
            WIRE_ERR_CONFIG_ERROR, "Cannot alter table id.");
}


static void replication_maps_are_checked(void **state)
{
    fixture_t *f = *state;
    refused(f, "CREATE KEYSPACE k1 WITH replication = {'replication_factor': 1}",
            WIRE_ERR_CONFIG_ERROR, "Missing mandatory replication strategy class");
    refused(f,
            "CREATE KEYSPACE k1 WITH replication = {'class': 'NetworkTopologyStrategy', "
            "'dc1': 2, 'dc1': 3}",
            WIRE_ERR_SYNTAX_ERROR, "Multiple definition for property dc1");
    refused(f, "CREATE KEYSPACE k1 WITH replication = {'class': 'NoSuchStrategy'}",
            WIRE_ERR_CONFIG_ERROR, "Unable to find replication strategy class");
    ok(f, "CREATE KEYSPACE k1 WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 3}");
    assert_int_equal(f->r.n_warnings, 1);
    assert_non_null(strstr(f->r.warnings[0], "Your replication factor 3 for keyspace k1"));
    ok(f, "SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = 'k1'");
    assert_true(cell_has(f, 0, "org.apache.cassandra.locator.SimpleStrategy"));
}


static void use_refuses_a_bind_marker(void **state)
{
    fixture_t *f = *state;
    refused(f, "USE ?", WIRE_ERR_SYNTAX_ERROR, "Bind variables cannot be used for keyspace names");
}


static void default_index_names_take_a_free_suffix(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (k int PRIMARY KEY, m map<text, int>, v int)");
    ok(f, "CREATE INDEX ON ks.t (m)");
    ok(f, "CREATE INDEX ON ks.t (keys(m))");
    ok(f, "SELECT index_name FROM system_schema.indexes WHERE keyspace_name = 'ks'");
    assert_int_equal(f->r.n_rows, 2);
    ok(f, "DROP INDEX ks.t_m_idx_1");
    refused(f, "CREATE INDEX ON ks.t (m)", WIRE_ERR_INVALID,
            "is a duplicate of existing index t_m_idx");
    ok(f, "CREATE INDEX IF NOT EXISTS ON ks.t (m)");
    ok(f, "CREATE INDEX ON ks.t (v)");
    refused(f, "CREATE INDEX ON ks.t (v)", WIRE_ERR_INVALID, "duplicate of existing index t_v_idx");
}


static void a_type_of_another_keyspace_is_refused(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    refused(
        f, "CREATE TABLE ks.t (k int PRIMARY KEY, v frozen<other.mytype>)", WIRE_ERR_INVALID,
        "Statement on keyspace ks cannot refer to a user type in keyspace other; user types can "
        "only be used in the keyspace they are defined in");
}


static void cosmos_refuses_indexes_on_frozen_collections(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (k int PRIMARY KEY, c frozen<set<int>>)");
    refused(f, "CREATE INDEX ON ks.t (full(c))", WIRE_ERR_INVALID,
            "Secondary indexes on frozen collections are not supported");
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(compression_is_kept_with_defaults_and_checked,
                                        setup_cassandra, teardown),
        cmocka_unit_test_setup_teardown(compaction_caching_and_intervals_are_kept, setup_cassandra,
                                        teardown),
        cmocka_unit_test_setup_teardown(table_params_are_bounded_in_cassandras_words,
                                        setup_cassandra, teardown),
        cmocka_unit_test_setup_teardown(replication_maps_are_checked, setup_cassandra, teardown),
        cmocka_unit_test_setup_teardown(use_refuses_a_bind_marker, setup_cassandra, teardown),
        cmocka_unit_test_setup_teardown(default_index_names_take_a_free_suffix, setup_cassandra,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_type_of_another_keyspace_is_refused, setup_cassandra,
                                        teardown),
        cmocka_unit_test_setup_teardown(cosmos_refuses_indexes_on_frozen_collections, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
