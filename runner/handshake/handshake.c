/* In-process TLS handshake benchmark, one source for OpenSSL 1.1.1 .. 4.0, AWS-LC, BoringSSL and
 * wolfSSL (its OpenSSL compatibility layer); library differences are behind c-common/library.h.
 *
 * Client and server talk over a BIO pair, driven alternately from one thread; the time of every SSL
 * call is added to the side that made it (see connect_once for how). Every handshake is checked:
 * protocol, group and resumption must be what was asked, or the run fails loudly. Output: one JSON
 * object on stdout. Usage: see PROGRAM_USAGE below. */
#define _GNU_SOURCE
#include "../c-common/library.h" /* first: it must precede every library header */
#include "../c-common/callgrind.h"
#include "../c-common/certs.h"
#include "../c-common/clock.h"
#include "../c-common/cpu.h"
#include "../c-common/deterministic.h"
#include "../c-common/errors.h"
#include "../c-common/exit_codes.h"
#include "../c-common/heap.h"
#include "../c-common/hello.h"
#include "../c-common/json.h"
#include "../c-common/options.h"
#include "../c-common/program.h"
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#if defined(OBS_LIB_OPENSSL) && !OBS_OPENSSL_AT_LEAST(0x30000000L)
#include <openssl/ec.h>
#endif

enum { RES_NONE, RES_TICKET, RES_SESSION_ID };
enum { MODE_HANDSHAKE, MODE_CTX_NEW, MODE_CTX_PER_CONN, MODE_MEMORY };
enum { VERIFY_CHAIN, VERIFY_NONE };

static struct {
    const char *cert_dir, *cert, *cgroups, *sgroups, *cipher, *expect_group, *verify_host;
    int proto, resume, mode, count, threads, warmup, deterministic, cpu, count_side, verify;
} C = { .cert = "ecdsa-p256",
        .cgroups = "default",
        .sgroups = "default",
        .verify_host = CERT_HOSTNAME,
        .proto = TLS1_3_VERSION,
        .resume = RES_NONE,
        .mode = MODE_HANDSHAKE,
        .count = 100,
        .threads = 1,
        .warmup = 2,
        .cpu = -1,
        .count_side = SIDE_HARNESS,
        .verify = VERIFY_CHAIN };

static const char *const RESUME_NAMES[] = { "none", "ticket", "session-id" };
static const char *const MODE_NAMES[] = { "handshake", "ctx-new", "ctx-per-conn", "memory" };
static const char *const SIDE_NAMES[] = { "both", "client", "server" }; /* --count-side, indexed by SIDE_* */
static const char *const VERIFY_NAMES[] = { "chain", "none" };
static const char *rng_not_fixed; /* deterministic mode on a library whose RNG cannot be fixed: why */
static int expect_id;             /* IANA id of the group every handshake must negotiate, 0 = not pinned */

/* Which side's code runs now (heap accounting) and, with --count-side under callgrind, whether its
 * instructions are collected: only that side's calls inside the measured handshakes are. Without
 * --count-side, collection spans the whole measured loop (run_worker) and nothing toggles here. */
static int measuring, collecting;
static void enter(int side) {
    mem_side = side;
    int want = measuring && C.count_side != SIDE_HARNESS && side == C.count_side;
    if (want != collecting) {
        CALLGRIND_TOGGLE_COLLECT;
        collecting = want;
    }
}

/* ------------------------------------------------------------------ contexts */
/* <cert-dir>/<kind><suffix>, the files of c-common/certs.h */
static void cert_path(char *out, size_t n, const char *suffix) { snprintf(out, n, "%s/%s%s", C.cert_dir, C.cert, suffix); }

/* What the client's certificate verification saw in the current connection (one connection at a time
 * per thread). Libraries differ in whether they call back for the trust anchor itself (OpenSSL, AWS-LC
 * and BoringSSL do, wolfSSL does not), so the anchor (self-issued) is counted apart: "checked" are the
 * certificates verified against their issuer, which are the ones whose signature was checked. */
static __thread int verify_calls, verify_checked, verify_depth, verify_anchor;
static int verify_cb(int ok, X509_STORE_CTX *store) {
    X509 *x = X509_STORE_CTX_get_current_cert(store);
    verify_calls++;
    if (x && X509_NAME_cmp(X509_get_subject_name(x), X509_get_issuer_name(x)) == 0) {
        verify_anchor = 1;
    } else if (ok) {
        int depth = X509_STORE_CTX_get_error_depth(store);
        verify_checked++;
        if (depth + 1 > verify_depth) verify_depth = depth + 1;
    }
    return ok;
}

static void configure(SSL_CTX *ctx, const char *side, const char *groups) {
    char what[300];
    /* the same peer verification on every library: the client verifies the server's chain up to the
     * root CA, its only trust anchor, and the server's name (client_ctx, connect_once); the server
     * asks for no client certificate; the output says what was verified (verification) */
    SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
    if (!SSL_CTX_set_min_proto_version(ctx, C.proto) || !SSL_CTX_set_max_proto_version(ctx, C.proto)) die_unsupported("setting the protocol version");
    if (strcmp(groups, "default") != 0 && !SSL_CTX_set1_groups_list(ctx, groups)) {
        snprintf(what, sizeof(what), "%s groups \"%s\" not accepted by SSL_CTX_set1_groups_list", side, groups);
        die_unsupported(what);
    }
    if (C.cipher) {
#ifdef OBS_LIB_BORINGSSL
        if (C.proto == TLS1_3_VERSION)
            die_unsupported_because("choosing a TLS 1.3 cipher suite", "BoringSSL has no SSL_CTX_set_ciphersuites: its TLS 1.3 cipher suites are fixed");
        int ok = SSL_CTX_set_cipher_list(ctx, C.cipher);
#else
        int ok = C.proto == TLS1_3_VERSION ? SSL_CTX_set_ciphersuites(ctx, C.cipher) : SSL_CTX_set_cipher_list(ctx, C.cipher);
#endif
        snprintf(what, sizeof(what), "%s cipher \"%s\"", side, C.cipher);
        if (!ok) die_unsupported(what);
    }
}

