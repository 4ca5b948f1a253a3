// `npm run reproduce -- <write-up>`: when the measuring may stop (plan.ts says what is measured). Pure
// functions and one small state machine.
//
// When to stop: the sequential paired design of the hypothesis test (analysis/sequential.ts): paired
// rounds, t intervals on the paired log ratios, alpha spent over looks and added up (union bound). Every
// build runs every wanted task once per round, in an order that rotates each round (the run loop's
// roundOrder); a comparison's evidence is the ratio of its two values in the same round. Looks come after
// measured rounds 6, 8, 10, 13, ... (isLookRound); a look spends
// alpha in proportion to the measuring time since the previous look, out of the time the budget leaves
// after the warm-up round (linear spending in time), and when the next round would overrun the budget a
// final look spends all the alpha left. Time, not rounds, because rounds get shorter: a task is left out
// of later rounds once every comparison it feeds is decided or belongs to a claim whose verdict no later
// decision can change (settled), and the run stops when every claim with CPU-time comparisons is
// settled. At a look, each undecided CPU-time comparison gets a t interval at confidence 1 - alpha_k
// (ratioInterval), placed against the claim's band exactly as the site judges its intervals
// (claims/judge.ts judge: inside is confirmed, or reproduced for a quoted size; entirely outside is
// contradicted, or smaller/larger than reported); a decision stays decided, and a claim is decided from
// its comparisons as the site decides it (claims/evaluate.ts decide). The alpha_k sum to at most 0.05, so
// by the union bound each comparison's chance of a wrong decision stays at most 0.05 however many looks
// were taken: when a look happens and what it spends depend on the round count and the clock, and the
// clock on which tasks are still measured, never on the comparison's own values. Deterministic series
// (instruction counts, bytes: the run loop measures them once, in its deterministic phase before the
// rounds, or reuses them) compare exactly.
import type { JournalEntry } from '../../runner/run/journal.ts';
import { seriesKey } from '../../runner/benchmark.ts';
import { ALPHA, FIRST_LOOK, LOOK_GROWTH, nextLook } from '../../analysis/sequential.ts';
import { collect, type LookTaken, type Reproduction } from './comparisons.ts';

export type StopReason = 'all-decided' | 'budget' | 'deterministic-only';

// ------------------------------------------------------------------ the stopping rule

export const MAX_ROUNDS = 1000;
/** The measured rounds after which a look is taken: the hypothesis test's FIRST_LOOK, then each about LOOK_GROWTH times later (nextLook). */
export function isLookRound(m: number): boolean {
  for (let n = FIRST_LOOK; n <= m; n = nextLook(n)) if (n === m) return true;
  return false;
}

/** The first looks' rounds, for the words below. */
const firstLooks = (count: number): number[] => {
  const out = [FIRST_LOOK];
  while (out.length < count) out.push(nextLook(out.at(-1)!));
  return out;
};

export const SPENDING_WORDS = `looks after measured rounds ${firstLooks(4).join(', ')} and so on (each about ${Math.round((LOOK_GROWTH - 1) * 100)}% more rounds than the last), each spending alpha in proportion to the measuring time since the previous look (linear spending of ${ALPHA} over the time the budget leaves after the warm-up, union bound)`;

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
  /** told when the warm-up round has ended: its seconds and the seconds left for measured rounds */
  declared?: (warmupSeconds: number, roundsSeconds: number) => void;
  looked?: (look: LookTaken, r: Reproduction) => void;
}

/**
 * The run loop's afterRound and retired for a reproduction: looks when isLookRound says, spends alpha
 * by the clock, leaves out of later rounds the tasks nothing open needs, and stops when every claim is
 * settled or at the budget.
 */
export class Stopper {
  warmupSeconds: number | null = null;
  stoppedBecause: StopReason | null = null;
  measuredRounds = 0;
  /** on the `now` clock: when the measured rounds began, and how long they may take */
  private roundsStart: number | null = null;
  private roundsSeconds = 0;
  /** what the tasks produced: `${build id}|${benchmark}|${task}` -> the keys of their outcomes */
  private readonly producedBy = new Map<string, Set<string>>();
  /** the sides still needed, after the latest round */
  private open: Set<string> | null = null;
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

  /** The run loop asks before each task of a round: true leaves it out (every comparison it feeds is decided or settled). */
  retired = (buildId: string, benchmark: string, task: string): boolean => {
    const keys = this.producedBy.get(`${buildId}|${benchmark}|${task}`);
    if (!this.open || !keys?.size) return false;
    for (const k of keys) if (this.open.has(`${buildId}\u0000${k}`)) return false;
    return true;
  };

