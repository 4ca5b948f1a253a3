/*
 * Cross-version AEAD throughput: one source, built against every OpenSSL from 1.1.1 to 4.0 and against
 * AWS-LC, BoringSSL and wolfSSL (c-common/library.h).
 *
 * Per buffer, exactly what a TLS record layer asks of the library: a fresh IV on a context whose key
 * was set once, AAD_BYTES of AAD, one EncryptUpdate over the payload, EncryptFinal, GET_TAG. So the
 * tag is computed per buffer. EVP API only; nothing here differs between versions.
 *
 * Time: the primary figure is the CPU time of the measuring thread (CLOCK_THREAD_CPUTIME_ID), which
 * leaves out time the thread waited for a CPU; wall-clock time over the same records is reported beside
 * it. Each size is measured in R repetitions, each running until the thread has used S seconds of CPU
 * (or N records with --count); the caller takes the median of the repetitions, so one preempted or
 * interrupted window does not move the figure. The repetitions take turns across the sizes (window 1 of
 * every size, then window 2, ...), so a size's windows are spread over the whole program rather than
 * one stretch of it, and a slow spell of the host lands in one window of several sizes, not in every
 * window of one size. --cpu pins the process to one CPU (no migrations between caches mid-window);
 * where the kernel refuses, the run fails (c-common/cpu.h).
 *
 * usage: PROGRAM_USAGE below. Prints one JSON object on stdout; on any failure, the error convention of
 * c-common/errors.h, with EXIT_UNSUPPORTED (c-common/exit_codes.h) when the library has no such cipher.
 */
#include "../c-common/library.h" /* first: wolfSSL's options.h must precede its other headers */
#include "../c-common/clock.h"
#include "../c-common/cpu.h"
#include "../c-common/errors.h"
#include "../c-common/exit_codes.h"
#include "../c-common/json.h"
#include "../c-common/options.h"
#include "../c-common/program.h"
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>

#define AAD_BYTES 13 /* a TLS 1.2 record header; TLS 1.3 uses 5 */
#define TAG_BYTES 16
#define IV_BYTES 12
#define MAX_SIZES 16
#define MAX_BYTES (1 << 20)
#define MAX_REPETITIONS 50
/* a repetition stops after this many times its CPU target in wall time, whatever CPU it got */
#define WALL_LIMIT_FACTOR 20

const char PROGRAM_NAME[] = "aead";
const char PROGRAM_USAGE[] = "usage: aead --cipher aes-128-gcm|aes-256-gcm|chacha20-poly1305 --sizes 16,64,... "
                             "(--cpu-seconds S | --count N) [--repetitions R] [--warmup-seconds W] [--cpu N]\n";

/* seconds between two clock_ns readings */
static double seconds_between(uint64_t t0, uint64_t t1) { return (double)(t1 - t0) / 1e9; }

static int unhex(const char *hex, unsigned char *out, size_t max) {
    size_t n = strlen(hex) / 2;
    if (n > max) return -1;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1) return -1;
        out[i] = (unsigned char)v;
    }
    return (int)n;
}

/* Published test vectors: GCM spec test cases 4 and 16 (McGrew & Viega), RFC 8439 section 2.8.2. */
struct kat {
    const char *cipher, *key, *iv, *aad, *plain, *tag;
};
static const char GCM_P[] = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39";
static const char RFC8439_P[] = "4c616469657320616e642047656e746c656d656e206f662074686520636c617373206f66202739393a204966204920636f756c64206f6666657220796f7520"
                                "6f6e6c79206f6e652074697020666f7220746865206675747572652c2073756e73637265656e20776f756c642062652069742e";
static const struct kat KATS[] = {
    { "aes-128-gcm", "feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888", "feedfacedeadbeeffeedfacedeadbeefabaddad2", GCM_P,
      "5bc94fbc3221a5db94fae95ae7121a47" },
    { "aes-256-gcm", "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888", "feedfacedeadbeeffeedfacedeadbeefabaddad2",
      GCM_P, "76fc6ece0f4e1768cddf8853bb2d551b" },
    { "chacha20-poly1305", "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f", "070000004041424344454647", "50515253c0c1c2c3c4c5c6c7",
      RFC8439_P, "1ae10b594f09e26a7e902ecbd0600691" },
};