#if defined(OBS_LIB_AWSLC) || defined(OBS_LIB_BORINGSSL)
/* AWS-LC and BoringSSL hand a client the sessions of TLS 1.3 tickets only through the new-session
 * callback (SSL_get1_session returns the handshake's own, unresumable session): keep the newest. */
#define SESSION_FROM_CALLBACK 1
struct worker;
static void take_fresh_session(struct worker *w, SSL_SESSION *s);
static int new_session(SSL *ssl, SSL_SESSION *s) {
    take_fresh_session(SSL_get_app_data(ssl), s);
    return 1; /* the session is ours now */
}
#endif

static SSL_CTX *client_ctx(void) {
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    if (!ctx) die_failed("SSL_CTX_new(TLS_client_method())");
    configure(ctx, "client", C.cgroups);
    if (C.verify == VERIFY_CHAIN) {
        char root[4096];
        cert_path(root, sizeof(root), "-root.crt");
        if (!SSL_CTX_load_verify_locations(ctx, root, NULL)) die_unsupported("loading the root CA into the client as its trust anchor");
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, verify_cb);
    }
#ifdef OBS_LIB_WOLFSSL
    /* a wolfSSL client asks for TLS 1.2 session tickets only when told to */
    if (C.resume == RES_TICKET && wolfSSL_CTX_UseSessionTicket(ctx) != WOLFSSL_SUCCESS) die_unsupported("wolfSSL_CTX_UseSessionTicket");
#endif
#ifdef SESSION_FROM_CALLBACK
    if (C.resume != RES_NONE) {
        SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL);
        SSL_CTX_sess_set_new_cb(ctx, new_session);
    }
#endif
    return ctx;
}

static SSL_CTX *server_ctx(void) {
    char crt[4096], key[4096], what[300];
    cert_path(crt, sizeof(crt), ".crt");
    cert_path(key, sizeof(key), ".key");
    if (access(crt, R_OK) != 0 || access(key, R_OK) != 0)
        die_failed("certificate files %s / %s missing (run gen-certs with a version that can make them)", crt, key);
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx) die_failed("SSL_CTX_new(TLS_server_method())");
    configure(ctx, "server", C.sgroups);
    /* the leaf and the intermediate CA that issued it: the server sends both */
    snprintf(what, sizeof(what), "loading certificate chain %s.crt", C.cert);
    if (SSL_CTX_use_certificate_chain_file(ctx, crt) != 1) die_unsupported(what);
    snprintf(what, sizeof(what), "loading private key %s.key", C.cert);
    if (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1) die_unsupported(what);
    SSL_CTX_set_session_id_context(ctx, (const unsigned char *)"hs", 2);
    if (C.resume == RES_NONE) { /* a plain full handshake: no tickets issued, nothing cached */
        SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET);
        SSL_CTX_set_num_tickets(ctx, 0);
        SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
    } else if (C.resume == RES_TICKET) { /* stateless tickets only: no server cache to fall back on */
        SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
    } else { /* session ids in the server cache, no tickets (TLS 1.3: stateful tickets) */
        SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET);
        SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_SERVER);
    }
    return ctx;
}

/* ------------------------------------------------------------------ one handshake */
/* The client's verification of one full handshake, as the library reports it (-1: its API cannot say:
 * BoringSSL has no SSL_get0_verified_chain; this wolfSSL build keeps no peer chain, SESSION_CERTS off). */
struct verification {
    int seen;     /* a full handshake was verified */
    int calls;    /* verify callback calls */
    int checked;  /* certificates verified against their issuer (callbacks with ok, the anchor left out) */
    int depth;    /* issuer links verified up to the anchor: 2 = leaf -> intermediate -> root */
    int anchor;   /* the library called back for the trust anchor too */
    int sent;     /* certificates the server sent (SSL_get_peer_cert_chain, which includes the leaf on a client) */
    int verified; /* length of the verified chain, root included (SSL_get0_verified_chain) */
};

struct worker {
    SSL_CTX *cctx, *sctx;
    SSL_SESSION *sess;
    SSL_SESSION *fresh; /* SESSION_FROM_CALLBACK: the newest session the callback handed over */
    uint64_t ccpu, scpu;
    long reads;               /* clock reads during the measured handshakes */
    uint64_t wall;            /* wall time of the measured handshakes */
    uint64_t unmeasured_wall; /* wall time of handshakes inside the loop that are not measured (restart_chain) */
    double cbytes, sbytes;
    uint64_t *lat;
    int n;
    char group[64];        /* what the first handshake negotiated; all later ones must match */
    struct verification v; /* what the first full handshake's verification saw; all later ones must match */
    pthread_t thread;
};

