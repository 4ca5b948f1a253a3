// Parser for callgrind's own output file (callgrind.out, format version 1): how often each function
// was called, summed over every call site, and the instructions collected.
//
// Callgrind counts calls whether or not collection is on (--collect-atstart=no and the toggles only
// gate instruction costs), so a count in one file includes start-up and warm-up calls. Per-operation
// counts therefore come from two runs that differ only in the repetition count: (calls(2N) - calls(N)) / N.
import type { LockKind } from './complaints.ts';

export interface CallProfile {
  /** instructions collected (the "totals:" line, or "summary:" when there is no totals line) */
  instructions: number;
  /** function name (normalised, see normaliseName) -> calls into it from every caller */
  calls: Map<string, number>;
}

/** "pthread_rwlock_wrlock@@GLIBC_2.34" -> "pthread_rwlock_wrlock"; "___pthread_mutex_lock" -> "pthread_mutex_lock"; "foo'2" -> "foo". */
export function normaliseName(raw: string): string {
  let n = raw.replace(/'\d+$/, '').replace(/@.*$/, '');
  const p = /^_+(pthread_.*)$/.exec(n);
  if (p) n = p[1]!;
  return n;
}

const NAME = /^(c?fn)=\((\d+)\)(?: (.+))?$|^(c?fn)=([^(].*)$/;

export function parseCallgrindCalls(text: string, where: string): CallProfile {
  if (!text.startsWith('# callgrind format')) throw new Error(`${where}: not a callgrind output file (no "# callgrind format" header)`);
  if (!/^events: Ir\s*$/m.test(text)) throw new Error(`${where}: callgrind output without an "events: Ir" line`);
  const parts = text.match(/^part: \d+$/gm) ?? [];
  if (parts.length > 1) throw new Error(`${where}: ${parts.length} parts in one file (a dump during the run?); expected one`);
  const names = new Map<string, string>();
  const calls = new Map<string, number>();
  let target: string | null = null;
  let lineNo = 0;
  for (const line of text.split('\n')) {
    lineNo++;
    const m = NAME.exec(line);
    if (m) {
      const kind = m[1] ?? m[4]!;
      let name: string;
      if (m[2] !== undefined) {
        // compressed: "(id) name" the first time, "(id)" afterwards
        if (m[3] !== undefined) names.set(m[2], m[3]);
        const known = names.get(m[2]);
        if (known === undefined) throw new Error(`${where}:${lineNo}: function id (${m[2]}) used before it was named`);
        name = known;
      } else name = m[5]!;
      if (kind === 'cfn') target = normaliseName(name);
      continue;
    }
    if (line.startsWith('calls=')) {
      const c = /^calls=(\d+)\b/.exec(line);
      if (!c) throw new Error(`${where}:${lineNo}: malformed calls line ${JSON.stringify(line)}`);
      if (target === null) throw new Error(`${where}:${lineNo}: a calls line without a cfn= line before it`);
      calls.set(target, (calls.get(target) ?? 0) + Number(c[1]));
    }
  }
  const totals = /^totals:\s+(\d+)/m.exec(text) ?? /^summary:\s+(\d+)/m.exec(text);
  if (!totals) throw new Error(`${where}: no "totals:" or "summary:" line`);
  if (calls.size === 0) throw new Error(`${where}: no calls recorded`);
  return { instructions: Number(totals[1]), calls };
}

// ------------------------------------------------------------------ lock and atomic calls

/** The functions each kind counts (after normaliseName). library-locks is the sum of the three acquisition kinds. */
export const LOCK_FUNCTIONS: Record<Exclude<LockKind, 'library-locks'>, RegExp> = {
  'read-lock': /^CRYPTO_THREAD_read_lock$/,
  'write-lock': /^CRYPTO_THREAD_write_lock$/,
  'rcu-lock': /^ossl_rcu_(read|write)_lock$/,
  atomic: /^(CRYPTO_atomic_\w+|ossl_rcu_uptr_deref|ossl_rcu_assign_uptr)$/,
  'pthread-lock': /^pthread_(rwlock_(try)?(rd|wr)lock|mutex_(try)?lock)$/,
};

export type LockCounts = Record<LockKind, number>;

export function lockCounts(calls: Map<string, number>): LockCounts {
  const sum = (re: RegExp) => [...calls].filter(([n]) => re.test(n)).reduce((a, [, c]) => a + c, 0);
  const read = sum(LOCK_FUNCTIONS['read-lock']);
  const write = sum(LOCK_FUNCTIONS['write-lock']);
  const rcu = sum(LOCK_FUNCTIONS['rcu-lock']);
  return {
    'library-locks': read + write + rcu,
    'read-lock': read,
    'write-lock': write,
    'rcu-lock': rcu,
    atomic: sum(LOCK_FUNCTIONS.atomic),
    'pthread-lock': sum(LOCK_FUNCTIONS['pthread-lock']),
  };
}

/**
 * Counts per operation from the profiles of two runs with n and 2n repetitions (everything else equal).
 * A count that falls from the first run to the second means the runs were not alike: an error.
 */
export function perOperation(small: CallProfile, large: CallProfile, n: number, where: string): LockCounts {
  if (!(n > 0)) throw new Error(`${where}: repetition difference must be positive, got ${n}`);
  const a = lockCounts(small.calls);
  const b = lockCounts(large.calls);
  const out = {} as LockCounts;
  for (const k of Object.keys(a) as LockKind[]) {
    const d = b[k] - a[k];
    if (d < 0) throw new Error(`${where}: ${k} calls fell from ${a[k]} to ${b[k]} with more repetitions: the two runs did different work`);
    out[k] = d / n;
  }
  return out;
}
