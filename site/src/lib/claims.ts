// Claims of the write-ups and their verdicts, computed from the data at build time.
//
// A claim is one sentence (ours, or a named study's, quoted as theirs) with the comparisons that test it:
// a series of summary.json on two builds, or two series on the same build, an expected direction (or
// equivalence, or a range) and a practical threshold; or, for a study's claim, the magnitude the study
// quotes with a tolerance the same in both directions. Every comparison stays inside one run: the two
// entries must come from the same run (where summary.json took them from two, or has no entry for one
// side, a run behind it that measured both is used instead), their rounds are paired as analysis/stats.ts
// pairs them, and a verdict needs an interval covering at least summary.statistics.minCoverageForVerdict.
// Deterministic metrics (instruction counts, bytes) compare exactly. A claim is decided by its deciding
// tests (role: decides) on the comparisons that were measured; supporting tests are shown beside it.
// Pure functions: no file access here.
import { z } from 'zod';
import { CpuFlags, type CoverageInterval, type DetailedIterations, type Library, type Run, type Summary, type SummaryEntry } from '../../../schema/index.ts';
import { CPU_FLAG_NAMES } from '../../../schema/machine.ts';
import { OTHER_LIBRARIES, buildLabel } from '../../../catalogue/index.ts';
import { DETERMINISTIC_METHODS, compareRounds, measuredRounds, median, valuesByRound, type RoundValues } from '../../../analysis/stats.ts';
import { coverageText, fractionText, runWords } from './format.ts';

// ------------------------------------------------------------------ frontmatter format

const slug = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and "-"');

/**
 * A measured number in a sentence: digits followed by a unit, a percent or a multiplier. Version numbers
 * (3.0.2), algorithm names (X25519, RSA-2048) and sizes written as parameters ("16-byte records") pass.
 */
export const MEASURED_NUMBER = /\d(?:[\d,.]*\d)?\s?(%|percent\b|x\b|×|times\b|µs\b|us\b|ms\b|ns\b|[kKMG]i?B\b|bytes?\b|MB\/s|GB\/s)/;

/** Text a write-up shows as its own words: never a measured number (numbers come from the data). */
export const ownWords = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((s) => !MEASURED_NUMBER.test(s), {
      message: 'must not carry a measured number (digits with a unit, percent or multiplier): the page renders numbers from data',
    });

/** Another library's build in a claim: its slug (catalogue buildSlug), e.g. "aws-lc-5.12.0". */
const OTHER_LIBRARY_IDS = OTHER_LIBRARIES.join('|');
const LIBRARY_REF = new RegExp(`^(${OTHER_LIBRARY_IDS})-([0-9][0-9A-Za-z.-]*)$`);

/**
 * "3.5.7" or "3.5.7+no-ml-kem": a build of summary.json (version, and variant when not the default); another
 * library by its slug, "aws-lc-5.12.0", a variant again after "+": "wolfssl-5.9.4+no-perf-options".
 */
export const BuildRef = z
  .string()
  .regex(
    new RegExp(`^(\\d+\\.\\d+\\.\\d+[a-z]?|(${OTHER_LIBRARY_IDS})-[0-9][0-9A-Za-z.-]*)(\\+[A-Za-z0-9][A-Za-z0-9._-]*)?$`),
    'an OpenSSL release such as 3.5.7, 3.5.7+no-ml-kem for a variant, or another library as aws-lc-5.12.0 (wolfssl-5.9.4+no-perf-options)',
  );

export const EXPECTATIONS = ['higher', 'lower', 'better', 'worse', 'same', 'between', 'share', 'magnitude'] as const;

export const ClaimTest = z
  .object({
    /** one series (compared across `builds`, exactly two) or two series (compared on each of `builds`); ids or keys of the write-up's `series` */
    series: z.union([z.string().min(1), z.tuple([z.string().min(1), z.string().min(1)])]),
    builds: z.array(BuildRef).min(1).max(20),
    /**
     * the first against the second: higher/lower value, better/worse for the metric, the same within the
     * threshold, a change between range[0] and range[1] (`between`), or the first as a share of the second
     * between range[0] and range[1] (`share`, e.g. one function's instructions within a whole handshake), or
     * the size a study quotes (`magnitude`: `value` within `tolerance`, study claims only)
     */
    expect: z.enum(EXPECTATIONS),
    /** practical threshold as a fraction (0.05 = 5%): a difference smaller than this does not count */
    threshold: z.number().positive().max(100).optional(),
    /** for `between`: the claimed relative change, e.g. [0.035, 0.0625] for +3.5% to +6.25%; for `share`: fractions, e.g. [0.1, 1] */
    range: z.tuple([z.number().gt(-1), z.number().gt(-1)]).optional(),
    /**
     * for `magnitude`: the ratio of the first to the second as the study quotes it, e.g. 5 for "five times
     * the second", 0.2 for "five times faster" on a cost, 1.53 for "+53%"
     */
    value: z.number().positive().optional(),
    /**
     * for `magnitude`: how far from `value` still counts as the quoted size, the same fraction both ways in
     * ratio: 0.25 accepts value / 1.25 to value × 1.25
     */
    tolerance: z.number().positive().max(10).optional(),
    /**
     * `decides` (the default): the claim's verdict comes from it; `supports`: shown beside the verdict as
     * supporting evidence, e.g. instruction counts under a claim about time, which CPU time decides
     */
    role: z.enum(['decides', 'supports']).default('decides'),
    /** the two figures are measured differently on purpose (e.g. openssl speed's loop change): compare them anyway */
    acrossMethodChange: z.boolean().default(false),
  })
  .superRefine((t, ctx) => {
    const pair = Array.isArray(t.series);
    if (!pair && t.builds.length !== 2)
      ctx.addIssue({ code: 'custom', path: ['builds'], message: 'one series compares exactly two builds (the first against the second)' });
    if (t.expect === 'magnitude') {
      if (t.value === undefined || t.tolerance === undefined)
        ctx.addIssue({ code: 'custom', path: ['value'], message: '`magnitude` needs value (the quoted ratio of the first to the second) and tolerance' });
      else if (t.value / (1 + t.tolerance) <= 1 && t.value * (1 + t.tolerance) >= 1)
        ctx.addIssue({
          code: 'custom',
          path: ['tolerance'],
          message: 'the band around a quoted magnitude must not reach 1 (no change): test "the same" with `same`',
        });
      if (t.threshold !== undefined || t.range)
        ctx.addIssue({ code: 'custom', path: ['expect'], message: '`magnitude` takes value and tolerance, not a threshold or a range' });
      return;
    }
    if (t.value !== undefined || t.tolerance !== undefined)
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'value and tolerance belong to `magnitude` only' });
    if (t.expect === 'between' || t.expect === 'share') {
      if (!t.range) ctx.addIssue({ code: 'custom', path: ['range'], message: `\`${t.expect}\` needs range: [low, high]` });
      else if (t.range[0] >= t.range[1]) ctx.addIssue({ code: 'custom', path: ['range'], message: 'range must be [low, high] with low < high' });
      else if (t.expect === 'share' && t.range[0] < 0)
        ctx.addIssue({ code: 'custom', path: ['range'], message: 'a share is a fraction: range must not be negative' });
      if (t.threshold !== undefined) ctx.addIssue({ code: 'custom', path: ['threshold'], message: `\`${t.expect}\` takes a range, not a threshold` });
    } else {
      if (t.threshold === undefined) ctx.addIssue({ code: 'custom', path: ['threshold'], message: 'give a practical threshold, e.g. 0.05 for 5%' });
      if (t.range) ctx.addIssue({ code: 'custom', path: ['range'], message: 'range belongs to `between` and `share` only' });
    }
  });
