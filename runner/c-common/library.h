/* Which TLS library a program is compiled against. Include this before any <openssl/...> header.
 *
 * wolfSSL: runner/compile.ts defines OBSERVATORY_WOLFSSL and puts include/wolfssl first on the include
 * path, so <openssl/ssl.h> is wolfSSL's compatibility layer; its options.h (the build's configuration)
 * must come before every other wolfSSL header. AWS-LC defines both OPENSSL_IS_AWSLC and
 * OPENSSL_IS_BORINGSSL: test AWS-LC first. All three claim OPENSSL_VERSION_NUMBER 1.1.x, so OpenSSL
 * version checks must be written as OBS_OPENSSL_AT_LEAST(0x30000000L), never as a bare comparison. */
#ifndef OBSERVATORY_LIBRARY_H
#define OBSERVATORY_LIBRARY_H

#ifdef OBSERVATORY_WOLFSSL
#include <wolfssl/options.h>
#endif
#include <openssl/opensslv.h>
#include <openssl/crypto.h>

#if defined(OBSERVATORY_WOLFSSL)
#define OBS_LIB_WOLFSSL 1
#elif defined(OPENSSL_IS_AWSLC)
#define OBS_LIB_AWSLC 1
#elif defined(OPENSSL_IS_BORINGSSL)
#define OBS_LIB_BORINGSSL 1
#else
#define OBS_LIB_OPENSSL 1
#endif

/* OpenSSL itself at or above a version number; false for the other libraries whatever they claim */
#ifdef OBS_LIB_OPENSSL
#define OBS_OPENSSL_AT_LEAST(v) (OPENSSL_VERSION_NUMBER >= (v))
#else
#define OBS_OPENSSL_AT_LEAST(v) 0
#endif

/* "OpenSSL 3.5.7 1 Jul 2025", "AWS-LC 5.12.0", "BoringSSL <API version>", "wolfSSL 5.9.4": what the
 * TS side checks against the build it asked for (runner/library-id.ts). */
const char *library_version(void);

#endif
