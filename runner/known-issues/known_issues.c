/* The operations behind OpenSSL's most reported performance complaints, one source for 1.1.1 .. 4.0
 * (see runner/known-issues/README.md for the upstream issues and what each operation reproduces).
 *
 *   known_issues gen-inputs DIR            keys, certificates and a CA bundle (fixed-seed RNG)
 *   known_issues run --op OP --inputs DIR --count N [--warmup N] [--deterministic]
 *
 * One operation per invocation, repeated --count times after --warmup untimed repetitions. The CPU
 * time of the calling thread is taken around the repetitions (or around each one, for operations
 * that need an untimed setup per repetition), and under valgrind callgrind collection is switched
 * on for exactly the same region, so instructions and call counts per operation come from the same
 * code as the CPU time. Output: one JSON object on stdout; exit codes as in ../c-common/exit_codes.h. */
#define _GNU_SOURCE
#include "../c-common/library.h" /* first: it must precede every library header */
#include "../c-common/callgrind.h"
#include "../c-common/certs.h"
#include "../c-common/clock.h"
#include "../c-common/deterministic.h"
#include "../c-common/errors.h"
#include "../c-common/heap.h"
#include "../c-common/json.h"
#include "../c-common/keygen.h"
#include "../c-common/options.h"
#include "../c-common/program.h"
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#define CA_COUNT 200
#define AEAD_BYTES 16 /* the tiny record of the complaint */
#define AEAD_AAD 13   /* a TLS 1.2 / DTLS record header */
#define DTLS_MTU 1435 /* the link MTU the DTLS report set */
#define DTLS_CIPHER "PSK-AES128-GCM-SHA256"

/* ------------------------------------------------------------------ inputs */
static const char *inputs_dir;

static unsigned char *slurp(const char *name, long *len) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", inputs_dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) die_failed("cannot open input %s (run gen-inputs first)", path);
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)*len + 1);
    if (!buf || fread(buf, 1, (size_t)*len, f) != (size_t)*len) die_failed("cannot read input %s", path);
    fclose(f);
    buf[*len] = 0;
    return buf;
}

/* a self-signed CA certificate (basicConstraints CA:TRUE, critical), of the organisation bundle_check looks up */
static X509 *self_signed(const char *kind, EVP_PKEY *key, const char *cn, long serial) {
    static const char *const ca[] = { "basicConstraints", "critical,CA:TRUE", NULL };
    X509 *x = make_cert(kind, "Observatory test CAs", cn, serial, key, NULL, NULL, ca);
    if (!x) die_failed("making certificate %s", cn);
    return x;
}

static FILE *create(const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) die_failed("cannot create %s", path);
    return f;
}

static void write_pkcs8(const char *dir, const char *kind, EVP_PKEY *k) {
    char name[64];
    snprintf(name, sizeof(name), "%s.p8.pem", kind);
    FILE *f = create(dir, name);
    if (!PEM_write_PrivateKey(f, k, NULL, NULL, 0, NULL, NULL) || fclose(f) != 0) die_failed("writing %s", name);
    snprintf(name, sizeof(name), "%s.p8.der", kind);
    BIO *b = BIO_new_fp(create(dir, name), BIO_CLOSE);
    if (!b || !i2d_PKCS8PrivateKey_bio(b, k, NULL, NULL, 0, NULL, NULL) || BIO_flush(b) != 1) die_failed("writing %s", name);
    BIO_free(b);
}

/* An RSA-2048 and an ECDSA P-256 key as PKCS#8 PEM and DER, and a bundle of CA_COUNT self-signed CA certificates
 * alternating RSA-2048 and ECDSA P-256 keys (as public bundles mix them); the first is also written
 * as DER for d2i_X509. The RNG is the fixed-seed one, so a given version always writes the same bytes. */
