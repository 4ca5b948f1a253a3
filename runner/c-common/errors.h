/* The one error convention of the C programs under runner/: a program that cannot go on prints one JSON
 * object on stdout, {"error": ...} or {"unsupported": true, "reason": ...} with "openssl" (the library),
 * a line "<program>: ..." on stderr, and exits with a code of exit_codes.h. */
#ifndef OBSERVATORY_ERRORS_H
#define OBSERVATORY_ERRORS_H

/* Drains the calling thread's error queue into a static string ("(the library queued no error)" if empty). */
const char *library_errors(void);

/* what + the library's error queue; EXIT_UNSUPPORTED */
void die_unsupported(const char *what) __attribute__((noreturn));
/* the library cannot, for a reason given in words; EXIT_UNSUPPORTED */
void die_unsupported_because(const char *what, const char *reason) __attribute__((noreturn));
/* a measurement or check failed: the message + the library's error queue; EXIT_FAILED */
void die_failed(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* a bad command line: the message, then PROGRAM_USAGE on stderr; EXIT_USAGE */
void die_usage(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#endif
