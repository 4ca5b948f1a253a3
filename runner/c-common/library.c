/* See library.h. */
#include "library.h"
#include <stdio.h>

const char *library_version(void) {
#if defined(OBS_LIB_WOLFSSL)
    return "wolfSSL " LIBWOLFSSL_VERSION_STRING;
#elif defined(OBS_LIB_AWSLC)
    return "AWS-LC " AWSLC_VERSION_NUMBER_STRING;
#elif defined(OBS_LIB_BORINGSSL)
    /* BoringSSL has no release numbers: its API version identifies the tree */
    static char v[64];
    snprintf(v, sizeof(v), "BoringSSL API %d", BORINGSSL_API_VERSION);
    return v;
#else
    return OpenSSL_version(OPENSSL_VERSION);
#endif
}
