/* JSON output pieces shared by the C programs under runner/ (see json.h). */
#include "json.h"
#include <stdio.h>

void json_str(const char *s) {
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

static int jw_depth = 0;
static int jw_first[32];

static void jw_key(const char *key) {
    if (jw_depth > 0) {
        if (!jw_first[jw_depth]) putchar(',');
        jw_first[jw_depth] = 0;
    }
    if (key) json_str(key), putchar(':');
}

void jw_str(const char *key, const char *v) {
    jw_key(key);
    json_str(v ? v : "");
}
void jw_open(const char *key) { jw_key(key); putchar('{'); jw_first[++jw_depth] = 1; }
void jw_close(void) { putchar('}'); if (--jw_depth == 0) putchar('\n'); }
void jw_arr_open(const char *key) { jw_key(key); putchar('['); jw_first[++jw_depth] = 1; }
void jw_arr_close(void) { putchar(']'); jw_depth--; }
void jw_num(const char *key, double v) { jw_key(key); printf("%.17g", v); }
void jw_int(const char *key, long long v) { jw_key(key); printf("%lld", v); }
void jw_bool(const char *key, int v) { jw_key(key); fputs(v ? "true" : "false", stdout); }