#ifdef SESSION_FROM_CALLBACK
static void take_fresh_session(struct worker *w, SSL_SESSION *s) {
    SSL_SESSION_free(w->fresh);
    w->fresh = s;
}
#endif

static const char *negotiated_group(SSL *s, int reused) {
    if (C.proto == TLS1_2_VERSION && reused) return "none"; /* abbreviated handshake: no key exchange */
#if defined(OBS_LIB_AWSLC) || defined(OBS_LIB_BORINGSSL)
    int id = SSL_get_group_id(s); /* IANA code point */
    if (!id) return "none";
    return group_name(id) ? group_name(id) : "unknown";
#elif (OBS_OPENSSL_AT_LEAST(0x30000000L) && defined(OBS_HAVE_SSL_GROUP_TO_NAME)) || defined(OBS_LIB_WOLFSSL)
    int nid = SSL_get_negotiated_group(s);
    const char *name = nid > 0 ? SSL_group_to_name(s, nid) : NULL;
    if (!name) return "none";
    return group_id(name) ? group_name(group_id(name)) : name;
#else /* 1.1.1 (and 3.0's development before January 2021) has no SSL_group_to_name: use the key the server sent */
    EVP_PKEY *k = NULL;
    int nid = 0;
    if (!SSL_get_peer_tmp_key(s, &k)) return "none";
    if (EVP_PKEY_id(k) == EVP_PKEY_EC) nid = EC_GROUP_get_curve_name(EC_KEY_get0_group(EVP_PKEY_get0_EC_KEY(k)));
    else nid = EVP_PKEY_id(k);
    EVP_PKEY_free(k);
    return nid == NID_X25519             ? "X25519"
           : nid == NID_X448             ? "X448"
           : nid == NID_X9_62_prime256v1 ? "P-256"
           : nid == NID_secp384r1        ? "P-384"
           : nid == NID_secp521r1        ? "P-521"
                                         : OBJ_nid2sn(nid);
#endif
}

static void check_want(SSL *s, int rc, const char *what) {
    int e = SSL_get_error(s, rc);
#ifdef OBS_LIB_WOLFSSL
    /* wolfSSL's SSL_get_error returns its own negative error codes: name the code, the queue may only say "error state on socket" */
    if (e < 0) die_failed("%s failed (SSL_get_error %d: %s)", what, e, wolfSSL_ERR_reason_error_string((unsigned long)e));
#endif
    if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) die_failed("%s failed (SSL_get_error %d)", what, e);
}

#ifdef OBS_LIB_WOLFSSL
/* wolfSSL's message callback does not show the hellos: read them off the wire instead. Peeks (does not
 * consume) a flight waiting in the BIO pair and hands its plaintext handshake messages to the probe. */
static void probe_wire(BIO *peer_end, int write_p, struct probe *pr) {
    char *p;
    int n = (int)BIO_nread0(peer_end, &p);
    const unsigned char *m = (const unsigned char *)p;
    for (int off = 0; off + 5 <= n;) {
        int len = m[off + 3] << 8 | m[off + 4];
        if (off + 5 + len > n) break;
        if (m[off] == SSL3_RT_HANDSHAKE) {
            if (write_p && pr->ch_record_bytes == 0) pr->ch_record_bytes = 5 + len;
            for (int q = off + 5; q + 4 <= off + 5 + len;) {
                int mlen = 4 + (m[q + 1] << 16 | m[q + 2] << 8 | m[q + 3]);
                if (q + mlen > off + 5 + len) break;
                probe_callback(write_p, 0, SSL3_RT_HANDSHAKE, m + q, (size_t)mlen, NULL, pr);
                q += mlen;
            }
        }
        off += 5 + len;
    }
}
#endif

static int stack_len(STACK_OF(X509) * sk) { return sk ? (int)sk_X509_num(sk) : 0; }

/* A full handshake's verification: the library's result must be X509_V_OK (SSL_VERIFY_PEER already
 * fails the handshake otherwise) and what it saw the same as in the first full handshake. */
static void check_verification(struct worker *w, SSL *cli) {
    long result = SSL_get_verify_result(cli);
    if (result != X509_V_OK) die_failed("the client's certificate verification reports %ld, not X509_V_OK", result);
    struct verification v = { 1, verify_calls, verify_checked, verify_depth, verify_anchor, -1, -1 };
#ifndef OBS_LIB_WOLFSSL
    v.sent = stack_len(SSL_get_peer_cert_chain(cli));
#ifndef OBS_LIB_BORINGSSL
    v.verified = stack_len(SSL_get0_verified_chain(cli));
#endif
#endif
    if (!w->v.seen) w->v = v;
    else if (memcmp(&w->v, &v, sizeof(v)) != 0)
        die_failed("certificate verification changed between handshakes: %d callbacks to depth %d, then %d to depth %d", w->v.calls, w->v.depth, v.calls,
                   v.depth);
}