static void gen_inputs(const char *dir) {
    EVP_PKEY *rsa = gen_key("rsa2048"), *ec = gen_key("ecdsa-p256");
    if (!rsa || !ec) die_failed("generating keys");
    write_pkcs8(dir, "rsa2048", rsa);
    write_pkcs8(dir, "ecdsa-p256", ec);
    FILE *f, *bundle = create(dir, "ca-bundle.pem");
    for (int i = 0; i < CA_COUNT; i++) {
        char cn[64];
        snprintf(cn, sizeof(cn), "Observatory Test CA %03d", i + 1);
        X509 *x = i % 2 == 0 ? self_signed("rsa2048", rsa, cn, i + 1) : self_signed("ecdsa-p256", ec, cn, i + 1);
        if (!PEM_write_X509(bundle, x)) die_failed("writing ca-bundle.pem");
        if (i == 0) {
            f = create(dir, "ca-rsa2048.der");
            if (!i2d_X509_fp(f, x) || fclose(f) != 0) die_failed("writing ca-rsa2048.der");
        }
        X509_free(x);
    }
    if (fclose(bundle) != 0) die_failed("writing ca-bundle.pem");
    EVP_PKEY_free(rsa);
    EVP_PKEY_free(ec);
    jw_open(NULL);
    jw_str("openssl", library_version());
    jw_int("caCertificates", CA_COUNT);
    jw_close();
}

/* ------------------------------------------------------------------ operations */
struct op {
    const char *name;
    const char *per;          /* what one repetition is: call, handshake, connection */
    void (*init)(void);       /* once, before the warm-up */
    void *(*setup)(void);     /* per repetition, untimed (NULL: none) */
    void (*run)(void *);      /* the measured operation */
    void (*teardown)(void *); /* per repetition, untimed */
    void (*check)(void *);    /* once, on the last repetition's state before its teardown: did the operation do its job? */
};

static unsigned char *pem, *der, *cert;
static long pem_len, der_len, cert_len;
static int key_type; /* what the decoded key must be: EVP_PKEY_RSA or EVP_PKEY_EC */
static char bundle_path[4096];

static void load_pem(void) { pem = slurp("rsa2048.p8.pem", &pem_len), key_type = EVP_PKEY_RSA; }
static void load_der(void) { der = slurp("rsa2048.p8.der", &der_len), key_type = EVP_PKEY_RSA; }
static void load_pem_p256(void) { pem = slurp("ecdsa-p256.p8.pem", &pem_len), key_type = EVP_PKEY_EC; }
static void load_der_p256(void) { der = slurp("ecdsa-p256.p8.der", &der_len), key_type = EVP_PKEY_EC; }
static void load_cert(void) { cert = slurp("ca-rsa2048.der", &cert_len); }

/* PEM_read_bio_PrivateKey from memory: what reading a key file costs once the file is in memory */
static void run_pkey_pem(void *unused) {
    (void)unused;
    BIO *b = BIO_new_mem_buf(pem, (int)pem_len);
    EVP_PKEY *k = b ? PEM_read_bio_PrivateKey(b, NULL, NULL, NULL) : NULL;
    if (!k || EVP_PKEY_id(k) != key_type) die_failed("PEM_read_bio_PrivateKey of a PKCS#8 %s key", key_type == EVP_PKEY_EC ? "EC" : "RSA");
    EVP_PKEY_free(k);
    BIO_free(b);
}

static void run_pkey_der(void *unused) {
    (void)unused;
    const unsigned char *p = der;
    EVP_PKEY *k = d2i_AutoPrivateKey(NULL, &p, der_len);
    if (!k || EVP_PKEY_id(k) != key_type || p != der + der_len) die_failed("d2i_AutoPrivateKey of a PKCS#8 %s key", key_type == EVP_PKEY_EC ? "EC" : "RSA");
    EVP_PKEY_free(k);
}

static void run_x509_der(void *unused) {
    (void)unused;
    const unsigned char *p = cert;
    X509 *x = d2i_X509(NULL, &p, cert_len);
    if (!x || p != cert + cert_len) die_failed("d2i_X509");
    X509_free(x);
}

static void run_ctx_new(void *unused) {
    (void)unused;
    SSL_CTX *c = SSL_CTX_new(TLS_method());
    if (!c) die_failed("SSL_CTX_new(TLS_method())");
    SSL_CTX_free(c);
}

