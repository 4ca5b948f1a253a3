/* Pinning the measuring process to one CPU (no migrations between caches mid-measurement). */
#ifndef OBSERVATORY_CPU_H
#define OBSERVATORY_CPU_H

/* The one policy of every program: a CPU that was asked for is used or the run fails (die_failed,
 * "pinning to CPU N: <why>"); a number that was not asked for (-1) pins nothing. */
void pin_to_cpu(int cpu);

#endif
