/* Heap held per side of a connection, counted through the library's allocator hooks. */
#ifndef OBSERVATORY_HEAP_H
#define OBSERVATORY_HEAP_H

enum { SIDE_HARNESS = 0, SIDE_CLIENT = 1, SIDE_SERVER = 2 };
extern int mem_side;                 /* whose code runs now: what it allocates is counted to it */
const char *mem_hooks_install(void); /* NULL when installed, else why this library cannot; before any other library call */
long long mem_live(int side);        /* bytes the side holds now */

#endif
