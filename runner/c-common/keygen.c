/* Key generation shared by the C programs under runner/ (see keygen.h). */
#include "library.h"
#include "keygen.h"

#ifdef OBS_LIB_OPENSSL /* the other libraries load certificates made by OpenSSL (certs.h) */
#include <string.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#ifndef OBS_HAVE_EVP_PKEY_Q_KEYGEN
#include <openssl/ec.h>
#include <openssl/rsa.h>
#endif

EVP_PKEY *gen_key(const char *kind) {
#ifdef OBS_HAVE_EVP_PKEY_Q_KEYGEN /* 3.0 on, but not 3.0's development before it came (compile.ts) */
    if (strcmp(kind, "rsa2048") == 0) return EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
    if (strcmp(kind, "ecdsa-p256") == 0) return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    if (strcmp(kind, "mldsa65") == 0) return EVP_PKEY_Q_keygen(NULL, NULL, "ML-DSA-65");
#else
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *c = NULL;
    if (strcmp(kind, "rsa2048") == 0) {
        c = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, NULL);
        if (c && EVP_PKEY_keygen_init(c) > 0 && EVP_PKEY_CTX_set_rsa_keygen_bits(c, 2048) > 0) EVP_PKEY_keygen(c, &key);
    } else if (strcmp(kind, "ecdsa-p256") == 0) {
        c = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, NULL);
        if (c && EVP_PKEY_keygen_init(c) > 0 && EVP_PKEY_CTX_set_ec_paramgen_curve_nid(c, NID_X9_62_prime256v1) > 0 &&
            EVP_PKEY_CTX_set_ec_param_enc(c, OPENSSL_EC_NAMED_CURVE) > 0)
            EVP_PKEY_keygen(c, &key);
    }
    EVP_PKEY_CTX_free(c);
    if (key) return key;
#endif
    ERR_put_error(ERR_LIB_EVP, 0, EVP_R_UNSUPPORTED_ALGORITHM, __FILE__, __LINE__);
    return NULL;
}
#endif
