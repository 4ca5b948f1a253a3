/* TLS group names and what a handshake's hellos carry (the handshake program's probe). */
#ifndef OBSERVATORY_HELLO_H
#define OBSERVATORY_HELLO_H
#include "library.h"
#include <stddef.h>
#include <openssl/ssl.h>

/* ---- TLS group names: IANA code points, accepting OpenSSL's aliases */
int group_id(const char *name); /* 0 if unknown */
const char *group_name(int id); /* canonical name, or NULL */

/* ---- what the message callback saw during one handshake */
#ifndef SSL3_RT_HEADER /* wolfSSL's message callback reports no record headers: a value it never passes */
#define SSL3_RT_HEADER 0x100
#endif
#define MAX_SHARES 8
struct probe {
    int client_hellos;     /* 2 means a HelloRetryRequest happened */
    long ch_message_bytes; /* first ClientHello handshake message incl. its 4-byte header */
    long ch_record_bytes;  /* the record carrying it incl. the 5-byte record header */
    int n_shares;
    int share_group[MAX_SHARES]; /* key_share entries of the first ClientHello */
    int share_bytes[MAX_SHARES];
    int hrr;
    int server_share_group; /* key_share of the (real) ServerHello, TLS 1.3 */
    int server_share_bytes;
};
void probe_callback(int write_p, int version, int content_type, const void *buf, size_t len, SSL *ssl, void *arg);

#endif
