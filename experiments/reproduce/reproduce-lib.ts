// `npm run reproduce -- <write-up>`: what a write-up's claims need measured, and when the measuring may
// stop. Pure functions and one small state machine; the command (reproduce.ts) wires them to the run loop.
//
// What to measure. The write-up's frontmatter (validated with WriteupFrontmatter) names its claims; each
// claim's tests expand into comparisons (site/src/lib/claims/compare.ts pairings): series key a on build a against series key
// b on build b. The builds are the comparisons' builds; the tasks are those that declare (Task.produces)
// a key some comparison needs, from the benchmarks that have such tasks. A benchmark whose tasks declare
// nothing (speed: its series come from what `openssl speed` prints) is run whole, and only when a needed
// key names it and no declaring task produces the key.
//
// When to stop: the sequential paired design of the hypothesis test (analysis/sequential.ts),
// reused, not copied. Every build runs every wanted task once per round, in an order that rotates each
// round (the run loop's roundOrder); a comparison's evidence is the ratio of its two values in the same
// round. The warm-up round times a round; from it and the time budget the run declares, before the first
// measured round, at which measured rounds it will look (lookSchedule) and how much of alpha = 0.05 each
// look spends (linear spending). At a look, each undecided CPU-time comparison gets a t interval on its
// paired log ratios at confidence 1 - alpha_k (ratioInterval), placed against the claim's band exactly
// as the site judges its intervals (claims/judge.ts judge: inside is confirmed, or reproduced for a quoted size;
// entirely outside is contradicted, or smaller/larger than reported); a decision stays decided, and a
// claim is decided from its comparisons as the site decides it (claims/evaluate.ts decide). The run stops when every CPU-time comparison is decided,
// at the last look, or when the next round would overrun the budget (then one final look spends the
// alpha left, as sequential.ts's finalLook does). By the union bound each comparison's chance of a wrong
// decision stays at most alpha however many looks were taken. Deterministic series (instruction counts,
// bytes: the run loop measures them once, in its deterministic phase before the rounds, or reuses them)
// compare exactly.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { WriteupFrontmatter } from '../../site/src/lib/writeups.ts';
import { buildName, flagName, type Build, type Claim } from '../../site/src/lib/claims/schema.ts';
import { VERDICT_LABEL, judgedWords, type TestVerdict, type Verdict } from '../../site/src/lib/claims/verdicts.ts';
import { comparable, exactRatio, judge } from '../../site/src/lib/claims/judge.ts';
import { pairings, type Pairing } from '../../site/src/lib/claims/compare.ts';
import { decide } from '../../site/src/lib/claims/evaluate.ts';
import { changeText, expectationText } from '../../site/src/lib/claims/words.ts';
import { describeIssues, type Build as BuildRecord, type CpuFlags, type RunMode } from '../../schema/index.ts';
import type { Benchmark, BuildUnderTest, SeriesSpec, Task } from '../../runner/benchmark.ts';
import { measures, seriesKey } from '../../runner/benchmark.ts';
import type { JournalEntry } from '../../runner/run/journal.ts';
import { alphaAt, lookSchedule, ratioInterval, type LookSchedule } from '../../analysis/sequential.ts';
import { DETERMINISTIC_METHODS, median } from '../../analysis/stats.ts';
import { resolveBuildSpec } from '../../catalogue/index.ts';

// ------------------------------------------------------------------ the write-up

/** A write-up's frontmatter, parsed as YAML and validated as the site validates it. */
export function parseWriteup(text: string, where: string): WriteupFrontmatter {
  const m = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!m) throw new Error(`${where}: no frontmatter (a block between two lines of ---)`);
  const parsed = WriteupFrontmatter.safeParse(parseYaml(m[1]!));
  if (!parsed.success) throw new Error(`${where}:\n${describeIssues(parsed.error, 5)}`);
  return parsed.data;
}

export const readWriteup = (path: string): WriteupFrontmatter => parseWriteup(readFileSync(path, 'utf8'), path);

/** The command a write-up's `reproduce` field gives. */
export const reproduceCommand = (slug: string): string => `npm run reproduce -- ${slug}`;

export interface Needs {
  /** every comparison of every tested claim, with its claim */
  comparisons: { claim: Claim; pairing: Pairing }[];
  /** the series keys they compare */
  keys: Set<string>;
  /** the builds they compare, in the order the claims name them */
  builds: Build[];
}

