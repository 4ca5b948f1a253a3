/* The certificate chains shared by the C programs under runner/. */
#ifndef OBSERVATORY_CERTS_H
#define OBSERVATORY_CERTS_H
#include "library.h"

/* the name the server's certificate is issued to and every verifying client checks */
#define CERT_HOSTNAME "observatory.test"

/* For every key kind this library can make, writes into dir a chain of three certificates of that
 * kind, as a public server has: <kind>-root.crt (a self-signed root CA, the client's only trust
 * anchor), <kind>.crt (what the server sends: its leaf for CERT_HOSTNAME, then the intermediate CA
 * that issued it; the root issued the intermediate), <kind>-intermediate.crt (that CA alone, for
 * programs that take the chain apart from the leaf) and <kind>.key (the leaf's key). Prints one JSON
 * object saying which kinds it made (and why not the others); returns how many. Only OpenSSL builds
 * make them: every library then loads the same files and puts the same bytes on the wire. */
int gen_certs(const char *dir);

#ifdef OBS_LIB_OPENSSL
#include <openssl/evp.h>
#include <openssl/x509.h>
/* The one certificate maker: an X.509 v3 certificate for subject CN=cn (O=org first, when org is not
 * NULL) and key, issued by (issuer, issuer_key), or self-signed when issuer is NULL; valid 2020-01-01 ..
 * 2049-12-31 whatever the clock says. ext: X509v3 extensions as NULL-terminated "name", "value" pairs in
 * the config syntax. kind (keygen.h) picks the digest: ML-DSA signs the whole message, the others
 * SHA-256. NULL, with the library's error queued, when the library refuses. */
X509 *make_cert(const char *kind, const char *org, const char *cn, long serial, EVP_PKEY *key, X509 *issuer, EVP_PKEY *issuer_key, const char *const *ext);
#endif

#endif
