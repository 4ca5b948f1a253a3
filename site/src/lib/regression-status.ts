// The status of a reported regression, computed from one series across versions (pure, unit-tested):
// did it get worse than 1.1.1 by more than the threshold, in which version, and did it come back?
// Meant for deterministic figures (instruction counts, call counts, heap bytes), where one value per
// version is exact and no interval is needed; a timing series would need its interval as well.
import { compareVersions } from '../../../catalogue/index.ts';

/** A value within this fraction of 1.1.1's counts as "the same as 1.1.1" (either direction). */
export const STATUS_THRESHOLD = 0.1;

export interface StatusPoint {
  version: string;
  /** the release series, e.g. 1.1.1 or 3.0 */
  series: string;
  /** null: not measured on this version (unsupported, failed or absent) */
  value: number | null;
}

export type RegressionStatus =
  | { kind: 'not-measured'; reason: string }
  /** within the threshold of the baseline in every measured version */
  | { kind: 'no-regression'; baseline: StatusPoint & { value: number }; latest: StatusPoint & { value: number }; ratio: number }
  /** never worse beyond the threshold, and the newest version is better beyond it */
  | { kind: 'improved'; baseline: StatusPoint & { value: number }; latest: StatusPoint & { value: number }; ratio: number; since: string }
  /** worse beyond the threshold from regressedIn on, and still in the newest version */
  | { kind: 'still-slower'; baseline: StatusPoint & { value: number }; latest: StatusPoint & { value: number }; ratio: number; regressedIn: string }
  /** worse beyond the threshold in regressedIn, within it (or better) from recoveredIn through the newest version */
  | {
      kind: 'recovered';
      baseline: StatusPoint & { value: number };
      latest: StatusPoint & { value: number };
      ratio: number;
      regressedIn: string;
      recoveredIn: string;
    };

export interface StatusOptions {
  higherIsBetter: boolean;
  threshold?: number;
  /** versions of this series are the baseline (default: 1.1.1) */
  baselineSeries?: string;
}

/** How much worse than the baseline a value is, as a factor > 0 (1 = the same; 2 = twice the cost or half the rate). */
export function worseFactor(value: number, baseline: number, higherIsBetter: boolean): number {
  const [cost, base] = higherIsBetter ? [baseline, value] : [value, baseline];
  if (base === 0) return cost === 0 ? 1 : Infinity;
  return cost / base;
}

export function computeStatus(points: readonly StatusPoint[], opts: StatusOptions): RegressionStatus {
  const t = opts.threshold ?? STATUS_THRESHOLD;
  const series = opts.baselineSeries ?? '1.1.1';
  const sorted = [...points].sort((a, b) => compareVersions(a.version, b.version));
  const measured = sorted.filter((p): p is StatusPoint & { value: number } => p.value !== null && Number.isFinite(p.value));
  const baseline = measured.find((p) => p.series === series);
  if (!baseline) return { kind: 'not-measured', reason: `no ${series} value to compare with` };
  const later = measured.filter((p) => compareVersions(p.version, baseline.version) > 0);
  if (later.length === 0) return { kind: 'not-measured', reason: `no version after ${baseline.version} measured` };
  const f = (p: StatusPoint & { value: number }) => worseFactor(p.value, baseline.value, opts.higherIsBetter);
  const worse = (p: StatusPoint & { value: number }) => f(p) > 1 + t;
  const better = (p: StatusPoint & { value: number }) => f(p) < 1 / (1 + t);
  const latest = later[later.length - 1]!;
  const ratio = baseline.value === 0 ? (latest.value === 0 ? 1 : Infinity) : latest.value / baseline.value;
  /** first version of the trailing run of points that satisfy ok */
  const trailing = (ok: (p: StatusPoint & { value: number }) => boolean) => {
    let i = later.length;
    while (i > 0 && ok(later[i - 1]!)) i--;
    return later[i]!.version;
  };
  const regressed = later.find(worse);
  if (regressed) {
    if (worse(latest)) return { kind: 'still-slower', baseline, latest, ratio, regressedIn: regressed.version };
    return { kind: 'recovered', baseline, latest, ratio, regressedIn: regressed.version, recoveredIn: trailing((p) => !worse(p)) };
  }
  if (better(latest)) return { kind: 'improved', baseline, latest, ratio, since: trailing(better) };
  return { kind: 'no-regression', baseline, latest, ratio };
}

const times = (r: number) => (Number.isFinite(r) ? `${r >= 10 ? r.toFixed(0) : r >= 1.995 ? r.toFixed(1) : r.toFixed(2)}×` : 'more than zero times');

/** One line for the page: every number in it comes from the status. */
export function statusText(s: RegressionStatus, threshold = STATUS_THRESHOLD): string {
  const within = `within ${Math.round(threshold * 100)}% of ${'baseline' in s ? s.baseline.version : '1.1.1'}`;
  switch (s.kind) {
    case 'not-measured':
      return `Not measured yet: ${s.reason}`;
    case 'no-regression':
      return `No regression beyond the threshold: every measured version is ${within} (${s.latest.version}: ${times(s.ratio)} ${s.baseline.version})`;
    case 'improved':
      return `Improved: ${s.latest.version} is at ${times(s.ratio)} ${s.baseline.version}, better than ${within} since ${s.since}`;
    case 'still-slower':
      return `Regressed in ${s.regressedIn}; still worse in ${s.latest.version} (${times(s.ratio)} ${s.baseline.version})`;
    case 'recovered':
      return `Regressed in ${s.regressedIn}; recovered in ${s.recoveredIn} to ${within} (${s.latest.version}: ${times(s.ratio)} ${s.baseline.version})`;
  }
}

export const STATUS_LABEL: Record<RegressionStatus['kind'], string> = {
  'not-measured': 'not measured yet',
  'no-regression': 'no regression',
  improved: 'improved',
  'still-slower': 'still worse',
  recovered: 'recovered',
};
