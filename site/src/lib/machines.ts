// Machines: how pages name the machine of a figure, and the findings page that sets each machine's ratios
// side by side. A machine is its hardware (schema/machine.ts); nothing here divides values of two machines
// or two runs. Every ratio is the summary's own paired comparison, or, for two series of the same run, the
// same pairing by round (analysis/stats.ts compareRounds) over detailed-iterations.json (claims/compare.ts entryRounds). Pure functions.
import type { Comparison, CpuFlags, DetailedIterations, Host, Summary, SummaryEntry } from '../../../schema/index.ts';
import { describeMachine, nameOfMachine, CPU_FLAG_NAMES } from '../../../schema/machine.ts';
import { compareSeries, compareVersions, LIBRARY_NAMES } from '../../../catalogue/index.ts';
import { DETERMINISTIC_METHODS, compareRounds } from '../../../analysis/stats.ts';
import { entryRounds } from './claims/compare.ts';
import { CPU_FLAGS, CPU_FLAG_TEXT, flagState } from './cpu-flags.ts';
import { INDICATIVE_TEXT } from './format.ts';
import { isProjectHost } from './hosts.ts';

// ------------------------------------------------------------------ naming a machine

export interface MachineLabel {
  id: string;
  /** the name its owner chose */
  name: string;
  /** describeMachine of its host record; null where no record is at hand */
  description: string | null;
  /** not one of the project's machines (hosts.ts isProjectHost) nor a local build's own: a submission, shown only where a visitor chooses it */
  contributed: boolean;
  /** what a reader sees: the description, else the id; a contributed machine's says so, as does a local build's own */
  text: string;
}

/**
 * The readable name of a machine id: describeMachine of its host record, taken from the file's own record
 * (`own`, e.g. a hypothesis or MTU result) or from the summary's hosts. One helper for every page.
 */
/** Added to the name of every contributed machine, wherever its figures are shown. */
export const CONTRIBUTED_NOTE = 'contributed machine, not the project’s';

export function machineLabel(id: string, hosts: readonly Host[] | null | undefined, own?: Host | null, runs: readonly LocalRun[] = []): MachineLabel {
  const host = own?.id === id ? own : hosts?.find((h) => h.id === id);
  const description = host ? describeMachine(host) : null;
  const local = localNote(id, runs);
  const contributed = !isProjectHost(id) && !local;
  const note = local ?? (contributed ? CONTRIBUTED_NOTE : null);
  return { id, name: nameOfMachine(id), description, contributed, text: `${description ?? id}${note ? ` (${note})` : ''}` };
}

/** A map id -> readable name for the browser scripts (the pages embed it; the scripts never import schema/). */
export const machineTexts = (hosts: readonly Host[] | null | undefined, runs: readonly LocalRun[] = []): Record<string, string> =>
  Object.fromEntries((hosts ?? []).map((h) => [h.id, machineLabel(h.id, hosts, null, runs).text]));

/** What a summary's runs say of a machine in a local build (npm start). */
export type LocalRun = { host: string; quiet: boolean; local?: boolean };

/**
 * How a local build (npm start) names the machine that ran it, beside its description: "this computer", and
 * where a run of it behind the summary was not quiet, that its figures are indicative. Null for any other
 * machine and in the committed site (no run is local there).
 */
export function localNote(id: string, runs: readonly LocalRun[]): string | null {
  const mine = runs.filter((r) => r.host === id && r.local);
  if (!mine.length) return null;
  return mine.some((r) => !r.quiet) ? `this computer, ${INDICATIVE_TEXT}` : 'this computer';
}

// ------------------------------------------------------------------ one machine at a glance

export interface MachineRun {
  host: string;
  runId: string;
  startedAt: string;
  benchmarks: readonly string[];
}

export interface MachineCard {
  host: Host;
  label: MachineLabel;
  /** the flags of its architecture that select OpenSSL code paths, with their state */
  flags: { flag: keyof CpuFlags; name: string; selects: string; state: ReturnType<typeof flagState> }[];
  runs: MachineRun[];
  /** first and last UTC day with a run, or null */
  days: { first: string; last: string } | null;
  benchmarks: string[];
}

const isArm = (h: Host) => /arm|aarch/i.test(h.arch);

