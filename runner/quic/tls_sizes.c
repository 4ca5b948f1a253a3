/* One TLS 1.3 handshake in memory, reporting what each side put on the wire: every handshake
 * message (type, length; full bytes of ClientHello and ServerHello), every record, the certificate
 * chain. It measures sizes, not time. One source for OpenSSL 1.1.1 .. 4.0.
 *
 *   tls_sizes <client-groups|default> <server-groups|default> <rsa2048|ecdsa-p256|mldsa65>
 *
 * Prints one JSON object. Exit 0: handshake done; 1: handshake failed (messages so far are kept);
 * 2: this version cannot do the configuration (unknown group or key type), with the library's error.
 * The outcome is the object's "status" (not c-common/errors.h's error object): a failed handshake's
 * messages so far are part of the result. */
#include "../c-common/library.h" /* first: it must precede every library header */
#include "../c-common/certs.h"
#include "../c-common/errors.h"
#include "../c-common/exit_codes.h"
#include "../c-common/json.h"
#include "../c-common/keygen.h"
#include "../c-common/program.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/ssl.h>

const char PROGRAM_NAME[] = "tls_sizes";
const char PROGRAM_USAGE[] = "usage: tls_sizes <client-groups|default> <server-groups|default> <rsa2048|ecdsa-p256|mldsa65>\n";

static void header(const char *cg, const char *sg, const char *cert) {
    jw_open(NULL);
    jw_str("openssl", library_version());
    jw_str("clientGroups", cg);
    jw_str("serverGroups", sg);
    jw_str("cert", cert);
}

static void unsupported(const char *cg, const char *sg, const char *cert, const char *what) {
    char msg[5200];
    snprintf(msg, sizeof(msg), "%s: %s", what, library_errors());
    header(cg, sg, cert);
    jw_str("status", "unsupported");
    jw_str("reason", msg);
    jw_close();
    exit(EXIT_UNSUPPORTED);
}

/* ---------------------------------------------------------------- what the message callback saw */
enum { CLIENT = 1, SERVER = 2 };
static int seq;

static void on_msg(int write_p, int version, int content_type, const void *buf, size_t len, SSL *ssl, void *arg) {
    (void)version, (void)ssl;
    const unsigned char *m = buf;
    int side = *(int *)arg;
    if (!write_p) return; /* every message is seen once, by the side that wrote it */
    int record = content_type == SSL3_RT_HEADER && len >= 5, handshake = content_type == SSL3_RT_HANDSHAKE && len >= 4;
    if (!record && !handshake) return;
    jw_open(NULL);
    jw_int("seq", seq++);
    jw_str("from", side == CLIENT ? "client" : "server");
    jw_str("kind", record ? "record" : "handshake");
    if (record) {
        jw_int("contentType", m[0]);
        jw_int("length", m[3] << 8 | m[4]);
    } else {
        jw_int("type", m[0]);
        jw_int("length", (long long)len);
        if (m[0] == 1 || m[0] == 2) jw_hex("hex", m, len);
    }
    jw_close();
}

static int step(SSL *s, int *done) {
    if (*done) return 1;
    int r = SSL_do_handshake(s);
    if (r == 1) return *done = 1;
    int e = SSL_get_error(s, r);
    return e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE;
}

int main(int argc, char **argv) {
    if (argc != 4) die_usage("expected three arguments");
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
    static const char *const ca_ext[] = { "basicConstraints", "critical,CA:TRUE", NULL }, *const leaf_ext[] = { "subjectAltName", "DNS:localhost", NULL };
    X509 *ca = make_cert(kind, NULL, "observatory intermediate", 1, ca_key, NULL, NULL, ca_ext);
    X509 *leaf = ca ? make_cert(kind, NULL, "localhost", 2, leaf_key, ca, ca_key, leaf_ext) : NULL;
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
    jw_arr_open("chain");
    X509 *const chain[] = { leaf, ca };
    const char *const roles[] = { "leaf", "intermediate" };
    for (int i = 0; i < 2; i++) {
        unsigned char *der = NULL;
        jw_open(NULL);
        jw_str("role", roles[i]);
        jw_int("derBytes", i2d_X509(chain[i], &der));
        jw_close();
        OPENSSL_free(der);
    }
    jw_arr_close();
    jw_arr_open("events");
    int cdone = 0, sdone = 0, ok = 1;
    for (int i = 0; i < 100 && !(cdone && sdone) && ok; i++) ok = step(c, &cdone) && step(s, &sdone);
    jw_arr_close();
    if (cdone && sdone) {
        jw_str("status", "ok");
#if OBS_OPENSSL_AT_LEAST(0x30000000L)
        const char *g = SSL_group_to_name(c, SSL_get_negotiated_group(c));
        jw_str("negotiatedGroup", g ? g : "(unknown)");
#endif
        jw_str("protocol", SSL_get_version(c));
        jw_str("cipher", SSL_CIPHER_get_name(SSL_get_current_cipher(c)));
        jw_close();
        return EXIT_OK;
    }
    jw_str("status", "failed");
    jw_str("reason", library_errors());
    jw_close();
    return EXIT_FAILED;
}
