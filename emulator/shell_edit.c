/*
 * shell_edit.c - the shell's terminal input: libedit (BSD editline) line
 * editing in emacs mode, history kept in a file across sessions, and Ctrl-C
 * cancelling the line being typed instead of ending the shell. Layer:
 * emulator; knows nothing of CQL (shell.c decides what an entry is).
 *
 * Invariants:
 *  - The history file is written after every entry, so a killed shell
 *    loses nothing; a missing or unreadable file is an empty history.
 *  - The prompt is copied per read, so a caller may pass a stack buffer.
 *  - SIGINT is caught (without SA_RESTART) only while this object lives,
 *    and the previous disposition comes back with emu_shell_edit_free.
 */
#include <errno.h>
#include <histedit.h>
#include <signal.h>

#include "emulator/shell.h"

#define HISTORY_SIZE 1000
#define PROMPT_MAX   300

struct emu_shell_edit_s {
    EditLine *el;
    History *hist;
    char *history_path; /* NULL: not kept */
    char prompt[PROMPT_MAX];
    struct sigaction old_int;
};

static volatile sig_atomic_t interrupted;


static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}


static char *prompt_of(EditLine *el)
{
    emu_shell_edit_t *e = NULL;
    el_get(el, EL_CLIENTDATA, &e);
    return e->prompt;
}


emu_shell_edit_t *emu_shell_edit_new(const char *prog, const char *history_path)
{
    emu_shell_edit_t *e = base_calloc(1, sizeof(*e));
    HistEvent ev;
    e->hist = history_init();
    history(e->hist, &ev, H_SETSIZE, HISTORY_SIZE);
    history(e->hist, &ev, H_SETUNIQUE, 1);
    if (history_path != NULL) {
        e->history_path = base_strdup(history_path);
        history(e->hist, &ev, H_LOAD, e->history_path); /* none yet: empty */
    }
    e->el = el_init(prog, stdin, stdout, stderr);
    el_set(e->el, EL_CLIENTDATA, e);
    el_set(e->el, EL_PROMPT, prompt_of);
    el_set(e->el, EL_EDITOR, "emacs");
    el_set(e->el, EL_HIST, history, e->hist);
    el_source(e->el, NULL); /* the user's ~/.editrc, as other editline programs */

    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &e->old_int);
    return e;
}


const char *emu_shell_edit_read(emu_shell_edit_t *e, const char *prompt, size_t *len,
                                bool *cancelled)
{
    snprintf(e->prompt, sizeof(e->prompt), "%s", prompt);
    *cancelled = false;
    for (;;) {
        int n = 0;
        interrupted = 0;
        const char *line = el_gets(e->el, &n);
        if (interrupted) {
            /* Ctrl-C: the line typed so far is dropped, as cqlsh does */
            fputc('\n', stdout);
            el_reset(e->el);
            *cancelled = true;
            *len = 0;
            return "";
        }
        if (line == NULL || n <= 0) {
            if (n < 0 && errno == EINTR) {
                continue; /* another signal (a resize) */
            }
            return NULL;
        }
        size_t l = (size_t)n;
        while (l > 0 && (line[l - 1] == '\n' || line[l - 1] == '\r')) {
            l--;
        }
        *len = l;
        return line;
    }
}


void emu_shell_edit_remember(emu_shell_edit_t *e, const char *entry)
{
    HistEvent ev;
    if (entry[0] == '\0') {
        return;
    }
    history(e->hist, &ev, H_ENTER, entry);
    if (e->history_path != NULL) {
        history(e->hist, &ev, H_SAVE, e->history_path);
    }
}


void emu_shell_edit_free(emu_shell_edit_t *e)
{
    if (e == NULL) {
        return;
    }
    sigaction(SIGINT, &e->old_int, NULL);
    el_end(e->el);
    history_end(e->hist);
    base_free(e->history_path);
    base_free(e);
}