static const EVP_CIPHER *cipher_named(const char *name) {
    if (strcmp(name, "aes-128-gcm") == 0) return EVP_aes_128_gcm();
    if (strcmp(name, "aes-256-gcm") == 0) return EVP_aes_256_gcm();
#ifndef OBS_LIB_BORINGSSL /* BoringSSL offers ChaCha20-Poly1305 only through its EVP_AEAD API */
    if (strcmp(name, "chacha20-poly1305") == 0) return EVP_chacha20_poly1305();
#endif
    return NULL;
}

/* One sealed record. The context already holds cipher and key. */
static void seal(EVP_CIPHER_CTX *ctx, const unsigned char *iv, const unsigned char *aad, int aadlen, const unsigned char *in, int len, unsigned char *out,
                 unsigned char *tag) {
    int outl, finl;
    if (!EVP_EncryptInit_ex(ctx, NULL, NULL, NULL, iv) || !EVP_EncryptUpdate(ctx, NULL, &outl, aad, aadlen) || !EVP_EncryptUpdate(ctx, out, &outl, in, len) ||
        !EVP_EncryptFinal_ex(ctx, out + outl, &finl) || !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, TAG_BYTES, tag))
        die_failed("encryption failed");
    if (outl + finl != len) die_failed("encryption returned the wrong length");
}

/* 1 if the record opens and gives back `expect`, 0 if the library rejects it. */
static int open_ok(const EVP_CIPHER *cipher, const unsigned char *key, const unsigned char *iv, const unsigned char *aad, int aadlen, const unsigned char *ct,
                   int len, const unsigned char *tag, const unsigned char *expect) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char *pt = malloc(len + 32);
    unsigned char t[TAG_BYTES];
    int outl, finl = 0, ok;
    memcpy(t, tag, TAG_BYTES);
    if (ctx == NULL || pt == NULL) die_failed("out of memory");
    ok = EVP_DecryptInit_ex(ctx, cipher, NULL, key, iv) && EVP_DecryptUpdate(ctx, NULL, &outl, aad, aadlen) && EVP_DecryptUpdate(ctx, pt, &outl, ct, len) &&
         EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, TAG_BYTES, t) && EVP_DecryptFinal_ex(ctx, pt + outl, &finl) > 0 && outl + finl == len &&
         memcmp(pt, expect, len) == 0;
    ERR_clear_error();
    EVP_CIPHER_CTX_free(ctx);
    free(pt);
    return ok;
}

/* Known answer, round trip, and a forged tag must be refused. */
static void known_answer(const char *name, const EVP_CIPHER *cipher) {
    const struct kat *k = NULL;
    unsigned char key[32], iv[IV_BYTES], aad[32], pt[128], ct[128], tag[TAG_BYTES], want[TAG_BYTES];
    for (size_t i = 0; i < sizeof(KATS) / sizeof(KATS[0]); i++)
        if (strcmp(KATS[i].cipher, name) == 0) k = &KATS[i];
    if (k == NULL) die_failed("no known-answer vector for this cipher");
    unhex(k->key, key, sizeof(key));
    unhex(k->iv, iv, sizeof(iv));
    int aadlen = unhex(k->aad, aad, sizeof(aad));
    int len = unhex(k->plain, pt, sizeof(pt));
    unhex(k->tag, want, sizeof(want));
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL || !EVP_EncryptInit_ex(ctx, cipher, NULL, key, NULL)) die_failed("cannot set up the known-answer test");
    seal(ctx, iv, aad, aadlen, pt, len, ct, tag);
    EVP_CIPHER_CTX_free(ctx);
    if (memcmp(tag, want, TAG_BYTES) != 0) die_failed("known-answer test failed: wrong tag");
    if (!open_ok(cipher, key, iv, aad, aadlen, ct, len, tag, pt)) die_failed("known-answer test failed: the sealed vector does not open");
    tag[0] ^= 1;
    if (open_ok(cipher, key, iv, aad, aadlen, ct, len, tag, pt)) die_failed("known-answer test failed: a forged tag was accepted");
}

/* A fresh 96-bit IV per record: a fixed salt and a 64-bit counter, as TLS does. */
static void next_iv(unsigned char *iv, uint64_t seq) {
    for (int i = 0; i < 8; i++) iv[IV_BYTES - 1 - i] = (unsigned char)(seq >> (8 * i));
}

