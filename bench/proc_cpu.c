/*
 * proc_cpu.c - CPU time a process has used, for cosmos-bench's CPU per
 * operation: this process's from getrusage (microseconds), another's from
 * /proc/<pid>/stat (utime + stime, every thread, in clock ticks of 10 ms:
 * 0.2% of a 6 s run at one core).
 *
 * Why: on a shared two-core machine throughput swings by 10-20% from run to
 * run with the scheduler, while the server's CPU per operation, what a
 * change to its code moves, swings by a few percent.
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "loadgen.h"


int64_t loadgen_cpu_us(int pid)
{
    if (pid <= 0) {
        struct rusage ru;
        if (getrusage(RUSAGE_SELF, &ru) != 0) {
            return -1;
        }
        return (int64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
               (int64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
    }
    char path[64];
    char line[1024];
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return -1;
    }
    size_t n = fread(line, 1, sizeof(line) - 1, f);
    fclose(f);
    line[n] = '\0';
    /* The command name, field 2, is in parentheses and may hold spaces:
     * fields are counted from the last ')'. utime and stime are 14 and 15. */
    const char *p = strrchr(line, ')');
    unsigned long long utime;
    unsigned long long stime;
    if (p == NULL || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime,
                            &stime) != 2) {
        return -1;
    }
    long hz = sysconf(_SC_CLK_TCK);
    return hz > 0 ? (int64_t)((utime + stime) * 1000000ULL / (unsigned long long)hz) : -1;
}


int64_t loadgen_cpu_since(int pid, int64_t start_us)
{
    int64_t now = start_us >= 0 ? loadgen_cpu_us(pid) : -1;
    return now >= 0 ? now - start_us : -1;
}