/** Each machine of the summary with its flags, its runs (from `runs`, deduplicated, oldest first) and benchmarks. */
export function machineCards(summary: Summary, runs: readonly MachineRun[]): MachineCard[] {
  return summary.hosts.map((host) => {
    const arch = isArm(host) ? 'arm64' : 'x86_64';
    const own = [...new Map([...summary.runs, ...runs].filter((r) => r.host === host.id).map((r) => [r.runId, r])).values()].sort((a, b) =>
      a.startedAt < b.startedAt ? -1 : 1,
    );
    const benchmarks = [...new Set([...own.flatMap((r) => r.benchmarks), ...summary.entries.filter((e) => e.host === host.id).map((e) => e.benchmark)])].sort();
    return {
      host,
      label: machineLabel(host.id, summary.hosts),
      flags: CPU_FLAGS.filter((f) => CPU_FLAG_TEXT[f].arch === arch).map((f) => ({
        flag: f,
        name: CPU_FLAG_NAMES[f],
        selects: CPU_FLAG_TEXT[f].selects,
        state: flagState(host.cpuFlags, f),
      })),
      runs: own,
      days: own.length ? { first: own[0]!.startedAt.slice(0, 10), last: own[own.length - 1]!.startedAt.slice(0, 10) } : null,
      benchmarks,
    };
  });
}

// ------------------------------------------------------------------ findings across machines

/** Which build a side of a ratio is: the newest release of an OpenSSL series, or another library's build. */
export type BuildPick = { series: string; variant?: string } | { library: Exclude<SummaryEntry['library'], 'openssl'> } | { newestOpenSSL: true };

export interface FindingDef {
  id: string;
  /** the ratio in words: what is divided by what */
  title: string;
  /** the series of the numerator; the denominator's is `refKey` (default: the same series) */
  key: string;
  refKey?: string;
  /** with refKey: what tells the two series apart, numerator first ("default groups", "X25519 only") */
  sides?: [string, string];
  subject: BuildPick;
  reference: BuildPick;
  /** CPU features that select the code path concerned: named as a candidate explanation where machines differ */
  paths: (keyof CpuFlags)[][];
}

const HS = (groups: string, cert = 'rsa2048') =>
  `handshake/handshakes-per-cpu-second[cert=${cert},clientCtx=shared,clientGroups=${groups},proto=1.3,resume=none,serverGroups=${groups},side=both,threads=1]`;
const HS_INSTR = (groups: string, cert = 'rsa2048') =>
  `handshake/instructions-per-handshake[cert=${cert},clientCtx=shared,clientGroups=${groups},proto=1.3,resume=none,serverGroups=${groups},side=both,threads=1]`;
const AEAD = (algorithm: string) => `aead/${algorithm}-seal-cpu[aadBytes=13,algorithm=${algorithm},bytes=16384,operation=seal]`;
const S_TIME =
  's-time/connections-per-client-user-second[cert=rsa2048,clientGroups=default,forced=server,proto=1.3,resume=none,serverGroups=default,side=client,tool=s_time]';

const AES_GCM_PATHS: (keyof CpuFlags)[][] = [
  ['vaes', 'vpclmulqdq'],
  ['avx512f', 'avx512vl', 'avx512bw'],
];
const CHACHA_PATHS: (keyof CpuFlags)[][] = [['avx512f', 'avx512vl', 'avx512bw']];
const RSA_PATHS: (keyof CpuFlags)[][] = [['avx512ifma'], ['shani']];