export type ClaimTest = z.infer<typeof ClaimTest>;

export const CPU_FLAGS = CpuFlags.keyof().options;
export type CpuFlag = (typeof CPU_FLAGS)[number];

export const Claim = z
  .object({
    id: slug,
    /** the claim in one sentence, without measured numbers */
    text: ownWords(400),
    /** "ours", or the id of a study in the write-up's `studies` */
    by: z.string().default('ours'),
    /** the study's own words (numbers included: they are theirs, shown as a quotation) */
    quote: z.string().min(1).max(800).optional(),
    tests: z.array(ClaimTest).max(40).default([]),
    /** why our data cannot test this claim; such a claim has no tests */
    unverified: ownWords(600).optional(),
    /** the result depends on a CPU feature: where the host has it (or its record does not say), the verdict is host-specific */
    hostSpecific: z.object({ flags: z.array(z.enum(CPU_FLAGS)).min(1), why: ownWords(400) }).optional(),
    /**
     * the experiment tests the claim only on a CPU with every one of these features (e.g. hiding AVX-512 changes
     * nothing where there is none to hide): a machine whose record says it lacks one gets "cannot be tested on
     * this machine", naming the feature, instead of a verdict
     */
    requires: z.object({ flags: z.array(z.enum(CPU_FLAGS)).min(1), why: ownWords(400) }).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.unverified && c.tests.length) ctx.addIssue({ code: 'custom', path: ['unverified'], message: 'an unverified claim has no tests' });
    if (!c.unverified && !c.tests.length)
      ctx.addIssue({ code: 'custom', path: ['tests'], message: 'a claim needs tests, or `unverified` saying why our data cannot test it' });
    if (c.by !== 'ours' && !c.quote) ctx.addIssue({ code: 'custom', path: ['quote'], message: "a study's claim quotes the study's own words" });
    if (c.by === 'ours' && c.quote) ctx.addIssue({ code: 'custom', path: ['quote'], message: 'only a study is quoted' });
    c.tests.forEach((t, j) => {
      // a size is tested on the study's terms: reproduced, or smaller or larger than reported
      if (c.by === 'ours' && t.expect === 'magnitude')
        ctx.addIssue({
          code: 'custom',
          path: ['tests', j, 'expect'],
          message: '`magnitude` tests the size a study quotes; our own claims state a direction or a range',
        });
      if (c.by !== 'ours' && t.expect === 'between')
        ctx.addIssue({
          code: 'custom',
          path: ['tests', j, 'expect'],
          message: "a study's quoted size is tested with `magnitude` (value and tolerance), which says whether it was smaller or larger than reported",
        });
    });
    if (c.tests.length && c.tests.every((t) => t.role === 'supports'))
      ctx.addIssue({ code: 'custom', path: ['tests'], message: 'at least one test must decide the claim (role: decides)' });
  });
export type Claim = z.infer<typeof Claim>;

export const Study = z.object({
  id: slug,
  /** the public title of the study or article */
  title: z.string().min(1).max(300),
  /** how claims refer to it, e.g. "the firewall vendor's slides" */
  short: ownWords(80),
  /** who published it, and where or when */
  by: z.string().min(1).max(300),
  url: z.url().optional(),
  /** their setup, in words (their figures stay theirs) */
  setup: z.string().min(1).max(800),
  /** what our harness cannot reproduce (reproductions only) */
  cannotReproduce: ownWords(1000).optional(),
});
export type Study = z.infer<typeof Study>;

/** A series of summary.json that a write-up charts, and its claims may test. */
export const WriteupSeries = z.object({
  key: z.string().min(1),
  /** short name for claims to refer to (default: the key) */
  id: slug.optional(),
  /** short public label used in claims' comparisons, e.g. "default groups" */
  label: ownWords(80).optional(),
  caption: ownWords(300).optional(),
  /** limit the chart to these versions (default: the write-up's versions) */
  versions: z.array(z.string().regex(/^\d+\.\d+\.\d+[a-z]?$/)).optional(),
});
export type WriteupSeries = z.infer<typeof WriteupSeries>;

