/* Key generation shared by the C programs under runner/: one spelling for 1.1.1 .. 4.0. */
#ifndef OBSERVATORY_KEYGEN_H
#define OBSERVATORY_KEYGEN_H
#include "library.h"
#include <openssl/evp.h>

/* kind: "rsa2048", "ecdsa-p256" or "mldsa65" (3.5+). NULL with an error queued when the version
 * cannot make that kind of key. OpenSSL builds only (library.h OBS_LIB_OPENSSL). */
EVP_PKEY *gen_key(const char *kind);

#endif
