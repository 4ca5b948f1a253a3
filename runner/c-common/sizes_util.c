/* Shared by tls_sizes.c and quic_sizes.c: error text, JSON strings, keys and a certificate chain. */
#include "sizes_util.h"
#ifdef OBS_LIB_OPENSSL /* the QUIC and TLS size probes are OpenSSL-only */
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#if OPENSSL_VERSION_NUMBER < 0x30000000L
#include <openssl/ec.h>
#include <openssl/rsa.h>
#endif

static char errbuf[4096];

const char *lib_errors(void) {
    unsigned long e;
    size_t n = 0;
    errbuf[0] = 0;
    while ((e = ERR_get_error()) != 0 && n + 300 < sizeof(errbuf)) {
        if (n) errbuf[n++] = ';', errbuf[n++] = ' ';
        ERR_error_string_n(e, errbuf + n, sizeof(errbuf) - n);
        n += strlen(errbuf + n);
    }
    return n ? errbuf : "(the library queued no error)";
}

void hex(const unsigned char *p, size_t n) {
    putchar('"');
    for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
    putchar('"');
}

/* ---------------------------------------------------------------- keys and a two-certificate chain */

/* subject signed by issuer; a CA certificate when ca is set. Minimal: no SCTs, AIA or policies. */
X509 *make_cert(const char *cn, EVP_PKEY *key, X509 *issuer, EVP_PKEY *issuer_key, int ca, const char *kind) {
    X509 *x = X509_new();
    X509_NAME *name = X509_NAME_new();
    X509_EXTENSION *ext = NULL;
    X509V3_CTX v3;
    int ok = x && name && ASN1_INTEGER_set(X509_get_serialNumber(x), ca ? 1 : 2) && X509_set_version(x, 2) &&
             X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)cn, -1, -1, 0) &&
             X509_set_subject_name(x, name) && X509_set_issuer_name(x, issuer ? X509_get_subject_name(issuer) : name) &&
             X509_gmtime_adj(X509_getm_notBefore(x), -86400) && X509_gmtime_adj(X509_getm_notAfter(x), 365L * 86400) &&
             X509_set_pubkey(x, key);
    X509V3_set_ctx(&v3, issuer ? issuer : x, x, NULL, NULL, 0);
    if (ok) {
        ext = X509V3_EXT_conf_nid(NULL, &v3, ca ? NID_basic_constraints : NID_subject_alt_name,
                                  ca ? "critical,CA:TRUE" : "DNS:localhost");
        ok = ext && X509_add_ext(x, ext, -1);
    }
    /* ML-DSA signs the whole message: no separate digest */
    if (ok) ok = X509_sign(x, issuer_key, strcmp(kind, "mldsa65") == 0 ? NULL : EVP_sha256()) > 0;
    X509_EXTENSION_free(ext);
    X509_NAME_free(name);
    if (!ok) X509_free(x);
    return ok ? x : NULL;
}
#endif