/** Check the references between a write-up's claims, studies and series; returns messages (empty when fine). */
export function crossCheck(w: { claims: Claim[]; studies: Study[]; series: WriteupSeries[] }): { path: (string | number)[]; message: string }[] {
  const out: { path: (string | number)[]; message: string }[] = [];
  const studies = new Set(w.studies.map((s) => s.id));
  const refs = new Set(w.series.flatMap((s) => [s.key, ...(s.id ? [s.id] : [])]));
  const seen = new Set<string>();
  w.series.forEach((s, i) => {
    if (s.id && seen.has(s.id)) out.push({ path: ['series', i, 'id'], message: `series id ${s.id} is used twice` });
    if (s.id) seen.add(s.id);
  });
  const ids = new Set<string>();
  w.claims.forEach((c, i) => {
    if (ids.has(c.id)) out.push({ path: ['claims', i, 'id'], message: `claim id ${c.id} is used twice` });
    ids.add(c.id);
    if (c.by !== 'ours' && !studies.has(c.by)) out.push({ path: ['claims', i, 'by'], message: `"${c.by}" is neither "ours" nor a study id of this write-up` });
    c.tests.forEach((t, j) => {
      for (const s of Array.isArray(t.series) ? t.series : [t.series])
        if (!refs.has(s))
          out.push({
            path: ['claims', i, 'tests', j, 'series'],
            message: `"${s}" is not a series of this write-up (give it in \`series\` so the page charts it)`,
          });
    });
  });
  return out;
}

// ------------------------------------------------------------------ verdicts

/**
 * What one comparison can say. Directions, ranges and equivalences (our claims, and a study's claims that state
 * no size) are confirmed or contradicted; a study's quoted size (`magnitude`) is reproduced, or smaller or
 * larger than reported, and its direction is stated apart (Direction).
 */
export type TestVerdict = 'confirmed' | 'reproduced' | 'smaller-than-reported' | 'larger-than-reported' | 'contradicted' | 'not-shown' | 'not-measured';
export type Verdict = TestVerdict | 'host-specific' | 'cannot-test' | 'unverified';
/** the verdicts that decide a claim one way or the other */
export const DECIDED: readonly TestVerdict[] = ['confirmed', 'reproduced', 'smaller-than-reported', 'larger-than-reported', 'contradicted'];

export const VERDICT_LABEL: Record<Verdict, string> = {
  confirmed: 'confirmed',
  reproduced: 'reproduced',
  'smaller-than-reported': 'smaller than reported',
  'larger-than-reported': 'larger than reported',
  contradicted: 'contradicted',
  'not-shown': 'not shown',
  'host-specific': 'host-specific',
  'cannot-test': 'cannot be tested on this machine',
  'not-measured': 'not measured yet',
  unverified: 'unverified',
};

export const VERDICT_MEANING: Record<Verdict, string> = {
  confirmed: 'every measured comparison that decides the claim lies entirely on the claimed side of its practical threshold',
  reproduced: 'every measured comparison that decides the claim lies inside the tolerance around the size the study reports (the same tolerance either way)',
  'smaller-than-reported':
    'a measured comparison lies entirely short of the tolerance around the size the study reports, towards no change or beyond it; whether the change goes the reported way is stated apart',
  'larger-than-reported': 'a measured comparison lies entirely beyond the tolerance around the size the study reports, away from no change',
  contradicted:
    "a measured comparison lies entirely on the other side of its threshold: the data show the claim does not hold as stated (a study's quoted size that differs is smaller or larger than reported instead)",
  'not-shown': 'the data do not decide: an interval reaches both sides of the threshold, covers too little, or the figures come from different runs',
  'host-specific': 'the result depends on a CPU feature of the host that measured it (or the hosts disagree): it may not hold elsewhere',
  'cannot-test':
    'the machine lacks a CPU feature the experiment needs to test the claim (named in the reason): its figures are shown, but they cannot decide it',
  'not-measured': 'none of the comparisons that decide the claim has been measured yet (a claim decided on some of them names those not measured yet)',
  unverified: 'our harness has no experiment that can test this claim; the reason is given',
};

/** Whether a comparison of a quoted size goes the way the study reports: a rise or a fall, or no change shown either way. */
export type Direction = 'as-reported' | 'opposite' | 'unclear';
export const DIRECTION_TEXT: Record<Direction, string> = {
  'as-reported': 'in the direction reported',
  opposite: 'in the opposite direction',
  unclear: 'no direction shown (the interval includes no change)',
};

/** A CPU flag as readers know it (schema/machine.ts CPU_FLAG_NAMES, the one list). */
export const flagName = (f: CpuFlag): string => CPU_FLAG_NAMES[f];

export interface Build {
  library: Library;
  version: string;
  variant: string;
}
export function parseBuild(ref: string): Build {
  const [name, variant] = ref.split('+') as [string, string | undefined];
  const lib = LIBRARY_REF.exec(name);
  return { library: lib ? (lib[1] as Library) : 'openssl', version: lib ? lib[2]! : name, variant: variant ?? 'default' };
}
export const buildName = (b: Build) => buildLabel(b);

/** One comparison a test expands to: series a on build a against series b on build b. */
export interface Pairing {
  a: { key: string; build: Build };
  b: { key: string; build: Build };
  /** how the page names it, e.g. "3.0.2 vs 1.1.1w" or "default groups vs X25519 pinned, on 3.5.7" */
  label: string;
  /** the key of the write-up series the comparison is about (the first) */
  seriesKey: string;
  /** that series' short label */
  seriesLabel: string;
  test: ClaimTest;
}

