/* Helpers for handshake.c: JSON output, error text, allocator hooks, deterministic RNG,
 * certificate generation and ClientHello/ServerHello parsing. One copy for every OpenSSL version. */
#ifndef HS_UTIL_H
#define HS_UTIL_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <openssl/ssl.h>

#define EXIT_FAILED 1      /* a handshake failed or negotiated something other than asked */
#define EXIT_UNSUPPORTED 2 /* this version cannot do the configuration */
#define EXIT_USAGE 64

/* ---- JSON writer (one object on stdout per invocation) */
void jw_open(const char *key);  /* key NULL: top-level object */
void jw_close(void);
void jw_arr_open(const char *key);
void jw_arr_close(void);
void jw_str(const char *key, const char *v);
void jw_num(const char *key, double v);
void jw_int(const char *key, long long v);
void jw_bool(const char *key, int v);

/* ---- errors */
const char *ssl_errors(void); /* drains the thread's error queue into a static string */
void die_unsupported(const char *what) __attribute__((noreturn));
void die_failed(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void die_usage(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* ---- heap accounting through CRYPTO_set_mem_functions; must run before any other OpenSSL call */
enum { SIDE_HARNESS = 0, SIDE_CLIENT = 1, SIDE_SERVER = 2 };
extern int mem_side;
int mem_hooks_install(void);
long long mem_live(int side);

/* ---- deterministic RNG and frozen wall clock (instruction-count mode only) */
int det_rand_install(void);
extern int det_time_frozen;

/* ---- certificates */
int gen_certs(const char *dir); /* writes <kind>.key/.crt for every kind this version can make */

/* ---- TLS group names: IANA code points, accepting OpenSSL's aliases */
int group_id(const char *name);         /* 0 if unknown */
const char *group_name(int id);         /* canonical name, or NULL */

/* ---- what the message callback saw during one handshake */
#define MAX_SHARES 8
struct probe {
    int client_hellos;           /* 2 means a HelloRetryRequest happened */
    long ch_message_bytes;       /* first ClientHello handshake message incl. its 4-byte header */
    long ch_record_bytes;        /* the record carrying it incl. the 5-byte record header */
    int n_shares;
    int share_group[MAX_SHARES]; /* key_share entries of the first ClientHello */
    int share_bytes[MAX_SHARES];
    int hrr;
    int server_share_group;      /* key_share of the (real) ServerHello, TLS 1.3 */
    int server_share_bytes;
};
void probe_callback(int write_p, int version, int content_type, const void *buf, size_t len, SSL *ssl, void *arg);
#endif
