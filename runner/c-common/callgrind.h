/* Callgrind's client requests where valgrind's headers are installed; no-ops elsewhere, so that the
 * programs build and run without valgrind (instruction counts are then simply not collected). */
#ifndef OBS_CALLGRIND_H
#define OBS_CALLGRIND_H
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif
#ifndef HAVE_CALLGRIND
#define CALLGRIND_TOGGLE_COLLECT
#define RUNNING_ON_VALGRIND 0
#endif
#endif
