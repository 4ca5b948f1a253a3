// Synthetic runs for the aggregation's tests (summary, derived files, command line): one toy series per build,
// quiet unless told otherwise, written into a scratch data folder where needed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Run, writeRunFile } from '../../schema/index.ts';
import { TEST_TIME, makeBuild, makeQuietEvidence, makeRun, makeSeries } from '../../schema/test-data.ts';

/** Quiet-host evidence as the runner records it: quiet, or with one busy round. */
export const evidence = (at: string, busyRound?: number): Run['quiet'] =>
  makeQuietEvidence(at, { rounds: [1, 2], busyRounds: busyRound === undefined ? [] : [busyRound] });

/** `values` by build: an OpenSSL version ("3.5.7") or another library's release ("aws-lc@5.12.0", "wolfssl@5.9.4:no-perf-options"). */
export function testRun(runId: string, values: Record<string, number[]>, startedAt = TEST_TIME, quiet: Run['quiet'] | null = evidence(startedAt)): Run {
  const builds = Object.keys(values).map((name) => {
    const [lib, rest] = name.includes('@') ? (name.split('@') as [string, string]) : ['openssl', name];
    const [version, variant = 'default'] = rest.split(':') as [string, string?];
    const library = lib as Run['builds'][number]['library'];
    return {
      name,
      build: makeBuild({ id: `id-${name.replace(/[.@:]/g, '')}`, library, version, variant, versionString: `${library} ${version}`, builtAt: startedAt }),
    };
  });
  return makeRun({
    runId,
    startedAt,
    plan: { rounds: 6 },
    builds: builds.map((b) => b.build),
    series: builds.map(({ name, build }) =>
      makeSeries({ key: 'toy/rate', label: 'toy rate', buildId: build.id, values: values[name]!, warmup: 999, at: startedAt }),
    ),
    quiet,
  });
}

export function dataDir(runs: Run[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'data-'));
  for (const r of runs) writeRunFile(join(dir, 'runs'), r);
  return dir;
}