const buildId = (b: Build) => `${b.library}\u0000${b.version}\u0000${b.variant}`;

export function needsOf(w: Pick<WriteupFrontmatter, 'claims' | 'series'>): Needs {
  const comparisons = w.claims.flatMap((claim) => claim.tests.flatMap((t) => pairings(t, w.series).map((pairing) => ({ claim, pairing }))));
  const keys = new Set(comparisons.flatMap(({ pairing: p }) => [p.a.key, p.b.key]));
  const builds = new Map<string, Build>();
  for (const { pairing: p } of comparisons) for (const b of [p.a.build, p.b.build]) builds.set(buildId(b), b);
  return { comparisons, keys, builds: [...builds.values()] };
}

/** A claim's build as `npm run bench` names it: 3.5.7, 3.5.7:no-ml-kem, aws-lc@5.12.0, wolfssl@5.9.4:no-perf-options. */
export function buildSpec(b: Build): string {
  const name = b.library === 'openssl' ? b.version : `${b.library}@${b.version}`;
  return b.variant === 'default' ? name : `${name}:${b.variant}`;
}

// ------------------------------------------------------------------ which tasks

export interface TaskPlan {
  mode: RunMode;
  /** benchmark ids, in the registry's order */
  benchmarks: string[];
  /** keys produced by no declaring task, measured by running a benchmark whose tasks declare nothing */
  undeclared: string[];
  /** keys nothing here can produce */
  missing: string[];
  /** some wanted task is timed (not once per run): rounds and looks are needed */
  timed: boolean;
  /** wanted tasks per benchmark and mode, for the record */
  tasks: number;
}

/** The catalogue's release series of a build (1.1.1, 3.5), or its first two numbers when not catalogued. */
function seriesOf(b: Build): string {
  try {
    return resolveBuildSpec(buildSpec({ ...b, variant: 'default' })).version.series;
  } catch {
    return b.version.split('.').slice(0, 2).join('.');
  }
}

/** A build record good enough for Benchmark.tasks() (which only builds closures): planning happens before the builds. */
export function standIn(b: Build): BuildUnderTest {
  return {
    prefix: '/nonexistent',
    record: { id: buildId(b), library: b.library, version: b.version, variant: b.variant, series: seriesOf(b) } as BuildRecord,
  };
}

/**
 * The benchmarks and mode that produce `keys` on `builds`: quick mode (shorter tasks, so more rounds in the
 * budget) when its tasks declare every key, else full mode when it declares more.
 */
export function planTasks(keys: ReadonlySet<string>, builds: readonly Build[], registry: readonly Benchmark[]): TaskPlan {
  const plans = (['quick', 'full'] as const).map((mode) => {
    const declared = new Set<string>();
    const perBench = registry.map((bench) => {
      const tasks: Task[] = builds.filter((b) => measures(bench, b.library)).flatMap((b) => bench.tasks(standIn(b), mode));
      for (const t of tasks) for (const spec of t.produces ?? []) declared.add(seriesKey(spec));
      return { bench, tasks };
    });
    const undeclared = [...keys].filter((k) => !declared.has(k));
    const chosen = new Set<string>();
    const missing: string[] = [];
    let timed = false;
    let count = 0;
    for (const { bench, tasks } of perBench) {
      const wanted = tasks.filter((t) => t.produces?.some((spec) => keys.has(seriesKey(spec))));
      // a benchmark whose tasks declare nothing runs when a key names it and nothing declares the key
      const blind = tasks.filter((t) => t.produces === undefined);
      const blindNeeded = blind.length > 0 && undeclared.some((k) => k.split('/')[0] === bench.id);
      const run = [...wanted, ...(blindNeeded ? blind : [])];
      if (!run.length) continue;
      chosen.add(bench.id);
      count += new Set(run.map((t) => t.id)).size;
      if (run.some((t) => !t.oncePerRun)) timed = true;
    }
    for (const k of undeclared)
      if (!perBench.some(({ bench, tasks }) => k.split('/')[0] === bench.id && tasks.some((t) => t.produces === undefined))) missing.push(k);
    return {
      mode,
      benchmarks: registry.filter((b) => chosen.has(b.id)).map((b) => b.id),
      undeclared: undeclared.filter((k) => !missing.includes(k)),
      missing,
      timed,
      tasks: count,
    } satisfies TaskPlan;
  });
  const [quick, full] = plans as [TaskPlan, TaskPlan];
  return quick.undeclared.length + quick.missing.length === 0 || full.undeclared.length + full.missing.length >= quick.undeclared.length + quick.missing.length
    ? quick
    : full;
}

