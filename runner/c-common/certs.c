/* See certs.h. */
#include "library.h"
#include "certs.h"
#include "errors.h"
#include "json.h"
#include <stdio.h>
#include <string.h>
#include <time.h>

#ifdef OBS_LIB_OPENSSL
#include "keygen.h"
#include <openssl/pem.h>
#include <openssl/x509v3.h>

/* fixed validity, 2020-01-01 .. 2049-12-31, which contains the frozen clock of deterministic mode */
#define CERT_NOT_BEFORE ((time_t)1577836800)
#define CERT_NOT_AFTER ((time_t)2524607999)

X509 *make_cert(const char *kind, const char *org, const char *cn, long serial, EVP_PKEY *key, X509 *issuer, EVP_PKEY *issuer_key, const char *const *ext) {
    X509 *x = X509_new();
    X509_NAME *name = X509_NAME_new();
    int ok = x && name && ASN1_INTEGER_set(X509_get_serialNumber(x), serial) && X509_set_version(x, 2) &&
             (!org || X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, (const unsigned char *)org, -1, -1, 0)) &&
             X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)cn, -1, -1, 0) && X509_set_subject_name(x, name) &&
             X509_set_issuer_name(x, issuer ? X509_get_subject_name(issuer) : name) && ASN1_TIME_set(X509_getm_notBefore(x), CERT_NOT_BEFORE) &&
             ASN1_TIME_set(X509_getm_notAfter(x), CERT_NOT_AFTER) && X509_set_pubkey(x, key);
    X509V3_CTX v3;
    X509V3_set_ctx(&v3, issuer ? issuer : x, x, NULL, NULL, 0);
    for (int i = 0; ok && ext[i]; i += 2) {
        X509_EXTENSION *e = X509V3_EXT_conf(NULL, &v3, (char *)ext[i], (char *)ext[i + 1]);
        ok = e && X509_add_ext(x, e, -1);
        X509_EXTENSION_free(e);
    }
    /* ML-DSA signs the whole message itself: no separate digest */
    if (ok) ok = X509_sign(x, issuer_key ? issuer_key : key, strcmp(kind, "mldsa65") == 0 ? NULL : EVP_sha256()) > 0;
    X509_NAME_free(name);
    if (!ok) X509_free(x), x = NULL;
    return x;
}

static int write_pem(const char *dir, const char *kind, const char *suffix, X509 *const *certs, int n, EVP_PKEY *key) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s%s", dir, kind, suffix);
    FILE *f = fopen(path, "w");
    int ok = f != NULL;
    if (ok && key) ok = PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL);
    for (int i = 0; ok && i < n; i++) ok = PEM_write_X509(f, certs[i]);
    if (f && fclose(f) != 0) ok = 0;
    return ok;
}

/* A root CA (the client's only trust anchor), an intermediate CA and the server's leaf, all of one key
 * kind, as a public server's chain is; the leaf names CERT_HOSTNAME. Files: see certs.h. */
static int write_chain(const char *dir, const char *kind) {
    static const char *const ca_root[] = {
        "basicConstraints", "critical,CA:TRUE", "keyUsage", "critical,keyCertSign,cRLSign", "subjectKeyIdentifier", "hash", NULL
    };
    static const char *const ca_mid[] = { "basicConstraints",
                                          "critical,CA:TRUE,pathlen:0",
                                          "keyUsage",
                                          "critical,keyCertSign,cRLSign",
                                          "subjectKeyIdentifier",
                                          "hash",
                                          "authorityKeyIdentifier",
                                          "keyid:always",
                                          NULL };
    /* RSA key exchange (TLS 1.2 AES128-SHA) needs keyEncipherment on an RSA leaf */
    const char *leaf_usage = strcmp(kind, "rsa2048") == 0 ? "critical,digitalSignature,keyEncipherment" : "critical,digitalSignature";
    const char *const leaf[] = { "basicConstraints",
                                 "critical,CA:FALSE",
                                 "keyUsage",
                                 leaf_usage,
                                 "extendedKeyUsage",
                                 "serverAuth",
                                 "subjectAltName",
                                 "DNS:" CERT_HOSTNAME,
                                 "subjectKeyIdentifier",
                                 "hash",
                                 "authorityKeyIdentifier",
                                 "keyid:always",
                                 NULL };
    char cn_root[80], cn_mid[80];
    snprintf(cn_root, sizeof(cn_root), "observatory %s root CA", kind);
    snprintf(cn_mid, sizeof(cn_mid), "observatory %s intermediate CA", kind);
    EVP_PKEY *kr = gen_key(kind), *km = kr ? gen_key(kind) : NULL, *kl = km ? gen_key(kind) : NULL;
    X509 *root = kl ? make_cert(kind, NULL, cn_root, 1, kr, NULL, NULL, ca_root) : NULL;
    X509 *mid = root ? make_cert(kind, NULL, cn_mid, 2, km, root, kr, ca_mid) : NULL;
    X509 *srv = mid ? make_cert(kind, NULL, CERT_HOSTNAME, 3, kl, mid, km, leaf) : NULL;
    X509 *full[2] = { srv, mid };
    /* the key last: certs.ts takes a kind as made when its key file is there */
    int ok = srv && write_pem(dir, kind, "-root.crt", &root, 1, NULL) && write_pem(dir, kind, "-intermediate.crt", &mid, 1, NULL) &&
             write_pem(dir, kind, ".crt", full, 2, NULL) && write_pem(dir, kind, ".key", NULL, 0, kl);
    X509_free(root), X509_free(mid), X509_free(srv);
    EVP_PKEY_free(kr), EVP_PKEY_free(km), EVP_PKEY_free(kl);
    return ok;
}

int gen_certs(const char *dir) {
    static const char *kinds[] = { "rsa2048", "ecdsa-p256", "mldsa65" };
    int made = 0;
    jw_open(NULL);
    jw_str("openssl", library_version());
    jw_arr_open("certs");
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        jw_open(NULL);
        jw_str("cert", kinds[i]);
        if (!write_chain(dir, kinds[i])) jw_bool("made", 0), jw_str("reason", library_errors());
        else jw_bool("made", 1), made++;
        jw_close();
    }
    jw_arr_close();
    jw_close();
    return made;
}

#else
int gen_certs(const char *dir) {
    (void)dir;
    jw_open(NULL);
    jw_str("openssl", library_version());
    jw_arr_open("certs");
    jw_arr_close();
    jw_str("reason", "certificates are made by an OpenSSL build, so that every library loads the same certificate bytes");
    jw_close();
    return 0;
}
#endif
