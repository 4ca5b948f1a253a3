// Run the handshake matrix once per build outside the run loop, to see it work and time it:
//   node runner/handshake/try.ts 1.1.1w 4.0.3 [--mode quick|full] [--only SUBSTRING]
// Prints one line per task and the elapsed time. Builds must be in the cache (npm run openssl -- build).
import { requireBuilds } from '../build/cache.ts';
import { tryCommandLine } from '../cli.ts';
import { createHandshakeBenchmark, handshakeMatrix, taskId } from './handshake.ts';

const { versions, mode, only } = tryCommandLine(import.meta.url);

const bench = createHandshakeBenchmark((m) => handshakeMatrix(m).filter((d) => !only || taskId(d).includes(only)));
const started = Date.now();
for (const build of requireBuilds(versions)) {
  const t0 = Date.now();
  await bench.prepare!(build, mode);
  for (const task of bench.tasks(build, mode)) {
    const t = Date.now();
    const outcomes = await task.run();
    const shown = outcomes
      .slice(0, 3)
      .map((o) =>
        'value' in o
          ? `${o.spec.metric}${o.spec.params.side ? `[${String(o.spec.params.side)}]` : ''}=${o.value.toPrecision(5)} ${o.spec.unit}`
          : `${o.status}: ${o.reason.slice(0, 160)}`,
      )
      .join('  ');
    const obs = outcomes[0]?.observed;
    const g = obs ? ` {${String(obs.negotiatedProtocol)} ${String(obs.negotiatedGroup)}${obs.resumed ? ' resumed' : ''}${obs.hrr ? ' HRR' : ''}}` : '';
    console.log(`${build.record.version} ${task.id} (${((Date.now() - t) / 1000).toFixed(1)} s): ${shown}${g}`);
  }
  console.log(`${build.record.version}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s for ${versions.length} build(s), mode ${mode}`);
