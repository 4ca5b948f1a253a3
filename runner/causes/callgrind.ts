// `callgrind_annotate --threshold=100 --auto=no` (with `--inclusive=yes` for inclusive costs): the
// instruction count of every function that ran while collection was on (the measured handshakes).
import { runGuarded } from '../child-guard.ts';

/** inclusive: a function and its callees; self: the function's own instructions */
export type ProfileKind = 'inclusive' | 'self';

export interface Profile {
  /** PROGRAM TOTALS: every instruction collected */
  total: number;
  /**
   * function name -> instructions. A name on several lines (static functions of one name in several
   * files): inclusive keeps the largest line, self adds them up.
   */
  functions: Map<string, number>;
}

/**
 * A profile per repetition of the measured loop (n repetitions collected): each function's instructions
 * divided by n; inclusive costs leave out the frames that hold the whole measured region (main, the
 * harness's loop, libc's start).
 */
export function perRepetition(p: Profile, kind: ProfileKind, n: number): Map<string, number> {
  return new Map([...p.functions].filter(([, ir]) => kind === 'self' || ir < p.total).map(([f, ir]) => [f, ir / n]));
}

const LINE = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*?)(?: \[(.*)\])?\s*$/;

export function parseProfile(text: string, where: string, kind: ProfileKind = 'inclusive'): Profile {
  if (!/^Events shown:\s+Ir\s*$/m.test(text)) throw new Error(`${where}: not callgrind_annotate output of Ir events (no "Events shown: Ir" line)`);
  if (!/^Thresholds:\s+100\s*$/m.test(text)) throw new Error(`${where}: callgrind_annotate was not run with --threshold=100, so functions may be missing`);
  let total: number | undefined;
  const functions = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const ir = Number(m[1]!.replaceAll(',', ''));
    const name = m[2]!;
    if (name === 'PROGRAM TOTALS') {
      total = ir;
      continue;
    }
    // "file:function"; the file part never holds a colon in this output ("???" when unknown)
    const colon = name.indexOf(':');
    if (colon < 0) continue;
    const fn = name.slice(colon + 1);
    functions.set(fn, kind === 'inclusive' ? Math.max(ir, functions.get(fn) ?? 0) : ir + (functions.get(fn) ?? 0));
  }
  if (total === undefined) throw new Error(`${where}: no "PROGRAM TOTALS" line`);
  if (total === 0) throw new Error(`${where}: no instructions were collected (was collection toggled on?)`);
  if (functions.size === 0) throw new Error(`${where}: no function lines`);
  return { total, functions };
}

/** Annotate a callgrind output file; throws with callgrind_annotate's error when it fails. */
export async function annotate(outFile: string, kind: ProfileKind): Promise<Profile> {
  const args = [...(kind === 'inclusive' ? ['--inclusive=yes'] : []), '--threshold=100', '--auto=no', outFile];
  const a = await runGuarded('callgrind_annotate', args, { timeoutMs: 600_000, maxBuffer: 1 << 26 });
  if (a.code !== 0) throw new Error(`callgrind_annotate exit ${a.code}: ${a.stderr.slice(0, 1500)}`);
  return parseProfile(a.stdout, `callgrind_annotate (${kind}) ${outFile}`, kind);
}