export interface ComparisonResult extends Pairing {
  host: string;
  verdict: TestVerdict;
  /** in words, e.g. "measured in different runs" */
  reason: string;
  /** acceptance band in ratio space (a / b) */
  band: [number, number];
  /** a / b; null where no ratio exists (a missing value, a zero) */
  ratio: number | null;
  /** interval of the ratio; null for deterministic metrics */
  interval: CoverageInterval | null;
  pairing: 'paired-rounds' | 'deterministic' | null;
  pairs: number;
  runId: string | null;
  /** deterministic comparisons where one side is zero (a function that does not run on one build) */
  zero: 'a' | 'b' | 'both' | null;
  higherIsBetter: boolean | null;
  /** for a quoted size (`magnitude`) that was measured: whether the change goes the reported way */
  direction: Direction | null;
  /** builds with no result for this comparison's series on this host (verdict not-measured) */
  missing: string[];
}

export interface HostOutcome {
  host: string;
  verdict: Exclude<Verdict, 'unverified'>;
  /** for host-specific: what the data say on this host */
  underlying: TestVerdict | null;
  reason: string;
  /** every comparison, deciding and supporting (c.test.role) */
  comparisons: ComparisonResult[];
}

export interface ClaimResult {
  claim: Claim;
  verdict: Verdict;
  reason: string;
  hosts: HostOutcome[];
  /** every comparison, for hosts without data too (verdict not-measured) */
  pairings: Pairing[];
}

export interface ClaimData {
  summary: Summary | null;
  detailed: DetailedIterations | null;
  /** the run files behind the summary: where a comparison's two figures come from different runs, one of these that measured both decides */
  runs?: readonly Run[];
}

/** The acceptance band of a test, in ratio space, given whether higher values are better. */
export function band(test: ClaimTest, higherIsBetter: boolean): [number, number] {
  const t = test.threshold ?? 0;
  const up: [number, number] = [1 + t, Infinity];
  const down: [number, number] = [0, 1 / (1 + t)];
  switch (test.expect) {
    case 'higher':
      return up;
    case 'lower':
      return down;
    case 'better':
      return higherIsBetter ? up : down;
    case 'worse':
      return higherIsBetter ? down : up;
    case 'same':
      return [1 / (1 + t), 1 + t];
    case 'between':
      return [1 + test.range![0], 1 + test.range![1]];
    case 'share':
      return [test.range![0], test.range![1]];
    case 'magnitude':
      return [test.value! / (1 + test.tolerance!), test.value! * (1 + test.tolerance!)];
  }
}

/** Where an interval [low, high] lies against a band: inside it, entirely outside it, or across its edge. */
export function placeInterval(low: number, high: number, [lo, hi]: [number, number]): 'confirmed' | 'contradicted' | 'not-shown' {
  if (low >= lo && high <= hi) return 'confirmed';
  if (high < lo || low > hi) return 'contradicted';
  return 'not-shown';
}

/**
 * A placement outside a quoted size's band in the study's terms: short of it (towards no change, or past it)
 * is smaller than reported, beyond it larger; inside it, reproduced.
 */
export function magnitudeVerdict(place: 'confirmed' | 'contradicted' | 'not-shown', high: number, [lo]: [number, number], value: number): TestVerdict {
  if (place === 'confirmed') return 'reproduced';
  if (place === 'not-shown') return 'not-shown';
  const below = high < lo;
  // for a reported rise (value > 1) below the band is smaller; for a reported fall, above it (nearer 1) is
  return below === value > 1 ? 'smaller-than-reported' : 'larger-than-reported';
}

/** The verdict of a test's interval [low, high] (low = high for exact counts): a quoted size's in the study's terms, with its direction. */
export function judge(
  test: ClaimTest,
  low: number,
  high: number,
  higherIsBetter: boolean,
): { verdict: Exclude<TestVerdict, 'not-measured'>; direction: Direction | null } {
  const bandOf = band(test, higherIsBetter);
  const at = placeInterval(low, high, bandOf);
  if (test.expect !== 'magnitude') return { verdict: at, direction: null };
  return { verdict: magnitudeVerdict(at, high, bandOf, test.value!) as Exclude<TestVerdict, 'not-measured'>, direction: directionOf(low, high, test.value!) };
}

/** The direction of a measured change [low, high] against a reported ratio: both above 1, both below, or unclear. */
export function directionOf(low: number, high: number, value: number): Direction {
  if (low > 1) return value > 1 ? 'as-reported' : 'opposite';
  if (high < 1) return value < 1 ? 'as-reported' : 'opposite';
  return 'unclear';
}

/** Expand a test into its comparisons, naming each with the series' short labels. */
export function pairings(test: ClaimTest, series: readonly WriteupSeries[]): Pairing[] {
  const resolve = (ref: string): WriteupSeries => {
    const s = series.find((x) => x.id === ref || x.key === ref);
    if (!s) throw new Error(`claim test refers to "${ref}", which is not a series of this write-up`);
    return s;
  };
  const name = (s: WriteupSeries) => s.label ?? s.id ?? s.key;
  if (!Array.isArray(test.series)) {
    const s = resolve(test.series);
    const [a, b] = test.builds.map(parseBuild) as [Build, Build];
    return [
      { a: { key: s.key, build: a }, b: { key: s.key, build: b }, label: `${buildName(a)} vs ${buildName(b)}`, seriesKey: s.key, seriesLabel: name(s), test },
    ];
  }
  const [sa, sb] = test.series.map(resolve) as [WriteupSeries, WriteupSeries];
  return test.builds.map((ref) => {
    const build = parseBuild(ref);
    return {
      a: { key: sa.key, build },
      b: { key: sb.key, build },
      label: `${name(sa)} vs ${name(sb)}, on ${buildName(build)}`,
      seriesKey: sa.key,
      seriesLabel: name(sa),
      test,
    };
  });
}

// Indexes are built once per data file (pages evaluate many claims against the same data).
const entryIndexes = new WeakMap<Summary, Map<string, SummaryEntry>>();
const roundIndexes = new WeakMap<DetailedIterations, Map<string, { runId: string; rounds: Map<number, number[]> }>>();
const entryId = (host: string, key: string, b: Build) => `${host}\u0000${b.library}\u0000${b.version}\u0000${b.variant}\u0000${key}`;

