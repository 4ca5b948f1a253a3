// What a version page shows: the headline figures first, then every entry grouped by benchmark and by
// what is measured, in an order a reader expects (TLS 1.3 before 1.2, new sessions before resumption, one
// thread before many, library defaults before pinned groups). Pure functions, unit-tested.
import type { Params } from '../../../schema/index.ts';
import { isPlainHandshake, seriesNote } from '../../../runner/handshake/handshake.ts';
import { gist, isNoisy, significant } from './format.ts';
import { groupBy, type Entry } from './model.ts';

/** A short, stable id of a series key (FNV-1a, 32 bits): rows carry it instead of the 150-character key. */
export function keyId(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

// ------------------------------------------------------------------ order

const BENCHMARK_ORDER = ['handshake', 'servers', 'aead', 'known-issues', 'speed', 's-time'];
export const BENCHMARK_TITLE: Record<string, string> = {
  handshake: 'TLS handshakes, in one process',
  aead: 'AEAD throughput, one EVP program for every version',
  'known-issues': 'Known issues: the operations behind reported complaints',
  speed: "Primitives, each version's own openssl speed",
  's-time': 'openssl s_time over loopback',
  servers: 'Real servers: nginx and HAProxy built against this version',
};
export const benchmarkTitle = (b: string): string => BENCHMARK_TITLE[b] ?? `Benchmark ${b}`;

const METRIC_ORDER = [
  'cpu-per-handshake',
  'handshakes-per-cpu-second',
  'instructions-per-handshake',
  'heap-per-connection',
  'ssl-ctx-new',
  'latency-p50',
  'latency-p90',
  'latency-p99',
  'handshakes-per-second-wall',
  'clienthello-bytes',
  'bytes-sent',
  'instructions-in-function',
];

/** Parameters in the order they sort rows, and the preferred order of their values (others follow, sorted). */
const PARAM_ORDER = [
  'side',
  'layer',
  'function',
  'algorithm',
  'operation',
  'proto',
  'resume',
  'clientCtx',
  'threads',
  'cert',
  'clientGroups',
  'serverGroups',
  'cipher',
  'bytes',
];
const VALUE_ORDER: Record<string, string[]> = {
  side: ['client', 'server', 'both'],
  layer: ['message', 'record'],
  function: ['all'],
  proto: ['1.3', '1.2'],
  resume: ['none', 'ticket', 'session-id', 'reuse'],
  clientCtx: ['shared', 'per-connection'],
  cert: ['ecdsa-p256', 'rsa2048'],
  clientGroups: ['default', 'X25519'],
  serverGroups: ['default', 'X25519'],
};

const rank = (list: readonly string[], v: string) => {
  const i = list.indexOf(v);
  return i < 0 ? list.length : i;
};

function compareValue(name: string, a: Params[string] | undefined, b: Params[string] | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return -1; // rows without the parameter (the plain case) first
  if (b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const pref = VALUE_ORDER[name] ?? [];
  return rank(pref, String(a)) - rank(pref, String(b)) || String(a).localeCompare(String(b), 'en', { numeric: true });
}

export function compareParams(a: Params, b: Params): number {
  const names = [...PARAM_ORDER, ...[...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !PARAM_ORDER.includes(k)).sort()];
  for (const n of names) {
    const d = compareValue(n, a[n], b[n]);
    if (d) return d;
  }
  return 0;
}

export function compareEntries(a: Entry, b: Entry): number {
  return (
    rank(BENCHMARK_ORDER, a.benchmark) - rank(BENCHMARK_ORDER, b.benchmark) ||
    a.benchmark.localeCompare(b.benchmark) ||
    rank(METRIC_ORDER, a.metric) - rank(METRIC_ORDER, b.metric) ||
    // "x-cpu" (CPU time, the primary measure) before its wall-clock twin "x"
    a.metric.replace(/-cpu$/, '').localeCompare(b.metric.replace(/-cpu$/, '')) ||
    Number(!a.metric.endsWith('-cpu')) - Number(!b.metric.endsWith('-cpu')) ||
    compareParams(a.params, b.params) ||
    a.key.localeCompare(b.key)
  );
}

// ------------------------------------------------------------------ labels

/** Index of the last "; " outside parentheses within the first `limit` characters, or -1. */
function lastClauseBreak(text: string, limit: number): number {
  let depth = 0;
  let found = -1;
  for (let i = 0; i < Math.min(limit, text.length); i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ';' && depth === 0 && text[i + 1] === ' ') found = i;
  }
  return found;
}

function commonPrefixLength(texts: readonly string[]): number {
  const first = texts[0] ?? '';
  let n = first.length;
  for (const t of texts) {
    let i = 0;
    while (i < n && i < t.length && t[i] === first[i]) i++;
    n = i;
  }
  return n;
}

/** Depth-0 clauses of a label ("; " outside parentheses). */
function clauses(label: string): string[] {
  const out: string[] = [];
  let rest = label;
  for (let cut = lastClauseBreak(rest, rest.length); cut > 0; cut = lastClauseBreak(rest, rest.length)) {
    out.unshift(rest.slice(cut + 2));
    rest = rest.slice(0, cut);
  }
  out.unshift(rest);
  return out;
}

/**
 * Split labels into what they share (the measure, said once above the table), what each row adds (its
 * configuration) and explanatory clauses repeated on several rows (said once, as notes). The split falls on
 * clause breaks ("; " outside parentheses), so no label is cut in a word. Null when the labels share no clause.
 */
export function splitLabels(labels: readonly string[]): { head: string; rows: string[]; notes: string[] } | null {
  if (labels.length === 0) return null;
  const limit = labels.length === 1 ? labels[0]!.length : commonPrefixLength(labels) + 1;
  const cut = lastClauseBreak(labels[0]!, limit);
  if (cut <= 0) return null;
  const rests = labels.map((l) => clauses(l.slice(cut + 2)));
  // a trailing clause that several rows repeat word for word is a note about the measure, not about the row
  const counts = new Map<string, number>();
  for (const r of rests) for (const c of r.slice(1)) counts.set(c, (counts.get(c) ?? 0) + 1);
  const notes = [...counts].filter(([, n]) => n > 1).map(([c]) => c);
  return { head: labels[0]!.slice(0, cut), rows: rests.map((r) => [r[0]!, ...r.slice(1).filter((c) => !notes.includes(c))].join('; ')), notes };
}

/**
 * Labels that differ only in a short middle part, e.g. openssl speed's "... on 16-byte buffers (...): bytes per
 * second ..." for each buffer size: the shared words said once (the differing part as "…"), each row its part.
 * Cuts fall on spaces; null unless every row's part is short and the shared words say something.
 */
export function splitAround(labels: readonly string[]): { head: string; rows: string[] } | null {
  if (labels.length < 2 || new Set(labels).size !== labels.length) return null;
  const first = labels[0]!;
  let pre = commonPrefixLength(labels);
  let suf = commonPrefixLength(labels.map((l) => [...l].reverse().join('')));
  suf = Math.min(suf, Math.min(...labels.map((l) => l.length)) - pre);
  pre = first.lastIndexOf(' ', pre);
  const sufStart = suf === 0 ? first.length : first.indexOf(' ', first.length - suf);
  if (pre <= 0 || sufStart < 0) return null;
  suf = first.length - sufStart;
  const rows = labels.map((l) => l.slice(pre + 1, l.length - suf));
  if (rows.some((r) => r.length === 0 || r.length > 40)) return null;
  return { head: suf === 0 ? `${first.slice(0, pre)} …` : `${first.slice(0, pre)} … ${first.slice(sufStart + 1)}`, rows };
}

// ------------------------------------------------------------------ groups

/**
 * Instruction counts inside one function (the fn-cost experiment): evidence for a write-up's cause, not a
 * figure of the version. A version page counts them and leaves their tables to the write-ups and the
 * download; dozens per version would push the page past its transfer budget.
 */
export const writeupOnly = (e: Entry): boolean => e.metric === 'instructions-in-function';

export interface Measure {
  /** what every row measures, said once (the label's shared clauses); '' for a table of full labels */
  head: string;
  /** explanations several rows' labels repeated, said once */
  notes: string[];
  entries: Entry[];
  /** per entry: the part of its label the head and notes do not say */
  rowLabels: string[];
}

export interface Unsupported {
  /** the library's reason, without its error dump */
  reason: string;
  entries: Entry[];
}

export interface BenchmarkGroup {
  benchmark: string;
  title: string;
  measures: Measure[];
  /** series this build cannot measure, one line per reason instead of a row each */
  unsupported: Unsupported[];
  count: number;
}

/** A library's error dump ("...:error:0A080106:SSL routines:...") adds nothing a reader can use on a page; the downloads keep it whole. */
export function reasonText(reason: string | undefined): string {
  return reason ? gist(reason.replace(/:\s*(?:[0-9A-F]{8,}:)?error:[0-9A-F]{8}:[\s\S]*$/, '').replace(/:\s*\(the library queued no error\)$/, ''), 200) : '';
}

/** Index of the first ": " outside parentheses, or -1. */
function firstColonBreak(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ':' && depth === 0 && text[i + 1] === ' ') return i;
  }
  return -1;
}

