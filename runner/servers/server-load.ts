// Load on a real server (servers.ts) from one fixed client, and what the server spent on it (issue 33).
// The client is `openssl s_time` of one reference build, the same for every server build, so a difference
// between two server builds is the server's. Client and server run pinned to different CPUs; the server has
// one worker and one thread, so its process's CPU time over a window (/proc/<pid>/stat utime + stime) is all
// it spent on the window's connections. Connections per second are the server's figure only when the server
// was the one saturated (serverBound).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appEnv } from '../build/build.ts';
import { childPids, runGuarded } from '../child-guard.ts';
import { CERT_HOSTNAME } from '../certs.ts';
import { parseSTime, type STimeSection } from '../s-time/s-time.ts';
import { BULK_BYTES, BULK_PATH, bulkBody, type RunningServer } from './servers.ts';

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks per second. */
export const TICKS_PER_SECOND = 100;

/**
 * What a client connection does: a full TLS handshake, a small GET, close; or the same resuming the session
 * of the connection before; or, bulk, a resumed connection that reads a BULK_BYTES response (the record
 * layer's throughput, the handshake a small share).
 */
export type Workload = 'short' | 'resumed' | 'bulk';

/** The path a workload's connections GET. */
export const workloadPath = (workload: Workload): string => (workload === 'bulk' ? BULK_PATH : '/');

/** A line of /proc/<pid>/stat: the process's own CPU (utime + stime) and its waited-for children's (cutime + cstime), in seconds. */
export function statCpuSeconds(stat: string): { own: number; children: number } {
  // the command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'
  const f = stat
    .slice(stat.lastIndexOf(')') + 2)
    .trim()
    .split(/\s+/);
  // f[0] is field 3; utime, stime, cutime, cstime are fields 14..17
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(f[i]));
  if (![utime, stime, cutime, cstime].every((x) => Number.isFinite(x))) throw new Error(`not a /proc/<pid>/stat line: ${JSON.stringify(stat.slice(0, 120))}`);
  return { own: (utime! + stime!) / TICKS_PER_SECOND, children: (cutime! + cstime!) / TICKS_PER_SECOND };
}

/** The server program's pid: the one child of the group leader spawnServer started. */
export function serverPid(server: Pick<RunningServer, 'process'>): number {
  const leader = server.process.pid;
  const children = leader === undefined ? [] : childPids(leader);
  if (children.length !== 1) throw new Error(`expected the server as the one child of its group leader (pid ${leader}), found ${children.length}`);
  return children[0]!;
}

const cpuOf = (pid: number) => statCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8')).own;

/** Share of one CPU a process kept busy over a window above which it was the bottleneck. */
export const SATURATED = 0.9;

/**
 * Who limited the connection rate: the server when its CPU was busy for most of the window while the client
 * had time to spare; the client in the opposite case; neither when both waited (for the loopback's round
 * trips, say). Only a server-bound window's connections per second describe the server.
 */
export function boundBy(w: { wallSeconds: number; serverCpuSeconds: number; clientCpuSeconds: number }): {
  by: 'server' | 'client' | 'neither';
  serverBusy: number;
  clientBusy: number;
} {
  const serverBusy = w.serverCpuSeconds / w.wallSeconds;
  const clientBusy = w.clientCpuSeconds / w.wallSeconds;
  const by = serverBusy >= SATURATED && clientBusy < SATURATED ? 'server' : clientBusy >= SATURATED ? 'client' : 'neither';
  return { by, serverBusy, clientBusy };
}

export interface LoadWindow {
  workload: Workload;
  proto: '1.2' | '1.3';
  /** the client's count: connections completed, of which full handshakes and resumptions */
  connections: number;
  full: number;
  resumed: number;
  /** what the client read per connection (s_time's figure: the response with its headers, averaged) */
  bytesPerConnection: number;
  wallSeconds: number;
  serverCpuSeconds: number;
  clientCpuSeconds: number;
  serverCpuPerConnection: number;
  bound: ReturnType<typeof boundBy>;
}

export interface LoadClient {
  /** install prefix of the client's library build (its bin/openssl) */
  prefix: string;
  /** the CPU the client runs on (the server runs on another) */
  cpu: number;
}

