// Parser for `callgrind_annotate --inclusive=yes --threshold=100 --auto=no` output: the inclusive
// instruction count of every function that ran while collection was on (the measured handshakes).
export interface InclusiveProfile {
  /** PROGRAM TOTALS: every instruction collected */
  total: number;
  /** function name -> inclusive instructions (the largest line when a name appears more than once) */
  functions: Map<string, number>;
}

const LINE = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*?)(?: \[(.*)\])?\s*$/;

export function parseInclusive(text: string, where: string): InclusiveProfile {
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
    functions.set(fn, Math.max(ir, functions.get(fn) ?? 0));
  }
  if (total === undefined) throw new Error(`${where}: no "PROGRAM TOTALS" line`);
  if (total === 0) throw new Error(`${where}: no instructions were collected (was collection toggled on?)`);
  if (functions.size === 0) throw new Error(`${where}: no function lines (was it run with --inclusive=yes?)`);
  return { total, functions };
}
