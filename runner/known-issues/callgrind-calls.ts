// Parser for callgrind's own output file (callgrind.out, format version 1): how often each function
// was called, summed over every call site, and the instructions collected.
//
// Callgrind counts calls whether or not collection is on (--collect-atstart=no and the toggles only
// gate instruction costs), so a count in one file includes start-up and warm-up calls. Per-operation
// counts therefore come from two runs that differ only in the repetition count: (calls(2N) - calls(N)) / N.
//
// Every call edge is kept too: a "calls=" line sits in the block of its calling function (the last
// "fn=" line) and names the function called (the last "cfn=" line; callgrind writes one before every
// "calls=" line), so each call into a lock or atomic function is attributed to its immediate caller,
// and the caller to a class (lock-classes.ts).
import type { LockKind } from './complaints.ts';
import { CLASSED_KINDS, classOf, HELPER_CLASSES, LOCK_CLASSES, type ClassedKind, type LockClass } from './lock-classes.ts';

export interface CallProfile {
  /** instructions collected (the "totals:" line, or "summary:" when there is no totals line) */
  instructions: number;
  /** function name (normalised, see normaliseName) -> calls into it from every caller */
  calls: Map<string, number>;
  /** function called -> its immediate caller (both normalised) -> calls; summed over call sites, so calls = the sum over callers */
  edges: Map<string, Map<string, number>>;
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
  const edges = new Map<string, Map<string, number>>();
  let caller: string | null = null;
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
      else {
        caller = normaliseName(name);
        target = null; // a cfn= line belongs to the block of the fn= line it follows
      }
      continue;
    }
    if (line.startsWith('calls=')) {
      const c = /^calls=(\d+)\b/.exec(line);
      if (!c) throw new Error(`${where}:${lineNo}: malformed calls line ${JSON.stringify(line)}`);
      if (target === null) throw new Error(`${where}:${lineNo}: a calls line without a cfn= line before it`);
      if (caller === null) throw new Error(`${where}:${lineNo}: a calls line outside any fn= block`);
      calls.set(target, (calls.get(target) ?? 0) + Number(c[1]));
      let from = edges.get(target);
      if (!from) edges.set(target, (from = new Map()));
      from.set(caller, (from.get(caller) ?? 0) + Number(c[1]));
    }
  }
  const totals = /^totals:\s+(\d+)/m.exec(text) ?? /^summary:\s+(\d+)/m.exec(text);
  if (!totals) throw new Error(`${where}: no "totals:" or "summary:" line`);
  if (calls.size === 0) throw new Error(`${where}: no calls recorded`);
  return { instructions: Number(totals[1]), calls, edges };
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

// ------------------------------------------------------------------ lock and atomic calls by class

/** The functions each classed kind counts: library-locks is read + write + RCU locks. */
const CLASSED_FUNCTIONS: Record<ClassedKind, (name: string) => boolean> = {
  'library-locks': (n) => LOCK_FUNCTIONS['read-lock'].test(n) || LOCK_FUNCTIONS['write-lock'].test(n) || LOCK_FUNCTIONS['rcu-lock'].test(n),
  atomic: (n) => LOCK_FUNCTIONS.atomic.test(n),
};

/** kind -> immediate caller -> calls into that kind's functions (every caller, summed over the kind's functions) */
export type CallerCounts = Record<ClassedKind, Map<string, number>>;

export function lockCallers(profile: CallProfile): CallerCounts {
  const out = { 'library-locks': new Map(), atomic: new Map() } as CallerCounts;
  for (const kind of CLASSED_KINDS)
    for (const [callee, from] of profile.edges)
      if (CLASSED_FUNCTIONS[kind](callee)) for (const [caller, c] of from) out[kind].set(caller, (out[kind].get(caller) ?? 0) + c);
  return out;
}

/** Calls into a function by its immediate callers. */
const callersOf = (profile: CallProfile, fn: string): Map<string, number> => profile.edges.get(fn) ?? new Map<string, number>();

/** Per-operation difference of two caller maps, checked: never negative (the runs did the same work, n more times). */
function difference(small: Map<string, number>, large: Map<string, number>, n: number, what: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const name of new Set([...small.keys(), ...large.keys()])) {
    const d = (large.get(name) ?? 0) - (small.get(name) ?? 0);
    if (d < 0)
      throw new Error(
        `${what}: calls from ${name} fell from ${small.get(name)} to ${large.get(name) ?? 0} with more repetitions: the two runs did different work`,
      );
    if (d > 0) out.set(name, d / n);
  }
  return out;
}

export interface ClassCounts {
  /** kind -> class -> calls per operation; the classes of a kind sum to that kind's lockCounts total */
  counts: Record<ClassedKind, Record<LockClass, number>>;
  /** kind -> class -> its immediate callers with calls per operation, most first */
  callers: Record<ClassedKind, Record<LockClass, [string, number][]>>;
  /**
   * kind -> helper class (lock-classes.ts HELPER_CLASSES) -> the functions that call the class's callers,
   * with calls into those callers per operation, most first (calls of the helper, not lock calls)
   */
  via: Record<ClassedKind, Partial<Record<LockClass, [string, number][]>>>;
}

const mostFirst = (m: Map<string, number>): [string, number][] => [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));

