/* What every C program under runner/ says about itself: each defines both (a program that does not
 * fails to link). The shared helpers name the program in their messages with them. */
#ifndef OBSERVATORY_PROGRAM_H
#define OBSERVATORY_PROGRAM_H

extern const char PROGRAM_NAME[];  /* "handshake", "aead", ...: the prefix of every message on stderr */
extern const char PROGRAM_USAGE[]; /* the usage text, printed after a usage error */

#endif