/* Everything the library says about the handshake must be what was asked. */
static void verify(struct worker *w, SSL *cli, SSL *srv, int want_resumed) {
    if (SSL_version(cli) != C.proto || SSL_version(srv) != C.proto)
        die_failed("asked for %s, negotiated %s", C.proto == TLS1_3_VERSION ? "TLSv1.3" : "TLSv1.2", SSL_get_version(cli));
    int rc = SSL_session_reused(cli), rs = SSL_session_reused(srv);
    if (want_resumed && (!rc || !rs)) die_failed("resumption (%s) asked but the session was not reused (client %d, server %d)", RESUME_NAMES[C.resume], rc, rs);
    if (!want_resumed && (rc || rs)) die_failed("a full handshake was asked but the session was reused");
    if (C.verify == VERIFY_CHAIN && !rc) check_verification(w, cli);
    const char *g = negotiated_group(cli, rc);
    if (expect_id && strcmp(g, "none") != 0 && group_id(g) != expect_id) die_failed("group %s was pinned but %s was negotiated", group_name(expect_id), g);
    if (want_resumed != (C.resume != RES_NONE)) return; /* the priming full handshake of a resumption run */
    if (!w->group[0]) snprintf(w->group, sizeof(w->group), "%s", g);
    else if (strcmp(w->group, g) != 0) die_failed("negotiated group changed between handshakes: %s then %s", w->group, g);
}

/* One connection: both SSL objects, the handshake, the client reading what follows it (TLS 1.3
 * tickets), and freeing both unless keep is given. Returns its CPU time, both sides. */
static uint64_t connect_once(struct worker *w, struct probe *pr, SSL **keep) {
    BIO *cb, *sb;
    enter(SIDE_HARNESS);
    if (!BIO_new_bio_pair(&cb, 1 << 16, &sb, 1 << 16)) die_failed("BIO_new_bio_pair");
    int want_resumed = C.resume != RES_NONE && w->sess != NULL;
    /* Each side's share is timed with the cheap monotonic clock and scaled by the thread's CPU/wall
     * ratio over the connection, which removes time the thread spent descheduled; one CPU-clock read
     * (a system call) per SSL call would add ~1 us each to the sides. */
    uint64_t cw = 0, sw = 0, c0 = CPU_NOW(), w0 = WALL_NOW(), t0 = w0, t1;
#define CHARGE(side) (t1 = WALL_NOW(), side += t1 - t0, t0 = t1)
    enter(SIDE_CLIENT);
    SSL_CTX *cctx = C.mode == MODE_CTX_PER_CONN ? client_ctx() : w->cctx;
    SSL *cli = SSL_new(cctx);
    if (!cli) die_failed("SSL_new(client)");
    SSL_set_bio(cli, cb, cb);
    SSL_set_connect_state(cli);
    verify_calls = verify_checked = verify_depth = verify_anchor = 0;
    /* the name a real client connects to, checked against the leaf (per connection, as clients do) */
    if (C.verify == VERIFY_CHAIN && SSL_set1_host(cli, C.verify_host) != 1) die_failed("SSL_set1_host");
#ifdef SESSION_FROM_CALLBACK
    SSL_set_app_data(cli, w);
#endif
    if (want_resumed && !SSL_set_session(cli, w->sess)) die_failed("SSL_set_session");
#ifndef OBS_LIB_WOLFSSL
    if (pr) SSL_set_msg_callback(cli, probe_callback), SSL_set_msg_callback_arg(cli, pr);
#endif
    CHARGE(cw);
    enter(SIDE_SERVER);
    SSL *srv = SSL_new(w->sctx);
    if (!srv) die_failed("SSL_new(server)");
    SSL_set_bio(srv, sb, sb);
    SSL_set_accept_state(srv);
    CHARGE(sw);
    for (int round = 0, cdone = 0, sdone = 0; !(cdone && sdone); round++) {
        if (round > 50) die_failed("handshake made no progress in 50 rounds");
        enter(SIDE_CLIENT);
        int r = cdone ? 1 : SSL_do_handshake(cli);
        CHARGE(cw);
        if (r == 1) cdone = 1;
        else check_want(cli, r, "client handshake");
#ifdef OBS_LIB_WOLFSSL
        if (pr) probe_wire(sb, 1, pr);
#endif
        enter(SIDE_SERVER);
        r = sdone ? 1 : SSL_do_handshake(srv);
        CHARGE(sw);
        if (r == 1) sdone = 1;
        else check_want(srv, r, "server handshake");
#ifdef OBS_LIB_WOLFSSL
        if (pr) probe_wire(cb, 0, pr);
#endif
    }
#ifdef SESSION_FROM_CALLBACK
    /* AWS-LC and BoringSSL hold a TLS 1.3 server's tickets back until it writes: a zero-byte write
     * sends them, as the response a real server writes would */
    if (C.resume != RES_NONE && C.proto == TLS1_3_VERSION) {
        enter(SIDE_SERVER);
        int wr = SSL_write(srv, "", 0);
        CHARGE(sw);
        if (wr < 0) check_want(srv, wr, "server flushing session tickets");
    }
#endif
    enter(SIDE_CLIENT);
    char buf[64];
    int r = SSL_read(cli, buf, sizeof(buf));
    CHARGE(cw);
    enter(SIDE_HARNESS);
    if (r > 0) die_failed("the server sent application data");
    check_want(cli, r, "client reading session tickets");
    verify(w, cli, srv, want_resumed);
    w->cbytes += (double)BIO_number_written(cb);
    w->sbytes += (double)BIO_number_written(sb);
    t0 = WALL_NOW();
    enter(SIDE_CLIENT);
    if (C.resume != RES_NONE) { /* resume from the newest session next time, as a real client does */
#ifdef SESSION_FROM_CALLBACK
        /* a resumption that brought no new session (TLS 1.2) keeps the one it resumed, as SSL_get1_session would */
        SSL_SESSION *s = w->fresh;
        if (!s && want_resumed && w->sess) SSL_SESSION_up_ref(w->sess), s = w->sess;
        w->fresh = NULL;
#else
        SSL_SESSION *s = SSL_get1_session(cli);
#endif
        if (!s || !SSL_SESSION_is_resumable(s)) {
#ifndef OBS_LIB_OPENSSL
            if (C.proto == TLS1_3_VERSION && C.resume == RES_SESSION_ID)
                die_unsupported_because("TLS 1.3 resumption from the server's session cache (tickets off)",
                                        "the library issued no resumable session: it resumes TLS 1.3 only through session tickets");
#endif
            die_failed("no resumable session after the handshake");
        }
        SSL_SESSION_free(w->sess);
        w->sess = s;
    }
    if (keep) {
        keep[0] = cli, keep[1] = srv;
    } else { /* close_notify first: freeing an unclosed connection makes its session unresumable */
        SSL_shutdown(cli);
        SSL_free(cli);
        if (cctx != w->cctx) SSL_CTX_free(cctx);
        CHARGE(cw);
        enter(SIDE_SERVER);
        SSL_shutdown(srv);
        SSL_free(srv);
        CHARGE(sw);
    }
    enter(SIDE_HARNESS);
    uint64_t w1 = WALL_NOW(), c1 = CPU_NOW();
    double ratio = w1 > w0 && c1 - c0 < w1 - w0 ? (double)(c1 - c0) / (double)(w1 - w0) : 1.0;
    uint64_t c = (uint64_t)((double)cw * ratio + 0.5), s = (uint64_t)((double)sw * ratio + 0.5);
    w->ccpu += c, w->scpu += s;
    return c + s;
#undef CHARGE
}

