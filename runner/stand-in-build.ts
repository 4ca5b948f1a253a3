// Stand-ins for tests of the run loop and its users: a build that was never built (the record of an OpenSSL
// release with placeholder provenance, schema/test-data.ts, and no install prefix), the plan of a run of
// such builds on this machine, and a series of a synthetic benchmark.
import { makeBuild, seriesOfVersion } from '../schema/test-data.ts';
import type { BuildUnderTest, SeriesSpec } from './benchmark.ts';
import { recordedConfigureArgs } from './build/options.ts';
import { describeHost } from './host.ts';
import { newRunId } from './run/identity.ts';
import type { RunPlan } from './run/journal.ts';

export const standInBuild = (version: string, id = `b-${version}`): BuildUnderTest => ({
  prefix: '/nonexistent',
  record: makeBuild({
    id,
    version,
    // what runner/build/build.ts records for the default recipe, so a stand-in run passes the provenance checks
    configureArgs: recordedConfigureArgs(seriesOfVersion(version), 'default'),
    compiler: 'cc (Debian 12.2.0-14+deb12u1) 12.2.0',
    cflags: '-Wall -O3 -Wa,--noexecstack',
    buildSeconds: 1,
  }),
});

/**
 * The plan of a run of `builds` starting now, from an unknown dirty checkout at harness `revision` (absent:
 * none recorded): by default a quick run of the toy benchmark, one warm-up and two measured rounds, on this
 * machine under the name `hostName`.
 */
export function standInPlan(builds: readonly BuildUnderTest[], o: Partial<RunPlan> & { hostName?: string; revision?: number } = {}): RunPlan {
  const { hostName = 'test-host', revision, ...fields } = o;
  const mode = o.mode ?? 'quick';
  return {
    runId: newRunId(mode),
    mode,
    host: describeHost(hostName),
    benchmarks: ['toy'],
    rounds: 2,
    warmupRounds: 1,
    builds: builds.map((b) => b.record),
    startedAt: new Date().toISOString(),
    harness: { gitCommit: 'unknown', gitDirty: true, node: process.version, ...(revision === undefined ? {} : { revision }) },
    ...fields,
  };
}

/** A series of the synthetic benchmark "syn": CPU time per handshake of both sides (lower is better), named by its metric. */
export const standInSpec = (metric: string, params: SeriesSpec['params'] = {}): SeriesSpec => ({
  benchmark: 'syn',
  metric,
  label: metric,
  unit: 'us/handshake',
  method: 'cpu-time-both',
  higherIsBetter: false,
  params,
  comparability: { acrossVersions: true },
});
