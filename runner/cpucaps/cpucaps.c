/*
 * The CPU capability vector the library itself chose on this host: which of its code paths (AES-NI,
 * VAES, AVX-512 IFMA, SHA extensions, NEON, ...) it will take. One line on stdout.
 *
 * 3.0 and later: OPENSSL_info(OPENSSL_INFO_CPU_SETTINGS), the text `openssl info -cpusettings` prints
 * (3.0-3.4 two 64-bit words, 3.5+ five). 1.1.1 has no OPENSSL_info: the vector is read from the
 * library's own globals after its initialisation (OPENSSL_ia32cap_P on x86-64, OPENSSL_armcap_P on
 * arm64) and printed in 3.0's format. In every case the value has OPENSSL_ia32cap / OPENSSL_armcap
 * environment semantics, and an " env:..." suffix says when that variable was set. Errors: the
 * convention of c-common/errors.h. OpenSSL only.
 */
#include "../c-common/library.h" /* first: it must precede every library header */
#include "../c-common/errors.h"
#include "../c-common/program.h"
#include <stdio.h>
#include <stdlib.h>

#if !OBS_OPENSSL_AT_LEAST(0x30000000L)
#if defined(__x86_64__) || defined(__i386__)
extern unsigned int OPENSSL_ia32cap_P[4];
#elif defined(__aarch64__) || defined(__arm__)
extern unsigned int OPENSSL_armcap_P;
#else
#error "no capability vector known for this architecture in 1.1.1"
#endif
#endif

const char PROGRAM_NAME[] = "cpucaps";
const char PROGRAM_USAGE[] = "usage: cpucaps\n";

int main(int argc, char **argv) {
    (void)argv;
    if (argc != 1) die_usage("takes no arguments");
    if (!OPENSSL_init_crypto(0, NULL)) die_failed("OPENSSL_init_crypto failed");
#if OBS_OPENSSL_AT_LEAST(0x30000000L)
    const char *settings = OPENSSL_info(OPENSSL_INFO_CPU_SETTINGS);
    if (settings == NULL || settings[0] == '\0') die_failed("the library reports no CPU settings");
    printf("%s\n", settings);
#else
    const char *env;
#if defined(__x86_64__) || defined(__i386__)
    printf("OPENSSL_ia32cap=0x%llx:0x%llx", (unsigned long long)OPENSSL_ia32cap_P[0] | (unsigned long long)OPENSSL_ia32cap_P[1] << 32,
           (unsigned long long)OPENSSL_ia32cap_P[2] | (unsigned long long)OPENSSL_ia32cap_P[3] << 32);
    env = getenv("OPENSSL_ia32cap");
#else
    printf("OPENSSL_armcap=0x%x", OPENSSL_armcap_P);
    env = getenv("OPENSSL_armcap");
#endif
    if (env != NULL) printf(" env:%s", env);
    printf("\n");
#endif
    return 0;
}
