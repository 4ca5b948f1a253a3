// Measure until decided (issue 32, item 1): instead of a fixed number of rounds, a run keeps measuring
// while some timed series is undecided, up to a round budget, with the sequential design of the
// hypothesis test (analysis/sequential.ts, reused): before the first round it declares its
// looks (after minRounds, growing by about 1.3x, ending at maxRounds) and spends alpha = 0.05 over them
// (linear spending, union bound). At a look, a timed series of a build is
//   - decided when each of its paired comparisons in this run, with the previous release and with 1.1.1w
//     where the run measured them (catalogue comparedWith, as the summary compares), is decided: the t
//     interval of its per-round ratios at confidence 1 - alpha_k lies above 1 or below 1 (a difference,
//     with its direction), or inside 1 ± EQUIVALENCE_MARGIN (no difference beyond 5%); a comparison
//     decided at a look stays decided. A series with nothing to compare with is decided at once;
//   - precise when the interval of its own per-round values at the same confidence has a relative
//     half-width below the precision target;
//   - at the last look (the budget), whatever is still open stops for the budget. With a time budget
//     (--budget-minutes, night-plan.ts) a run whose next round would end after it takes one last look
//     spending all the alpha left (finalLook), as sequential.ts does when the clock ends a run; once
//     the minimum rounds are measured, the tasks that still fit go on and only the others take that
//     last look (stopTasks).
// A wrong "difference" needs an interval that misses the true ratio, so each comparison's chance of one
// is at most alpha however many looks are taken (sequential.ts says why). A task stops being run after
// the look at which every series it measures is settled and no open series is compared with one of them;
// the rest keep their interleaving. The run stops when no task is left, or at the budget. Everything is a
// function of the journal up to the look's round, so a resumed run takes the same decisions.
import type { Build, Series } from '../schema/index.ts';
import { seriesKey } from './benchmark.ts';
import type { JournalEntry } from './run/journal.ts';
import { alphaAt, lookSchedule, ratioInterval, type LookSchedule } from '../analysis/sequential.ts';
import { EQUIVALENCE_MARGIN } from '../analysis/verdict.ts';
import { median } from '../analysis/stats.ts';
import { comparedWith } from '../catalogue/index.ts';

/** Relative half-width of a series' interval below which it is precise enough (--precision). */
export const DEFAULT_PRECISION = 0.02;

export type StopReason = NonNullable<Series['stopped']>['reason'];

export interface UntilDecidedOptions {
  warmupRounds: number;
  minRounds: number;
  maxRounds: number;
  precision: number;
  builds: readonly Build[];
}

interface SeriesData {
  buildId: string;
  key: string;
  /** benchmark|task */
  task: string;
  acrossVersions: boolean;
  /** measured round (1-based) -> values */
  rounds: Map<number, number[]>;
}

export const stoppingSchedule = (minRounds: number, maxRounds: number): LookSchedule => lookSchedule(maxRounds, Math.min(minRounds, maxRounds));

/** What an interval of a ratio decides: a difference either way, or none beyond the margin (null: nothing yet). */
export function decides(low: number, high: number, margin = EQUIVALENCE_MARGIN): 'higher' | 'lower' | 'same' | null {
  if (low > 1) return 'higher';
  if (high < 1) return 'lower';
  return low >= 1 / (1 + margin) && high <= 1 + margin ? 'same' : null;
}

export class UntilDecided {
  readonly schedule: LookSchedule;
  /** buildId|seriesKey -> why it stopped and at which look */
  readonly settled = new Map<string, { reason: StopReason; look: number }>();
  /** buildId|seriesKey|reference buildId -> the look that decided it, and how: the series is higher, lower or the same (within the margin) */
  readonly comparisons = new Map<string, { look: number; verdict: 'higher' | 'lower' | 'same' }>();
  /** bench|task|buildId no longer run */
  private readonly dropped = new Set<string>();
  private readonly o: UntilDecidedOptions;
  private lastLook = 0;
  /** scheduled looks taken */
  private next = 0;

  constructor(o: UntilDecidedOptions) {
    this.o = o;
    this.schedule = stoppingSchedule(o.minRounds, o.maxRounds);
  }

  /** The task is no longer run (every series it measures is settled at an earlier look). */
  skip(buildId: string, benchmark: string, task: string): boolean {
    return this.dropped.has(`${benchmark}|${task}|${buildId}`);
  }

  /** After round `round` (0-based, warm-up included) with the journal: true when the run should stop. */
  afterRound(round: number, entries: readonly JournalEntry[]): boolean {
    const m = round - this.o.warmupRounds + 1;
    if (m < 1 || m <= this.lastLook) return false;
    const k = this.schedule.looks.indexOf(m);
    if (k < 0) return false;
    this.next = k + 1;
    return this.look(m, alphaAt(this.schedule, k, false), k === this.schedule.looks.length - 1, entries);
  }

  /**
   * The time budget ends before the next round: one last look spending all the alpha not yet spent (the
   * clock, never the data, ends the run, so the bound holds), and whatever is open stops for the budget.
   */
  finalLook(round: number, entries: readonly JournalEntry[]): void {
    const m = round - this.o.warmupRounds + 1;
    // the scheduled look of this very round spent only its share: the last look spends the rest (union bound)
    if (m < 1 || m < this.lastLook) return;
    const alpha = alphaAt(this.schedule, this.next, true);
    this.next = this.schedule.looks.length;
    this.look(m, alpha > 1e-12 ? alpha : 0, true, entries);
  }

