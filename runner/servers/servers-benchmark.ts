// Benchmark 'servers' (issue 33): nginx and HAProxy built against the build under test (server-build.ts),
// loaded over loopback by one fixed client (server-load.ts: `openssl s_time` of CLIENT_VERSION, the same for
// every build), one worker and one thread each, server and client pinned to different CPUs. A series is the
// server's CPU time per connection for one workload; the window's connection rate and who limited it
// (boundBy) are recorded beside it, since the rate is the server's figure only when the server was saturated.
// Beside it, in the deterministic phase, the server's instructions per connection under callgrind.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunMode } from '../../schema/index.ts';
import { SERVERS, SERVER_NAMES, type ServerRelease } from '../../catalogue/servers.ts';
import { certName } from '../../catalogue/words.ts';
import type { Benchmark, BuildUnderTest, Outcome, SeriesSpec, Task } from '../benchmark.ts';
import { findCached } from '../build/cache.ts';
import { ensureCerts } from '../handshake/invoke.ts';
import { buildServer, serverRecipe, type ServerBuild } from './server-build.ts';
import { connectionCounts, instructionsPerConnection, loadWindow, type Workload } from './server-load.ts';
import { startServer } from './servers.ts';

/** The client's library build: one OpenSSL release for every server build, so differences are the servers'. */
export const CLIENT_VERSION = '3.5.7';

type Proto = '1.2' | '1.3';
type ServerCert = 'ecdsa-p256' | 'rsa2048';
interface Shape {
  workload: Workload;
  proto: Proto;
  cert: ServerCert;
}

/** Quick: TLS 1.3 with ECDSA, short, resumed and bulk. Full: also TLS 1.2 and RSA-2048. */
export function serverShapes(mode: RunMode): Shape[] {
  const protos: Proto[] = mode === 'quick' ? ['1.3'] : ['1.3', '1.2'];
  const certs: ServerCert[] = mode === 'quick' ? ['ecdsa-p256'] : ['ecdsa-p256', 'rsa2048'];
  return protos.flatMap((proto) => certs.flatMap((cert) => (['short', 'resumed', 'bulk'] as const).map((workload) => ({ workload, proto, cert }))));
}

const WORKLOAD_WORDS: Record<Workload, string> = {
  short: 'short connections (a full handshake, a small GET, close)',
  resumed: 'resumed connections (the session of the connection before, a small GET, close)',
  bulk: 'resumed connections each reading a 4 MiB response',
};

/** What the server does to answer: for bulk HAProxy relays the body (it cannot answer 4 MiB itself). */
function serverWords(release: ServerRelease, workload: Workload): string {
  const name = `${SERVER_NAMES[release.server]} ${release.version}`;
  if (workload !== 'bulk') return name;
  return release.server === 'nginx' ? `${name}, serving a static file` : `${name}, relaying from a plain-HTTP backend on the client's CPU (not counted)`;
}

export function serverSpec(release: ServerRelease, s: Shape): SeriesSpec {
  return {
    benchmark: 'servers',
    metric: 'server-cpu-per-connection',
    label: `${serverWords(release, s.workload)}: server CPU time per connection (its one worker's user + system time over the window, /proc); ${WORKLOAD_WORDS[s.workload]}; TLS ${s.proto} ${certName(s.cert)}, default groups; client openssl s_time ${CLIENT_VERSION}`,
    unit: 'us/op',
    method: 'cpu-time-server',
    higherIsBetter: false,
    params: { server: release.server, serverVersion: release.version, workload: s.workload, proto: s.proto, cert: s.cert, client: CLIENT_VERSION },
    comparability: { acrossVersions: true },
  };
}

/** The same shape's instructions per connection on the server (callgrind, difference of two connection counts). */
export function serverInstructionsSpec(release: ServerRelease, s: Shape): SeriesSpec {
  const cpu = serverSpec(release, s);
  const [few, many] = connectionCounts(s.workload);
  return {
    ...cpu,
    metric: 'server-instructions-per-connection',
    label: `${serverWords(release, s.workload)}: server instructions per connection (callgrind, ${many} connections minus ${few}; random numbers not fixed); ${WORKLOAD_WORDS[s.workload]}; TLS ${s.proto} ${certName(s.cert)}, default groups; client openssl s_client ${CLIENT_VERSION}`,
    unit: 'instructions',
    method: 'instruction-count',
  };
}

/** Seconds of load per window. */
const WINDOW_SECONDS: Record<RunMode, number> = { quick: 2, full: 5 };

