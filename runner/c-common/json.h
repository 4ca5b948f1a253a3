/* JSON output shared by the C programs under runner/: one object on stdout per invocation. */
#ifndef OBSERVATORY_JSON_H
#define OBSERVATORY_JSON_H

/* s as a JSON string on stdout (quotes, backslashes and control characters escaped) */
void json_str(const char *s);

/* A nesting writer: key NULL for the top-level object and for array elements. */
void jw_open(const char *key);
void jw_close(void); /* closing the top-level object ends the line */
void jw_arr_open(const char *key);
void jw_arr_close(void);
void jw_str(const char *key, const char *v);
void jw_num(const char *key, double v);
void jw_int(const char *key, long long v);
void jw_bool(const char *key, int v);

#endif