/** The run loop's task filter for these keys. */
export const wantedKeys = (keys: ReadonlySet<string>) => (key: string) => keys.has(key);

// ------------------------------------------------------------------ measured values, from the journal

export interface SideData {
  spec: SeriesSpec;
  /** measured (not warm-up) values by round */
  rounds: Map<number, number[]>;
  /** why the series has no value (unsupported or failed), when it has none */
  failure: string | null;
}

/** Values of the journal by build record id and series key; warm-up rounds are left out. */
export function collect(entries: readonly JournalEntry[], warmupRounds: number): Map<string, SideData> {
  const out = new Map<string, SideData>();
  for (const e of entries) {
    if (e.round < warmupRounds) continue;
    for (const o of e.outcomes ?? []) {
      const id = `${e.buildId}\u0000${seriesKey(o.spec)}`;
      const side = out.get(id) ?? { spec: o.spec, rounds: new Map(), failure: null };
      if ('value' in o) side.rounds.set(e.round, [...(side.rounds.get(e.round) ?? []), o.value]);
      else if (side.rounds.size === 0) side.failure = `${o.status}: ${o.reason}`;
      out.set(id, side);
    }
  }
  return out;
}

// ------------------------------------------------------------------ comparisons and their looks

export interface ComparisonState {
  claim: Claim;
  pairing: Pairing;
  /** what the series are, once measured */
  kind: 'cpu-time' | 'deterministic' | null;
  verdict: TestVerdict;
  /** decided for good: a deterministic comparison, or a CPU-time one whose interval fell inside or outside at a look */
  decided: boolean;
  reason: string;
  ratio: number | null;
  /** the t interval of the look that decided it (or of the last look) */
  interval: { low: number; high: number; confidence: number; alpha: number } | null;
  pairs: number;
  /** measured round of the deciding (or last) look */
  round: number | null;
  higherIsBetter: boolean | null;
}

export interface LookTaken {
  round: number;
  alpha: number;
  final: boolean;
  /** CPU-time comparisons still undecided after it */
  undecided: number;
}

export type StopReason = 'all-decided' | 'last-look' | 'budget' | 'deterministic-only';

/** The builds' record ids, found by library, version and variant. */
export type BuildIds = (b: Build) => string | undefined;

/**
 * The comparisons of one reproduction and what the data say about them: deterministic ones at once, the
 * CPU-time ones only at looks.
 */
export class Reproduction {
  readonly states: ComparisonState[];
  readonly looks: LookTaken[] = [];
  private readonly idOf: BuildIds;
  constructor(comparisons: readonly { claim: Claim; pairing: Pairing }[], idOf: BuildIds) {
    this.idOf = idOf;
    this.states = comparisons.map(({ claim, pairing }) => ({
      claim,
      pairing,
      kind: null,
      verdict: 'not-measured',
      decided: false,
      reason: 'not measured yet',
      ratio: null,
      interval: null,
      pairs: 0,
      round: null,
      higherIsBetter: null,
    }));
  }

  private sides(s: ComparisonState, data: ReadonlyMap<string, SideData>): [SideData | undefined, SideData | undefined] {
    const side = (x: { key: string; build: Build }) => {
      const id = this.idOf(x.build);
      return id === undefined ? undefined : data.get(`${id}\u0000${x.key}`);
    };
    return [side(s.pairing.a), side(s.pairing.b)];
  }

