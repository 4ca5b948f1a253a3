/* See errors.h. */
#include "library.h"
#include "errors.h"
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
static int err_line(const char *str, size_t len, void *u) {
    (void)u;
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
