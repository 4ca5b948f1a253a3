/* See cpu.h. */
#define _GNU_SOURCE /* sched_setaffinity */
#include "cpu.h"
#include "errors.h"
#include <errno.h>
#include <sched.h>
#include <string.h>

void pin_to_cpu(int cpu) {
    if (cpu < 0) return;
    if (cpu >= CPU_SETSIZE) die_failed("pinning to CPU %d: beyond CPU_SETSIZE (%d)", cpu, CPU_SETSIZE);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof(set), &set) != 0) die_failed("pinning to CPU %d: %s", cpu, strerror(errno));
}