/** The rows of the findings table. Series keys are those of summary.json; a row no machine measured is still listed. */
export const FINDINGS: FindingDef[] = [
  {
    id: 'hs-30-111',
    title: 'TLS 1.3 handshakes per CPU-second (RSA-2048, X25519): 3.0 ÷ 1.1.1',
    key: HS('X25519'),
    subject: { series: '3.0' },
    reference: { series: '1.1.1' },
    paths: RSA_PATHS,
  },
  {
    id: 'hs-35-34',
    title: 'TLS 1.3 handshakes per CPU-second (RSA-2048, library default groups): 3.5 ÷ 3.4',
    key: HS('default'),
    subject: { series: '3.5' },
    reference: { series: '3.4' },
    paths: RSA_PATHS,
  },
  {
    id: 'hs-35-groups',
    title: 'TLS 1.3 handshakes per CPU-second on 3.5 (RSA-2048): library default groups ÷ X25519 only (ECDH only)',
    key: HS('default'),
    refKey: HS('X25519'),
    sides: ['default groups', 'X25519 only'],
    subject: { series: '3.5' },
    reference: { series: '3.5' },
    paths: RSA_PATHS,
  },
  {
    id: 'hs-awslc',
    title: 'TLS 1.3 handshakes per CPU-second (RSA-2048, X25519): AWS-LC ÷ the newest OpenSSL of the run',
    key: HS('X25519'),
    subject: { library: 'aws-lc' },
    reference: { newestOpenSSL: true },
    paths: RSA_PATHS,
  },
  {
    id: 'hs-instr-30-111',
    title: 'Instructions per TLS 1.3 handshake (RSA-2048, X25519): 3.0 ÷ 1.1.1',
    key: HS_INSTR('X25519'),
    subject: { series: '3.0' },
    reference: { series: '1.1.1' },
    paths: [],
  },
  {
    id: 'hs-instr-35-34',
    title: 'Instructions per TLS 1.3 handshake (RSA-2048, library default groups): 3.5 ÷ 3.4',
    key: HS_INSTR('default'),
    subject: { series: '3.5' },
    reference: { series: '3.4' },
    paths: [],
  },
  {
    id: 'gcm-30-111',
    title: 'AES-128-GCM seal, 16 KiB, bytes per CPU-second: 3.0 ÷ 1.1.1',
    key: AEAD('aes-128-gcm'),
    subject: { series: '3.0' },
    reference: { series: '1.1.1' },
    paths: AES_GCM_PATHS,
  },
  {
    id: 'gcm-35-34',
    title: 'AES-128-GCM seal, 16 KiB, bytes per CPU-second: 3.5 ÷ 3.4',
    key: AEAD('aes-128-gcm'),
    subject: { series: '3.5' },
    reference: { series: '3.4' },
    paths: AES_GCM_PATHS,
  },
  {
    id: 'gcm-awslc',
    title: 'AES-128-GCM seal, 16 KiB, bytes per CPU-second: AWS-LC ÷ the newest OpenSSL of the run',
    key: AEAD('aes-128-gcm'),
    subject: { library: 'aws-lc' },
    reference: { newestOpenSSL: true },
    paths: AES_GCM_PATHS,
  },
  {
    id: 'chacha-30-111',
    title: 'ChaCha20-Poly1305 seal, 16 KiB, bytes per CPU-second: 3.0 ÷ 1.1.1',
    key: AEAD('chacha20-poly1305'),
    subject: { series: '3.0' },
    reference: { series: '1.1.1' },
    paths: CHACHA_PATHS,
  },
  {
    id: 'chacha-35-34',
    title: 'ChaCha20-Poly1305 seal, 16 KiB, bytes per CPU-second: 3.5 ÷ 3.4',
    key: AEAD('chacha20-poly1305'),
    subject: { series: '3.5' },
    reference: { series: '3.4' },
    paths: CHACHA_PATHS,
  },
  {
    id: 'stime-30-111',
    title: 's_time TLS 1.3 connections per client user-CPU second (RSA-2048, new sessions): 3.0 ÷ 1.1.1',
    key: S_TIME,
    subject: { series: '3.0' },
    reference: { series: '1.1.1' },
    paths: RSA_PATHS,
  },
];

export type Direction = 'higher' | 'lower' | 'no difference' | 'undecided';
const DIRECTION: Record<Comparison['verdict'], Direction> = {
  higher: 'higher',
  lower: 'lower',
  'no-difference-shown': 'no difference',
  'within-threshold': 'no difference',
  'not-enough-data': 'undecided',
};

export type FindingCell =
  | {
      state: 'measured';
      host: string;
      runId: string;
      comparison: Comparison;
      direction: Direction;
      higherIsBetter: boolean;
      /** the builds divided, as pages name them */
      subject: string;
      reference: string;
      /** "summary": the aggregation's own comparison; "paired here": the same pairing, made for this page */
      source: 'summary' | 'paired here';
    }
  | { state: 'not-in-one-run'; host: string; runs: string[] }
  | { state: 'not-measured'; host: string };

export interface FindingRow {
  def: FindingDef;
  cells: FindingCell[];
  agreement: 'all' | 'differs' | 'one' | 'none';
  /** the sentence the page prints under the row, generated from the cells */
  words: string;
}

const buildName = (e: Pick<SummaryEntry, 'library' | 'version' | 'variant'>) =>
  `${LIBRARY_NAMES[e.library]} ${e.version}${e.variant === 'default' ? '' : ` (${e.variant})`}`;
/** The summary's `against`: the reference's version, with its variant where not default (scripts/aggregate/summary.ts). */
const againstKey = (e: Pick<SummaryEntry, 'version' | 'variant'>) => `${e.version}${e.variant === 'default' ? '' : `+${e.variant}`}`;

function picks(pick: BuildPick, candidates: readonly SummaryEntry[]): SummaryEntry[] {
  const ok = candidates.filter((e) => e.status === 'measured' && e.stats !== null);
  let list: SummaryEntry[];
  if ('series' in pick)
    list = ok.filter((e) => e.library === 'openssl' && compareSeries(e.series, pick.series) === 0 && e.variant === (pick.variant ?? 'default'));
  else if ('library' in pick) list = ok.filter((e) => e.library === pick.library && e.variant === 'default');
  else list = ok.filter((e) => e.library === 'openssl' && e.variant === 'default');
  return list.sort((a, b) => compareVersions(b.version, a.version));
}

