/* What OpenSSL's own QUIC stack puts in its first datagrams. In-process, over a datagram BIO pair,
 * with the library's message callback reporting every datagram, packet header and frame it writes.
 *
 *   quic_sizes client-only <groups|default>                   (QUIC client: 3.2+)
 *       the client's first flight only; nothing answers it.
 *   quic_sizes handshake <groups|default> <cert> <retry|no-retry>   (QUIC server: 3.5+)
 *       a full handshake against OpenSSL's QUIC server (SSL_new_listener), with or without the
 *       server's address validation by Retry (SSL_LISTENER_FLAG_NO_VALIDATE).
 *
 * Prints one JSON object; exit 0 done, 1 failed, 2 unsupported by this version (with the reason). The
 * outcome is the object's "status" (not c-common/errors.h's error object): a failed handshake's
 * datagrams so far are part of the result. */
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
#include <arpa/inet.h>
#include <openssl/bio.h>
#include <openssl/ssl.h>

const char PROGRAM_NAME[] = "quic_sizes";
const char PROGRAM_USAGE[] = "usage: quic_sizes client-only <groups|default> | handshake <groups|default> <cert> <retry|no-retry>\n";

static const char *mode = "?", *groups = "?", *cert = "-", *retry = "-";

static void header(void) {
    jw_open(NULL);
    jw_str("openssl", library_version());
    jw_str("mode", mode);
    jw_str("groups", groups);
    jw_str("cert", cert);
    jw_str("retry", retry);
}

static void unsupported(const char *why) {
    header();
    jw_str("status", "unsupported");
    jw_str("reason", why);
    jw_close();
    exit(EXIT_UNSUPPORTED);
}

#if !OBS_OPENSSL_AT_LEAST(0x30200000L) || defined(OPENSSL_NO_QUIC)
int main(int argc, char **argv) {
    if (argc >= 3) mode = argv[1], groups = argv[2];
    unsupported("this OpenSSL has no QUIC stack (OpenSSL's QUIC client arrived in 3.2, its server in 3.5)");
}
#else
/* only while the events are written */
static void fail(const char *what) {
    char msg[5200];
    snprintf(msg, sizeof(msg), "%s: %s", what, library_errors());
    jw_arr_close();
    jw_str("status", "failed");
    jw_str("reason", msg);
    jw_close();
    exit(EXIT_FAILED);
}

static size_t varint(const unsigned char *p, size_t avail, uint64_t *v) {
    if (avail == 0) return 0;
    size_t n = (size_t)1 << (p[0] >> 6);
    if (n > avail) return 0;
    *v = p[0] & 0x3f;
    for (size_t i = 1; i < n; i++) *v = *v << 8 | p[i];
    return n;
}

/* Walks the coalesced packets of a datagram through their cleartext long-header fields
 * (RFC 9000 17.2); the packet number length is header-protected and not readable here. */
static void walk_packets(const unsigned char *d, size_t n) {
    static const char *types[] = { "initial", "0rtt", "handshake", "retry" };
    size_t off = 0;
    jw_arr_open("packets");
    while (off < n) {
        unsigned b = d[off];
        if (!(b & 0x80) || n - off < 7) { /* short header: runs to the end of the datagram */
            jw_open(NULL);
            jw_str("type", "1rtt");
            jw_int("bytes", (long long)(n - off));
            jw_close();
            break;
        }
        uint32_t version = (uint32_t)d[off + 1] << 24 | d[off + 2] << 16 | d[off + 3] << 8 | d[off + 4];
        size_t p = off + 5, dcil = d[p], scil;
        p += 1 + dcil;
        if (p >= n) break;
        scil = d[p], p += 1 + scil;
        const char *type = version == 0 ? "version-negotiation" : types[(b >> 4) & 3];
        if (version == 0 || ((b >> 4) & 3) == 3 || p > n) {
            jw_open(NULL);
            jw_str("type", type);
            jw_int("bytes", (long long)(n - off));
            jw_int("dcidLen", (long long)dcil);
            jw_int("scidLen", (long long)scil);
            jw_close();
            break;
        }
        uint64_t token = 0, length = 0;
        size_t k;
        if (((b >> 4) & 3) == 0) {
            if (!(k = varint(d + p, n - p, &token))) break;
            p += k + (size_t)token;
        }
        if (p > n || !(k = varint(d + p, n - p, &length))) break;
        p += k;
        jw_open(NULL);
        jw_str("type", type);
        jw_int("bytes", (long long)(p - off + length));
        jw_int("dcidLen", (long long)dcil);
        jw_int("scidLen", (long long)scil);
        jw_int("tokenLen", (long long)token);
        jw_int("lengthField", (long long)length);
        jw_int("headerToLength", (long long)(p - off));
        jw_close();
        off = p + (size_t)length;
    }
    jw_arr_close();
}

