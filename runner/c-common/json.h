/* The one JSON writer of the C programs under runner/: one object on stdout per invocation. */
#ifndef OBSERVATORY_JSON_H
#define OBSERVATORY_JSON_H
#include <stddef.h>

/* A nesting writer: key NULL for the top-level object and for array elements. */
void jw_open(const char *key);
void jw_close(void); /* closing the top-level object ends the line */
void jw_arr_open(const char *key);
void jw_arr_close(void);
void jw_str(const char *key, const char *v); /* NULL is written as "" */
/* The shortest text that reads back as v. NaN and infinity have no JSON spelling: the program fails
 * (EXIT_FAILED, the key named on stderr) rather than print a document no parser accepts. */
void jw_num(const char *key, double v);
void jw_int(const char *key, long long v);
void jw_bool(const char *key, int v);
void jw_hex(const char *key, const unsigned char *p, size_t n); /* a string of lower-case hex digits */
/* Ends whatever is half written (a line no parser takes) so that a new top-level object can follow. */
void jw_abandon(void);

#endif