function entryIndex(summary: Summary): Map<string, SummaryEntry> {
  let m = entryIndexes.get(summary);
  if (!m) {
    m = new Map(summary.entries.map((e) => [entryId(e.host, e.key, e), e]));
    entryIndexes.set(summary, m);
  }
  return m;
}

function roundIndex(detailed: DetailedIterations): Map<string, { runId: string; rounds: Map<number, number[]> }> {
  let m = roundIndexes.get(detailed);
  if (!m) {
    m = new Map();
    for (const [runId, host, buildId, , , key, rounds, values] of detailed.rows) {
      // by build id: the rows name no library, and two libraries may number a release alike
      m.set(`${runId}\u0000${host}\u0000${buildId}\u0000${key}`, { runId, rounds: valuesByRound(rounds, values) });
    }
    roundIndexes.set(detailed, m);
  }
  return m;
}

/** One side of a comparison as one run measured it: from summary.json (and its rounds) or from a run file. */
interface Side {
  runId: string;
  unit: string;
  higherIsBetter: boolean;
  comparability: SummaryEntry['comparability'];
  library: Library;
  version: string;
  variant: string;
  key: string;
  deterministic: boolean;
  median: number;
  /** measured values by round; null where the per-round values are not at hand */
  rounds: RoundValues | null;
}

/**
 * The measured values by round behind a summary entry (detailed-iterations.json), found through the build
 * ids of its host in summary.builds; null where the file or the row is not at hand. Used by the claims and
 * by the machines page, so both pair the same values.
 */
export function entryRounds(e: SummaryEntry, summary: Pick<Summary, 'builds'>, detailed: DetailedIterations | null): Map<number, number[]> | null {
  if (!detailed) return null;
  const rounds = roundIndex(detailed);
  const found = summary.builds
    .filter((x) => x.host === e.host && x.library === e.library && x.version === e.version && x.variant === e.variant)
    .map((x) => rounds.get(`${e.runId}\u0000${e.host}\u0000${x.id}\u0000${e.key}`))
    .find((r) => r !== undefined);
  return found?.rounds ?? null;
}

function summarySide(e: SummaryEntry, summary: Summary, detailed: DetailedIterations | null): Side {
  const { runId, unit, higherIsBetter, comparability, library, version, variant, key } = e;
  return {
    runId,
    unit,
    higherIsBetter,
    comparability,
    library,
    version,
    variant,
    key,
    deterministic: Boolean(e.stats!.deterministic),
    median: e.stats!.median,
    rounds: entryRounds(e, summary, detailed),
  };
}

/** The measured series `key` of build `b` in one run, as a side; null unless the run measured it. */
function runSide(run: Run, key: string, b: Build): Side | null {
  const build = run.builds.find((x) => x.library === b.library && x.version === b.version && x.variant === b.variant);
  const s = build && run.series.find((x) => x.buildId === build.id && x.key === key);
  if (!s || s.status !== 'measured') return null;
  const rounds = measuredRounds(s);
  if (rounds.size === 0) return null;
  const { unit, higherIsBetter, comparability } = s;
  return {
    runId: run.runId,
    unit,
    higherIsBetter,
    comparability,
    library: b.library,
    version: b.version,
    variant: b.variant,
    key,
    deterministic: DETERMINISTIC_METHODS.includes(s.method),
    median: median([...rounds.values()].flat()),
    rounds,
  };
}

/**
 * Both sides from one run, when summary.json took them from two: the newest of `runs` (quiet runs behind the
 * summary) that measured both. Its figures may differ from the tables', which show each
 * series' best run; the comparison names the run it used.
 */
function sameRunSides(p: Pairing, host: string, runs: readonly Run[]): [Side, Side] | null {
  for (const run of [...runs].sort((x, y) => y.startedAt.localeCompare(x.startedAt))) {
    if (run.host.id !== host) continue;
    const a = runSide(run, p.a.key, p.a.build);
    const b = a && runSide(run, p.b.key, p.b.build);
    if (a && b) return [a, b];
  }
  return null;
}

const PLACE_WORDS: Record<Exclude<TestVerdict, 'not-measured'>, string> = {
  confirmed: 'inside the expected range',
  contradicted: 'entirely outside the expected range',
  'not-shown': 'both inside and outside the expected range',
  reproduced: 'inside the tolerance around the reported size',
  'smaller-than-reported': 'entirely short of the tolerance around the reported size',
  'larger-than-reported': 'entirely beyond the tolerance around the reported size',
};

/** A judged interval (or exact count, low = high) in the words the page and the reproduce command use. */
export function judgedWords(test: ClaimTest, verdict: Exclude<TestVerdict, 'not-measured'>, direction: Direction | null, exact: boolean): string {
  const where = exact
    ? verdict === 'confirmed'
      ? 'inside the expected range'
      : verdict === 'contradicted'
        ? 'outside the expected range'
        : PLACE_WORDS[verdict].replace('entirely ', '')
    : verdict === 'not-shown' && test.expect === 'magnitude'
      ? 'both inside and outside the tolerance around the reported size'
      : PLACE_WORDS[verdict];
  const words = exact ? `exact counts, ${where}` : `the interval ${verdict === 'not-shown' ? 'reaches' : 'lies'} ${where}`;
  return direction ? `${words}, ${DIRECTION_TEXT[direction]}` : words;
}

/**
 * Whether two figures may be compared: both comparable across versions, in one comparability group, or
 * the same series of the same build (a figure with itself over time).
 */
export function comparable(a: SummaryEntry['comparability'], b: SummaryEntry['comparability'], sameSeriesOfSameBuild: boolean): boolean {
  return (a.acrossVersions && b.acrossVersions) || (a.group !== undefined && a.group === b.group) || sameSeriesOfSameBuild;
}

