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
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

/* fixed validity, 2020-01-01 .. 2049-12-31, which contains the frozen clock of deterministic mode */
#define CERT_NOT_BEFORE ((time_t)1577836800)
#define CERT_NOT_AFTER ((time_t)2524607999)

static int write_cert(const char *dir, const char *kind, EVP_PKEY *key) {
    char path[4096];
    int ok = 0;
    X509 *x = X509_new();
    X509_NAME *name = X509_NAME_new();
    ASN1_INTEGER *serial = ASN1_INTEGER_new();
    char cn[64];
    snprintf(cn, sizeof(cn), "observatory %s", kind);
    if (!x || !name || !serial || !ASN1_INTEGER_set(serial, 1) || !X509_set_serialNumber(x, serial) || !X509_set_version(x, 2) ||
        !X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)cn, -1, -1, 0) ||
        !X509_set_subject_name(x, name) || !X509_set_issuer_name(x, name) || !ASN1_TIME_set(X509_getm_notBefore(x), CERT_NOT_BEFORE) ||
        !ASN1_TIME_set(X509_getm_notAfter(x), CERT_NOT_AFTER) || !X509_set_pubkey(x, key))
        goto done;
    /* ML-DSA signs the whole message itself: no separate digest */
    if (!X509_sign(x, key, strcmp(kind, "mldsa65") == 0 ? NULL : EVP_sha256())) goto done;
    snprintf(path, sizeof(path), "%s/%s.key", dir, kind);
    FILE *f = fopen(path, "w");
    if (!f || !PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL)) { if (f) fclose(f); goto done; }
    fclose(f);
    snprintf(path, sizeof(path), "%s/%s.crt", dir, kind);
    f = fopen(path, "w");
    if (!f || !PEM_write_X509(f, x)) { if (f) fclose(f); goto done; }
    ok = fclose(f) == 0;
done:
    X509_free(x);
    X509_NAME_free(name);
    ASN1_INTEGER_free(serial);
    return ok;
}

int gen_certs(const char *dir) {
    static const char *kinds[] = { "rsa2048", "ecdsa-p256", "mldsa65" };
    int made = 0;
    jw_open(NULL);
    jw_str("openssl", library_version());
    jw_arr_open("certs");
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        EVP_PKEY *key = gen_key(kinds[i]);
        jw_open(NULL);
        jw_str("cert", kinds[i]);
        if (key == NULL) {
            jw_bool("made", 0), jw_str("reason", library_errors());
        } else if (!write_cert(dir, kinds[i], key)) {
            jw_bool("made", 0), jw_str("reason", library_errors());
        } else {
            jw_bool("made", 1), made++;
        }
        jw_close();
        EVP_PKEY_free(key);
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
