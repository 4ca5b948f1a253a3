// Run the known-issues tasks once per build outside the run loop, to see them work:
//   node runner/known-issues/try.ts 1.1.1w 4.0.3 [--mode quick|full] [--only SUBSTRING]
// Prints every value of every task. Builds must be in the cache (npm run openssl -- build).
import { requireBuilds } from '../build/cache.ts';
import { tryCommandLine } from '../cli.ts';
import { seriesKey } from '../benchmark.ts';
import { knownIssuesBenchmark } from './known-issues.ts';

const { versions, mode, only } = tryCommandLine(import.meta.url);

for (const build of requireBuilds(versions)) {
  const t0 = Date.now();
  await knownIssuesBenchmark.prepare!(build, mode);
  for (const task of knownIssuesBenchmark.tasks(build, mode).filter((t) => !only || t.id.includes(only))) {
    const t = Date.now();
    const outcomes = await task.run();
    console.log(`${build.record.version} ${task.id} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
    for (const o of outcomes)
      console.log(
        `   ${seriesKey(o.spec)} = ${'value' in o ? `${o.value.toPrecision(6)} ${o.spec.unit}` : `${o.status}: ${o.reason.slice(0, 200)}`}${o.observed ? ` ${JSON.stringify(o.observed)}` : ''}`,
      );
  }
  console.log(`${build.record.version}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