static pthread_barrier_t start_line; /* threads start measuring together, after their warm-ups */

static void reset(struct worker *w) { w->ccpu = w->scpu = 0, w->cbytes = w->sbytes = 0; }

/* callgrind collects the whole measured loop; otherwise (--count-side, threads) enter() collects one side */
static int counts_whole_loop(void) { return C.threads == 1 && C.count_side == SIDE_HARNESS; }

#ifdef OBS_LIB_WOLFSSL
/* A wolfSSL TLS 1.3 server carries the one-byte ticket nonce from each resumed session into the ticket it
 * issues next and refuses the 256th ticket of one resumption chain (SESSION_TICKET_NONCE_OVERFLOW). Before
 * that, a new chain starts with a full handshake that is not measured; the output says so. */
#define TICKET_CHAIN_LIMIT 200
static int chain_limited(void) { return C.proto == TLS1_3_VERSION && C.resume == RES_TICKET; }

static void restart_chain(struct worker *w) {
    uint64_t ccpu = w->ccpu, scpu = w->scpu, t0 = WALL_NOW();
    double cbytes = w->cbytes, sbytes = w->sbytes;
    long reads = clock_reads;
    int was = measuring;
    measuring = 0;
    enter(SIDE_HARNESS);
    int whole_loop = counts_whole_loop();
    if (whole_loop) CALLGRIND_TOGGLE_COLLECT;
    SSL_SESSION_free(w->sess);
    w->sess = NULL;
    connect_once(w, NULL, NULL); /* full handshake: the new chain's first ticket */
    if (whole_loop) CALLGRIND_TOGGLE_COLLECT;
    measuring = was;
    w->ccpu = ccpu, w->scpu = scpu, w->cbytes = cbytes, w->sbytes = sbytes;
    w->unmeasured_wall += WALL_NOW() - t0;
    clock_reads = reads;
}
#endif

/* A priming full handshake when resuming, warm-ups, then the measured handshakes. */
static void *run_worker(void *arg) {
    struct worker *w = arg;
    for (int i = 0; i < C.warmup + (C.resume != RES_NONE); i++) connect_once(w, NULL, NULL);
    reset(w);
    if (C.threads > 1) pthread_barrier_wait(&start_line);
    int whole_loop = counts_whole_loop();
    if (whole_loop) CALLGRIND_TOGGLE_COLLECT;
    long reads0 = clock_reads;
    uint64_t wall0 = WALL_NOW();
    measuring = C.threads == 1;
    for (int i = 0; i < w->n; i++) {
#ifdef TICKET_CHAIN_LIMIT
        if (chain_limited() && i > 0 && i % TICKET_CHAIN_LIMIT == 0) restart_chain(w);
#endif
        w->lat[i] = connect_once(w, NULL, NULL);
    }
    measuring = 0;
    enter(SIDE_HARNESS);
    w->wall = WALL_NOW() - wall0 - w->unmeasured_wall;
    w->reads = clock_reads - reads0;
    if (whole_loop) CALLGRIND_TOGGLE_COLLECT;
    return NULL;
}

/* ------------------------------------------------------------------ output */
static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void percentiles(const char *key, uint64_t *v, int n, const char *what) {
    qsort(v, (size_t)n, sizeof(*v), cmp_u64);
    jw_open(key);
    jw_str("what", what);
    /* nearest rank */
    jw_int("p50", (long long)v[(n * 50 + 99) / 100 - 1]);
    jw_int("p90", (long long)v[(n * 90 + 99) / 100 - 1]);
    jw_int("p99", (long long)v[(n * 99 + 99) / 100 - 1]);
    jw_close();
}

static void share_json(const char *key, int id, int bytes) {
    jw_open(key);
    jw_str("group", group_name(id) ? group_name(id) : "unknown");
    jw_int("id", id);
    jw_int("bytes", bytes);
    jw_close();
}