/**
 * One window of `seconds` of one workload against a started server. The client runs under a shell that
 * reports its children's CPU time after s_time exits, so the client's whole CPU (user and system) is known.
 */
export async function loadWindow(server: RunningServer, client: LoadClient, workload: Workload, proto: '1.2' | '1.3', seconds: number): Promise<LoadWindow> {
  const pid = serverPid(server);
  const openssl = join(client.prefix, 'bin', 'openssl');
  const args = [
    's_time',
    '-connect',
    `127.0.0.1:${server.port}`,
    '-www',
    workloadPath(workload),
    '-time',
    String(seconds),
    workload === 'short' ? '-new' : '-reuse',
    proto === '1.2' ? '-tls1_2' : '-tls1_3',
  ];
  // bash's own stat after waiting for s_time: cutime + cstime are the client's CPU
  const script = '/usr/bin/taskset -c "$1" "${@:2}"; status=$?; read -r stat < /proc/$$/stat; echo "client-stat: $stat" >&2; exit $status';
  const before = cpuOf(pid);
  const started = performance.now();
  const r = await runGuarded('/bin/bash', ['-c', script, 'client', String(client.cpu), openssl, ...args], {
    env: appEnv(client.prefix),
    timeoutMs: (4 * seconds + 60) * 1000,
    maxBuffer: 1 << 24,
  });
  const wallSeconds = (performance.now() - started) / 1000;
  const serverCpuSeconds = cpuOf(pid) - before;
  const where = `s_time ${workload} TLS ${proto} against port ${server.port}`;
  if (r.code !== 0) throw new Error(`${where} exited with ${r.code}: ${r.stderr.slice(-400)}`);
  const stat = /^client-stat: (.*)$/m.exec(r.stderr)?.[1];
  if (!stat) throw new Error(`${where}: the client's CPU time was not reported`);
  const parsed = parseSTime(r.stdout, where);
  const s: STimeSection | undefined = workload === 'short' ? parsed.new : parsed.reuse;
  if (!s || s.connections === 0) throw new Error(`${where}: no connections counted`);
  // s_time counts a connection whose response was cut short like any other: only the bytes tell
  if (workload === 'bulk' && s.bytesRead < s.connections * BULK_BYTES)
    throw new Error(
      `${where}: ${s.connections} connections read ${s.bytesRead} bytes, ${s.bytesPerConnection} per connection: less than the ${BULK_BYTES}-byte body each`,
    );
  const clientCpuSeconds = statCpuSeconds(stat).children;
  const window = { wallSeconds, serverCpuSeconds, clientCpuSeconds };
  return {
    workload,
    proto,
    connections: s.connections,
    full: s.full,
    resumed: s.reused,
    bytesPerConnection: s.bytesPerConnection,
    ...window,
    serverCpuPerConnection: serverCpuSeconds / s.connections,
    bound: boundBy(window),
  };
}

// ------------------------------------------------------------------ instructions per connection

/** Connections made in the two counted servers: the difference of their counts is what `MANY - FEW` connections cost. */
export const FEW = 10;
export const MANY = 40;
/**
 * The same for bulk, fewer: each connection moves BULK_BYTES through the server under callgrind (with these
 * counts a bulk task took 13 to 18 s against 3.5.7; 10 and 40 would take about five times as long).
 * HAProxy's bulk count varies more than nginx's: 3.5% between two runs against 3.5.7, nginx's under 0.01%.
 */
export const BULK_FEW = 2;
export const BULK_MANY = 8;

export const connectionCounts = (workload: Workload): [number, number] => (workload === 'bulk' ? [BULK_FEW, BULK_MANY] : [FEW, MANY]);

/**
 * Whether what s_client -quiet printed is the bulk response: headers, then exactly the bulk body (an HTTP/1.0
 * response ends when the server closes, so a short read would not fail the client).
 */
export function checkBulkResponse(stdout: string, where: string): void {
  const head = stdout.indexOf('\r\n\r\n');
  if (!/^HTTP\/1\.[01] 200 /.test(stdout) || head < 0) throw new Error(`${where}: not a 200 response: ${JSON.stringify(stdout.slice(0, 200))}`);
  const body = stdout.slice(head + 4);
  if (body.length !== BULK_BYTES || body !== bulkBody().toString('latin1'))
    throw new Error(`${where}: read ${body.length} body bytes, not the ${BULK_BYTES}-byte bulk body`);
}

