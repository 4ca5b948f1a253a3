/* The certificate chains shared by the C programs under runner/. */
#ifndef OBSERVATORY_CERTS_H
#define OBSERVATORY_CERTS_H

/* the name the server's certificate is issued to and every verifying client checks */
#define CERT_HOSTNAME "observatory.test"

/* For every key kind this library can make, writes into dir a chain of three certificates of that
 * kind, as a public server has: <kind>-root.crt (a self-signed root CA, the client's only trust
 * anchor), <kind>.crt (what the server sends: its leaf for CERT_HOSTNAME, then the intermediate CA
 * that issued it; the root issued the intermediate), <kind>-intermediate.crt (that CA alone, for
 * programs that take the chain apart from the leaf) and <kind>.key (the leaf's key). Prints one JSON
 * object saying which kinds it made (and why not the others); returns how many. Only OpenSSL builds
 * make them: every library then loads the same files and puts the same bytes on the wire. */
int gen_certs(const char *dir);

#endif
