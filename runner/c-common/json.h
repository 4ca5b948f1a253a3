/* JSON output pieces shared by the C programs under runner/. */
#ifndef OBSERVATORY_JSON_H
#define OBSERVATORY_JSON_H

/* s as a JSON string on stdout (quotes, backslashes and control characters escaped) */
void json_str(const char *s);

#endif
