/* Deterministic mode (instruction counts): a fixed random stream and a frozen wall clock, so that every
 * run takes the same code paths. */
#ifndef OBSERVATORY_DETERMINISTIC_H
#define OBSERVATORY_DETERMINISTIC_H

const char *det_rand_install(void); /* NULL when installed, else why this library cannot; before any other library call */
extern int det_time_frozen;         /* the library's time() and gettimeofday() return 2030-01-01T12:34:56Z */

#endif