/** The ratio of two exact counts (a zero side named, both zero = 1). */
export function exactRatio(a: number, b: number): { ratio: number; zero: 'a' | 'b' | 'both' | null } {
  const zero = a === 0 && b === 0 ? 'both' : b === 0 ? 'b' : a === 0 ? 'a' : null;
  return { ratio: zero === 'both' ? 1 : zero === 'b' ? Infinity : a / b, zero };
}

/** Compare one pairing on one host. */
export function compare(p: Pairing, host: string, data: ClaimData, minCoverage: number): ComparisonResult {
  const base = {
    ...p,
    host,
    band: [0, Infinity] as [number, number],
    ratio: null,
    interval: null,
    pairing: null,
    pairs: 0,
    runId: null,
    zero: null,
    higherIsBetter: null,
    direction: null,
    missing: [],
  };
  const result = (verdict: TestVerdict, reason: string, extra: Partial<ComparisonResult> = {}): ComparisonResult => ({ ...base, verdict, reason, ...extra });
  const summary = data.summary;
  if (!summary) return result('not-measured', 'there is no summary of measurements yet');
  const idx = entryIndex(summary);
  const ea = idx.get(entryId(host, p.a.key, p.a.build));
  const eb = idx.get(entryId(host, p.b.key, p.b.build));
  let a: Side;
  let b: Side;
  let note = '';
  if (!ea || !eb) {
    // the summary has no entry for a side: a run behind it may still have measured both
    const absent = [...new Set([...(ea ? [] : [p.a.build]), ...(eb ? [] : [p.b.build])].map(buildName))];
    const same = sameRunSides(p, host, data.runs ?? []);
    if (!same)
      return result('not-measured', `${absent.join(' and ')} ${absent.length > 1 ? 'have' : 'has'} no result for this series on this host yet`, {
        missing: absent,
      });
    [a, b] = same;
    note = ` (in the ${runWords(a.runId)}, which measured both; the summary has no entry for ${absent.join(' and ')})`;
  } else {
    for (const [e, bl] of [
      [ea, p.a.build],
      [eb, p.b.build],
    ] as const) {
      // unsupported or failed is an answer, not a pending measurement: it leaves the claim undecided
      if (e.status !== 'measured' || !e.stats)
        return result('not-shown', `${buildName(bl)}: ${e.status === 'measured' ? 'no measured value' : e.status}${e.reason ? ` (${e.reason})` : ''}`);
    }
    a = summarySide(ea, summary, data.detailed);
    b = summarySide(eb, summary, data.detailed);
    if (a.runId !== b.runId) {
      const same = sameRunSides(p, host, data.runs ?? []);
      if (!same) {
        const bandOf = band(p.test, a.higherIsBetter);
        return result(
          'not-shown',
          `the two figures come from different runs (the ${runWords(a.runId)} and the ${runWords(b.runId)}) and no run measured both; no ratio is computed across runs`,
          { band: bandOf, higherIsBetter: a.higherIsBetter },
        );
      }
      [a, b] = same;
      note = ` (in the ${runWords(a.runId)}, which measured both; the tables show each figure from its own best run)`;
    }
  }
  if (a.unit !== b.unit) throw new Error(`claim comparison ${p.label} compares ${a.unit} with ${b.unit}: series of different units`);
  if (a.higherIsBetter !== b.higherIsBetter) throw new Error(`claim comparison ${p.label}: the two series disagree on whether higher is better`);
  const bandOf = band(p.test, a.higherIsBetter);
  const common = { band: bandOf, higherIsBetter: a.higherIsBetter, runId: a.runId };
  const sameSeriesOfSameBuild = a.library === b.library && a.version === b.version && a.variant === b.variant && a.key === b.key;
  if (!comparable(a.comparability, b.comparability, sameSeriesOfSameBuild) && !p.test.acrossMethodChange)
    return result('not-shown', `the two figures are not comparable: ${a.comparability.reason ?? b.comparability.reason ?? 'measured differently'}`, common);
  const place = (low: number, high: number) => judge(p.test, low, high, a.higherIsBetter);
  if (a.deterministic && b.deterministic) {
    const { ratio, zero } = exactRatio(a.median, b.median);
    const { verdict, direction } = place(ratio, ratio);
    return result(verdict, judgedWords(p.test, verdict, direction, true) + note, {
      ...common,
      ratio: Number.isFinite(ratio) ? ratio : null,
      pairing: 'deterministic',
      zero,
      direction,
    });
  }
  if (!a.rounds || !b.rounds) {
    const why = data.detailed
      ? 'the per-round values behind these figures are missing'
      : 'the per-round values (detailed-iterations.json) are missing, so the rounds cannot be paired';
    return result('not-shown', why, common);
  }
  if (a.median === 0 || b.median === 0) return result('not-shown', 'a median of zero leaves no ratio', common);
  const c = compareRounds(a.rounds, b.rounds, buildName(p.b.build), false);
  if (!c || !c.interval)
    return result('not-shown', `too few rounds measured both (${c?.pairs ?? 0}) for an interval${note}`, {
      ...common,
      ratio: c?.ratio ?? null,
      pairs: c?.pairs ?? 0,
      pairing: 'paired-rounds',
    });
  const extra = { ...common, ratio: c.ratio, interval: c.interval, pairing: 'paired-rounds' as const, pairs: c.pairs };
  if (c.interval.coverage < minCoverage)
    return result(
      'not-shown',
      `the interval covers only ${(Math.floor(c.interval.coverage * 1000) / 10).toFixed(1)}% with ${c.pairs} paired rounds; a verdict needs ${Math.round(minCoverage * 100)}%${note}`,
      extra,
    );
  const { verdict, direction } = place(c.interval.low, c.interval.high);
  return result(verdict, judgedWords(p.test, verdict, direction, false) + note, { ...extra, direction });
}

/**
 * One host's verdict from its comparisons. Only deciding tests count (role: decides); supporting ones are
 * shown beside the verdict. A contradiction, or a size smaller or larger than reported, on any measured
 * comparison decides. A test over several builds is decided on the builds measured, naming the others; a
 * test with no measured comparison at all leaves the claim "not measured" (a claim of several parts is not
 * confirmed on some of them). Then indecision, then confirmation (reproduction where a size was quoted).
 */
