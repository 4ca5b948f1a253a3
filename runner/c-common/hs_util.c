#define _GNU_SOURCE /* RTLD_NEXT */
#include "hs_util.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <sys/time.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#ifdef OBS_LIB_WOLFSSL
#include <wolfssl/wolfcrypt/memory.h>
#endif

/* ------------------------------------------------------------------ errors */
static void print_error(const char *field, const char *msg) {
    jw_open(NULL);
    if (strcmp(field, "unsupported") == 0) jw_bool("unsupported", 1), jw_str("reason", msg);
    else jw_str("error", msg);
    jw_str("openssl", library_version());
    jw_close();
    fflush(stdout);
}

void die_unsupported_because(const char *what, const char *reason) {
    char msg[6000];
    snprintf(msg, sizeof(msg), "%s: %s", what, reason);
    print_error("unsupported", msg);
    exit(EXIT_UNSUPPORTED);
}

void die_unsupported(const char *what) { die_unsupported_because(what, library_errors()); }

void die_failed(const char *fmt, ...) {
    char what[1500], msg[6000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    snprintf(msg, sizeof(msg), "%s; library errors: %s", what, library_errors());
    fprintf(stderr, "handshake: %s\n", msg);
    print_error("error", msg);
    exit(EXIT_FAILED);
}

void die_usage(const char *fmt, ...) {
    char msg[1500];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    fprintf(stderr, "handshake: %s\n", msg);
    print_error("error", msg);
    exit(EXIT_USAGE);
}

/* ------------------------------------------------------------------ heap accounting */
/* Every block carries a 16-byte header with its size and the side that was running when it was
 * allocated, so bytes held can be split between client, server and the harness (BIO pair). The side
 * word carries a mark in its high bits: a block the library got from plain malloc or strdup and hands
 * to OPENSSL_free (a bug some development commits had, e.g. master between 2025-02-05 and 2025-02-12,
 * fixed by dfd177b776) is passed to free() untouched instead of aborting the program; it was never
 * counted, so nothing is subtracted. (The 16 bytes before a glibc block are its chunk header: readable,
 * and its size word never has these bits set.) */
int mem_side = SIDE_HARNESS;
static long long live_bytes[3];
#define HOOK_MARK ((size_t)0x0b5e << 48)
#define OURS(p) (((p)[1] & ~(size_t)0xff) == HOOK_MARK)

static void *hook_malloc(size_t n, const char *file, int line) {
    (void)file, (void)line;
    size_t *p = malloc(n + 16);
    if (p == NULL) return NULL;
    p[0] = n, p[1] = HOOK_MARK | (size_t)mem_side;
    live_bytes[mem_side] += (long long)n;
    return (char *)p + 16;
}

static void hook_free(void *q, const char *file, int line) {
    (void)file, (void)line;
    if (q == NULL) return;
    size_t *p = (size_t *)((char *)q - 16);
    if (!OURS(p)) { free(q); return; }
    live_bytes[p[1] & 0xff] -= (long long)p[0];
    p[1] = 0; /* a second free of the block is then glibc's to catch */
    free(p);
}

static void *hook_realloc(void *q, size_t n, const char *file, int line) {
    if (q == NULL) return hook_malloc(n, file, line);
    if (n == 0) { hook_free(q, file, line); return NULL; }
    size_t *p = (size_t *)((char *)q - 16);
    if (!OURS(p)) return realloc(q, n); /* a foreign block stays foreign and uncounted */
    size_t old = p[0], side = p[1] & 0xff;
    p = realloc(p, n + 16);
    if (p == NULL) return NULL;
    live_bytes[side] -= (long long)old;
    live_bytes[mem_side] += (long long)n;
    p[0] = n, p[1] = HOOK_MARK | (size_t)mem_side;
    return (char *)p + 16;
}

#if defined(OBS_LIB_WOLFSSL)
/* wolfSSL's allocator hooks take no file and line */
static void *wolf_malloc(size_t n) { return hook_malloc(n, NULL, 0); }
static void wolf_free(void *q) { hook_free(q, NULL, 0); }
static void *wolf_realloc(void *q, size_t n) { return hook_realloc(q, n, NULL, 0); }
const char *mem_hooks_install(void) {
    return wolfSSL_SetAllocators(wolf_malloc, wolf_free, wolf_realloc) == 0 ? NULL : "wolfSSL_SetAllocators refused the hooks";
}
#elif defined(OBS_LIB_BORINGSSL)
const char *mem_hooks_install(void) {
    (void)hook_malloc, (void)hook_realloc;
    return "BoringSSL has no CRYPTO_set_mem_functions (its allocator can only be replaced at link time), so the heap per connection cannot be split between client and server";
}
#else
const char *mem_hooks_install(void) {
    return CRYPTO_set_mem_functions(hook_malloc, hook_realloc, hook_free) ? NULL : "CRYPTO_set_mem_functions refused the hooks";
}
#endif
long long mem_live(int side) { return live_bytes[side]; }

/* ------------------------------------------------------------------ deterministic RNG */
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
static int det_seed(const void *b, int n) { (void)b, (void)n; return 1; }
static int det_add(const void *b, int n, double e) { (void)b, (void)n, (void)e; return 1; }
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

/* ------------------------------------------------------------------ groups */
static const struct { int id; const char *names[4]; } GROUPS[] = {
    { 0x0017, { "P-256", "secp256r1", "prime256v1", NULL } },
    { 0x0018, { "P-384", "secp384r1", NULL } },
    { 0x0019, { "P-521", "secp521r1", NULL } },
    { 0x001d, { "X25519", NULL } },
    { 0x001e, { "X448", NULL } },
    { 0x0100, { "ffdhe2048", NULL } },
    { 0x0101, { "ffdhe3072", NULL } },
    { 0x0200, { "MLKEM512", NULL } },
    { 0x0201, { "MLKEM768", NULL } },
    { 0x0202, { "MLKEM1024", NULL } },
    { 0x11eb, { "SecP256r1MLKEM768", NULL } },
    { 0x11ec, { "X25519MLKEM768", NULL } },
    { 0x11ed, { "SecP384r1MLKEM1024", NULL } },
};

int group_id(const char *name) {
    for (size_t i = 0; i < sizeof(GROUPS) / sizeof(GROUPS[0]); i++)
        for (int j = 0; GROUPS[i].names[j]; j++)
            if (strcasecmp(name, GROUPS[i].names[j]) == 0) return GROUPS[i].id;
    return 0;
}

const char *group_name(int id) {
    for (size_t i = 0; i < sizeof(GROUPS) / sizeof(GROUPS[0]); i++)
        if (GROUPS[i].id == id) return GROUPS[i].names[0];
    return NULL;
}

/* ------------------------------------------------------------------ message callback */
static unsigned rd16(const unsigned char *p) { return (unsigned)p[0] << 8 | p[1]; }

/* Walks the extensions of a Client/ServerHello body starting at the session id. */
static void hello_key_shares(const unsigned char *m, size_t len, int client, struct probe *pr) {
    size_t off = 4 + 2 + 32; /* header, legacy_version, random */
    if (off + 1 > len) return;
    off += 1 + m[off]; /* session id */
    if (client) {
        if (off + 2 > len) return;
        off += 2 + rd16(m + off); /* cipher suites */
        if (off + 1 > len) return;
        off += 1 + m[off]; /* compression methods */
    } else {
        off += 2 + 1; /* cipher suite, compression */
    }
    if (off + 2 > len) return;
    size_t end = off + 2 + rd16(m + off);
    if (end > len) end = len;
    for (off += 2; off + 4 <= end;) {
        unsigned type = rd16(m + off), elen = rd16(m + off + 2);
        const unsigned char *d = m + off + 4;
        if (off + 4 + elen > end) return;
        if (type == 51 && client && elen >= 2) {
            for (size_t q = 2; q + 4 <= 2 + (size_t)rd16(d) && q + 4 <= elen && pr->n_shares < MAX_SHARES; q += 4 + rd16(d + q + 2)) {
                pr->share_group[pr->n_shares] = (int)rd16(d + q);
                pr->share_bytes[pr->n_shares++] = (int)rd16(d + q + 2);
            }
        } else if (type == 51 && !client && elen >= 4) {
            pr->server_share_group = (int)rd16(d);
            pr->server_share_bytes = (int)rd16(d + 2);
        }
        off += 4 + elen;
    }
}

static const unsigned char HRR_RANDOM[32] = {
    0xCF, 0x21, 0xAD, 0x74, 0xE5, 0x9A, 0x61, 0x11, 0xBE, 0x1D, 0x8C, 0x02, 0x1E, 0x65, 0xB8, 0x91,
    0xC2, 0xA2, 0x11, 0x16, 0x7A, 0xBB, 0x8C, 0x5E, 0x07, 0x9E, 0x09, 0xE2, 0xC8, 0xA8, 0x33, 0x9C,
};

void probe_callback(int write_p, int version, int content_type, const void *buf, size_t len, SSL *ssl, void *arg) {
    (void)version, (void)ssl;
    struct probe *pr = arg;
    const unsigned char *m = buf;
    if (content_type == SSL3_RT_HEADER && write_p && len >= 5 && m[0] == SSL3_RT_HANDSHAKE && pr->ch_record_bytes == 0)
        pr->ch_record_bytes = 5 + (long)rd16(m + 3);
    if (content_type != SSL3_RT_HANDSHAKE || len < 4) return;
    if (write_p && m[0] == 1) { /* ClientHello */
        if (pr->client_hellos++ == 0) {
            pr->ch_message_bytes = (long)len;
            hello_key_shares(m, len, 1, pr);
        }
    } else if (!write_p && m[0] == 2 && len >= 38) { /* ServerHello, or HelloRetryRequest */
        if (memcmp(m + 6, HRR_RANDOM, 32) == 0) pr->hrr = 1;
        else hello_key_shares(m, len, 0, pr);
    } else if (!write_p && m[0] == 12 && len >= 8 && m[4] == 3) { /* TLS 1.2 ECDHE ServerKeyExchange */
        pr->server_share_group = (int)rd16(m + 5);
        pr->server_share_bytes = m[7];
    }
}
