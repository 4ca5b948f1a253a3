/* The one clock of the C programs under runner/, for a program's main file only (no c-common file
 * includes it). Inline, and its state is that file's own (static): the handshake program reads the
 * clock inside the region whose instructions are counted, where a call would add to the count, and
 * with a global flag the compiler reloads it after every library call (two more instructions per
 * handshake); a static one no library call can change. */
#ifndef OBSERVATORY_CLOCK_H
#define OBSERVATORY_CLOCK_H
#include <stdint.h>
#include <time.h>

/* Set in deterministic mode (instruction counts): no clock is read, every read gives 0, because a
 * read would change the count. */
static int clock_off;
/* Clock reads the calling thread made (what the harness adds to the time it measures). */
static __thread long clock_reads;

static inline uint64_t clock_ns(clockid_t id) {
    struct timespec t;
    if (clock_off) return 0;
    clock_reads++;
    clock_gettime(id, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* the calling thread's CPU time, and the monotonic wall clock */
#define CPU_NOW() clock_ns(CLOCK_THREAD_CPUTIME_ID)
#define WALL_NOW() clock_ns(CLOCK_MONOTONIC)

#endif
