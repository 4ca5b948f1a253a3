// How a run file says it is a reproduction of a write-up (npm run reproduce): plan.reproduces names it.
// The submission check (validate-submission.ts) reads it: a reproduction's rounds come from its stopping
// rule, not from the full mode's fixed count. Its first note still says so in words, with the stopping record.
export const REPRODUCTION_NOTE = 'reproduction of write-up ';

/** The write-up a run reproduces, or null for an ordinary run. */
export const reproducedWriteup = (run: { plan: { reproduces?: string | undefined } }): string | null => run.plan.reproduces ?? null;
