/* Helpers for handshake.c: exits with a reason, allocator hooks, deterministic RNG, group names and
 * ClientHello/ServerHello parsing. One copy for every library (c-common/library.h). */
#ifndef HS_UTIL_H
#define HS_UTIL_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "library.h"
#include "exit_codes.h"
#include "json.h"
#include "errors.h"
#include "certs.h"
#include <openssl/ssl.h>

/* ---- errors: one JSON object on stdout and the exit code of c-common/exit_codes.h */
void die_unsupported(const char *what) __attribute__((noreturn)); /* what + the library's error queue */
void die_unsupported_because(const char *what, const char *reason) __attribute__((noreturn)); /* the library's reason, in words */
void die_failed(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void die_usage(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* ---- heap accounting through the library's allocator hooks; must run before any other library call */
enum { SIDE_HARNESS = 0, SIDE_CLIENT = 1, SIDE_SERVER = 2 };
extern int mem_side;
const char *mem_hooks_install(void); /* NULL when installed, else why this library cannot */
long long mem_live(int side);

/* ---- deterministic RNG and frozen wall clock (instruction-count mode only) */
const char *det_rand_install(void); /* NULL when installed, else why this library cannot */
extern int det_time_frozen;

/* ---- TLS group names: IANA code points, accepting OpenSSL's aliases */
int group_id(const char *name);         /* 0 if unknown */
const char *group_name(int id);         /* canonical name, or NULL */

/* ---- what the message callback saw during one handshake */
#ifndef SSL3_RT_HEADER /* wolfSSL's message callback reports no record headers: a value it never passes */
#define SSL3_RT_HEADER 0x100
#endif
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