static void bundle_init(void) {
    struct stat st;
    snprintf(bundle_path, sizeof(bundle_path), "%s/ca-bundle.pem", inputs_dir);
    if (stat(bundle_path, &st) != 0) die_failed("input %s missing (run gen-inputs first)", bundle_path);
}
static void *bundle_setup(void) {
    SSL_CTX *c = SSL_CTX_new(TLS_method());
    if (!c) die_failed("SSL_CTX_new(TLS_method())");
    return c;
}
static void run_bundle(void *ctx) {
    if (SSL_CTX_load_verify_locations(ctx, bundle_path, NULL) != 1) die_failed("SSL_CTX_load_verify_locations(%s)", bundle_path);
}
static void bundle_teardown(void *ctx) { SSL_CTX_free(ctx); }
/* the store must hold every certificate of the bundle: a lookup of the last CA's subject finds it */
static void bundle_check(void *ctx) {
    SSL_CTX *c = ctx;
    X509_NAME *name = X509_NAME_new();
    char cn[64];
    snprintf(cn, sizeof(cn), "Observatory Test CA %03d", CA_COUNT);
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, (const unsigned char *)"Observatory test CAs", -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)cn, -1, -1, 0);
    X509_STORE_CTX *sc = X509_STORE_CTX_new();
    X509_OBJECT *obj = X509_OBJECT_new();
    int found = sc && obj && X509_STORE_CTX_init(sc, SSL_CTX_get_cert_store(c), NULL, NULL) && X509_STORE_CTX_get_by_subject(sc, X509_LU_X509, name, obj) == 1;
    X509_OBJECT_free(obj);
    X509_STORE_CTX_free(sc);
    X509_NAME_free(name);
    if (!found) die_failed("the loaded store has no certificate for %s", cn);
}

/* ---- AEAD on tiny records: AES-128-GCM seal of AEAD_BYTES with AEAD_AAD bytes of AAD and a tag */
static const unsigned char KEY[16] = "observatory-key";
static unsigned char iv[12], tag[16], out[AEAD_BYTES + 16];
static const unsigned char AAD[AEAD_AAD] = "record-header";
static const unsigned char PLAIN[AEAD_BYTES] = "tiny aead record";
static EVP_CIPHER_CTX *aead_ctx;

static void next_iv(void) {
    for (int i = 11; i >= 0 && ++iv[i] == 0; i--) {}
}
static void seal(EVP_CIPHER_CTX *c, const EVP_CIPHER *cipher, const unsigned char *key) {
    int n, m;
    if (EVP_EncryptInit_ex(c, cipher, NULL, key, iv) != 1 || EVP_EncryptUpdate(c, NULL, &n, AAD, AEAD_AAD) != 1 ||
        EVP_EncryptUpdate(c, out, &n, PLAIN, AEAD_BYTES) != 1 || EVP_EncryptFinal_ex(c, out + n, &m) != 1 ||
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag) != 1)
        die_failed("AES-128-GCM seal");
}
static void aead_reinit_init(void) {
    if (!(aead_ctx = EVP_CIPHER_CTX_new()) || EVP_EncryptInit_ex(aead_ctx, EVP_aes_128_gcm(), NULL, KEY, iv) != 1) die_failed("AES-128-GCM context");
}
/* a context keyed once, a fresh IV per record: what a record layer (or libsrtp) does per packet */
static void run_aead_reinit(void *unused) {
    (void)unused;
    next_iv();
    seal(aead_ctx, NULL, NULL);
}
/* a new context and key per record */
static void run_aead_new_ctx(void *unused) {
    (void)unused;
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    if (!c) die_failed("EVP_CIPHER_CTX_new");
    next_iv();
    seal(c, EVP_aes_128_gcm(), KEY);
    EVP_CIPHER_CTX_free(c);
}
/* the last record opens with its tag: the seals computed what they claim */
static void aead_check(void *unused) {
    (void)unused;
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    unsigned char back[AEAD_BYTES + 16];
    int n, m;
    if (!c || EVP_DecryptInit_ex(c, EVP_aes_128_gcm(), NULL, KEY, iv) != 1 || EVP_DecryptUpdate(c, NULL, &n, AAD, AEAD_AAD) != 1 ||
        EVP_DecryptUpdate(c, back, &n, out, AEAD_BYTES) != 1 || EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, tag) != 1 ||
        EVP_DecryptFinal_ex(c, back + n, &m) != 1 || memcmp(back, PLAIN, AEAD_BYTES) != 0)
        die_failed("the last AES-128-GCM record does not open with its tag");
    EVP_CIPHER_CTX_free(c);
}

