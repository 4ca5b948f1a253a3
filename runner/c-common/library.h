/* Which TLS library a program is compiled against. Include this before any <openssl/...> header.
 *
 * runner/compile.ts says which with one define, the library's `cDefine` in catalogue/index.ts
 * (LIBRARIES): OBS_LIB_OPENSSL, OBS_LIB_AWSLC, OBS_LIB_BORINGSSL or OBS_LIB_WOLFSSL. wolfSSL: compile.ts
 * also puts include/wolfssl first on the include path, so <openssl/ssl.h> is wolfSSL's compatibility
 * layer; its options.h (the build's configuration) must come before every other wolfSSL header. All
 * three claim OPENSSL_VERSION_NUMBER 1.1.x, so OpenSSL version checks must be written as
 * OBS_OPENSSL_AT_LEAST(0x30000000L), never as a bare comparison. */
#ifndef OBSERVATORY_LIBRARY_H
#define OBSERVATORY_LIBRARY_H

#ifdef OBS_LIB_WOLFSSL
#include <wolfssl/options.h>
#endif
#include <openssl/opensslv.h>
#include <openssl/crypto.h>

#if !defined(OBS_LIB_OPENSSL) && !defined(OBS_LIB_AWSLC) && !defined(OBS_LIB_BORINGSSL) && !defined(OBS_LIB_WOLFSSL)
#error "no OBS_LIB_* define: compile through runner/compile.ts, which defines the library's cDefine"
#endif
/* AWS-LC and BoringSSL name themselves in their headers (AWS-LC defines both): the define must agree */
#if defined(OPENSSL_IS_AWSLC) != defined(OBS_LIB_AWSLC) || (defined(OPENSSL_IS_BORINGSSL) && !defined(OPENSSL_IS_AWSLC)) != defined(OBS_LIB_BORINGSSL)
#error "the headers are not those of the library the OBS_LIB_* define names"
#endif

/* OpenSSL itself at or above a version number; false for the other libraries whatever they claim. From
 * 3.0 on it is made from the plain MAJOR/MINOR/PATCH numbers: 3.0's development in 2018-19 defined
 * OPENSSL_VERSION_NUMBER with a (long) cast, which #if cannot evaluate (a bisection builds those commits). */
#ifdef OBS_LIB_OPENSSL
#ifdef OPENSSL_VERSION_MAJOR
#define OBS_OPENSSL_VERSION ((OPENSSL_VERSION_MAJOR << 28) | (OPENSSL_VERSION_MINOR << 20) | (OPENSSL_VERSION_PATCH << 4))
#else
#define OBS_OPENSSL_VERSION OPENSSL_VERSION_NUMBER
#endif
#define OBS_OPENSSL_AT_LEAST(v) (OBS_OPENSSL_VERSION >= (v))
#else
#define OBS_OPENSSL_AT_LEAST(v) 0
#endif

/* "OpenSSL 3.5.7 1 Jul 2025", "AWS-LC 5.12.0", "BoringSSL <API version>", "wolfSSL 5.9.4": what the
 * TS side checks against the build it asked for (runner/library-id.ts). */
const char *library_version(void);

#endif