/** The values by round behind an entry (claims/compare.ts entryRounds over detailed-iterations.json), null where not at hand. */
export type RoundsOf = (e: SummaryEntry) => Map<number, number[]> | null;

/** One machine's cell of one row: inside one run, or said why not. */
export function findingCell(def: FindingDef, host: string, entries: readonly SummaryEntry[], roundsOf: RoundsOf): FindingCell {
  const mine = entries.filter((e) => e.host === host);
  const subjects = picks(
    def.subject,
    mine.filter((e) => e.key === def.key),
  );
  const refKey = def.refKey ?? def.key;
  const refsAll = picks(
    def.reference,
    mine.filter((e) => e.key === refKey),
  );
  if (!subjects.length || !refsAll.length) return { state: 'not-measured', host };
  for (const s of subjects) {
    const ref = refsAll.find((r) => r.runId === s.runId && r !== s);
    if (!ref) continue;
    const own = refKey === def.key ? [s.vsPreviousSeries, s.vsBaseline, s.vsOpenSSL].find((c) => c?.against === againstKey(ref)) : undefined;
    let comparison: Comparison | null = own ?? null;
    if (!comparison) {
      const a = roundsOf(s);
      const b = roundsOf(ref);
      if (a && b) comparison = compareRounds(a, b, againstKey(ref), DETERMINISTIC_METHODS.includes(s.method));
    }
    if (!comparison) continue;
    return {
      state: 'measured',
      host,
      runId: s.runId,
      comparison,
      direction: DIRECTION[comparison.verdict],
      higherIsBetter: s.higherIsBetter,
      subject: buildName(s) + (def.sides ? `, ${def.sides[0]}` : ''),
      reference: buildName(ref) + (def.sides ? `, ${def.sides[1]}` : ''),
      source: own ? 'summary' : 'paired here',
    };
  }
  return { state: 'not-in-one-run', host, runs: [...new Set([...subjects, ...refsAll].map((e) => e.runId))].sort() };
}

const flagList = (names: string[]) => (names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);

/** Features of the row's code paths on which the machines that measured it differ (their display names). */
export function differingFeatures(def: FindingDef, hosts: readonly Host[]): string[] {
  return def.paths
    .filter((group) => group.some((f) => new Set(hosts.map((h) => h.cpuFlags[f] === true)).size > 1))
    .map((group) => group.map((f) => CPU_FLAG_NAMES[f]).join('/'));
}

/** The findings table: one row per ratio, one cell per machine, with the words that say whether it holds. */
export function findings(summary: Summary, detailed: DetailedIterations | null, defs: readonly FindingDef[] = FINDINGS): FindingRow[] {
  const roundsOf: RoundsOf = (e) => entryRounds(e, summary, detailed);
  return defs.map((def) => {
    const cells = summary.hosts.map((h) => findingCell(def, h.id, summary.entries, roundsOf));
    const measured = cells.filter((c) => c.state === 'measured');
    const name = (host: string) => machineLabel(host, summary.hosts).text;
    let agreement: FindingRow['agreement'];
    let words: string;
    if (measured.length === 0) {
      agreement = 'none';
      words = cells.some((c) => c.state === 'not-in-one-run') ? 'Not measured within one run on any machine.' : 'Not measured on any machine yet.';
    } else if (measured.length === 1) {
      agreement = 'one';
      words = `Measured on one machine only (${name(measured[0]!.host)}): ${measured[0]!.direction}.`;
    } else if (new Set(measured.map((c) => c.direction)).size === 1) {
      agreement = 'all';
      words = `Holds on every machine that measured it (${measured.length}): ${measured[0]!.direction} on each.`;
    } else {
      agreement = 'differs';
      const hosts = measured.map((c) => summary.hosts.find((h) => h.id === c.host)!);
      const features = differingFeatures(def, hosts);
      words =
        `Differs between machines: ${measured.map((c) => `${c.direction} on ${name(c.host)}`).join('; ')}.` +
        (features.length
          ? ` Hypothesis: the machines differ in ${flagList(features)}, which select${features.length === 1 && !features[0]!.includes('/') ? 's' : ''} the code path concerned; that difference is a candidate explanation, not a tested cause.`
          : ' The machines do not differ in a CPU feature known to select this code path.');
    }
    return { def, cells, agreement, words };
  });
}

/** Run ids and hosts of a row's measured cells (data-runs / data-hosts). */
export const cellRuns = (cells: readonly FindingCell[]) => [...new Set(cells.flatMap((c) => (c.state === 'measured' ? [c.runId] : [])))];
export const cellHosts = (cells: readonly FindingCell[]) => [...new Set(cells.flatMap((c) => (c.state === 'measured' ? [c.host] : [])))];