#if defined(__x86_64__) && (defined(OBS_LIB_OPENSSL) || defined(OBS_LIB_AWSLC)) /* BoringSSL and wolfSSL export no such vector */
#define HAVE_IA32CAP 1
extern unsigned int OPENSSL_ia32cap_P[]; /* internal, but the CPU features the library chose matter */
#endif

static void header(void) {
    jw_open(NULL);
    jw_str("openssl", library_version());
    jw_str("mode", MODE_NAMES[C.mode]);
    jw_bool("deterministicRng", C.deterministic && !rng_not_fixed);
    if (rng_not_fixed) jw_str("rngNotFixed", rng_not_fixed);
    jw_bool("underValgrind", RUNNING_ON_VALGRIND);
    if (C.cpu >= 0) jw_int("cpu", C.cpu);
    if (C.count_side != SIDE_HARNESS) jw_str("countSide", SIDE_NAMES[C.count_side]);
#ifdef HAVE_IA32CAP
    char cap[64];
    snprintf(cap, sizeof(cap), "%08x:%08x:%08x:%08x", OPENSSL_ia32cap_P[0], OPENSSL_ia32cap_P[1], OPENSSL_ia32cap_P[2], OPENSSL_ia32cap_P[3]);
    jw_str("ia32cap", cap);
#endif
}

/* ------------------------------------------------------------------ modes */
static void run_ctx_new(void) {
    uint64_t *lat = calloc((size_t)C.count, sizeof(uint64_t)), new_w = 0, free_w = 0;
    for (int i = 0; i < C.warmup; i++) SSL_CTX_free(SSL_CTX_new(TLS_method()));
    CALLGRIND_TOGGLE_COLLECT;
    /* as for handshakes: monotonic clock per call, scaled by the loop's CPU / wall time */
    uint64_t c0 = CPU_NOW(), w0 = WALL_NOW();
    for (int i = 0; i < C.count; i++) {
        uint64_t t0 = WALL_NOW();
        SSL_CTX *ctx = SSL_CTX_new(TLS_method());
        uint64_t t1 = WALL_NOW();
        if (!ctx) die_failed("SSL_CTX_new(TLS_method())");
        SSL_CTX_free(ctx);
        new_w += t1 - t0, free_w += WALL_NOW() - t1, lat[i] = t1 - t0;
    }
    uint64_t w1 = WALL_NOW(), c1 = CPU_NOW();
    CALLGRIND_TOGGLE_COLLECT;
    double ratio = w1 > w0 && c1 - c0 < w1 - w0 ? (double)(c1 - c0) / (double)(w1 - w0) : 1.0;
    for (int i = 0; i < C.count; i++) lat[i] = (uint64_t)((double)lat[i] * ratio + 0.5);
    header();
    jw_int("count", C.count);
    jw_int("ctxNewCpuNs", (long long)((double)new_w * ratio + 0.5));
    jw_int("ctxFreeCpuNs", (long long)((double)free_w * ratio + 0.5));
    percentiles("ctxNewLatencyNs", lat, C.count, "CPU time of one SSL_CTX_new(TLS_method())");
    jw_close();
}

