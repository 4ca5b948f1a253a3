/* See heap.h. */
#include "library.h"
#include "heap.h"
#include <stdlib.h>
#include <openssl/crypto.h>
#ifdef OBS_LIB_WOLFSSL
#include <wolfssl/wolfcrypt/memory.h>
#endif

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
    if (!OURS(p)) {
        free(q);
        return;
    }
    live_bytes[p[1] & 0xff] -= (long long)p[0];
    p[1] = 0; /* a second free of the block is then glibc's to catch */
    free(p);
}

static void *hook_realloc(void *q, size_t n, const char *file, int line) {
    if (q == NULL) return hook_malloc(n, file, line);
    if (n == 0) {
        hook_free(q, file, line);
        return NULL;
    }
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
    return "BoringSSL has no CRYPTO_set_mem_functions (its allocator can only be replaced at link time), so the heap per connection cannot be split between "
           "client and server";
}
#else
const char *mem_hooks_install(void) {
    return CRYPTO_set_mem_functions(hook_malloc, hook_realloc, hook_free) ? NULL : "CRYPTO_set_mem_functions refused the hooks";
}
#endif
long long mem_live(int side) { return live_bytes[side]; }
