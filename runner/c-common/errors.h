/* The library's error queue as one line of text (every C program under runner/ reports it). */
#ifndef OBSERVATORY_ERRORS_H
#define OBSERVATORY_ERRORS_H

/* Drains the calling thread's error queue into a static string ("(the library queued no error)" if empty). */
const char *library_errors(void);

#endif