  /**
   * The time budget leaves room in the next round for only some of the open tasks: these tasks
   * (benchmark|task) take their last look now, spending all the alpha they have left, and whatever of
   * their series is open stops for the budget. The other tasks keep the schedule, and their last look
   * spends what is left of theirs: no comparison spends more than alpha in all.
   */
  stopTasks(round: number, entries: readonly JournalEntry[], tasks: ReadonlySet<string>): void {
    const m = round - this.o.warmupRounds + 1;
    if (m < 1 || m < this.lastLook) return;
    const alpha = alphaAt(this.schedule, this.next, true);
    this.look(m, alpha > 1e-12 ? alpha : 0, true, entries, (s) => tasks.has(s.task));
  }

  /** A look at every open series, or at those `only` picks; then the tasks no open series needs leave the rounds. */
  private look(m: number, alpha: number, last: boolean, entries: readonly JournalEntry[], only?: (s: SeriesData) => boolean): boolean {
    this.lastLook = m;
    const data = this.collect(entries, m);
    const ids = new Map(this.o.builds.map((b) => [b.id, b]));
    const open = (id: string) => !this.settled.has(id);
    for (const [id, s] of data) {
      if (!open(id) || (only && !only(s))) continue;
      const build = ids.get(s.buildId);
      let decided = true;
      for (const ref of build && s.acrossVersions ? this.references(build, s.key, data) : []) {
        const cmp = `${id}|${ref}`;
        if (this.comparisons.has(cmp)) continue;
        const other = data.get(`${ref}|${s.key}`)!;
        const common = [...s.rounds.keys()].filter((r) => other.rounds.has(r));
        const est =
          alpha > 0
            ? ratioInterval(
                common.map((r) => median(s.rounds.get(r)!) / median(other.rounds.get(r)!)),
                alpha,
              )
            : null;
        const verdict = est && decides(est.low, est.high);
        if (verdict) this.comparisons.set(cmp, { look: m, verdict });
        else decided = false;
      }
      if (decided) this.settled.set(id, { reason: 'decided', look: m });
      else if (
        alpha > 0 &&
        precise(
          [...s.rounds.values()].map((v) => median(v)),
          alpha,
          this.o.precision,
        )
      )
        this.settled.set(id, { reason: 'precise', look: m });
      else if (last) this.settled.set(id, { reason: 'budget', look: m });
    }
    // a series is still needed while it is open or an open series is compared with it
    const needed = new Set<string>();
    for (const [id, s] of data) {
      if (!open(id)) continue;
      needed.add(id);
      const build = ids.get(s.buildId);
      for (const ref of build && s.acrossVersions ? this.references(build, s.key, data) : []) needed.add(`${ref}|${s.key}`);
    }
    const tasks = new Map<string, boolean>();
    for (const [id, s] of data) {
      const t = `${s.task}|${s.buildId}`;
      tasks.set(t, (tasks.get(t) ?? false) || needed.has(id));
    }
    for (const e of entries)
      if (!e.deterministic && e.round >= this.o.warmupRounds && !tasks.has(`${e.benchmark}|${e.task}|${e.buildId}`))
        tasks.set(`${e.benchmark}|${e.task}|${e.buildId}`, false);
    for (const [t, need] of tasks) if (!need) this.dropped.add(t);
    return last || ![...tasks.values()].some(Boolean);
  }

  /** Why a series stopped and at which look, for the run file (undefined for one this design did not follow). */
  stopOf(buildId: string, key: string): { reason: StopReason; round: number } | undefined {
    const s = this.settled.get(`${buildId}|${key}`);
    return s && { reason: s.reason, round: s.look };
  }

  /** The builds a series of `build` is compared with, that measured the same key in this run. */
  private references(build: Build, key: string, data: ReadonlyMap<string, SeriesData>): string[] {
    if (build.library !== 'openssl' || build.variant !== 'default') return [];
    const peers = this.o.builds.filter((b) => b.library === 'openssl' && b.variant === 'default' && data.has(`${b.id}|${key}`));
    const { previous, baseline } = comparedWith(build, peers);
    return [...new Set([previous, baseline].flatMap((b) => (b ? [b.id] : [])))];
  }

  /** Timed values of the measured rounds up to `m`, by build and series key. */
  private collect(entries: readonly JournalEntry[], m: number): Map<string, SeriesData> {
    const out = new Map<string, SeriesData>();
    for (const e of entries) {
      const r = e.round - this.o.warmupRounds + 1;
      if (e.deterministic || r < 1 || r > m) continue;
      for (const o of e.outcomes ?? []) {
        if (!('value' in o)) continue;
        const id = `${e.buildId}|${seriesKey(o.spec)}`;
        const s = out.get(id) ?? {
          buildId: e.buildId,
          key: seriesKey(o.spec),
          task: `${e.benchmark}|${e.task}`,
          acrossVersions: o.spec.comparability.acrossVersions,
          rounds: new Map(),
        };
        s.rounds.set(r, [...(s.rounds.get(r) ?? []), o.value]);
        out.set(id, s);
      }
    }
    return out;
  }
}

/** The interval of a series' own per-round values is narrower than ±target (relative); constant values are. */
export function precise(values: readonly number[], alpha: number, target: number): boolean {
  if (values.length >= 3 && values.every((v) => v === values[0])) return true;
  const est = ratioInterval(values, alpha);
  return est !== null && (est.high - est.low) / 2 / est.ratio < target;
}