/** A label written "<measure>: <operation>" (the known-issues benchmark's): its measure, or null. */
const colonHead = (label: string): string | null => {
  const i = firstColonBreak(label);
  return i > 0 ? label.slice(0, i) : null;
};

/** Rows that measure the same thing on the same side (and layer, function) in the same run: one table each. */
const measureKey = (e: Entry) => [e.metric, e.method, e.unit, e.params.side, e.params.layer, e.params.function].join('\u0000');

/** Within a measure, rows whose labels share a "<measure>: " head go together; a head no other row has is no measure. */
function byColonHead(rows: readonly Entry[]): Entry[][] {
  const heads = rows.map((e) => colonHead(e.label) ?? '');
  const shared = new Set(heads.filter((h, i) => h !== '' && heads.indexOf(h) !== i));
  return [...groupBy(rows, (e) => (shared.has(colonHead(e.label) ?? '') ? colonHead(e.label)! : '')).values()];
}

/** Measures with fewer rows than this share one table of full labels per benchmark and run. */
const MIN_MEASURE_ROWS = 3;

/**
 * Entries of one build, grouped by benchmark (in reading order), then by measure. A table never mixes runs:
 * a measure whose rows come from several runs becomes one table per run, the run with most rows first.
 */
export function groupEntries(entries: readonly Entry[]): BenchmarkGroup[] {
  const sorted = [...entries].sort(compareEntries);
  const out: BenchmarkGroup[] = [];
  for (const [benchmark, list] of groupBy(sorted, (e) => e.benchmark)) {
    const runSize = new Map<string, number>();
    for (const e of list) runSize.set(e.runId, (runSize.get(e.runId) ?? 0) + 1);
    const byRun = (a: string, b: string) => runSize.get(b)! - runSize.get(a)! || a.localeCompare(b);
    const measures: Measure[] = [];
    const loose = new Map<string, Entry[]>();
    const unsupported = [
      ...groupBy(
        list.filter((e) => e.status === 'unsupported'),
        (e) => reasonText(e.reason),
      ),
    ].map(([reason, es]) => ({ reason, entries: es }));
    for (const same of [
      ...groupBy(
        list.filter((e) => e.status !== 'unsupported'),
        measureKey,
      ).values(),
    ].flatMap(byColonHead)) {
      for (const [run, rows] of [...groupBy(same, (e) => e.runId)].sort(([a], [b]) => byRun(a, b))) {
        const split = rows.length >= MIN_MEASURE_ROWS ? splitLabels(rows.map((e) => e.label)) : null;
        const head = colonHead(rows[0]!.label);
        const around = rows.length >= MIN_MEASURE_ROWS ? splitAround(rows.map((e) => e.label)) : null;
        if (split) measures.push({ head: split.head, notes: split.notes, entries: rows, rowLabels: split.rows });
        // "<measure>: <operation>" labels: the measure said once above the table, each row its operation
        else if (head !== null && rows.length > 1 && rows.every((e) => colonHead(e.label) === head))
          measures.push({ head, notes: [], entries: rows, rowLabels: rows.map((e) => e.label.slice(head.length + 2)) });
        // labels that differ in a few words only (openssl speed's buffer sizes): the rest said once
        else if (around) measures.push({ head: around.head, notes: [], entries: rows, rowLabels: around.rows });
        else loose.set(run, [...(loose.get(run) ?? []), ...rows]);
      }
    }
    for (const run of [...loose.keys()].sort(byRun)) {
      const rows = loose.get(run)!;
      // full labels, but an explanation several of them repeat is said once, as a note
      const parts = rows.map((e) => clauses(e.label));
      const counts = new Map<string, number>();
      for (const r of parts) for (const c of new Set(r.slice(1))) counts.set(c, (counts.get(c) ?? 0) + 1);
      const notes = [...counts].filter(([, n]) => n > 1).map(([c]) => c);
      measures.push({ head: '', notes, entries: rows, rowLabels: parts.map((r) => [r[0]!, ...r.slice(1).filter((c) => !notes.includes(c))].join('; ')) });
    }
    // said beside the table whatever the labels of the runs say (runs before the percentile labels were reworded)
    for (const m of measures) for (const note of new Set(m.entries.map(seriesNote))) if (note && !m.notes.includes(note)) m.notes.push(note);
    out.push({ benchmark, title: benchmarkTitle(benchmark), measures, unsupported, count: list.length });
  }
  return out;
}

