/* See hello.h. */
#include "library.h"
#include "hello.h"
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------ groups */
static const struct {
    int id;
    const char *names[4];
} GROUPS[] = {
    { 0x0017, { "P-256", "secp256r1", "prime256v1", NULL } },
    { 0x0018, { "P-384", "secp384r1", NULL } },
    { 0x0019, { "P-521", "secp521r1", NULL } },
    { 0x001d, { "X25519", NULL } },
    { 0x001e, { "X448", NULL } },
    { 0x0100, { "ffdhe2048", NULL } },
    { 0x0101, { "ffdhe3072", NULL } },
    { 0x0200, { "MLKEM512", NULL } },
    { 0x0201, { "MLKEM768", NULL } },
    { 0x0202, { "MLKEM1024", NULL } },
    { 0x11eb, { "SecP256r1MLKEM768", NULL } },
    { 0x11ec, { "X25519MLKEM768", NULL } },
    { 0x11ed, { "SecP384r1MLKEM1024", NULL } },
};

int group_id(const char *name) {
    for (size_t i = 0; i < sizeof(GROUPS) / sizeof(GROUPS[0]); i++)
        for (int j = 0; GROUPS[i].names[j]; j++)
            if (strcasecmp(name, GROUPS[i].names[j]) == 0) return GROUPS[i].id;
    return 0;
}

const char *group_name(int id) {
    for (size_t i = 0; i < sizeof(GROUPS) / sizeof(GROUPS[0]); i++)
        if (GROUPS[i].id == id) return GROUPS[i].names[0];
    return NULL;
}

/* ------------------------------------------------------------------ message callback */
static unsigned rd16(const unsigned char *p) { return (unsigned)p[0] << 8 | p[1]; }

/* Walks the extensions of a Client/ServerHello body starting at the session id. */
static void hello_key_shares(const unsigned char *m, size_t len, int client, struct probe *pr) {
    size_t off = 4 + 2 + 32; /* header, legacy_version, random */
    if (off + 1 > len) return;
    off += 1 + m[off]; /* session id */
    if (client) {
        if (off + 2 > len) return;
        off += 2 + rd16(m + off); /* cipher suites */
        if (off + 1 > len) return;
        off += 1 + m[off]; /* compression methods */
    } else {
        off += 2 + 1; /* cipher suite, compression */
    }
    if (off + 2 > len) return;
    size_t end = off + 2 + rd16(m + off);
    if (end > len) end = len;
    for (off += 2; off + 4 <= end;) {
        unsigned type = rd16(m + off), elen = rd16(m + off + 2);
        const unsigned char *d = m + off + 4;
        if (off + 4 + elen > end) return;
        if (type == 51 && client && elen >= 2) {
            for (size_t q = 2; q + 4 <= 2 + (size_t)rd16(d) && q + 4 <= elen && pr->n_shares < MAX_SHARES; q += 4 + rd16(d + q + 2)) {
                pr->share_group[pr->n_shares] = (int)rd16(d + q);
                pr->share_bytes[pr->n_shares++] = (int)rd16(d + q + 2);
            }
        } else if (type == 51 && !client && elen >= 4) {
            pr->server_share_group = (int)rd16(d);
            pr->server_share_bytes = (int)rd16(d + 2);
        }
        off += 4 + elen;
    }
}

static const unsigned char HRR_RANDOM[32] = {
    0xCF, 0x21, 0xAD, 0x74, 0xE5, 0x9A, 0x61, 0x11, 0xBE, 0x1D, 0x8C, 0x02, 0x1E, 0x65, 0xB8, 0x91,
    0xC2, 0xA2, 0x11, 0x16, 0x7A, 0xBB, 0x8C, 0x5E, 0x07, 0x9E, 0x09, 0xE2, 0xC8, 0xA8, 0x33, 0x9C,
};

void probe_callback(int write_p, int version, int content_type, const void *buf, size_t len, SSL *ssl, void *arg) {
    (void)version, (void)ssl;
    struct probe *pr = arg;
    const unsigned char *m = buf;
    if (content_type == SSL3_RT_HEADER && write_p && len >= 5 && m[0] == SSL3_RT_HANDSHAKE && pr->ch_record_bytes == 0)
        pr->ch_record_bytes = 5 + (long)rd16(m + 3);
    if (content_type != SSL3_RT_HANDSHAKE || len < 4) return;
    if (write_p && m[0] == 1) { /* ClientHello */
        if (pr->client_hellos++ == 0) {
            pr->ch_message_bytes = (long)len;
            hello_key_shares(m, len, 1, pr);
        }
    } else if (!write_p && m[0] == 2 && len >= 38) { /* ServerHello, or HelloRetryRequest */
        if (memcmp(m + 6, HRR_RANDOM, 32) == 0) pr->hrr = 1;
        else hello_key_shares(m, len, 0, pr);
    } else if (!write_p && m[0] == 12 && len >= 8 && m[4] == 3) { /* TLS 1.2 ECDHE ServerKeyExchange */
        pr->server_share_group = (int)rd16(m + 5);
        pr->server_share_bytes = m[7];
    }
}
