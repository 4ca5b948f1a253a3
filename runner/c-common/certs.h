/* Self-signed certificates shared by the C programs under runner/. */
#ifndef OBSERVATORY_CERTS_H
#define OBSERVATORY_CERTS_H

/* Writes <kind>.key/.crt into dir for every kind this library can make and prints one JSON object
 * saying which it made (and why not the others). Returns how many it made. Only OpenSSL builds make
 * them: every library then loads the same files, so every library puts the same bytes on the wire. */
int gen_certs(const char *dir);

#endif
