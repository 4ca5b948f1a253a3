// How a run file says it is a reproduction of a write-up (npm run reproduce): its first note begins with
// these words and names the write-up. The submission check (validate-submission.ts) reads it: a
// reproduction's rounds come from its stopping rule, not from the full mode's fixed count.
export const REPRODUCTION_NOTE = 'reproduction of write-up ';

/** The write-up a run reproduces, or null for an ordinary run. */
export function reproducedWriteup(run: { notes: readonly string[] }): string | null {
  const first = run.notes[0];
  if (!first?.startsWith(REPRODUCTION_NOTE)) return null;
  return /^[a-z0-9][a-z0-9-]*/.exec(first.slice(REPRODUCTION_NOTE.length))?.[0] ?? null;
}