/* one event: side, direction and kind; the caller adds the rest and closes it */
static void event(const char *side, const char *dir, const char *kind) {
    jw_open(NULL);
    jw_str("side", side);
    jw_str("dir", dir);
    jw_str("kind", kind);
}

static void on_msg(int write_p, int version, int ct, const void *buf, size_t len, SSL *ssl, void *arg) {
    (void)version, (void)ssl;
    const unsigned char *m = buf;
    const char *side = arg, *dir = write_p ? "sent" : "received";
    if (ct == SSL3_RT_QUIC_DATAGRAM) {
        event(side, dir, "datagram");
        jw_int("bytes", (long long)len);
        walk_packets(m, len);
        jw_close();
    } else if (ct == SSL3_RT_QUIC_PACKET && len >= 1) {
        /* the header without protection (before it is applied, after it is removed): the low
         * bits of the first byte give the packet number length */
        event(side, dir, "packet");
        jw_int("firstByte", m[0]);
        jw_int("headerBytes", (long long)len);
        jw_close();
    } else if (ct == SSL3_RT_QUIC_FRAME_FULL || ct == SSL3_RT_QUIC_FRAME_HEADER || ct == SSL3_RT_QUIC_FRAME_PADDING) {
        /* CRYPTO and STREAM frames are reported without their data ("header") */
        const char *what = ct == SSL3_RT_QUIC_FRAME_PADDING ? "padding" : ct == SSL3_RT_QUIC_FRAME_HEADER ? "header" : "full";
        event(side, dir, "frame");
        jw_str("part", what);
        jw_int("frameType", ct == SSL3_RT_QUIC_FRAME_PADDING ? 0 : (len ? m[0] : 0));
        jw_int("bytes", (long long)len);
        jw_close();
    } else if (ct == SSL3_RT_HANDSHAKE && write_p && len >= 4) {
        event(side, "sent", "handshake");
        jw_int("type", m[0]);
        jw_int("length", (long long)len);
        if (m[0] == 1 || m[0] == 2) jw_hex("hex", m, len);
        jw_close();
    }
}

static BIO_ADDR *loopback(unsigned short port) {
    struct in_addr ina;
    BIO_ADDR *a = BIO_ADDR_new();
    ina.s_addr = htonl(0x7f000001);
    if (a && !BIO_ADDR_rawmake(a, AF_INET, &ina, sizeof(ina), htons(port))) BIO_ADDR_free(a), a = NULL;
    return a;
}

static const unsigned char ALPN[] = { 10, 'o', 'b', 's', 'e', 'r', 'v', 'a', 't', 'o', 'r' };

#if OBS_OPENSSL_AT_LEAST(0x30500000L)
static int select_alpn(SSL *s, const unsigned char **out, unsigned char *outlen, const unsigned char *in, unsigned inlen, void *arg) {
    (void)s, (void)arg;
    unsigned char *o;
    if (SSL_select_next_proto(&o, outlen, ALPN, sizeof(ALPN), in, inlen) != OPENSSL_NPN_NEGOTIATED) return SSL_TLSEXT_ERR_ALERT_FATAL;
    *out = o;
    return SSL_TLSEXT_ERR_OK;
}
#endif

#define TICKS 4

static int progress(SSL *s, int r) {
    int e = SSL_get_error(s, r);
    return e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE;
}