struct repetition {
    uint64_t records;
    double cpu, wall;
};
struct result {
    int bytes;
    int nreps;
    struct repetition reps[MAX_REPETITIONS];
};

/* One size's records: a context keyed once, its buffers, and the record counter that makes each IV fresh. */
struct bench {
    int bytes;
    EVP_CIPHER_CTX *ctx;
    unsigned char key[32], iv[IV_BYTES], aad[AAD_BYTES], tag[TAG_BYTES];
    unsigned char *in, *out;
    uint64_t seq, batch;
};

static void bench_init(struct bench *b, const EVP_CIPHER *cipher, int bytes, double warmup) {
    memset(b, 0, sizeof(*b));
    b->bytes = bytes;
    b->iv[0] = 0xa5, b->iv[1] = 0x5a, b->iv[2] = 0x0f, b->iv[3] = 0xf0;
    b->in = malloc(bytes);
    b->out = malloc(bytes + 32);
    b->ctx = EVP_CIPHER_CTX_new();
    b->batch = 1;
    if (b->in == NULL || b->out == NULL || b->ctx == NULL) die_failed("out of memory");
    for (int i = 0; i < bytes; i++) b->in[i] = (unsigned char)(i * 7 + 1);
    for (int i = 0; i < AAD_BYTES; i++) b->aad[i] = (unsigned char)(0xc0 + i);
    for (size_t i = 0; i < sizeof(b->key); i++) b->key[i] = (unsigned char)(0x11 * i + 3);
    if (!EVP_EncryptInit_ex(b->ctx, cipher, NULL, b->key, NULL)) die_failed("cannot set the key");
    uint64_t start = WALL_NOW();
    while (seconds_between(start, WALL_NOW()) < warmup)
        for (int i = 0; i < 64; i++) {
            next_iv(b->iv, ++b->seq);
            seal(b->ctx, b->iv, b->aad, AAD_BYTES, b->in, bytes, b->out, b->tag);
        }
}

/* One window: seal records until the thread has used cpu_seconds of CPU (or `count` records). */
static struct repetition window(struct bench *b, double cpu_seconds, uint64_t count) {
    uint64_t done = 0;
    uint64_t c0 = CPU_NOW(), w0 = WALL_NOW(), c = c0, w = w0;
    /*
     * Read the clocks once per batch; batches grow until they take ~1 ms of CPU, so the reads (the
     * thread CPU clock is a system call) cost nothing measurable.
     */
    while (count ? done < count : (seconds_between(c0, c) < cpu_seconds && seconds_between(w0, w) < WALL_LIMIT_FACTOR * cpu_seconds)) {
        uint64_t n = count ? (count - done < b->batch ? count - done : b->batch) : b->batch;
        uint64_t b0 = c;
        for (uint64_t i = 0; i < n; i++) {
            next_iv(b->iv, ++b->seq);
            seal(b->ctx, b->iv, b->aad, AAD_BYTES, b->in, b->bytes, b->out, b->tag);
        }
        done += n;
        c = CPU_NOW();
        w = WALL_NOW();
        if (seconds_between(b0, c) < 1e-3 && b->batch < (1u << 20)) b->batch *= 2;
    }
    return (struct repetition){ done, seconds_between(c0, c), seconds_between(w0, w) };
}

/* The last record sealed in the timed loop must open: a broken build cannot report a fast wrong number. */
static void bench_finish(struct bench *b, const EVP_CIPHER *cipher) {
    EVP_CIPHER_CTX_free(b->ctx);
    if (!open_ok(cipher, b->key, b->iv, b->aad, AAD_BYTES, b->out, b->bytes, b->tag, b->in))
        die_failed("the last benchmarked record does not decrypt to its plaintext");
    free(b->in);
    free(b->out);
}