  /** After round `round` (warm-up included) of `seconds`: true to stop after it. */
  afterRound = (round: number, entries: readonly JournalEntry[], seconds: number): boolean => {
    const t = this.o.now();
    // this round's timed tasks (earlier rounds were read after them: a reproduction never resumes, so afterRound
    // sees every round; deterministic tasks never leave the rounds, they are not in them)
    for (const e of entries) {
      if (e.round !== round || e.deterministic) continue;
      const id = `${e.buildId}|${e.benchmark}|${e.task}`;
      const keys = this.producedBy.get(id) ?? new Set<string>();
      for (const o of e.outcomes ?? []) keys.add(seriesKey(o.spec));
      this.producedBy.set(id, keys);
    }
    if (round < this.o.warmupRounds) {
      this.warmupSeconds = seconds;
      if (round === this.o.warmupRounds - 1) {
        this.roundsStart = t;
        this.roundsSeconds = Math.max(this.deadline - t, 1e-3);
        if (this.o.timed) this.o.declared?.(seconds, this.roundsSeconds);
      }
      return false;
    }
    const m = round - this.o.warmupRounds + 1;
    this.measuredRounds = m;
    const data = collect(entries, this.o.warmupRounds);
    this.test.update(data, m >= 1);
    if (!this.o.timed || this.roundsStart === null) return this.stop('deterministic-only');
    if (this.allSettled()) return this.stop('all-decided');
    this.open = this.test.openSides();
    if (t + this.nextRoundSeconds(entries, round, seconds) > this.deadline) {
      // the budget ends before the next round: one last look (in place of a scheduled one at this round)
      // with all the alpha not yet spent
      const left = ALPHA - this.alphaSpent;
      if (left > 1e-12 && m >= 3) {
        const look = this.test.look(m, left, true, data);
        this.o.looked?.(look, this.test);
      }
      return this.stop('budget');
    }
    if (isLookRound(m)) {
      const look = this.test.look(m, this.alphaUntil(t), false, data);
      this.o.looked?.(look, this.test);
      if (this.allSettled()) return this.stop('all-decided');
      this.open = this.test.openSides();
    }
    return false;
  };

  /** The next round runs only the tasks still needed: round `round` (of `seconds`) scaled by their share of its task time. */
  private nextRoundSeconds(entries: readonly JournalEntry[], round: number, seconds: number): number {
    const ran = entries.filter((e) => e.round === round && !e.deterministic);
    const all = ran.reduce((a, e) => a + (e.seconds ?? 0), 0);
    const kept = ran.filter((e) => !this.retired(e.buildId, e.benchmark, e.task)).reduce((a, e) => a + (e.seconds ?? 0), 0);
    return all > 0 ? (seconds * kept) / all : seconds;
  }

  /** The alpha a look at time `t` may spend: linear in the measuring time since the previous look (what the time so far allows, less what was spent). */
  private alphaUntil(t: number): number {
    const share = Math.min(1, (t - this.roundsStart!) / this.roundsSeconds);
    return Math.max(0, ALPHA * share - this.alphaSpent);
  }

  /** Every claim with a comparison still undecided is settled (none is when nothing is left open). */
  private allSettled(): boolean {
    const claims = new Set(this.test.undecided().map((s) => s.claim));
    return [...claims].every((c) => this.test.settled(c));
  }

  private stop(why: StopReason): true {
    this.stoppedBecause = why;
    return true;
  }

  /** The stopping record, in words, for the run's notes and the terminal. */
  record(budgetMinutes: number): string {
    const looks = this.test.looks.map(
      (l) => `after round ${l.round} alpha ${l.alpha.toPrecision(3)}${l.final ? ' (final, all alpha left)' : ''}, ${l.undecided} undecided`,
    );
    const why: Record<StopReason, string> = {
      'all-decided': 'every claim was settled (decided, or its verdict beyond change by the comparisons still open)',
      budget: `the ${budgetMinutes}-minute budget would have ended before the next round`,
      'deterministic-only': 'the claims compare deterministic series only (exact counts, measured once)',
    };
    return [
      this.roundsStart !== null && this.o.timed
        ? `${SPENDING_WORDS}; the warm-up round took ${this.warmupSeconds?.toFixed(1)} s and left ${this.roundsSeconds.toFixed(0)} s of the ${budgetMinutes}-minute budget`
        : 'no looks: nothing timed to decide',
      `looks taken: ${looks.length ? looks.join('; ') : 'none'}; alpha spent ${this.alphaSpent.toPrecision(3)}`,
      `stopped after ${this.measuredRounds} measured round(s) because ${this.stoppedBecause ? why[this.stoppedBecause] : 'the run ended'}`,
    ].join('; ');
  }
}