int main(int argc, char **argv) {
    int handshake = argc == 5 && strcmp(argv[1], "handshake") == 0;
    if (!handshake && !(argc == 3 && strcmp(argv[1], "client-only") == 0)) die_usage("expected client-only or handshake and their arguments");
    mode = argv[1], groups = argv[2];
    if (handshake) cert = argv[3], retry = argv[4];
#if !OBS_OPENSSL_AT_LEAST(0x30500000L)
    if (handshake) unsupported("this OpenSSL has a QUIC client but no QUIC server (OSSL_QUIC_server_method arrived in 3.5)");
#endif
    SSL_CTX *cctx = SSL_CTX_new(OSSL_QUIC_client_method());
    if (!cctx) unsupported(library_errors());
    if (strcmp(groups, "default") != 0 && !SSL_CTX_set1_groups_list(cctx, groups)) {
        char msg[5200];
        snprintf(msg, sizeof(msg), "client SSL_CTX_set1_groups_list refused the list: %s", library_errors());
        unsupported(msg);
    }
    SSL_CTX_set_msg_callback(cctx, on_msg);
    SSL_CTX_set_msg_callback_arg(cctx, "client");
    BIO *cbio = NULL, *sbio = NULL;
    BIO_ADDR *server_addr = loopback(4433);
    if (!BIO_new_bio_dgram_pair(&cbio, 0, &sbio, 0) || !server_addr) unsupported(library_errors());
#if OBS_OPENSSL_AT_LEAST(0x30500000L)
    SSL *server = NULL, *listener = NULL;
    if (handshake) {
        SSL_CTX *sctx = SSL_CTX_new(OSSL_QUIC_server_method());
        if (!sctx) unsupported(library_errors());
        if (strcmp(groups, "default") != 0) {
            char list[512], *w = list; /* the server allows what the client offers; '*' means nothing to a server */
            for (const char *g = groups; *g && w < list + sizeof(list) - 1; g++)
                if (*g != '*') *w++ = *g;
            *w = 0;
            if (!SSL_CTX_set1_groups_list(sctx, list)) unsupported(library_errors());
        }
        EVP_PKEY *ca_key = gen_key(cert), *leaf_key = ca_key ? gen_key(cert) : NULL;
        static const char *const ca_ext[] = { "basicConstraints", "critical,CA:TRUE", NULL }, *const leaf_ext[] = { "subjectAltName", "DNS:localhost", NULL };
        X509 *ca = leaf_key ? make_cert(cert, NULL, "observatory intermediate", 1, ca_key, NULL, NULL, ca_ext) : NULL;
        X509 *leaf = ca ? make_cert(cert, NULL, "localhost", 2, leaf_key, ca, ca_key, leaf_ext) : NULL;
        if (!leaf || !SSL_CTX_use_certificate(sctx, leaf) || !SSL_CTX_use_PrivateKey(sctx, leaf_key) || !SSL_CTX_add1_chain_cert(sctx, ca)) {
            char msg[5200];
            snprintf(msg, sizeof(msg), "server certificate %s: %s", cert, library_errors());
            unsupported(msg);
        }
        SSL_CTX_set_alpn_select_cb(sctx, select_alpn, NULL);
        SSL_CTX_set_msg_callback(sctx, on_msg);
        SSL_CTX_set_msg_callback_arg(sctx, "server");
        BIO_ADDR *client_addr = loopback(50000);
        int caps = BIO_DGRAM_CAP_HANDLES_DST_ADDR | BIO_DGRAM_CAP_HANDLES_SRC_ADDR;
        if (!client_addr || !BIO_dgram_set_caps(sbio, caps) || !BIO_dgram_set0_local_addr(sbio, server_addr) || !BIO_dgram_set_caps(cbio, caps) ||
            !BIO_dgram_set0_local_addr(cbio, client_addr))
            unsupported(library_errors());
        server_addr = loopback(4433);
        listener = SSL_new_listener(sctx, strcmp(retry, "retry") == 0 ? 0 : SSL_LISTENER_FLAG_NO_VALIDATE);
        if (!listener) unsupported(library_errors());
        SSL_set_bio(listener, sbio, sbio);
        if (!SSL_set_blocking_mode(listener, 0) || !SSL_listen(listener)) unsupported(library_errors());
    }
#endif
    if (!handshake && (!BIO_dgram_set_caps(cbio, BIO_DGRAM_CAP_HANDLES_DST_ADDR) || !BIO_dgram_set_caps(sbio, BIO_DGRAM_CAP_HANDLES_DST_ADDR)))
        unsupported(library_errors());
    SSL *client = SSL_new(cctx);
    if (!client || !SSL_set1_initial_peer_addr(client, server_addr) || SSL_set_alpn_protos(client, ALPN, sizeof(ALPN)) != 0 ||
        !SSL_set_blocking_mode(client, 0))
        unsupported(library_errors());
    SSL_set_bio(client, cbio, cbio);

    header();
    jw_arr_open("events");
    /* One step = each side, in turn, does all it can with what it has received (ticked TICKS times),
     * so that a run of datagrams in one direction is what that side sends per round trip. */
    int cdone = 0, sdone = !handshake, i;
    for (i = 0; i < 1000 && !(cdone && sdone); i++) {
        for (int t = 0; t < TICKS && !cdone; t++) {
            int r = SSL_connect(client);
            if (r == 1) cdone = 1;
            else if (!progress(client, r)) fail("client");
        }
        if (!handshake) break; /* client-only: the first flight is out; nothing will answer it */
#if OBS_OPENSSL_AT_LEAST(0x30500000L)
        for (int t = 0; t < TICKS; t++) {
            SSL_handle_events(listener);
            if (!server && (server = SSL_accept_connection(listener, SSL_ACCEPT_CONNECTION_NO_BLOCK)) != NULL) SSL_set_blocking_mode(server, 0);
            if (server && !sdone) {
                int r = SSL_do_handshake(server);
                if (r == 1) sdone = 1;
                else if (!progress(server, r)) fail("server");
            }
        }
#endif
    }
    if (handshake && !(cdone && sdone)) fail("handshake did not complete in 1000 steps");
    jw_arr_close();
    jw_str("status", "ok");
    jw_int("steps", i);
    jw_close();
    return EXIT_OK;
}
#endif