function clientOf(): { prefix: string } {
  const client = findCached(CLIENT_VERSION, 'default');
  if (!client) throw new Error(`the servers' client is OpenSSL ${CLIENT_VERSION}'s s_time: build it first (npm run openssl -- build ${CLIENT_VERSION})`);
  return client;
}

/** One window of one shape against a freshly started server: the series' outcome, the rate and its bound as observed. */
async function measure(release: ServerRelease, built: ServerBuild, s: Shape, mode: RunMode): Promise<Outcome> {
  const spec = serverSpec(release, s);
  if (!built.ok) return { spec, status: 'unsupported', reason: built.reason };
  const cpus = availableParallelism();
  const work = mkdtempSync(join(tmpdir(), `${release.server}-`));
  // the server on the last CPU, the client on the first: never on one CPU together
  // the bulk backend HAProxy relays from runs on the client's CPU, off the server's
  const server = await startServer(release.server, built.binary, work, s.cert, {
    cpu: cpus - 1,
    ...(s.workload === 'bulk' ? { bulk: { backendCpu: 0 } } : {}),
  });
  try {
    const w = await loadWindow(server, { prefix: clientOf().prefix, cpu: 0 }, s.workload, s.proto, WINDOW_SECONDS[mode]);
    const observed = {
      connections: w.connections,
      connectionsPerSecond: Math.round(w.connections / w.wallSeconds),
      serverBusy: Math.round(w.bound.serverBusy * 1000) / 1000,
      clientBusy: Math.round(w.bound.clientBusy * 1000) / 1000,
      boundBy: w.bound.by,
      ...(s.workload === 'bulk' ? { bytesPerConnection: w.bytesPerConnection } : {}),
    };
    if (s.workload !== 'short' && w.resumed < 0.9 * w.connections)
      return { spec, status: 'failed', reason: `only ${w.resumed} of ${w.connections} connections resumed`, observed };
    return { spec, value: w.serverCpuPerConnection * 1e6, observed };
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

async function serverInstructions(release: ServerRelease, built: ServerBuild, s: Shape): Promise<Outcome> {
  const spec = serverInstructionsSpec(release, s);
  if (!built.ok) return { spec, status: 'unsupported', reason: built.reason };
  const work = mkdtempSync(join(tmpdir(), `${release.server}-callgrind-`));
  try {
    const bulk = s.workload === 'bulk' ? { bulk: { backendCpu: 0 } } : {};
    const start = (under: string[]) =>
      startServer(release.server, built.binary, mkdtempSync(join(work, 'server-')), s.cert, { under, startMs: 120_000, ...bulk });
    return { spec, value: await instructionsPerConnection(start, { prefix: clientOf().prefix, cpu: 0 }, s.workload, s.proto, work) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export const serversBenchmark: Benchmark = {
  id: 'servers',
  libraries: ['openssl', 'aws-lc'],
  source: import.meta.url,
  description: `nginx and HAProxy built against the build, loaded over loopback by openssl s_time ${CLIENT_VERSION}: the server's CPU time per connection (short, resumed, and resumed connections receiving a 4 MiB response)`,
  wakesOtherCpus: true,
  async prepare(build: BuildUnderTest) {
    clientOf();
    await ensureCerts(build);
    // builds every server the library supports (cached); one that fails is recorded and its series say why
    for (const release of SERVERS) if (!('unsupported' in serverRecipe(release, build, '/nonexistent'))) await buildServer(release, build);
  },
  tasks(build: BuildUnderTest, mode: RunMode): Task[] {
    const task = (release: ServerRelease, s: Shape, spec: SeriesSpec, how: (built: ServerBuild) => Promise<Outcome>, oncePerRun: boolean): Task => ({
      id: `${release.server}/${spec.metric === 'server-instructions-per-connection' ? 'instructions/' : ''}${s.workload}/tls${s.proto}/${s.cert}`,
      produces: [spec],
      ...(oncePerRun ? { oncePerRun } : {}),
      run: async () => {
        const recipe = serverRecipe(release, build, '/nonexistent');
        if ('unsupported' in recipe) return [{ spec, status: 'unsupported' as const, reason: recipe.unsupported }];
        return [await how(await buildServer(release, build))];
      },
    });
    return SERVERS.flatMap((release) =>
      serverShapes(mode).flatMap((s) => [
        task(release, s, serverSpec(release, s), (built) => measure(release, built, s, mode), false),
        task(release, s, serverInstructionsSpec(release, s), (built) => serverInstructions(release, built, s), true),
      ]),
    );
  },
};