  /**
   * After a measured round: settle what needs no look (deterministic comparisons, sides that cannot be
   * measured). `firstMeasured` says the once-per-run tasks have run, so a missing side stays missing.
   */
  update(data: ReadonlyMap<string, SideData>, firstMeasured: boolean): void {
    for (const s of this.states) {
      if (s.decided) continue;
      const [a, b] = this.sides(s, data);
      for (const [side, ref] of [
        [a, s.pairing.a],
        [b, s.pairing.b],
      ] as const) {
        if (side?.rounds.size) continue;
        if (side?.failure) Object.assign(s, { verdict: 'not-shown', decided: true, reason: `${buildName(ref.build)}: ${side.failure.slice(0, 300)}` });
        else if (firstMeasured) Object.assign(s, { verdict: 'not-measured', decided: true, reason: `${buildName(ref.build)} measured no ${ref.key} here` });
      }
      if (s.decided || !a?.rounds.size || !b?.rounds.size) continue;
      if (a.spec.unit !== b.spec.unit || a.spec.higherIsBetter !== b.spec.higherIsBetter) {
        Object.assign(s, { verdict: 'not-shown', decided: true, reason: 'the two series differ in unit or direction' });
        continue;
      }
      const sameSeriesOfSameBuild = seriesKey(a.spec) === seriesKey(b.spec) && buildId(s.pairing.a.build) === buildId(s.pairing.b.build);
      s.higherIsBetter = a.spec.higherIsBetter;
      if (!comparable(a.spec.comparability, b.spec.comparability, sameSeriesOfSameBuild) && !s.pairing.test.acrossMethodChange) {
        Object.assign(s, {
          verdict: 'not-shown',
          decided: true,
          reason: `the two figures are not comparable: ${a.spec.comparability.reason ?? b.spec.comparability.reason ?? 'measured differently'}`,
        });
        continue;
      }
      const deterministic = DETERMINISTIC_METHODS.includes(a.spec.method) && DETERMINISTIC_METHODS.includes(b.spec.method);
      s.kind = deterministic ? 'deterministic' : 'cpu-time';
      if (!deterministic) continue;
      const { ratio } = exactRatio(median([...a.rounds.values()].flat()), median([...b.rounds.values()].flat()));
      const { verdict, direction } = judge(s.pairing.test, ratio, ratio, a.spec.higherIsBetter);
      Object.assign(s, { verdict, decided: true, ratio, pairs: 0, reason: judgedWords(s.pairing.test, verdict, direction, true) });
    }
  }

  /** CPU-time comparisons not decided yet (those whose series are not known yet count as undecided). */
  undecided(): ComparisonState[] {
    return this.states.filter((s) => !s.decided && s.kind !== 'deterministic');
  }

  /** A look after measured round `round` (1-based), spending `alpha`. */
  look(round: number, alpha: number, final: boolean, data: ReadonlyMap<string, SideData>): LookTaken {
    for (const s of this.undecided()) {
      const [a, b] = this.sides(s, data);
      if (!a || !b || s.kind !== 'cpu-time') continue;
      const common = [...a.rounds.keys()].filter((r) => b.rounds.has(r)).sort((x, y) => x - y);
      const ratios = common.map((r) => median(a.rounds.get(r)!) / median(b.rounds.get(r)!));
      const est = ratioInterval(ratios, alpha);
      s.pairs = ratios.length;
      s.round = round;
      if (!est) {
        Object.assign(s, { verdict: 'not-shown', reason: `${ratios.length} paired rounds: an interval needs 3` });
        continue;
      }
      const { verdict, direction } = judge(s.pairing.test, est.low, est.high, a.spec.higherIsBetter);
      const reason = judgedWords(s.pairing.test, verdict, direction, false);
      Object.assign(s, {
        verdict,
        decided: verdict !== 'not-shown',
        ratio: est.ratio,
        interval: { low: est.low, high: est.high, confidence: est.confidence, alpha },
        reason,
      });
    }
    const taken = { round, alpha, final, undecided: this.undecided().length };
    this.looks.push(taken);
    return taken;
  }

  /** Every CPU-time comparison still open is left undecided: say so. */
  close(why: string): void {
    for (const s of this.undecided()) if (s.verdict === 'not-measured' && s.kind === null) s.reason = why;
  }
}

// ------------------------------------------------------------------ the stopping rule

export const FIRST_LOOK = 6;
export const MAX_ROUNDS = 1000;

export interface StopperOptions {
  warmupRounds: number;
  /** seconds from `start` the measuring may take */
  budgetSeconds: number;
  /** seconds since some fixed point (injected so tests can drive the clock), for the deadline */
  now: () => number;
  /** when the budget started, on the same clock */
  start: number;
  /** rounds are needed at all (some wanted task is timed); without, one measured round decides */
  timed: boolean;
  /** told when the schedule is declared (after the warm-up) */
  declared?: (schedule: LookSchedule, roundSeconds: number) => void;
  looked?: (look: LookTaken, r: Reproduction) => void;
}

