/* See errors.h. */
#include "library.h"
#include "errors.h"
#include "exit_codes.h"
#include "json.h"
#include "program.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/err.h>

static char err_buf[4096];
static size_t err_len;

static void add_line(const char *str, size_t len) {
    while (len > 0 && (str[len - 1] == '\n' || str[len - 1] == '\r')) len--;
    if (err_len + len + 4 >= sizeof(err_buf)) return;
    if (err_len) memcpy(err_buf + err_len, " | ", 3), err_len += 3;
    memcpy(err_buf + err_len, str, len);
    err_len += len;
    err_buf[err_len] = 0;
}

#ifdef OBS_LIB_WOLFSSL
/* wolfSSL's compatibility layer has no ERR_print_errors_cb in every configuration: walk the queue */
const char *library_errors(void) {
    char line[256];
    unsigned long e;
    err_len = 0, err_buf[0] = 0;
    while ((e = ERR_get_error()) != 0) {
        ERR_error_string_n(e, line, sizeof(line));
        add_line(line, strlen(line));
    }
    return err_len ? err_buf : "(the library queued no error)";
}
#else
/* OpenSSL starts each line with the thread id ("40E71517CC7F0000:error:..."), different in every process:
 * dropped, so that a reason recorded in a run or MTU file is the same from one run to the next */
static int err_line(const char *str, size_t len, void *u) {
    size_t hex = 0;
    (void)u;
    while (hex < len && isxdigit((unsigned char)str[hex])) hex++;
    if (hex > 0 && len - hex > 7 && memcmp(str + hex, ":error:", 7) == 0) str += hex + 1, len -= hex + 1;
    add_line(str, len);
    return 1;
}

const char *library_errors(void) {
    err_len = 0, err_buf[0] = 0;
    ERR_print_errors_cb(err_line, NULL);
    ERR_clear_error();
    return err_len ? err_buf : "(the library queued no error)";
}
#endif

static void die(int code, const char *msg) __attribute__((noreturn));
static void die(int code, const char *msg) {
    jw_abandon();
    fflush(stdout);
    fprintf(stderr, "%s: %s%s\n", PROGRAM_NAME, code == EXIT_UNSUPPORTED ? "unsupported: " : "", msg);
    if (code == EXIT_USAGE) fputs(PROGRAM_USAGE, stderr);
    jw_open(NULL);
    if (code == EXIT_UNSUPPORTED) jw_bool("unsupported", 1), jw_str("reason", msg);
    else jw_str("error", msg);
    jw_str("openssl", library_version());
    jw_close();
    fflush(stdout);
    exit(code);
}

void die_unsupported_because(const char *what, const char *reason) {
    char msg[6000];
    snprintf(msg, sizeof(msg), "%s: %s", what, reason);
    die(EXIT_UNSUPPORTED, msg);
}

void die_unsupported(const char *what) { die_unsupported_because(what, library_errors()); }

void die_failed(const char *fmt, ...) {
    char what[1500], msg[6000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    snprintf(msg, sizeof(msg), "%s; library errors: %s", what, library_errors());
    die(EXIT_FAILED, msg);
}

void die_usage(const char *fmt, ...) {
    char msg[1500];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    die(EXIT_USAGE, msg);
}
