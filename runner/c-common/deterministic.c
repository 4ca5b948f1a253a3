/* See deterministic.h. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "library.h"
#include "deterministic.h"
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <openssl/rand.h>

/* Not random at all: a fixed splitmix64 stream, so that every run takes the same code paths
 * (bignum lengths, signature encodings, ticket contents). Installed only for instruction counts. */
#ifdef OBS_LIB_OPENSSL
static uint64_t det_state = 0x0123456789abcdefULL;

static int det_bytes(unsigned char *buf, int num) {
    for (int i = 0; i < num; i += 8) {
        uint64_t z = (det_state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        memcpy(buf + i, &z, num - i < 8 ? (size_t)(num - i) : 8);
    }
    return 1;
}
static int det_seed(const void *b, int n) {
    (void)b, (void)n;
    return 1;
}
static int det_add(const void *b, int n, double e) {
    (void)b, (void)n, (void)e;
    return 1;
}
static int det_status(void) { return 1; }
static RAND_METHOD det_method = { det_seed, det_bytes, NULL, det_add, det_bytes, det_status };

const char *det_rand_install(void) { return RAND_set_rand_method(&det_method) ? NULL : "RAND_set_rand_method refused"; }
#elif defined(OBS_LIB_AWSLC) || defined(OBS_LIB_BORINGSSL)
/* Their RAND_set_rand_method is a stub that changes nothing; the only fixed-output RNG is the
 * fuzzing build option (BORINGSSL_UNSAFE_DETERMINISTIC_MODE), which also weakens the handshake. */
const char *det_rand_install(void) {
    return "RAND_set_rand_method is a no-op here; a fixed RNG needs the fuzzing build option BORINGSSL_UNSAFE_DETERMINISTIC_MODE";
}
#else
const char *det_rand_install(void) {
    return "wolfSSL draws from its own DRBG seeded by wc_GenerateSeed; fixing it needs the build option CUSTOM_RAND_GENERATE_BLOCK";
}
#endif

/* The library also reads the wall clock (session times, certificate validity checks) and formats it:
 * printing 7 or 37 takes different instruction counts. In deterministic mode the clock it sees is
 * frozen at 2030-01-01T12:34:56Z. These definitions take precedence for the statically linked
 * library; otherwise they forward to the C library's own. */
int det_time_frozen;
#define FROZEN_TIME ((time_t)1893501296)

time_t time(time_t *out) {
    static time_t (*real)(time_t *);
    time_t now;
    if (det_time_frozen) now = FROZEN_TIME;
    else {
        if (!real) real = (time_t(*)(time_t *))dlsym(RTLD_NEXT, "time");
        now = real(NULL);
    }
    if (out) *out = now;
    return now;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
    static int (*real)(struct timeval *, void *);
    if (!det_time_frozen) {
        if (!real) real = (int (*)(struct timeval *, void *))dlsym(RTLD_NEXT, "gettimeofday");
        return real(tv, tz);
    }
    tv->tv_sec = FROZEN_TIME, tv->tv_usec = 0;
    return 0;
}
