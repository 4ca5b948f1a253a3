// Synthetic claims data for the claims tests: runs aggregated for real (scripts/aggregate/summary.ts), and short
// builders for series, claims and their tests.
import { Run, runFilePath, type CpuFlags, type Method, type Unit } from '../../../../schema/index.ts';
import { aggregate } from '../../../../scripts/aggregate/summary.ts';
import { TEST_TIME, makeBuild, makeHost, makeRun, makeSeries } from '../../../../schema/test-data.ts';
import { Claim, WriteupSeries } from './schema.ts';
import type { ClaimData } from './compare.ts';

export interface SeriesSpec {
  key: string;
  unit?: Unit;
  method?: Method;
  higherIsBetter?: boolean;
  comparability?: { acrossVersions: boolean; group?: string; reason?: string };
  /** measured values per round (round 1, 2, ...) by version; a missing version is not measured */
  values: Record<string, number[]>;
}

export function run(runId: string, specs: SeriesSpec[], opts: { host?: string; flags?: CpuFlags; startedAt?: string } = {}): Run {
  const versions = [...new Set(specs.flatMap((s) => Object.keys(s.values)))];
  const startedAt = opts.startedAt ?? TEST_TIME;
  const builds = versions.map((version) => makeBuild({ id: `id-${version.replace(/\./g, '')}`, version, builtAt: startedAt }));
  return makeRun({
    runId,
    startedAt,
    host: makeHost({ id: opts.host ?? 'box', cpuFlags: opts.flags ?? { aesni: true } }),
    plan: { benchmarks: ['toy'] },
    builds,
    series: specs.flatMap((s) =>
      Object.entries(s.values).map(([version, values]) =>
        makeSeries({
          key: s.key,
          metric: s.key.replace(/\W/g, '-'),
          unit: s.unit ?? 'ops/s',
          method: s.method ?? 'cpu-time-both',
          higherIsBetter: s.higherIsBetter ?? true,
          buildId: builds.find((b) => b.version === version)!.id,
          comparability: s.comparability ?? { acrossVersions: true },
          values,
          at: startedAt,
        }),
      ),
    ),
  });
}

export function data(...runs: Run[]): ClaimData {
  const { summary, detailed } = aggregate(runs.map((r) => ({ run: r, path: runFilePath(r) })));
  return { summary, detailed, runs: runs.filter((r) => summary.runs.some((x) => x.runId === r.runId)) };
}

/** n values around m, spread by ±spread (a fixed pattern, so each round's ratio differs a little) */
export const around = (m: number, spread: number, n = 8) => Array.from({ length: n }, (_, i) => m * (1 + spread * Math.sin(i * 2.1 + m)));

export const series = (...keys: string[]): WriteupSeries[] =>
  keys.map((key) => WriteupSeries.parse({ key, id: key.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') }));
export const claim = (c: Record<string, unknown>) => Claim.parse({ id: 'c', text: 'A claim in words.', ...c });
export const cmp = (s: string, builds: string[], expect: string, threshold = 0.05) => ({ series: s, builds, expect, threshold });

export const RATE = 'toy/rate';
export const S = series(RATE, 'toy/other', 'toy/instructions');