/* ---- DTLS 1.2 with a pre-shared key over a BIO pair: a full handshake, each side stepped in turn */
static SSL_CTX *dtls_cctx, *dtls_sctx;
static const unsigned char PSK[32] = "observatory pre-shared key 32 B";
static const char *dtls_cipher = "none";
static int dtls_heap_mode;
static long long heap_client, heap_server;
#define HEAP_MAX 1000
static SSL *held[2 * HEAP_MAX];
static int n_held;

static unsigned int psk_client(SSL *s, const char *hint, char *id, unsigned int max_id, unsigned char *psk, unsigned int max_psk) {
    (void)s, (void)hint;
    if (max_id < 12 || max_psk < sizeof(PSK)) return 0;
    memcpy(id, "observatory", 12);
    memcpy(psk, PSK, sizeof(PSK));
    return sizeof(PSK);
}
static unsigned int psk_server(SSL *s, const char *id, unsigned char *psk, unsigned int max_psk) {
    (void)s;
    if (strcmp(id, "observatory") != 0 || max_psk < sizeof(PSK)) return 0;
    memcpy(psk, PSK, sizeof(PSK));
    return sizeof(PSK);
}

static SSL_CTX *dtls_ctx(int server) {
    SSL_CTX *c = SSL_CTX_new(server ? DTLS_server_method() : DTLS_client_method());
    if (!c) die_failed("SSL_CTX_new(DTLS)");
    if (!SSL_CTX_set_min_proto_version(c, DTLS1_2_VERSION) || !SSL_CTX_set_max_proto_version(c, DTLS1_2_VERSION)) die_unsupported("DTLS 1.2 only");
    if (!SSL_CTX_set_cipher_list(c, DTLS_CIPHER)) die_unsupported("cipher " DTLS_CIPHER);
    /* new handshakes only: no tickets, no session cache holding sessions across connections */
    SSL_CTX_set_options(c, SSL_OP_NO_TICKET | SSL_OP_NO_QUERY_MTU);
    SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_OFF);
    if (server) SSL_CTX_set_psk_server_callback(c, psk_server);
    else SSL_CTX_set_psk_client_callback(c, psk_client);
    return c;
}

static void dtls_init(void) {
    dtls_cctx = dtls_ctx(0);
    dtls_sctx = dtls_ctx(1);
}

static void want(SSL *s, int rc, const char *what) {
    int e = SSL_get_error(s, rc);
    if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) die_failed("%s failed (SSL_get_error %d)", what, e);
}

static void run_dtls(void *unused) {
    (void)unused;
    BIO *cb, *sb;
    mem_side = SIDE_HARNESS;
    if (!BIO_new_bio_pair(&cb, 1 << 16, &sb, 1 << 16)) die_failed("BIO_new_bio_pair");
    mem_side = SIDE_CLIENT;
    SSL *cli = SSL_new(dtls_cctx);
    if (!cli) die_failed("SSL_new(DTLS client)");
    SSL_set_bio(cli, cb, cb);
    DTLS_set_link_mtu(cli, DTLS_MTU);
    SSL_set_connect_state(cli);
    mem_side = SIDE_SERVER;
    SSL *srv = SSL_new(dtls_sctx);
    if (!srv) die_failed("SSL_new(DTLS server)");
    SSL_set_bio(srv, sb, sb);
    DTLS_set_link_mtu(srv, DTLS_MTU);
    SSL_set_accept_state(srv);
    for (int round = 0, cdone = 0, sdone = 0; !(cdone && sdone); round++) {
        if (round > 50) die_failed("DTLS handshake made no progress in 50 rounds");
        mem_side = SIDE_CLIENT;
        int r = cdone ? 1 : SSL_do_handshake(cli);
        if (r == 1) cdone = 1;
        else want(cli, r, "DTLS client handshake");
        mem_side = SIDE_SERVER;
        r = sdone ? 1 : SSL_do_handshake(srv);
        if (r == 1) sdone = 1;
        else want(srv, r, "DTLS server handshake");
    }
    if (SSL_version(cli) != DTLS1_2_VERSION || SSL_session_reused(cli)) die_failed("expected a full DTLS 1.2 handshake, got %s", SSL_get_version(cli));
    const char *c = SSL_CIPHER_get_name(SSL_get_current_cipher(cli));
    if (!c || strcmp(c, DTLS_CIPHER) != 0) die_failed("negotiated %s, not " DTLS_CIPHER, c ? c : "no cipher");
    dtls_cipher = DTLS_CIPHER;
    if (dtls_heap_mode) { /* held until all are counted */
        held[n_held++] = cli, held[n_held++] = srv;
    } else {
        mem_side = SIDE_CLIENT;
        SSL_shutdown(cli);
        SSL_free(cli);
        mem_side = SIDE_SERVER;
        SSL_shutdown(srv);
        SSL_free(srv);
    }
    mem_side = SIDE_HARNESS;
}

