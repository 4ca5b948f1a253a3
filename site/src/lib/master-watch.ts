// OpenSSL's development branch watched night by night (data/master/<machine>/nights.json,
// runner/bisect/master-watch.ts): the nights a deterministic figure moved, and the commits named.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MasterWatch, type MasterChange, type MasterNight } from '../../../schema/index.ts';
import { dataDir, parseWith, readJson, SiteDataError } from './data.ts';
import { bisectMetricWords } from '../../../catalogue/words.ts';

export interface MasterFile {
  machine: string;
  watch: MasterWatch;
}

/** Every machine's file, validated; a file filed under another machine fails the build. */
export function loadMasterWatches(root = join(dataDir(), 'master')): MasterFile[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort()
    .filter((machine) => existsSync(join(root, machine, 'nights.json')))
    .map((machine) => {
      const file = join(root, machine, 'nights.json');
      const watch = parseWith(MasterWatch, readJson(file), file);
      if (watch.host.id !== machine) throw new SiteDataError(`${file}: measured on ${watch.host.id}, filed under ${machine}`);
      // the metrics in today's words (catalogue/words.ts); the file keeps those of its nights
      return { machine, watch: { ...watch, metrics: watch.metrics.map((m) => ({ ...m, what: bisectMetricWords(m.id) ?? m.what })) } };
    });
}

export interface ChangeRow {
  night: MasterNight;
  change: MasterChange;
  what: string;
  unit: string;
}

/** Every change of every night, newest night first. */
export function changeRows(watch: MasterWatch): ChangeRow[] {
  const words = new Map(watch.metrics.map((m) => [m.id, m]));
  return watch.nights
    .flatMap((night) =>
      night.changes.map((change) => ({ night, change, what: words.get(change.metric)?.what ?? change.metric, unit: words.get(change.metric)?.unit ?? '' })),
    )
    .reverse();
}

export interface UnmeasuredGroup {
  what: string;
  /** why, as the night recorded it (its first line) */
  reason: string;
  /** commit dates of the nights, oldest first */
  dates: string[];
}

/**
 * The figures nights could not measure, grouped by figure and by why (the commit did not build, or our
 * program failed on it), in the order they first happened.
 */
export function unmeasuredFigures(watch: MasterWatch): UnmeasuredGroup[] {
  const words = new Map(watch.metrics.map((m) => [m.id, m.what]));
  const groups = new Map<string, UnmeasuredGroup>();
  for (const n of watch.nights)
    for (const [metric, v] of Object.entries(n.values)) {
      if (v !== null) continue;
      const reason = (n.reasons?.[metric] ?? 'no reason recorded').split('\n')[0]!.slice(0, 300);
      const key = `${metric}\u0000${reason}`;
      const g = groups.get(key) ?? { what: words.get(metric) ?? metric, reason, dates: [] };
      g.dates.push(n.commitDate.slice(0, 10));
      groups.set(key, g);
    }
  return [...groups.values()];
}
