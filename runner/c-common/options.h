/* Values of command-line options (the programs read them with getopt_long). A bad value ends the
 * program with die_usage naming the option and what it takes. */
#ifndef OBSERVATORY_OPTIONS_H
#define OBSERVATORY_OPTIONS_H

long long option_int(const char *opt, const char *v, long long lo, long long hi); /* an integer in lo..hi */
double option_number(const char *opt, const char *v, double lo, double hi);       /* a number in [lo, hi] */
int option_pick(const char *opt, const char *v, const char *const *names, int n); /* the index of v in names */
int option_cpu(const char *v);                                                    /* --cpu: a CPU number for pin_to_cpu */
/* What getopt_long returned for a bad option ('?' unknown, ':' without its value): ends the program. */
void option_refuse(int c, char *const *argv) __attribute__((noreturn));

#endif