export function decide(comparisons: readonly Pick<ComparisonResult, 'test' | 'verdict' | 'reason' | 'missing' | 'seriesLabel' | 'label'>[]): {
  verdict: TestVerdict;
  reason: string;
} {
  const deciding = comparisons.filter((c) => c.test.role !== 'supports');
  const measured = deciding.filter((c) => c.verdict !== 'not-measured');
  const pending = deciding.filter((c) => c.verdict === 'not-measured');
  if (measured.length === 0) return { verdict: 'not-measured', reason: pending[0]?.reason ?? 'nothing that decides this claim has been measured yet' };
  // name what is missing rather than let it hide what was decided: a build where the test is per build, else the series and builds
  const missingText = (cs: typeof comparisons) => {
    const perBuild = cs.every((c) => Array.isArray(c.test.series));
    const what = [...new Set(cs.map((c) => (perBuild ? c.missing.join(' and ') : `${c.seriesLabel} on ${c.missing.join(' and ')}`)))];
    return perBuild ? `${what.join(', ')} not measured yet` : `not measured yet: ${what.join(', ')}`;
  };
  const some = (v: TestVerdict) => measured.filter((c) => c.verdict === v);
  const smaller = some('smaller-than-reported');
  const larger = some('larger-than-reported');
  const unmeasuredTests = [...new Set(pending.map((c) => c.test))].filter((t) => measured.every((c) => c.test !== t));
  let verdict: TestVerdict;
  let reason: string | undefined;
  if (some('contradicted').length) verdict = 'contradicted';
  else if (smaller.length && larger.length) {
    // the reported size is missed both ways: no single verdict says that, the comparisons do
    const name = (c: (typeof comparisons)[number]) => (Array.isArray(c.test.series) ? c.label : `${c.seriesLabel}, ${c.label}`);
    verdict = 'not-shown';
    reason = `the size differs from the report both ways: smaller than reported on ${smaller.map(name).join('; ')}, larger on ${larger.map(name).join('; ')}`;
  } else if (smaller.length) verdict = 'smaller-than-reported';
  else if (larger.length) verdict = 'larger-than-reported';
  else if (unmeasuredTests.length) {
    const part = pending.filter((c) => unmeasuredTests.includes(c.test));
    return {
      verdict: 'not-measured',
      reason: `${missingText(part)}; the other comparisons are shown, but a part of the claim without any measured comparison leaves it open`,
    };
  } else if (some('not-shown').length) verdict = 'not-shown';
  else if (some('reproduced').length) verdict = 'reproduced';
  else verdict = 'confirmed';
  reason ??= measured.find((c) => c.verdict === verdict)!.reason;
  if (pending.length) reason += `; decided on ${measured.length} of ${deciding.length} comparisons; ${missingText(pending)}`;
  return { verdict, reason };
}

const isDecided = (v: Verdict | null): boolean => v !== null && (DECIDED as readonly Verdict[]).includes(v);

/** The verdict of one claim from the data: per host, then overall. */
export function evaluateClaim(claim: Claim, series: readonly WriteupSeries[], data: ClaimData): ClaimResult {
  if (claim.unverified) return { claim, verdict: 'unverified', reason: claim.unverified, hosts: [], pairings: [] };
  const all = claim.tests.flatMap((t) => pairings(t, series));
  const summary = data.summary;
  const keys = new Set(all.filter((p) => p.test.role !== 'supports').flatMap((p) => [p.a.key, p.b.key]));
  const hosts = summary ? [...new Set(summary.entries.filter((e) => keys.has(e.key)).map((e) => e.host))].sort() : [];
  if (!summary || hosts.length === 0)
    return { claim, verdict: 'not-measured', reason: 'none of the series this claim is decided on has been measured yet', hosts: [], pairings: all };
  const minCoverage = summary.statistics.minCoverageForVerdict;
  const outcomes = hosts.map((host): HostOutcome => {
    const comparisons = all.map((p) => compare(p, host, data, minCoverage));
    const { verdict: v, reason } = decide(comparisons);
    const lacking = claim.requires?.flags.filter((f) => summary.hosts.find((h) => h.id === host)?.cpuFlags[f] === false) ?? [];
    if (lacking.length && v !== 'not-measured')
      return {
        host,
        verdict: 'cannot-test',
        underlying: null,
        reason: `this machine lacks ${lacking.map(flagName).join(', ')}: ${claim.requires!.why}`,
        comparisons,
      };
    const hs = claim.hostSpecific;
    if (hs && isDecided(v)) {
      const flags = summary.hosts.find((h) => h.id === host)?.cpuFlags ?? {};
      const present = hs.flags.filter((f) => flags[f] === true);
      const unknown = hs.flags.filter((f) => flags[f] === undefined);
      if (present.length || unknown.length) {
        const why = present.length
          ? `this host has ${present.map(flagName).join(', ')}`
          : `the host record does not say whether the CPU has ${unknown.map(flagName).join(', ')}`;
        return { host, verdict: 'host-specific', underlying: v, reason: why, comparisons };
      }
      return {
        host,
        verdict: v,
        underlying: null,
        reason: `this host lacks ${hs.flags.map(flagName).join(', ')}, so the result is for the generic code path`,
        comparisons,
      };
    }
    return { host, verdict: v, underlying: null, reason, comparisons };
  });
  if (outcomes.length === 1) return { claim, verdict: outcomes[0]!.verdict, reason: outcomes[0]!.reason, hosts: outcomes, pairings: all };
  // several hosts: those with a decision must agree, else the result depends on the host
  const decided = outcomes.filter((o) => isDecided(o.verdict) || o.verdict === 'host-specific');
  const kinds = new Set(decided.map((o) => (o.verdict === 'host-specific' ? `h:${o.underlying}` : o.verdict)));
  if (decided.length && kinds.size === 1) {
    const first = decided[0]!;
    return { claim, verdict: first.verdict, reason: first.reason, hosts: outcomes, pairings: all };
  }
  if (kinds.size > 1) return { claim, verdict: 'host-specific', reason: 'the hosts that measured it disagree', hosts: outcomes, pairings: all };
  const verdict = outcomes.some((o) => o.verdict === 'not-shown')
    ? 'not-shown'
    : outcomes.some((o) => o.verdict === 'cannot-test')
      ? 'cannot-test'
      : 'not-measured';
  return { claim, verdict, reason: outcomes.find((o) => o.verdict === verdict)!.reason, hosts: outcomes, pairings: all };
}