static void run_handshakes(void) {
    SSL_CTX *sctx = server_ctx(), *cctx = client_ctx();
    const char *single = strchr(C.sgroups, ':') || !strcmp(C.sgroups, "default") ? NULL : C.sgroups;
    if (!single && strcmp(C.cgroups, "default") != 0 && !strchr(C.cgroups, ':')) single = C.cgroups;
    if (C.expect_group) single = C.expect_group;
    if (single && !(expect_id = group_id(single))) die_usage("unknown group name %s", single);

    /* the probe: a handshake like the measured ones, watched by the message callback */
    struct probe pr = { 0 };
    struct worker probe_w = { .cctx = cctx, .sctx = sctx };
    if (C.resume != RES_NONE) connect_once(&probe_w, NULL, NULL);
    SSL *kept[2];
    connect_once(&probe_w, &pr, kept);
    const char *cipher = SSL_CIPHER_get_name(SSL_get_current_cipher(kept[0]));
    char cipher_name[100], protocol[20];
    snprintf(cipher_name, sizeof(cipher_name), "%s", cipher ? cipher : "none");
    snprintf(protocol, sizeof(protocol), "%s", SSL_get_version(kept[0]));
    int resumed = SSL_session_reused(kept[0]);
    SSL_shutdown(kept[0]), SSL_shutdown(kept[1]);
    SSL_free(kept[0]), SSL_free(kept[1]);

    long long heap_client = 0, heap_server = 0;
    int total = C.count * C.threads;
    struct worker *ws = calloc((size_t)C.threads, sizeof(*ws));
    uint64_t *lat = calloc((size_t)total, sizeof(uint64_t)), wall0 = 0, wall = 0; /* lat: CPU ns per connection */
    for (int t = 0; t < C.threads; t++) {
        ws[t] = (struct worker){ .cctx = cctx, .sctx = sctx, .n = C.count, .lat = lat + (size_t)t * C.count };
        snprintf(ws[t].group, sizeof(ws[t].group), "%s", probe_w.group);
    }
    if (C.mode == MODE_MEMORY) { /* hold C.count live connections, count the heap they keep */
        SSL **conns = calloc((size_t)C.count * 2, sizeof(SSL *));
        struct worker *w = &ws[0];
        for (int i = 0; i < C.warmup + (C.resume != RES_NONE); i++) connect_once(w, NULL, NULL);
        reset(w);
        long long c0 = mem_live(SIDE_CLIENT), s0 = mem_live(SIDE_SERVER);
        for (int i = 0; i < C.count; i++) w->lat[i] = connect_once(w, NULL, conns + 2 * i);
        heap_client = mem_live(SIDE_CLIENT) - c0, heap_server = mem_live(SIDE_SERVER) - s0;
        for (int i = 0; i < 2 * C.count; i++) SSL_shutdown(conns[i]), SSL_free(conns[i]);
        free(conns);
    } else if (C.threads == 1) {
        run_worker(&ws[0]);
        wall = ws[0].wall;
    } else {
        pthread_barrier_init(&start_line, NULL, (unsigned)C.threads + 1);
        for (int t = 0; t < C.threads; t++)
            if ((errno = pthread_create(&ws[t].thread, NULL, run_worker, &ws[t])) != 0) die_failed("pthread_create: %s", strerror(errno));
        pthread_barrier_wait(&start_line);
        wall0 = WALL_NOW();
        for (int t = 0; t < C.threads; t++) pthread_join(ws[t].thread, NULL);
        wall = WALL_NOW() - wall0;
    }
    uint64_t ccpu = 0, scpu = 0;
    double cbytes = 0, sbytes = 0, reads = 0;
    for (int t = 0; t < C.threads; t++) ccpu += ws[t].ccpu, scpu += ws[t].scpu, cbytes += ws[t].cbytes, sbytes += ws[t].sbytes, reads += ws[t].reads;
    /* what one monotonic clock read costs here: the harness's own share of each side's time */
    uint64_t k0 = WALL_NOW();
    for (int i = 0; i < 10000; i++) WALL_NOW();
    double read_ns = (double)(WALL_NOW() - k0) / 10000;

    header();
    jw_str("proto", C.proto == TLS1_3_VERSION ? "1.3" : "1.2");
    jw_str("cert", C.cert);
    jw_str("clientGroups", C.cgroups);
    jw_str("serverGroups", C.sgroups);
    jw_str("resume", RESUME_NAMES[C.resume]);
    jw_int("threads", C.threads);
    jw_int("handshakes", total);
#ifdef TICKET_CHAIN_LIMIT
    if (chain_limited() && C.count > TICKET_CHAIN_LIMIT) jw_int("ticketChainLimit", TICKET_CHAIN_LIMIT);
#endif
    jw_int("clientCpuNs", (long long)ccpu);
    jw_int("serverCpuNs", (long long)scpu);
    if (C.mode != MODE_MEMORY) jw_int("wallNs", (long long)wall);
    jw_num("clientBytes", cbytes / total);
    jw_num("serverBytes", sbytes / total);
    if (!clock_off && C.mode != MODE_MEMORY) {
        jw_open("timer");
        jw_str("sides", "CLOCK_MONOTONIC around each side's SSL calls, scaled by thread CPU / wall time per connection");
        jw_num("readsPerHandshake", reads / total);
        jw_num("readNs", read_ns);
        jw_close();
    }
    if (!clock_off) percentiles("latencyNs", lat, total, "CPU time of one connection, client + server: SSL objects, handshake, ticket read, shutdown, free");
    jw_open("verification");
    jw_str("mode", VERIFY_NAMES[C.verify]);
    if (C.verify == VERIFY_CHAIN) {
        jw_str("hostname", C.verify_host);
        jw_int("depth", probe_w.v.depth);
        jw_int("certsChecked", probe_w.v.checked);
        jw_int("callbacks", probe_w.v.calls);
        jw_bool("anchorCallback", probe_w.v.anchor);
        if (probe_w.v.sent >= 0) jw_int("certsSent", probe_w.v.sent);
        if (probe_w.v.verified >= 0) jw_int("verifiedChain", probe_w.v.verified);
    }
    jw_close();
    jw_open("negotiated");
    jw_str("protocol", protocol);
    jw_str("cipher", cipher_name);
    jw_str("group", probe_w.group);
    jw_bool("resumed", resumed);
    jw_bool("hrr", pr.hrr);
    jw_close();
    jw_open("clientHello");
    jw_int("messageBytes", pr.ch_message_bytes);
    /* wolfSSL's message callback shows no record headers: a ClientHello under 2^14 bytes is one record */
    jw_int("recordBytes", pr.ch_record_bytes ? pr.ch_record_bytes : pr.ch_message_bytes <= 16384 ? pr.ch_message_bytes + 5 : 0);
    jw_int("count", pr.client_hellos);
    jw_arr_open("keyShares");
    for (int i = 0; i < pr.n_shares; i++) share_json(NULL, pr.share_group[i], pr.share_bytes[i]);
    jw_arr_close();
    jw_close();
    if (pr.server_share_group) share_json("serverKeyShare", pr.server_share_group, pr.server_share_bytes);
    if (C.mode == MODE_MEMORY) {
        jw_open("heap");
        jw_int("connections", C.count);
        jw_num("clientBytesPerConnection", (double)heap_client / C.count);
        jw_num("serverBytesPerConnection", (double)heap_server / C.count);
        jw_close();
    }
    jw_close();
}