/**
 * The run loop's afterRound for a reproduction: declares the looks after the warm-up round, looks when
 * the schedule says, and stops when nothing is left to decide, at the last look, or at the budget.
 */
export class Stopper {
  schedule: LookSchedule | null = null;
  warmupSeconds: number | null = null;
  stoppedBecause: StopReason | null = null;
  measuredRounds = 0;
  private next = 0;
  readonly test: Reproduction;
  private readonly o: StopperOptions;
  constructor(test: Reproduction, o: StopperOptions) {
    this.test = test;
    this.o = o;
  }

  get deadline(): number {
    return this.o.start + this.o.budgetSeconds;
  }

  get alphaSpent(): number {
    return this.test.looks.reduce((a, l) => a + l.alpha, 0);
  }

  /** After round `round` (warm-up included) of `seconds`: true to stop after it. */
  afterRound = (round: number, entries: readonly JournalEntry[], seconds: number): boolean => {
    const t = this.o.now();
    if (round < this.o.warmupRounds) {
      this.warmupSeconds = seconds;
      if (round === this.o.warmupRounds - 1 && this.o.timed) {
        const fits = Math.floor((this.deadline - t) / Math.max(seconds, 1e-3));
        const max = Math.min(MAX_ROUNDS, Math.max(3, fits));
        this.schedule = lookSchedule(max, Math.min(FIRST_LOOK, max));
        this.o.declared?.(this.schedule, seconds);
      }
      return false;
    }
    const m = round - this.o.warmupRounds + 1;
    this.measuredRounds = m;
    const data = collect(entries, this.o.warmupRounds);
    this.test.update(data, m >= 1);
    if (!this.o.timed || !this.schedule) return this.stop('deterministic-only');
    if (this.test.undecided().length === 0) return this.stop('all-decided');
    if (this.schedule.looks[this.next] === m) {
      const look = this.test.look(m, alphaAt(this.schedule, this.next, false), false, data);
      this.next++;
      this.o.looked?.(look, this.test);
      if (look.undecided === 0) return this.stop('all-decided');
      if (this.next >= this.schedule.looks.length) return this.stop('last-look');
    }
    if (t + seconds > this.deadline) {
      // the budget ends before the next look: one last look with all the alpha not yet spent (when the
      // clock, never the data, ends the run, the union bound still holds)
      const left = alphaAt(this.schedule, this.next, true);
      this.next = this.schedule.looks.length;
      if (left > 1e-12 && m >= 3) {
        const look = this.test.look(m, left, true, data);
        this.o.looked?.(look, this.test);
      }
      return this.stop('budget');
    }
    return false;
  };

  private stop(why: StopReason): true {
    this.stoppedBecause = why;
    return true;
  }

  /** The stopping record, in words, for the run's notes and the terminal. */
  record(budgetMinutes: number): string {
    const s = this.schedule;
    const looks = this.test.looks.map(
      (l) => `after round ${l.round} alpha ${l.alpha.toPrecision(3)}${l.final ? ' (final, all alpha left)' : ''}, ${l.undecided} undecided`,
    );
    const why: Record<StopReason, string> = {
      'all-decided': 'every CPU-time comparison was decided',
      'last-look': 'the last declared look was taken',
      budget: `the ${budgetMinutes}-minute budget would have ended before the next round`,
      'deterministic-only': 'the claims compare deterministic series only (exact counts, measured once)',
    };
    return [
      s
        ? `looks declared after the warm-up round (${this.warmupSeconds?.toFixed(1)} s) for the ${budgetMinutes}-minute budget: after measured rounds ${s.looks.join(', ')}, alpha ${s.alpha.map((a) => a.toPrecision(3)).join(', ')} (linear spending of 0.05, union bound)`
        : 'no looks: nothing timed to decide',
      `looks taken: ${looks.length ? looks.join('; ') : 'none'}; alpha spent ${this.alphaSpent.toPrecision(3)}`,
      `stopped after ${this.measuredRounds} measured round(s) because ${this.stoppedBecause ? why[this.stoppedBecause] : 'the run ended'}`,
    ].join('; ');
  }
}

