/* See json.h. */
#include "json.h"
#include "exit_codes.h"
#include "program.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void json_str(const char *s) {
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
void jw_open(const char *key) {
    jw_key(key);
    putchar('{');
    jw_first[++jw_depth] = 1;
}
void jw_close(void) {
    putchar('}');
    if (--jw_depth == 0) putchar('\n');
}
void jw_arr_open(const char *key) {
    jw_key(key);
    putchar('[');
    jw_first[++jw_depth] = 1;
}
void jw_arr_close(void) {
    putchar(']');
    jw_depth--;
}
void jw_num(const char *key, double v) {
    if (!isfinite(v)) {
        fflush(stdout);
        fprintf(stderr, "%s: the JSON number \"%s\" is %s, which JSON cannot write\n", PROGRAM_NAME, key ? key : "(array element)",
                isnan(v) ? "NaN" : "infinite");
        exit(EXIT_FAILED);
    }
    char text[32];
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(text, sizeof(text), "%.*g", digits, v);
        if (strtod(text, NULL) == v) break;
    }
    jw_key(key);
    fputs(text, stdout);
}
void jw_int(const char *key, long long v) {
    jw_key(key);
    printf("%lld", v);
}
void jw_bool(const char *key, int v) {
    jw_key(key);
    fputs(v ? "true" : "false", stdout);
}
void jw_hex(const char *key, const unsigned char *p, size_t n) {
    jw_key(key);
    putchar('"');
    for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
    putchar('"');
}
void jw_abandon(void) {
    if (jw_depth > 0) putchar('\n');
    jw_depth = 0;
}