/* ------------------------------------------------------------------ main */
const char PROGRAM_NAME[] = "handshake";
const char PROGRAM_USAGE[] = "usage: handshake gen-certs DIR\n"
                             "       handshake run --cert-dir DIR [--cert rsa2048|ecdsa-p256|mldsa65] [--proto 1.2|1.3]\n"
                             "                 [--client-groups default|LIST] [--server-groups default|LIST] [--expect-group NAME]\n"
                             "                 [--resume none|ticket|session-id] [--count N] [--threads T] [--warmup N]\n"
                             "                 [--cipher STR] [--mode handshake|ctx-new|ctx-per-conn|memory] [--deterministic]\n"
                             "                 [--cpu N] [--count-side client|server] [--verify chain|none] [--verify-host NAME]\n";

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "gen-certs") == 0) return gen_certs(argv[2]) > 0 ? 0 : EXIT_FAILED;
    if (argc < 2 || strcmp(argv[1], "run") != 0) die_usage("expected gen-certs or run");
    static const char *const PROTOS[] = { "1.2", "1.3" };
    enum {
        CERT_DIR = 256,
        CERT,
        PROTO,
        CLIENT_GROUPS,
        SERVER_GROUPS,
        EXPECT_GROUP,
        RESUME,
        MODE,
        CIPHER,
        COUNT,
        THREADS,
        WARMUP,
        CPU,
        COUNT_SIDE,
        VERIFY,
        VERIFY_HOST,
        DETERMINISTIC
    };
    static const struct option OPTIONS[] = {
        { "cert-dir", required_argument, NULL, CERT_DIR },
        { "cert", required_argument, NULL, CERT },
        { "proto", required_argument, NULL, PROTO },
        { "client-groups", required_argument, NULL, CLIENT_GROUPS },
        { "server-groups", required_argument, NULL, SERVER_GROUPS },
        { "expect-group", required_argument, NULL, EXPECT_GROUP },
        { "resume", required_argument, NULL, RESUME },
        { "mode", required_argument, NULL, MODE },
        { "cipher", required_argument, NULL, CIPHER },
        { "count", required_argument, NULL, COUNT },
        { "threads", required_argument, NULL, THREADS },
        { "warmup", required_argument, NULL, WARMUP },
        { "cpu", required_argument, NULL, CPU },
        { "count-side", required_argument, NULL, COUNT_SIDE },
        { "verify", required_argument, NULL, VERIFY },
        { "verify-host", required_argument, NULL, VERIFY_HOST },
        { "deterministic", no_argument, NULL, DETERMINISTIC },
        { NULL, 0, NULL, 0 },
    };
    /* the options follow "run": getopt_long sees argv[1] as the program name */
    int c, n = argc - 1;
    char **args = argv + 1;
    opterr = 0;
    while ((c = getopt_long(n, args, ":", OPTIONS, NULL)) != -1) {
        const char *v = optarg;
        switch (c) {
        case CERT_DIR: C.cert_dir = v; break;
        case CERT: C.cert = v; break;
        case PROTO: C.proto = option_pick("--proto", v, PROTOS, 2) ? TLS1_3_VERSION : TLS1_2_VERSION; break;
        case CLIENT_GROUPS: C.cgroups = v; break;
        case SERVER_GROUPS: C.sgroups = v; break;
        case EXPECT_GROUP: C.expect_group = v; break;
        case RESUME: C.resume = option_pick("--resume", v, RESUME_NAMES, 3); break;
        case MODE: C.mode = option_pick("--mode", v, MODE_NAMES, 4); break;
        case CIPHER: C.cipher = v; break;
        case COUNT: C.count = (int)option_int("--count", v, 1, 10000000); break;
        case THREADS: C.threads = (int)option_int("--threads", v, 1, 256); break;
        case WARMUP: C.warmup = (int)option_int("--warmup", v, 0, 1000000); break;
        case CPU: C.cpu = option_cpu(v); break;
        case COUNT_SIDE: C.count_side = option_pick("--count-side", v, SIDE_NAMES, 3); break;
        case VERIFY: C.verify = option_pick("--verify", v, VERIFY_NAMES, 2); break;
        case VERIFY_HOST: C.verify_host = v; break;
        case DETERMINISTIC: C.deterministic = 1; break;
        default: option_refuse(c, args);
        }
    }
    if (optind < n) die_usage("unexpected argument %s", args[optind]);
    if (C.mode != MODE_CTX_NEW && !C.cert_dir) die_usage("--cert-dir is required");
    if (C.threads > 1 && (C.mode == MODE_MEMORY || C.deterministic)) die_usage("--threads > 1 cannot be combined with memory or deterministic mode");
    if (C.threads > 1 && C.cpu >= 0) die_usage("--cpu pins the one measuring thread: not with --threads > 1");
    if (C.count_side != SIDE_HARNESS && (!C.deterministic || C.mode != MODE_HANDSHAKE))
        die_usage("--count-side is for instruction counts: it needs --deterministic and --mode handshake");
    pin_to_cpu(C.cpu); /* one CPU for the measuring thread: no migrations between caches mid-block */
    /* the allocator hooks and the RNG must be in place before any other OpenSSL call */
    const char *why;
    if (C.mode == MODE_MEMORY && (why = mem_hooks_install())) die_unsupported_because("counting heap per connection", why);
    if (C.deterministic) {
        clock_off = 1;
        det_time_frozen = 1;
        clearenv(); /* the C library scans the environment (TZ) while formatting times: its size would count */
        /* where the RNG cannot be fixed the clock still is; the caller repeats the count and reports the spread */
        rng_not_fixed = det_rand_install();
    }
    if (C.mode == MODE_CTX_NEW) run_ctx_new();
    else run_handshakes();
    return 0;
}
