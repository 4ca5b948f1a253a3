/* Exit codes of every C program under runner/. runner/exit-codes.ts mirrors them (a unit test reads
 * this file and compares). */
#ifndef OBSERVATORY_EXIT_CODES_H
#define OBSERVATORY_EXIT_CODES_H

#define EXIT_OK 0
#define EXIT_FAILED 1      /* a measurement or check failed, or the library misbehaved */
#define EXIT_UNSUPPORTED 2 /* this library (version) cannot do what was asked: the reason is in the output */
#define EXIT_USAGE 64      /* bad command line */

#endif
