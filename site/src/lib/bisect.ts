// The bisections of OpenSSL's history (data/bisect/<machine>/*.json, runner/bisect/): which commits moved a
// deterministic figure between two releases, as a waterfall from one release's figure to the other's.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BisectReport, bisectEndName, bisectReportName } from '../../../schema/index.ts';
import { dataDir, parseWith, readJson, SiteDataError } from './data.ts';
import { fractionText, signedNum } from './format.ts';
import { bisectMetricWords } from '../../../catalogue/words.ts';

export const UPSTREAM = 'https://github.com/openssl/openssl';
/** A commit on GitHub: the ids are upstream's (the snapshots and mirrors carry the same commits). */
export const commitUrl = (id: string) => `${UPSTREAM}/commit/${id}`;
export const shortId = (id: string) => id.slice(0, 10);

export interface BisectFile {
  machine: string;
  /** the page's address under /bisect/<machine>/ */
  slug: string;
  report: BisectReport;
}

/** Every report, validated; a report filed under another machine, or under another name, fails the build. */
export function loadBisections(root = join(dataDir(), 'bisect')): BisectFile[] {
  if (!existsSync(root)) return [];
  const out: BisectFile[] = [];
  for (const machine of readdirSync(root).sort())
    for (const name of readdirSync(join(root, machine))
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      const file = join(root, machine, name);
      const report = parseWith(BisectReport, readJson(file), file);
      if (report.host.id !== machine) throw new SiteDataError(`${file}: measured on ${report.host.id}, filed under ${machine}`);
      if (bisectReportName(report) !== name) throw new SiteDataError(`${file}: should be named ${bisectReportName(report)}`);
      // the metric in today's words (catalogue/words.ts); the report keeps those of its day
      out.push({
        machine,
        slug: name.replace(/\.json$/, ''),
        report: { ...report, metric: { ...report.metric, what: bisectMetricWords(report.metric.id) ?? report.metric.what } },
      });
    }
  return out;
}

export type WaterfallKind = 'release' | 'step' | 'unresolved' | 'rest';

export interface WaterfallRow {
  kind: WaterfallKind;
  label: string;
  /** the bar: from `start` to `end` (a release's bar starts at zero) */
  start: number;
  end: number;
  /** the commit a step is charged to; a range's two measured ends */
  commit?: string;
  range?: { from: string; to: string; between: number };
}

/**
 * From the older release's figure to the newer one's: each named step, each range the bisection could not
 * resolve, and what is left (changes below the threshold, and changes that cancel inside an interval), in
 * path order. The bars chain: each starts where the one before ended.
 */
export function waterfall(r: BisectReport): WaterfallRow[] | null {
  if (r.first === null || r.last === null) return null;
  const moves = [
    ...r.steps.map((s) => ({
      position: s.position,
      row: {
        kind: 'step' as const,
        // a commit of the older release's branch that the newer release lacks: the path takes it back
        label: s.undone ? `undone (only on ${bisectEndName(r.from)}'s branch): ${s.subject}` : s.subject,
        delta: s.after - s.before,
        commit: s.commit,
      },
    })),
    ...r.unresolved.map((u) => ({
      position: u.position,
      row: {
        kind: 'unresolved' as const,
        label: `${u.between} commits not resolved (${u.reason === 'budget' ? 'budget spent' : 'none of them builds'})`,
        delta: u.after - u.before,
        range: { from: u.from, to: u.to, between: u.between },
      },
    })),
  ].sort((a, b) => a.position - b.position); // stable: steps inside one merge keep their order
  const rows: WaterfallRow[] = [{ kind: 'release', label: bisectEndName(r.from), start: 0, end: r.first }];
  let at = r.first;
  for (const { row } of moves) {
    const { delta, ...rest } = row;
    rows.push({ ...rest, start: at, end: at + delta });
    at += delta;
  }
  if (Math.abs(r.last - at) > 1e-9 * Math.max(1, Math.abs(r.last)))
    rows.push({ kind: 'rest', label: 'not attributed (below the threshold, or cancelling out)', start: at, end: r.last });
  rows.push({ kind: 'release', label: bisectEndName(r.to), start: 0, end: r.last });
  return rows;
}

/** The share of the release-to-release change that ranges the bisection could not resolve span. */
export function unresolvedShare(r: BisectReport): number | null {
  if (r.first === null || r.last === null || r.last === r.first) return null;
  return r.unresolved.reduce((s, u) => s + (u.after - u.before), 0) / (r.last - r.first);
}

/**
 * What the named commits and the unresolved ranges account for, in words: shares of the change where
 * neither is negative (101%: the named commits moved the figure a little more than the change, smaller
 * moves undoing the rest), else their own signed amounts beside the change's, since a commit can move the
 * figure against the change (3.1.4 -> 3.2.1's server heap: the one named commit added 3,888 bytes to a
 * change of -26,408, which as a share reads "-14.7% of the change"). `cell`: the short form for a table.
 * Null when the figure did not change or an end was not measured.
 */
export function accountedFor(r: BisectReport): { named: string; unresolved: string; cell: string } | null {
  const rest = unresolvedShare(r);
  if (r.explained === null || rest === null) return null;
  const total = r.last! - r.first!;
  if (r.explained >= 0 && rest >= 0)
    return { named: `${fractionText(r.explained)} of the change`, unresolved: fractionText(rest), cell: fractionText(r.explained) };
  const amount = (share: number) => `${signedNum(share * total)} ${r.metric.unit}`;
  const direction = r.explained < 0 ? ', against the direction of the whole change' : ' of the whole change';
  return {
    named: `${amount(r.explained)}${direction} (${signedNum(total)} ${r.metric.unit})`,
    unresolved: amount(rest),
    cell: `${signedNum(r.explained * total)} of ${signedNum(total)}`,
  };
}

/** The bisections of the step into a series (their newer end is a release of it), for its version pages. */
export const bisectionsInto = (files: BisectFile[], series: string): BisectFile[] => files.filter((f) => f.report.to.series === series);

/** What a report's figure is, in a few words for its title: heap, an instruction or call count, or the figure. */
export function figureNoun(metric: { id: string; unit: string }): string {
  if (/heap/.test(metric.id)) return 'the heap';
  if (metric.unit === 'instructions') return 'the instruction count';
  if (metric.unit === 'count') return 'the call count';
  return 'the figure';
}