static const struct op OPS[] = {
    { "pkey-pem", "call", load_pem, NULL, run_pkey_pem, NULL, NULL },
    { "pkey-der", "call", load_der, NULL, run_pkey_der, NULL, NULL },
    { "pkey-pem-p256", "call", load_pem_p256, NULL, run_pkey_pem, NULL, NULL },
    { "pkey-der-p256", "call", load_der_p256, NULL, run_pkey_der, NULL, NULL },
    { "x509-der", "call", load_cert, NULL, run_x509_der, NULL, NULL },
    { "ctx-new", "call", NULL, NULL, run_ctx_new, NULL, NULL },
    { "ca-bundle", "call", bundle_init, bundle_setup, run_bundle, bundle_teardown, bundle_check },
    { "aead-reinit", "record", aead_reinit_init, NULL, run_aead_reinit, NULL, aead_check },
    { "aead-new-ctx", "record", NULL, NULL, run_aead_new_ctx, NULL, aead_check },
    { "dtls-handshake", "handshake", dtls_init, NULL, run_dtls, NULL, NULL },
    { "dtls-heap", "connection", dtls_init, NULL, run_dtls, NULL, NULL },
};

/* ------------------------------------------------------------------ main */
#if defined(__x86_64__)
extern unsigned int OPENSSL_ia32cap_P[];
#endif

const char PROGRAM_NAME[] = "known_issues";
const char PROGRAM_USAGE[] = "usage: known_issues gen-inputs DIR\n"
                             "       known_issues run --op OP --inputs DIR [--count N] [--warmup N] [--deterministic]\n"
                             "OP: pkey-pem pkey-der pkey-pem-p256 pkey-der-p256 x509-der ctx-new ca-bundle aead-reinit aead-new-ctx dtls-handshake dtls-heap\n";

