/* Helpers shared by tls_sizes.c and quic_sizes.c; one copy for every OpenSSL version. */
#ifndef SIZES_UTIL_H
#define SIZES_UTIL_H
#include <stddef.h>
#include <stdio.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include "keygen.h"
#include "json.h"

const char *lib_errors(void);     /* drains the error queue into a static string */
void hex(const unsigned char *p, size_t n); /* a JSON string of hex digits on stdout */
/* subject signed by issuer (self-signed when issuer is NULL); a CA when ca is set */
X509 *make_cert(const char *cn, EVP_PKEY *key, X509 *issuer, EVP_PKEY *issuer_key, int ca, const char *kind);
#endif
