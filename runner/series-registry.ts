// The runner's registry of series: every series a benchmark declares for its tasks (Task.produces) on a
// build, in either mode. The submission check (checks/validate-submission.ts) takes each submitted
// series' benchmark, metric, label, unit, method, params and comparability from here, not from the file:
// a file cannot invent a benchmark (evil/pwn), a metric, parameters, or a unit whose bounds are looser.
import type { Build } from '../schema/index.ts';
import { compareVersions, VERSIONS } from '../catalogue/index.ts';
import { measures, seriesKey, type SeriesSpec } from './benchmark.ts';
import { BENCHMARKS } from './benchmarks.ts';

const byBuild = new Map<string, ReadonlyMap<string, SeriesSpec>>();

/** Every series the runner can write for a build of this library, version and variant, by key (computed once per build, ~10 ms). */
export function registeredSeries(build: Pick<Build, 'library' | 'version' | 'series' | 'variant'>): ReadonlyMap<string, SeriesSpec> {
  const id = `${build.library} ${build.version} ${build.variant}`;
  let specs = byBuild.get(id);
  if (!specs) {
    const found = new Map<string, SeriesSpec>();
    // tasks() only builds closures: a stand-in with the record's identity is enough
    const standIn = { prefix: '/nonexistent', record: { ...build, id: 'registry' } as Build };
    for (const bench of BENCHMARKS.filter((b) => measures(b, build.library)))
      for (const mode of ['quick', 'full'] as const)
        for (const task of bench.tasks(standIn, mode)) for (const spec of task.produces ?? []) found.set(seriesKey(spec), spec);
    byBuild.set(id, (specs = found));
  }
  return specs;
}

/**
 * Every series registered for a catalogued OpenSSL release, by key; a key several releases have keeps the
 * newest release's spec (ML-KEM's exist from 3.5 on only).
 */
export function catalogueSeries(): Map<string, SeriesSpec> {
  const out = new Map<string, SeriesSpec>();
  for (const v of [...VERSIONS].sort((a, b) => compareVersions(b.version, a.version)))
    for (const [key, spec] of registeredSeries({ library: 'openssl', version: v.version, series: v.series, variant: 'default' }))
      if (!out.has(key)) out.set(key, spec);
  return out;
}
