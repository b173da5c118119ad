/*
 * thread.c - names for the process's threads, as `top -H`, `ps -L`,
 * `perf` and gdb show them: the event loop and each storage thread
 * (the log's writer and syncer, the snapshot compressor, ...) can then be
 * told apart when one of them takes the CPU or blocks in the disk.
 *
 * Linux keeps at most 15 bytes of a name; longer ones are cut there.
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include <pthread.h>
#include <string.h>

#include "base/base.h"


void base_thread_name(const char *name)
{
    char cut[16];
    size_t n = strlen(name);
    n = n < sizeof(cut) - 1 ? n : sizeof(cut) - 1;
    memcpy(cut, name, n);
    cut[n] = '\0';
    (void)pthread_setname_np(pthread_self(), cut); /* a name is a convenience: no error to act on */
}
