/* One TLS 1.3 handshake in memory, reporting what each side put on the wire: every handshake
 * message (type, length; full bytes of ClientHello and ServerHello), every record, the certificate
 * chain. It measures sizes, not time. One source for OpenSSL 1.1.1 .. 4.0.
 *
 *   tls_sizes <client-groups|default> <server-groups|default> <rsa2048|ecdsa-p256|mldsa65>
 *
 * Prints one JSON object. Exit 0: handshake done; 1: handshake failed (messages so far are kept);
 * 2: this version cannot do the configuration (unknown group or key type), with the library's error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include "../c-common/sizes_util.h"

static void header(const char *cg, const char *sg, const char *cert) {
    printf("{\"openssl\":");
    json_str(OpenSSL_version(OPENSSL_VERSION));
    printf(",\"clientGroups\":");
    json_str(cg);
    printf(",\"serverGroups\":");
    json_str(sg);
    printf(",\"cert\":");
    json_str(cert);
}

static void unsupported(const char *cg, const char *sg, const char *cert, const char *what) {
    header(cg, sg, cert);
    printf(",\"status\":\"unsupported\",\"reason\":");
    char msg[5200];
    snprintf(msg, sizeof(msg), "%s: %s", what, lib_errors());
    json_str(msg);
    printf("}\n");
    exit(2);
}

/* ---------------------------------------------------------------- what the message callback saw */
enum { CLIENT = 1, SERVER = 2 };
static int seq;

static void on_msg(int write_p, int version, int content_type, const void *buf, size_t len, SSL *ssl, void *arg) {
    (void)version, (void)ssl;
    const unsigned char *m = buf;
    int side = *(int *)arg;
    if (!write_p) return; /* every message is seen once, by the side that wrote it */
    if (content_type == SSL3_RT_HEADER && len >= 5) {
        printf("%s{\"seq\":%d,\"from\":\"%s\",\"kind\":\"record\",\"contentType\":%d,\"length\":%u}", seq ? "," : "", seq,
               side == CLIENT ? "client" : "server", m[0], (unsigned)(m[3] << 8 | m[4]));
        seq++;
    } else if (content_type == SSL3_RT_HANDSHAKE && len >= 4) {
        printf("%s{\"seq\":%d,\"from\":\"%s\",\"kind\":\"handshake\",\"type\":%d,\"length\":%zu", seq ? "," : "", seq,
               side == CLIENT ? "client" : "server", m[0], len);
        if (m[0] == 1 || m[0] == 2) printf(",\"hex\":"), hex(m, len);
        printf("}");
        seq++;
    }
}

static int step(SSL *s, int *done) {
    if (*done) return 1;
    int r = SSL_do_handshake(s);
    if (r == 1) return *done = 1;
    int e = SSL_get_error(s, r);
    return e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s <client-groups|default> <server-groups|default> <rsa2048|ecdsa-p256|mldsa65>\n", argv[0]);
        return 64;
    }
    const char *cg = argv[1], *sg = argv[2], *kind = argv[3];
    static int client_side = CLIENT, server_side = SERVER;
    SSL_CTX *cctx = SSL_CTX_new(TLS_client_method()), *sctx = SSL_CTX_new(TLS_server_method());
    if (!cctx || !sctx) unsupported(cg, sg, kind, "SSL_CTX_new");
    SSL_CTX_set_min_proto_version(cctx, TLS1_3_VERSION);
    SSL_CTX_set_min_proto_version(sctx, TLS1_3_VERSION);
    if (strcmp(cg, "default") != 0 && !SSL_CTX_set1_groups_list(cctx, cg)) unsupported(cg, sg, kind, "client SSL_CTX_set1_groups_list refused the list");
    if (strcmp(sg, "default") != 0 && !SSL_CTX_set1_groups_list(sctx, sg)) unsupported(cg, sg, kind, "server SSL_CTX_set1_groups_list refused the list");

    EVP_PKEY *ca_key = gen_key(kind), *leaf_key = ca_key ? gen_key(kind) : NULL;
    if (!ca_key || !leaf_key) unsupported(cg, sg, kind, "key generation for the certificate type");
    X509 *ca = make_cert("observatory intermediate", ca_key, NULL, ca_key, 1, kind);
    X509 *leaf = ca ? make_cert("localhost", leaf_key, ca, ca_key, 0, kind) : NULL;
    if (!leaf) unsupported(cg, sg, kind, "certificate");
    /* the server sends leaf + intermediate, as a real server does (the root is never sent) */
    if (!SSL_CTX_use_certificate(sctx, leaf) || !SSL_CTX_use_PrivateKey(sctx, leaf_key) || !SSL_CTX_add1_chain_cert(sctx, ca))
        unsupported(cg, sg, kind, "server certificate");

    SSL_CTX_set_msg_callback(cctx, on_msg);
    SSL_CTX_set_msg_callback_arg(cctx, &client_side);
    SSL_CTX_set_msg_callback(sctx, on_msg);
    SSL_CTX_set_msg_callback_arg(sctx, &server_side);
    SSL *c = SSL_new(cctx), *s = SSL_new(sctx);
    BIO *cb = NULL, *sb = NULL;
    if (!c || !s || !BIO_new_bio_pair(&cb, 1 << 17, &sb, 1 << 17)) unsupported(cg, sg, kind, "SSL_new");
    SSL_set_bio(c, cb, cb);
    SSL_set_bio(s, sb, sb);
    SSL_set_connect_state(c);
    SSL_set_accept_state(s);

    header(cg, sg, kind);
    printf(",\"chain\":[");
    unsigned char *der = NULL;
    printf("{\"role\":\"leaf\",\"derBytes\":%d},", i2d_X509(leaf, &der));
    OPENSSL_free(der), der = NULL;
    printf("{\"role\":\"intermediate\",\"derBytes\":%d}]", i2d_X509(ca, &der));
    OPENSSL_free(der);
    printf(",\"events\":[");
    int cdone = 0, sdone = 0, ok = 1;
    for (int i = 0; i < 100 && !(cdone && sdone) && ok; i++) ok = step(c, &cdone) && step(s, &sdone);
    printf("]");
    if (cdone && sdone) {
        printf(",\"status\":\"ok\"");
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
        printf(",\"negotiatedGroup\":");
        const char *g = SSL_group_to_name(c, SSL_get_negotiated_group(c));
        json_str(g ? g : "(unknown)");
#endif
        printf(",\"protocol\":");
        json_str(SSL_get_version(c));
        printf(",\"cipher\":");
        json_str(SSL_CIPHER_get_name(SSL_get_current_cipher(c)));
        printf("}\n");
        return 0;
    }
    printf(",\"status\":\"failed\",\"reason\":");
    json_str(lib_errors());
    printf("}\n");
    return 1;
}