/**
 * Lock and atomic calls per operation by class of their immediate caller, from the profiles of two runs
 * with n and 2n repetitions (as perOperation).
 */
export function perOperationByClass(small: CallProfile, large: CallProfile, n: number, where: string): ClassCounts {
  if (!(n > 0)) throw new Error(`${where}: repetition difference must be positive, got ${n}`);
  const a = lockCallers(small);
  const b = lockCallers(large);
  const out: ClassCounts = { counts: {} as ClassCounts['counts'], callers: {} as ClassCounts['callers'], via: { 'library-locks': {}, atomic: {} } };
  for (const kind of CLASSED_KINDS) {
    const counts = Object.fromEntries(LOCK_CLASSES.map((c) => [c, 0])) as Record<LockClass, number>;
    const byClass = Object.fromEntries(LOCK_CLASSES.map((c) => [c, new Map<string, number>()])) as Record<LockClass, Map<string, number>>;
    for (const [caller, c] of difference(a[kind], b[kind], n, `${where}: ${kind}`)) {
      const cls = classOf(caller);
      counts[cls] += c;
      byClass[cls].set(caller, c);
    }
    out.counts[kind] = counts;
    out.callers[kind] = Object.fromEntries(LOCK_CLASSES.map((c) => [c, mostFirst(byClass[c])])) as Record<LockClass, [string, number][]>;
    for (const cls of HELPER_CLASSES) {
      if (!byClass[cls].size) continue;
      const via = new Map<string, number>();
      for (const helper of byClass[cls].keys())
        for (const [fn, c] of difference(callersOf(small, helper), callersOf(large, helper), n, `${where}: calls into ${helper}`))
          via.set(fn, (via.get(fn) ?? 0) + c);
      out.via[kind][cls] = mostFirst(via);
    }
  }
  return out;
}

/** "name 12, name 3, name 1": the first few of a most-first list, within max characters (observed values are short text). */
export function namedCounts(list: [string, number][], first = 3, max = 200): string {
  let text = '';
  for (const [name, c] of list.slice(0, first)) {
    const next = `${text ? `${text}, ` : ''}${name} ${Number.isInteger(c) ? c : c.toFixed(2)}`;
    if (next.length > max) break;
    text = next;
  }
  return list.length > first && text.length + 20 <= max ? `${text} (+${list.length - first} more)` : text;
}

// ------------------------------------------------------------------ trimming (fixtures)

/** The functions whose calls a trimmed file keeps: every lock kind's, and the library's unlock (the tests compare unlocks with locks). */
export const isLockFunction = (name: string): boolean => name === 'CRYPTO_THREAD_unlock' || Object.values(LOCK_FUNCTIONS).some((re) => re.test(name));

/**
 * A callgrind output file cut down to the calls into the lock and atomic functions and the calls into
 * their callers (so that both the classes and the helpers' callers can be read from it), for small
 * fixtures. Header, events and totals are kept; every other cost line is dropped, so the file is for
 * this parser only (positions and instruction costs of the dropped lines are gone). Every call count
 * that it keeps is the original's: parseCallgrindCalls of the trimmed file gives the same lockCounts and
 * perOperationByClass (the tests check it on real output).
 */
export function trimCallgrind(text: string, where: string): string {
  const profile = parseCallgrindCalls(text, where);
  const keep = new Set<string>();
  for (const [callee, from] of profile.edges)
    if (isLockFunction(callee)) {
      keep.add(callee);
      for (const caller of from.keys()) keep.add(caller);
    }
  const names = new Map<string, string>();
  const written = new Set<string>();
  const out: string[] = [];
  const lines = text.split('\n');
  let fnLine: { id: string | null; name: string } | null = null;
  let fnWritten = false;
  let cfn: { id: string | null; name: string } | null = null;
  const ref = (kind: 'fn' | 'cfn', f: { id: string | null; name: string }) => {
    if (f.id === null) return `${kind}=${f.name}`;
    if (written.has(f.id)) return `${kind}=(${f.id})`;
    written.add(f.id);
    return `${kind}=(${f.id}) ${f.name}`;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (i === 0) {
      out.push(
        line,
        `# trimmed for fixtures (runner/known-issues/callgrind-calls.ts trimCallgrind): only the calls into lock and atomic functions and into their callers`,
      );
      continue;
    }
    if (/^(version|creator|pid|cmd|part|desc|positions|events|summary|totals):/.test(line)) {
      out.push(line);
      continue;
    }
    const m = NAME.exec(line);
    if (m) {
      const kind = m[1] ?? m[4]!;
      let f: { id: string | null; name: string };
      if (m[2] !== undefined) {
        if (m[3] !== undefined) names.set(m[2], m[3]);
        f = { id: m[2], name: names.get(m[2])! };
      } else f = { id: null, name: m[5]! };
      if (kind === 'fn') {
        fnLine = f;
        fnWritten = false;
        cfn = null;
      } else cfn = f;
      continue;
    }
    if (line.startsWith('calls=')) {
      if (cfn && fnLine && keep.has(normaliseName(cfn.name))) {
        if (!fnWritten) out.push(ref('fn', fnLine));
        fnWritten = true;
        out.push(ref('cfn', cfn), line, lines[i + 1] ?? '');
      }
      i++; // the call's cost line
    }
  }
  return out.join('\n') + '\n';
}