/** `n` connections one after another, each a client process of the reference build: a GET (workloadPath), read to the end, close. */
async function connections(port: number, client: LoadClient, workload: Workload, proto: '1.2' | '1.3', n: number, dir: string): Promise<void> {
  const session = join(dir, 'session.pem');
  const openssl = join(client.prefix, 'bin', 'openssl');
  for (let i = 0; i < n; i++) {
    // a resumed connection takes the session of the one before; the first one makes it (it is counted as full: the pair's difference removes it)
    const resume = workload !== 'short' ? (i === 0 ? ['-sess_out', session] : ['-sess_in', session, '-sess_out', session]) : [];
    const r = await runGuarded(
      openssl,
      ['s_client', '-connect', `127.0.0.1:${port}`, proto === '1.2' ? '-tls1_2' : '-tls1_3', '-quiet', '-ign_eof', ...resume],
      {
        env: appEnv(client.prefix),
        timeoutMs: 60_000,
        maxBuffer: 2 * BULK_BYTES,
        input: `GET ${workloadPath(workload)} HTTP/1.0\r\nHost: ${CERT_HOSTNAME}\r\n\r\n`,
      },
    );
    if (r.code !== 0) throw new Error(`s_client connection ${i + 1} of ${n} exited with ${r.code}: ${r.stderr.slice(-300)}`);
    if (workload === 'bulk') checkBulkResponse(r.stdout, `s_client connection ${i + 1} of ${n}`);
  }
}

/** The callgrind total of a file ("totals:" or "summary:" line). */
export function callgrindTotal(text: string, where: string): number {
  const m = /^(?:totals|summary):\s+(\d+)/m.exec(text);
  if (!m) throw new Error(`${where}: no totals line in the callgrind output`);
  return Number(m[1]);
}

/**
 * Instructions the server executes per connection of a workload: two servers run under callgrind, one given
 * FEW connections and one MANY (BULK_FEW and BULK_MANY for bulk), and stopped cleanly (SIGTERM: callgrind
 * writes its counts at exit); their totals' difference divided by MANY - FEW leaves out start-up and
 * shut-down. The server's random numbers are not fixed, so counts vary a little between runs (the
 * cryptography runs in constant time, the rest does not).
 */
export async function instructionsPerConnection(
  start: (under: string[]) => Promise<RunningServer>,
  client: LoadClient,
  workload: Workload,
  proto: '1.2' | '1.3',
  dir: string,
): Promise<number> {
  const totals: number[] = [];
  const [few, many] = connectionCounts(workload);
  for (const n of [few, many]) {
    const out = join(dir, `callgrind-${n}.out`);
    const server = await start(['valgrind', '--tool=callgrind', `--callgrind-out-file=${out}`]);
    try {
      await connections(server.port, client, workload, proto, n, dir);
      await stopCleanly(server);
    } finally {
      await server.stop();
    }
    totals.push(callgrindTotal(readFileSync(out, 'utf8'), `${n} connections`));
  }
  return (totals[1]! - totals[0]!) / (many - few);
}

/**
 * Stop the server program so that it exits by itself (callgrind writes its counts at exit): SIGTERM, and
 * where a server under valgrind has not acted on it after a few seconds (nginx sometimes does not), SIGQUIT
 * (graceful) and SIGINT; wait for its group leader to exit.
 */
async function stopCleanly(server: RunningServer, waitMs = 20_000): Promise<void> {
  const leader = server.process;
  if (leader.exitCode !== null || leader.signalCode !== null) return;
  let done = false;
  const exited = new Promise<void>((resolve) => leader.once('exit', () => ((done = true), resolve())));
  const pid = serverPid(server);
  for (const sig of ['SIGTERM', 'SIGQUIT', 'SIGINT', 'SIGTERM'] as const) {
    try {
      process.kill(pid, sig);
    } catch {
      break; // it is gone
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, waitMs / 4))]);
    if (done) return;
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 1000))]);
  if (!done) throw new Error(`the server did not exit within ${waitMs / 1000} s of SIGTERM, SIGQUIT and SIGINT`);
}