/** What a version page lists of one benchmark: its own page holds the tables. */
export interface BenchmarkSummary {
  benchmark: string;
  title: string;
  /** series shown on the benchmark's page (write-up-only series not counted) */
  shown: number;
  writeupOnly: number;
  unsupported: number;
  /** series whose interval shows a change against the previous series */
  changed: number;
  noisy: number;
  runs: string[];
}

/** One line per benchmark of a build's entries, in reading order. */
export function benchmarkSummaries(entries: readonly Entry[]): BenchmarkSummary[] {
  const sorted = [...entries].sort(compareEntries);
  return [...groupBy(sorted, (e) => e.benchmark)].map(([benchmark, list]) => ({
    benchmark,
    title: benchmarkTitle(benchmark),
    shown: list.filter((e) => !writeupOnly(e)).length,
    writeupOnly: list.filter(writeupOnly).length,
    unsupported: list.filter((e) => e.status === 'unsupported').length,
    changed: list.filter((e) => significant(e.vsPreviousSeries)).length,
    noisy: list.filter((e) => isNoisy(e.stats)).length,
    runs: [...new Set(list.map((e) => e.runId))].sort(),
  }));
}

// ------------------------------------------------------------------ headline figures

export interface Headline {
  title: string;
  entry: Entry;
}