export function evaluateClaims(w: { claims: Claim[]; series: WriteupSeries[] }, data: ClaimData): ClaimResult[] {
  return w.claims.map((c) => evaluateClaim(c, w.series, data));
}

/** How many claims got each verdict, in a fixed order, zero counts left out. */
export function tally(results: readonly { verdict: Verdict }[]): { verdict: Verdict; count: number }[] {
  const order: Verdict[] = [
    'confirmed',
    'reproduced',
    'smaller-than-reported',
    'larger-than-reported',
    'contradicted',
    'host-specific',
    'not-shown',
    'cannot-test',
    'not-measured',
    'unverified',
  ];
  return order.map((verdict) => ({ verdict, count: results.filter((r) => r.verdict === verdict).length })).filter((t) => t.count > 0);
}

/** A ratio as a signed change with up to three significant digits: 1.05 -> "+5%", 1/1.05 -> "−4.76%". */
export function changeText(ratio: number): string {
  const d = (ratio - 1) * 100;
  const mag = Number(Math.abs(d).toPrecision(3));
  return `${d < 0 ? '−' : '+'}${mag.toLocaleString('en-US')}%`;
}

/**
 * What a test expects, in words, exactly as it is decided: thresholds are symmetric in ratio, so "lower" with
 * a 5% threshold means below 1/1.05 of the second ("lower by more than 4.76%"). Large thresholds read as
 * factors ("more than 2 times the second", "less than 20% of the second"). `better`/`worse` need the metric's
 * direction; without data they are stated as written.
 */
export function expectationText(test: ClaimTest, higherIsBetter: boolean | null = null): string {
  const pct = fractionText;
  const times = (x: number) => Number(x.toPrecision(3)).toLocaleString('en-US');
  if ((test.expect === 'better' || test.expect === 'worse') && higherIsBetter === null) return `${test.expect}, by a threshold of ${pct(test.threshold!)}`;
  const [lo, hi] = band(test, higherIsBetter ?? true);
  const which = test.expect === 'better' || test.expect === 'worse' ? `${test.expect} (${hi === Infinity ? 'higher' : 'lower'})` : null;
  switch (test.expect === 'better' || test.expect === 'worse' ? (hi === Infinity ? 'higher' : 'lower') : test.expect) {
    case 'higher':
      return `${which ?? 'higher'}: ${lo >= 1.5 ? `more than ${times(lo)} times the second` : `by more than ${pct(lo - 1)}`}`;
    case 'lower':
      return `${which ?? 'lower'}: ${hi <= 2 / 3 ? `less than ${pct(hi)} of the second` : `by more than ${pct(1 - hi)}`}`;
    case 'same':
      return `the same: between ${changeText(lo)} and ${changeText(hi)}`;
    case 'between':
      return `a change between ${changeText(lo)} and ${changeText(hi)}`;
    case 'magnitude': {
      const v = test.value!;
      const size = (x: number) => (x >= 1.5 ? `${times(x)} times the second` : x <= 2 / 3 ? `${pct(x)} of the second` : changeText(x));
      return `as reported, ${size(v)}, within ${pct(test.tolerance!)} either way: from ${size(lo)} to ${size(hi)}`;
    }
    default:
      return `a share between ${pct(lo)} and ${pct(hi)} of the second`;
  }
}

/** A comparison's measured result in words and numbers from the data, e.g. "+84.2% (+80.1% to +88%; covers 96.8%; 8 paired rounds)". */
/**
 * The first build's or series' change in words beside its sign (issue 28: never the sign alone): "lower
 * (worse)", "higher (better)"; "" where the data shows no change (the interval spans none) or the metric has
 * no better direction.
 */
export function changeWords(c: Pick<ComparisonResult, 'ratio' | 'interval' | 'pairing' | 'higherIsBetter'>): string {
  if (c.ratio === null || c.ratio === 1) return '';
  const shown = c.pairing === 'deterministic' || (c.interval !== null && (c.interval.low > 1 || c.interval.high < 1));
  if (!shown) return '';
  const dir = c.ratio > 1 ? 'higher' : 'lower';
  return c.higherIsBetter === null ? dir : `${dir} (${c.ratio > 1 === c.higherIsBetter ? 'better' : 'worse'})`;
}

export function resultText(c: ComparisonResult): string {
  const share = c.test.expect === 'share';
  const value = (r: number) => (share ? `${Number((r * 100).toPrecision(3)).toLocaleString('en-US')}%` : changeText(r));
  if (c.zero === 'both') return 'both zero (exact counts)';
  if (c.zero === 'b') return 'a positive count against zero (exact counts)';
  if (c.zero === 'a') return 'zero against a positive count (exact counts)';
  if (c.ratio === null) return '';
  const of = share ? ' of the second' : ` ${changeWords(c)}`.trimEnd();
  if (c.pairing === 'deterministic') return `${value(c.ratio)}${of} (exact counts)`;
  const iv = c.interval;
  if (!iv) return `${value(c.ratio)}${of}`;
  return `${value(c.ratio)}${of} (${value(iv.low)} to ${value(iv.high)}; ${iv.kind === 'range' ? 'range, ' : ''}covers ${coverageText(iv.coverage)}; ${c.pairs} paired rounds)`;
}