int main(int argc, char **argv) {
    const char *name = NULL;
    char *sizes_arg = NULL, *end;
    double seconds = 0, warmup = 0.05;
    uint64_t count = 0;
    int repetitions = 1, cpu = -1;
    int sizes[MAX_SIZES], nsizes = 0;

    enum { CIPHER = 256, SIZES, CPU_SECONDS, REPETITIONS, COUNT, WARMUP_SECONDS, CPU };
    static const struct option OPTIONS[] = {
        { "cipher", required_argument, NULL, CIPHER },
        { "sizes", required_argument, NULL, SIZES },
        { "cpu-seconds", required_argument, NULL, CPU_SECONDS },
        { "repetitions", required_argument, NULL, REPETITIONS },
        { "count", required_argument, NULL, COUNT },
        { "warmup-seconds", required_argument, NULL, WARMUP_SECONDS },
        { "cpu", required_argument, NULL, CPU },
        { NULL, 0, NULL, 0 },
    };
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", OPTIONS, NULL)) != -1) {
        switch (c) {
        case CIPHER: name = optarg; break;
        case SIZES: sizes_arg = optarg; break;
        case CPU_SECONDS:
            seconds = option_number("--cpu-seconds", optarg, 0, 3600);
            if (seconds <= 0) die_usage("--cpu-seconds must be above 0, got %s", optarg);
            break;
        case REPETITIONS: repetitions = (int)option_int("--repetitions", optarg, 1, MAX_REPETITIONS); break;
        case COUNT: count = (uint64_t)option_int("--count", optarg, 1, INT64_MAX); break;
        case WARMUP_SECONDS: warmup = option_number("--warmup-seconds", optarg, 0, 60); break;
        case CPU: cpu = option_cpu(optarg); break;
        default: option_refuse(c, argv);
        }
    }
    if (optind < argc) die_usage("unexpected argument %s", argv[optind]);
    if (name == NULL || sizes_arg == NULL) die_usage("--cipher and --sizes are required");
    if ((seconds > 0) == (count > 0)) die_usage("give exactly one of --cpu-seconds and --count");
    const EVP_CIPHER *cipher = cipher_named(name);
    if (cipher == NULL) {
        int known = 0;
        for (size_t i = 0; i < sizeof(KATS) / sizeof(KATS[0]); i++) known |= strcmp(KATS[i].cipher, name) == 0;
        if (!known) die_usage("unknown cipher %s", name);
        die_unsupported_because(name, "this library has no such EVP_CIPHER"
#ifdef OBS_LIB_BORINGSSL
                                      " (BoringSSL offers it only through EVP_AEAD, a different API from the one measured here)"
#endif
        );
    }
    for (char *p = strtok(sizes_arg, ","); p != NULL; p = strtok(NULL, ",")) {
        long s = strtol(p, &end, 10);
        if (*end || s <= 0 || s > MAX_BYTES || nsizes == MAX_SIZES) die_usage("--sizes must be up to 16 comma-separated byte counts in 1..1048576");
        sizes[nsizes++] = (int)s;
    }

    pin_to_cpu(cpu);
    known_answer(name, cipher);
    static struct bench benches[MAX_SIZES];
    static struct result res[MAX_SIZES];
    for (int i = 0; i < nsizes; i++) {
        bench_init(&benches[i], cipher, sizes[i], warmup);
        res[i].bytes = sizes[i];
        res[i].nreps = (int)repetitions;
    }
    for (int k = 0; k < repetitions; k++)
        for (int i = 0; i < nsizes; i++) res[i].reps[k] = window(&benches[i], seconds, count);
    for (int i = 0; i < nsizes; i++) bench_finish(&benches[i], cipher);

    jw_open(NULL);
    jw_str("tool", "aead");
    jw_str("library", library_version());
    jw_str("cipher", name);
    jw_int("aadBytes", AAD_BYTES);
    jw_int("tagBytes", TAG_BYTES);
    jw_int("ivBytes", IV_BYTES);
    jw_num("warmupSeconds", warmup);
    jw_str("cpuClock", "thread");
    jw_str("knownAnswer", "ok");
    if (cpu >= 0) /* absent when not asked: the output of earlier programs had no such field */
        jw_int("pinnedCpu", cpu);
    jw_arr_open("results");
    for (int i = 0; i < nsizes; i++) {
        jw_open(NULL);
        jw_int("bytes", res[i].bytes);
        jw_arr_open("repetitions");
        for (int k = 0; k < res[i].nreps; k++) {
            jw_open(NULL);
            jw_int("records", (long long)res[i].reps[k].records);
            jw_num("cpuSeconds", res[i].reps[k].cpu);
            jw_num("wallSeconds", res[i].reps[k].wall);
            jw_close();
        }
        jw_arr_close();
        jw_bool("verified", 1);
        jw_close();
    }
    jw_arr_close();
    jw_close();
    return 0;
}
