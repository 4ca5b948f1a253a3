// Finding every commit where a deterministic figure moves, between two commits of a linear path.
//
// The figure of a commit is a number (an instruction count, bytes, heap: the same on every run), or null
// when the commit does not build. The path's two ends are measured; an interval whose ends differ by more
// than the threshold is halved, and both halves are followed, so every step of a multi-step change is
// found, not only one (a change and its exact reversal inside one interval cancel out and are not seen:
// the report says so). The interval whose ends differ most is halved first, so a budget too small for
// every step names the commits of the largest moves. A midpoint that does not build is replaced by a
// buildable commit near it (probes at 1, 2, 4 ... commits from it, then next to the interval's ends); an
// interval where no probe builds is reported as an unresolved range, as is every interval still open when
// the budget of measurements runs out. Pure: measuring is the caller's.

export interface BisectOptions {
  /** true when two figures differ enough to be a step (e.g. more than 0.1% apart) */
  differs: (a: number, b: number) => boolean;
  /** how many commits may be measured, the two ends included */
  budget: number;
}

export interface Step {
  /** index in the path of the commit that made the change (the one after `before`) */
  at: number;
  before: number;
  after: number;
}

export interface Unresolved {
  /** path indexes of the two measured ends between which the figure changed */
  from: number;
  to: number;
  before: number;
  after: number;
  reason: 'budget' | 'unbuildable';
}

export interface BisectResult {
  steps: Step[];
  unresolved: Unresolved[];
  /** every commit measured: path index and figure (null: did not build) */
  measured: { at: number; value: number | null }[];
  /** the figures at the two ends; null where an end does not build (then nothing else is measured) */
  first: number | null;
  last: number | null;
}

/**
 * Bisect `length` commits (path indexes 0 .. length-1) with `measure`. Steps come out in path order.
 * Throws when the budget cannot cover even the two ends.
 */
export async function bisect(length: number, measure: (at: number) => Promise<number | null>, opts: BisectOptions): Promise<BisectResult> {
  if (length < 2) throw new Error('a path needs at least two commits');
  if (opts.budget < 2) throw new Error('the budget must cover at least the two ends');
  const known = new Map<number, number | null>();
  let spent = 0;
  const get = async (at: number): Promise<number | null> => {
    if (!known.has(at)) {
      spent++;
      known.set(at, await measure(at));
    }
    return known.get(at)!;
  };
  const first = await get(0);
  const last = await get(length - 1);
  const steps: Step[] = [];
  const unresolved: Unresolved[] = [];
  if (first !== null && last !== null) {
    // the open interval [i, j] whose ends differ most first (ties in path order): with a budget too small
    // for every step, the commits it names are those of the largest moves, and what is left unresolved is small
    const open: [number, number][] = [[0, length - 1]];
    const size = ([i, j]: [number, number]) => Math.abs((known.get(j) ?? 0) - (known.get(i) ?? 0));
    while (open.length) {
      open.sort((x, y) => size(y) - size(x) || x[0] - y[0]);
      const [i, j] = open.shift()!;
      const a = known.get(i)!;
      const b = known.get(j)!;
      if (a === null || b === null || !opts.differs(a, b)) continue;
      if (j === i + 1) {
        steps.push({ at: j, before: a, after: b });
        continue;
      }
      const m = await buildableInside(i, j);
      if (m === 'budget') {
        unresolved.push({ from: i, to: j, before: a, after: b, reason: 'budget' });
        continue;
      }
      if (m === null) {
        unresolved.push({ from: i, to: j, before: a, after: b, reason: 'unbuildable' });
        continue;
      }
      open.push([i, m], [m, j]);
    }
  }
  steps.sort((x, y) => x.at - y.at);
  unresolved.sort((x, y) => x.from - y.from);
  return { steps, unresolved, measured: [...known].map(([at, value]) => ({ at, value })).sort((x, y) => x.at - y.at), first, last };

  /**
   * A buildable commit near the middle of (i, j), measured; null if none of the probes builds; 'budget' when
   * the budget ran out first. Probes go out from the middle by 1, 2, 4, 8 ... commits on either side: a
   * series of commits that do not build (a pull request whose middle commits do not compile) costs a few
   * builds, not one per commit.
   */
  async function buildableInside(i: number, j: number): Promise<number | null | 'budget'> {
    const mid = Math.floor((i + j) / 2);
    const offsets = [0];
    for (let d = 1; mid - d > i || mid + d < j; d *= 2) offsets.push(d, -d);
    // the ends of the interval last: the nearest commits to a buildable end
    offsets.push(j - 1 - mid, i + 1 - mid);
    for (const at of [...new Set(offsets.map((o) => mid + o))]) {
      if (at <= i || at >= j) continue;
      if (!known.has(at) && spent >= opts.budget) return 'budget';
      if ((await get(at)) !== null) return at;
    }
    return null;
  }
}

/** A relative threshold: figures more than `fraction` apart (of the smaller) are a step. */
export const relativeDifference = (fraction: number) => (a: number, b: number) => Math.abs(a - b) > fraction * Math.min(Math.abs(a), Math.abs(b));