int main(int argc, char **argv) {
    const char *why;
    int count = 100, warmup = 2, deterministic = 0;
    const struct op *op = NULL;
    if (argc >= 2 && strcmp(argv[1], "gen-inputs") == 0) {
        if (argc != 3) die_usage("gen-inputs takes one directory");
        det_time_frozen = 1;
        if ((why = det_rand_install())) die_failed("fixed-seed RNG: %s", why);
        gen_inputs(argv[2]);
        return 0;
    }
    if (argc < 2 || strcmp(argv[1], "run") != 0) die_usage("expected gen-inputs or run");
    enum { OP = 256, INPUTS, COUNT, WARMUP, DETERMINISTIC };
    static const struct option OPTIONS[] = {
        { "op", required_argument, NULL, OP },         { "inputs", required_argument, NULL, INPUTS },         { "count", required_argument, NULL, COUNT },
        { "warmup", required_argument, NULL, WARMUP }, { "deterministic", no_argument, NULL, DETERMINISTIC }, { NULL, 0, NULL, 0 },
    };
    /* the options follow "run": getopt_long sees argv[1] as the program name */
    int c, n = argc - 1;
    char **args = argv + 1;
    opterr = 0;
    while ((c = getopt_long(n, args, ":", OPTIONS, NULL)) != -1) {
        switch (c) {
        case OP:
            for (size_t k = 0; k < sizeof(OPS) / sizeof(OPS[0]); k++)
                if (!strcmp(optarg, OPS[k].name)) op = &OPS[k];
            if (!op) die_usage("unknown operation %s", optarg);
            break;
        case INPUTS: inputs_dir = optarg; break;
        case COUNT: count = (int)option_int("--count", optarg, 1, 10000000); break;
        case WARMUP: warmup = (int)option_int("--warmup", optarg, 0, 1000000); break;
        case DETERMINISTIC: deterministic = 1; break;
        default: option_refuse(c, args);
        }
    }
    if (optind < n) die_usage("unexpected argument %s", args[optind]);
    if (!op) die_usage("--op is required");
    if (!inputs_dir) die_usage("--inputs is required");
    dtls_heap_mode = strcmp(op->name, "dtls-heap") == 0;
    if (dtls_heap_mode && warmup + count > HEAP_MAX) die_usage("dtls-heap holds at most %d connections (warm-up included)", HEAP_MAX);
    /* allocator hooks and the RNG go in before any other OpenSSL call */
    if (dtls_heap_mode && (why = mem_hooks_install())) die_failed("heap hooks: %s", why);
    if (deterministic) {
        clock_off = 1;
        det_time_frozen = 1;
        clearenv(); /* the C library reads the environment while formatting times: its size would count */
        if ((why = det_rand_install())) die_failed("fixed-seed RNG: %s", why);
    }
    if (op->init) op->init();
    for (int i = 0; i < warmup; i++) {
        void *s = op->setup ? op->setup() : NULL;
        op->run(s);
        if (op->teardown) op->teardown(s);
    }
    long long c0 = mem_live(SIDE_CLIENT), s0 = mem_live(SIDE_SERVER);
    uint64_t total = 0;
    if (op->setup) { /* an untimed setup per repetition: time (and count) each run alone */
        for (int i = 0; i < count; i++) {
            void *s = op->setup();
            uint64_t t0 = CPU_NOW();
            CALLGRIND_TOGGLE_COLLECT;
            op->run(s);
            CALLGRIND_TOGGLE_COLLECT;
            total += CPU_NOW() - t0;
            if (op->check && i == count - 1) op->check(s);
            if (op->teardown) op->teardown(s);
        }
    } else {
        uint64_t t0 = CPU_NOW();
        CALLGRIND_TOGGLE_COLLECT;
        for (int i = 0; i < count; i++) op->run(NULL);
        CALLGRIND_TOGGLE_COLLECT;
        total = CPU_NOW() - t0;
        if (op->check) op->check(NULL);
    }
    if (dtls_heap_mode) {
        heap_client = mem_live(SIDE_CLIENT) - c0, heap_server = mem_live(SIDE_SERVER) - s0;
        for (int i = 0; i < n_held; i++) SSL_shutdown(held[i]), SSL_free(held[i]);
    }

    jw_open(NULL);
    jw_str("openssl", library_version());
    jw_str("op", op->name);
    jw_str("per", op->per);
    jw_int("count", count);
    jw_int("warmup", warmup);
    jw_bool("deterministicRng", deterministic);
    jw_bool("underValgrind", RUNNING_ON_VALGRIND);
#if defined(__x86_64__)
    char cap[64];
    snprintf(cap, sizeof(cap), "%08x:%08x:%08x:%08x", OPENSSL_ia32cap_P[0], OPENSSL_ia32cap_P[1], OPENSSL_ia32cap_P[2], OPENSSL_ia32cap_P[3]);
    jw_str("ia32cap", cap);
#endif
    if (!clock_off) jw_int("cpuNs", (long long)total);
    if (!strcmp(op->name, "ca-bundle")) jw_int("bundleCertificates", CA_COUNT);
    if (!strncmp(op->name, "aead", 4)) jw_int("recordBytes", AEAD_BYTES), jw_int("aadBytes", AEAD_AAD);
    if (!strncmp(op->name, "dtls", 4)) jw_str("cipher", dtls_cipher), jw_int("linkMtu", DTLS_MTU);
    if (dtls_heap_mode) {
        jw_open("heap");
        jw_int("connections", count);
        jw_num("clientBytesPerConnection", (double)heap_client / count);
        jw_num("serverBytesPerConnection", (double)heap_server / count);
        jw_close();
    }
    jw_close();
    return 0;
}