// ------------------------------------------------------------------ verdicts, in words

export interface ClaimOutcome {
  claim: Claim;
  verdict: Verdict;
  reason: string;
  comparisons: ComparisonState[];
}

/** A claim's verdict on this machine: its comparisons decided as the site decides them (claims/evaluate.ts decide), then its CPU-feature conditions. */
export function claimOutcomes(claims: readonly Claim[], r: Reproduction, cpuFlags: Partial<CpuFlags>): ClaimOutcome[] {
  return claims.map((claim): ClaimOutcome => {
    if (claim.unverified) return { claim, verdict: 'unverified', reason: claim.unverified, comparisons: [] };
    const comparisons = r.states.filter((s) => s.claim === claim);
    const { verdict: v, reason } = decide(
      comparisons.map((c) => ({
        test: c.pairing.test,
        verdict: c.verdict,
        reason: c.reason,
        label: c.pairing.label,
        seriesLabel: c.pairing.seriesLabel,
        missing: c.verdict === 'not-measured' ? [c.pairing.a.build, c.pairing.b.build].map(buildName) : [],
      })),
    );
    const lacking = claim.requires?.flags.filter((f) => cpuFlags[f] === false) ?? [];
    if (lacking.length && v !== 'not-measured')
      return { claim, verdict: 'cannot-test', reason: `this machine lacks ${lacking.map(flagName).join(', ')}: ${claim.requires!.why}`, comparisons };
    const hs = claim.hostSpecific;
    if (hs && (v === 'confirmed' || v === 'contradicted')) {
      const present = hs.flags.filter((f) => cpuFlags[f] !== false);
      if (present.length)
        return {
          claim,
          verdict: 'host-specific',
          reason: `${VERDICT_LABEL[v]} here, and this machine has (or may have) ${present.map(flagName).join(', ')}: ${hs.why}`,
          comparisons,
        };
    }
    return { claim, verdict: v, reason, comparisons };
  });
}

const pct = (x: number) => `${Number((x * 100).toPrecision(3))}%`;

/** One comparison in a line: what was expected, what was measured, how sure, and the verdict. */
export function comparisonLine(c: ComparisonState): string {
  const expected = expectationText(c.pairing.test, c.higherIsBetter);
  const share = c.pairing.test.expect === 'share';
  const value = (x: number) => (share ? `${pct(x)} of the second` : changeText(x));
  let measured = 'no value';
  if (c.kind === 'deterministic' && c.ratio !== null) measured = `${Number.isFinite(c.ratio) ? value(c.ratio) : 'against zero'} (exact counts)`;
  else if (c.ratio !== null && c.interval)
    measured = `${value(c.ratio)} (${value(c.interval.low)} to ${value(c.interval.high)}; ${pct(c.interval.confidence)} t interval, alpha ${c.interval.alpha.toPrecision(3)}; ${c.pairs} paired rounds${c.decided ? `, decided at round ${c.round}` : `, undecided at round ${c.round}`})`;
  else if (c.pairs) measured = `${c.pairs} paired rounds`;
  return `${c.pairing.label}: expected ${expected}; measured ${measured} -> ${VERDICT_LABEL[c.verdict]} (${c.reason})`;
}

/** The report a reader sees: one block per claim, one line per comparison. */
export function verdictReport(slug: string, host: string, outcomes: readonly ClaimOutcome[]): string[] {
  const lines = [`verdicts of write-up ${slug} on ${host}:`];
  for (const o of outcomes) {
    lines.push(
      `  ${o.claim.id}${o.claim.by === 'ours' ? '' : ` (${o.claim.by})`}: ${VERDICT_LABEL[o.verdict].toUpperCase()}${o.reason ? ` (${o.reason.slice(0, 300)})` : ''}`,
    );
    for (const c of o.comparisons) lines.push(`    - ${comparisonLine(c)}`);
  }
  const counts = new Map<Verdict, number>();
  for (const o of outcomes) counts.set(o.verdict, (counts.get(o.verdict) ?? 0) + 1);
  lines.push(`  ${[...counts].map(([v, n]) => `${n} ${VERDICT_LABEL[v]}`).join(', ')}`);
  return lines;
}
