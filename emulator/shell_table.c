/*
 * shell_table.c - result sets as cqlsh prints them. Layer: emulator. Cells
 * are formatted once, with cql_value_format in its display form, from the
 * types in the result's metadata; then laid out in aligned columns or, with
 * EXPAND ON, one "name | value" line per column.
 *
 * Invariants:
 *  - Widths count UTF-8 code points, so accented text stays aligned (wide
 *    East Asian characters count one, as a known limit).
 *  - Nothing here reads reply bytes except through cql_value_format, which
 *    is bounds-checked against the type.
 */
#include "cql/cql.h"
#include "emulator/shell.h"


size_t emu_shell_text_width(const char *s)
{
    size_t n = 0;
    for (; *s != '\0'; s++) {
        n += ((unsigned char)*s & 0xC0) != 0x80; /* continuation bytes add nothing */
    }
    return n;
}


void emu_shell_rows_from_reply(emu_shell_rows_t *out, const wire_reply_t *r, bool literal,
                               base_arena_t *a)
{
    static const wire_type_t blob = {.id = WIRE_TYPE_BLOB};
    const wire_rows_meta_t *m = &r->u.result.meta;
    out->n_cols = m->n_cols;
    out->n_rows = r->u.result.n_rows;
    out->names = base_arena_calloc(a, m->n_cols + 1, sizeof(*out->names));
    out->cells = base_arena_calloc(a, out->n_rows * m->n_cols + 1, sizeof(*out->cells));
    for (size_t c = 0; c < m->n_cols; c++) {
        out->names[c] = m->cols != NULL
                            ? base_arena_strndup(a, m->cols[c].name.ptr, m->cols[c].name.len)
                            : base_arena_sprintf(a, "column%zu", c + 1);
    }
    for (size_t i = 0; i < out->n_rows * m->n_cols; i++) {
        const wire_col_meta_t *col = m->cols != NULL ? &m->cols[i % m->n_cols] : NULL;
        const wire_type_t *t = col != NULL && col->type != NULL ? col->type : &blob;
        out->cells[i] = cql_value_format(t, r->u.result.cells[i],
                                         literal ? CQL_FORMAT_LITERAL : CQL_FORMAT_DISPLAY, a);
    }
}


static void pad(FILE *f, size_t n, char c)
{
    for (size_t i = 0; i < n; i++) {
        fputc(c, f);
    }
}


static void print_expanded(FILE *f, const emu_shell_rows_t *rows, size_t first_row)
{
    size_t name_w = 0, val_w = 0;
    for (size_t c = 0; c < rows->n_cols; c++) {
        size_t w = emu_shell_text_width(rows->names[c]);
        name_w = w > name_w ? w : name_w;
    }
    for (size_t i = 0; i < rows->n_rows * rows->n_cols; i++) {
        size_t w = emu_shell_text_width(rows->cells[i]);
        val_w = w > val_w ? w : val_w;
    }
    for (size_t r = 0; r < rows->n_rows; r++) {
        fprintf(f, "@ Row %zu\n-", first_row + r + 1);
        pad(f, name_w, '-');
        fputs("-+-", f);
        pad(f, val_w, '-');
        fputs("-\n", f);
        for (size_t c = 0; c < rows->n_cols; c++) {
            const char *name = rows->names[c];
            fprintf(f, " %s", name);
            pad(f, name_w - emu_shell_text_width(name), ' ');
            fprintf(f, " | %s\n", rows->cells[r * rows->n_cols + c]);
        }
        fputc('\n', f);
    }
}


void emu_shell_print_rows(FILE *f, const emu_shell_rows_t *rows, bool expand, bool header,
                          size_t first_row)
{
    if (rows->n_cols == 0) {
        return;
    }
    if (expand) {
        print_expanded(f, rows, first_row);
        return;
    }
    size_t *widths = base_calloc(rows->n_cols, sizeof(*widths));
    for (size_t c = 0; c < rows->n_cols; c++) {
        widths[c] = emu_shell_text_width(rows->names[c]);
    }
    for (size_t i = 0; i < rows->n_rows * rows->n_cols; i++) {
        size_t w = emu_shell_text_width(rows->cells[i]);
        size_t c = i % rows->n_cols;
        widths[c] = w > widths[c] ? w : widths[c];
    }
    if (header) {
        base_buf_t line;
        base_buf_init(&line);
        for (size_t c = 0; c < rows->n_cols; c++) {
            const char *name = rows->names[c];
            base_buf_printf(&line, "%s%s", c ? " | " : " ", name);
            for (size_t k = emu_shell_text_width(name); k < widths[c]; k++) {
                base_buf_put_u8(&line, ' ');
            }
        }
        while (line.len > 0 && line.data[line.len - 1] == ' ') {
            line.len--; /* cqlsh strips the header's trailing blanks */
        }
        fprintf(f, "%.*s\n", (int)line.len, (const char *)line.data);
        base_buf_fini(&line);
        for (size_t c = 0; c < rows->n_cols; c++) {
            fputs(c ? "-+-" : "-", f);
            pad(f, widths[c], '-');
        }
        fputs("-\n", f);
    }
    for (size_t r = 0; r < rows->n_rows; r++) {
        for (size_t c = 0; c < rows->n_cols; c++) {
            const char *cell = rows->cells[r * rows->n_cols + c];
            fputs(c ? " | " : " ", f);
            pad(f, widths[c] - emu_shell_text_width(cell), ' ');
            fputs(cell, f);
        }
        fputc('\n', f);
    }
    base_free(widths);
}
