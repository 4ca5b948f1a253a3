/* See clock.h. */
#include "clock.h"

int clock_off;
__thread long clock_reads;