const p = (e: Entry, k: string) => e.params[k];
const PLAIN_HANDSHAKE = (e: Entry) => isPlainHandshake(e.params);
const groupsAre = (e: Entry, g: string) => p(e, 'clientGroups') === g && p(e, 'serverGroups') === g;
const CERT_PREFERENCE = VALUE_ORDER.cert!;
import { algorithmName, certName } from '../../../catalogue/words.ts';
export { algorithmName, certName };

function pick(entries: readonly Entry[], match: (e: Entry) => boolean, prefer: (e: Entry) => number = () => 0): Entry | undefined {
  return entries.filter(match).sort((a, b) => prefer(a) - prefer(b) || compareEntries(a, b))[0];
}

const sizeText = (bytes: unknown) => (typeof bytes === 'number' ? (bytes >= 1024 && bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`) : '');
/** CPU-time methods answer "what does it cost"; prefer them over wall-clock where both exist. */
const cpuFirst = (e: Entry) => (e.method.startsWith('cpu-time') ? 0 : 1);
const largestBuffer = (e: Entry) => -(typeof p(e, 'bytes') === 'number' ? (p(e, 'bytes') as number) : 0);

/** The figures a version page opens with, in a fixed order (the page sorts significant changes first). */
export function headlines(entries: readonly Entry[]): { rows: Headline[]; cert: string | null } {
  const plainCpu = entries.filter((e) => e.metric === 'cpu-per-handshake' && PLAIN_HANDSHAKE(e));
  const cert =
    [...new Set(plainCpu.map((e) => String(p(e, 'cert'))))].sort((a, b) => rank(CERT_PREFERENCE, a) - rank(CERT_PREFERENCE, b) || a.localeCompare(b))[0] ??
    null;
  const hs = (e: Entry) => PLAIN_HANDSHAKE(e) && (cert === null || p(e, 'cert') === cert);
  const groupsPref = (e: Entry) => (groupsAre(e, 'default') ? 0 : groupsAre(e, 'X25519') ? 1 : 2);
  const groupsWords = (e: Entry) =>
    groupsAre(e, 'default') ? 'library-default groups' : groupsAre(e, 'X25519') ? 'groups pinned to X25519' : `groups ${p(e, 'clientGroups')}`;
  const rows: Headline[] = [];
  const add = (entry: Entry | undefined, title: (e: Entry) => string) => {
    if (entry && !rows.some((r) => r.entry === entry)) rows.push({ title: title(entry), entry });
  };
  for (const groups of ['default', 'X25519'])
    for (const side of ['client', 'server'])
      add(
        pick(entries, (e) => e.metric === 'cpu-per-handshake' && hs(e) && p(e, 'side') === side && groupsAre(e, groups)),
        (e) => `Handshake CPU time, ${side} side, ${groupsWords(e)}`,
      );
  // versions measured only by the known-issues run have its TLS 1.2 handshake, not the plain TLS 1.3 one:
  // their page opens with it and with the complaint operations (on the others, those are in the full tables)
  const knownIssuesOnly = !rows.some((r) => r.entry.metric === 'cpu-per-handshake');
  if (knownIssuesOnly)
    for (const side of ['client', 'server'])
      add(
        pick(
          entries,
          (e) =>
            e.metric === 'cpu-per-handshake' &&
            p(e, 'resume') === 'none' &&
            p(e, 'threads') === 1 &&
            p(e, 'clientCtx') === 'shared' &&
            p(e, 'side') === side &&
            groupsAre(e, 'default'),
        ),
        (e) =>
          `Handshake CPU time, ${side} side, TLS ${p(e, 'proto')}${p(e, 'cipher') ? ` ${p(e, 'cipher')}` : ''}, ${certName(String(p(e, 'cert')))} certificate`,
      );
  // in the order of a visitor's questions: CPU per side (above), handshakes per second, bulk, heap, bytes, instructions
  add(
    pick(entries, (e) => e.metric === 'handshakes-per-cpu-second' && hs(e), groupsPref),
    (e) => `Handshakes per CPU-second, client + server, ${groupsWords(e)}`,
  );
  const bulk = () => {
    for (const [algorithm, name] of [
      ['aes-128-gcm', 'AES-128-GCM'],
      ['chacha20-poly1305', 'ChaCha20-Poly1305'],
    ])
      add(
        pick(
          entries,
          (e) => e.benchmark === 'aead' && p(e, 'algorithm') === algorithm,
          (e) => cpuFirst(e) * 1e9 + largestBuffer(e),
        ),
        (e) => `${name} seal, ${sizeText(p(e, 'bytes'))} records`,
      );
  };
  if (rows.length) bulk();
  for (const side of ['client', 'server'])
    add(
      pick(entries, (e) => e.metric === 'heap-per-connection' && hs(e) && p(e, 'side') === side, groupsPref),
      (e) => `Heap per connection, ${side} side, ${groupsWords(e)}`,
    );
  for (const side of ['client', 'server'])
    add(
      pick(entries, (e) => e.metric === 'bytes-sent' && hs(e) && p(e, 'side') === side, groupsPref),
      (e) => `Bytes sent per handshake, ${side} side, ${groupsWords(e)}`,
    );
  add(
    pick(entries, (e) => e.metric === 'instructions-per-handshake' && hs(e), groupsPref),
    (e) => `Instructions per handshake, both sides, ${groupsWords(e)}`,
  );
  add(
    pick(entries, (e) => e.metric === 'ssl-ctx-new'),
    () => 'SSL_CTX_new, one call',
  );
  // the known-issues operations (issue 16), CPU time per call or record, on pages without the handshake figures
  const op = (id: string, title: (e: Entry) => string) => {
    if (knownIssuesOnly)
      add(
        pick(entries, (e) => e.benchmark === 'known-issues' && e.metric === 'cpu-per-op' && p(e, 'op') === id),
        title,
      );
  };
  op('pkey-pem', () => 'Decoding an RSA-2048 private key, PKCS#8 PEM');
  op('pkey-der', () => 'Decoding an RSA-2048 private key, PKCS#8 DER');
  op('x509-der', () => 'Decoding a certificate (d2i_X509)');
  op('ca-bundle', (e) => `Loading a CA bundle of ${p(e, 'certificates')} certificates`);
  if (!rows.some((r) => r.entry.metric === 'ssl-ctx-new')) op('ctx-new', () => 'SSL_CTX_new and SSL_CTX_free, one call');
  op('aead-reinit', (e) => `AES-128-GCM seal of a ${p(e, 'bytes')}-byte record, context keyed once`);
  if (knownIssuesOnly)
    add(
      pick(
        entries,
        (e) => e.benchmark === 'known-issues' && e.metric === 'heap-per-connection' && p(e, 'op') === 'dtls-handshake' && p(e, 'side') === 'server',
      ),
      () => 'DTLS heap per connection, server side',
    );
  bulk();
  const speed = (metric: string, title: string, prefer?: (e: Entry) => number) =>
    add(
      pick(entries, (e) => e.benchmark === 'speed' && e.metric === metric, prefer),
      (e) => (p(e, 'bytes') === undefined ? title : `${title}, ${sizeText(p(e, 'bytes'))} buffers`),
    );
  speed('rsa2048-sign', 'RSA-2048 signatures');
  speed('ecdsa-p256-sign', 'ECDSA P-256 signatures');
  speed('ecdh-x25519-derive', 'X25519 key agreement');
  speed('ml-kem-768-encaps', 'ML-KEM-768 encapsulation');
  speed('ml-dsa-65-sign', 'ML-DSA-65 signatures');
  speed('sha256-digest', 'SHA-256', largestBuffer);
  return { rows, cert };
}

/** A build variant in words for titles (the catalogue's words): "no-ml-kem" -> "built without ML-KEM". */
export { variantWords as variantText } from '../../../catalogue/index.ts';

/** What the project has on the cause of a headline figure's change: write-ups naming its series and version, bisections of it into the series. */
export interface Cause {
  kind: 'write-up' | 'bisection';
  id: string;
  text: string;
}

/** Bisection metrics ("handshake-instructions:client:...") by the summary metric they follow. */
const BISECT_METRIC: Record<string, string> = { 'handshake-instructions': 'instructions-per-handshake', 'handshake-heap': 'heap-per-connection' };

export function causesOf(
  entry: Entry,
  writeups: readonly { id: string; title: string; versions: readonly string[]; seriesKeys: readonly string[] }[],
  bisections: readonly { machine: string; slug: string; title: string; metricId: string }[],
): Cause[] {
  const side = p(entry, 'side');
  return [
    ...writeups
      .filter((w) => w.seriesKeys.includes(entry.key) && w.versions.includes(entry.version))
      .map((w) => ({ kind: 'write-up' as const, id: w.id, text: w.title })),
    ...bisections
      .filter((b) => {
        const [metric, bSide] = b.metricId.split(':');
        return BISECT_METRIC[metric ?? ''] === entry.metric && (side === undefined || side === 'both' || bSide === side);
      })
      .map((b) => ({ kind: 'bisection' as const, id: `${b.machine}/${b.slug}`, text: b.title })),
  ];
}
