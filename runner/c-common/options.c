/* See options.h. */
#define _GNU_SOURCE /* CPU_SETSIZE */
#include "options.h"
#include "errors.h"
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

long long option_int(const char *opt, const char *v, long long lo, long long hi) {
    char *end;
    errno = 0;
    long long n = strtoll(v, &end, 10);
    if (*v == 0 || *end != 0 || errno || n < lo || n > hi) die_usage("%s must be an integer in %lld..%lld, got %s", opt, lo, hi, v);
    return n;
}

double option_number(const char *opt, const char *v, double lo, double hi) {
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (*v == 0 || *end != 0 || errno || !(x >= lo && x <= hi)) die_usage("%s must be a number in %g..%g, got %s", opt, lo, hi, v);
    return x;
}

int option_pick(const char *opt, const char *v, const char *const *names, int n) {
    for (int i = 0; i < n; i++)
        if (strcmp(v, names[i]) == 0) return i;
    die_usage("bad value for %s: %s", opt, v);
}

int option_cpu(const char *v) { return (int)option_int("--cpu", v, 0, CPU_SETSIZE - 1); }

void option_refuse(int c, char *const *argv) {
    if (c == ':') die_usage("%s needs a value", argv[optind - 1]);
    die_usage("unknown option %s", argv[optind - 1]);
}
