// Load on a real server (servers.ts) from one fixed client, and what the server spent on it (issue 33).
// The client is `openssl s_time` of one reference build, the same for every server build, so a difference
// between two server builds is the server's. Client and server run pinned to different CPUs; the server has
// one worker and one thread, so its process's CPU time over a window (/proc/<pid>/stat utime + stime) is all
// it spent on the window's connections. Connections per second are the server's figure only when the server
// was the one saturated (serverBound).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appEnv } from '../build.ts';
import { childPids, runGuarded } from '../child-guard.ts';
import { parseSTime, type STimeSection } from '../s-time/s-time.ts';
import type { RunningServer } from './servers.ts';

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks per second. */
export const TICKS_PER_SECOND = 100;

/** What a client connection does: a full TLS handshake, a small GET, close; or the same resuming the session of the connection before. */
export type Workload = 'short' | 'resumed';

/** A line of /proc/<pid>/stat: the process's own CPU (utime + stime) and its waited-for children's (cutime + cstime), in seconds. */
export function statCpuSeconds(stat: string): { own: number; children: number } {
  // the command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'
  const f = stat.slice(stat.lastIndexOf(')') + 2).trim().split(/\s+/);
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
export function boundBy(w: { wallSeconds: number; serverCpuSeconds: number; clientCpuSeconds: number }): { by: 'server' | 'client' | 'neither'; serverBusy: number; clientBusy: number } {
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
  const args = ['s_time', '-connect', `127.0.0.1:${server.port}`, '-www', '/', '-time', String(seconds), workload === 'short' ? '-new' : '-reuse', proto === '1.2' ? '-tls1_2' : '-tls1_3'];
  // bash's own stat after waiting for s_time: cutime + cstime are the client's CPU
  const script = '/usr/bin/taskset -c "$1" "${@:2}"; status=$?; read -r stat < /proc/$$/stat; echo "client-stat: $stat" >&2; exit $status';
  const before = cpuOf(pid);
  const started = performance.now();
  const r = await runGuarded('/bin/bash', ['-c', script, 'client', String(client.cpu), openssl, ...args], { env: appEnv(client.prefix), timeoutMs: (4 * seconds + 60) * 1000, maxBuffer: 1 << 24 });
  const wallSeconds = (performance.now() - started) / 1000;
  const serverCpuSeconds = cpuOf(pid) - before;
  const where = `s_time ${workload} TLS ${proto} against port ${server.port}`;
  if (r.code !== 0) throw new Error(`${where} exited with ${r.code}: ${r.stderr.slice(-400)}`);
  const stat = /^client-stat: (.*)$/m.exec(r.stderr)?.[1];
  if (!stat) throw new Error(`${where}: the client's CPU time was not reported`);
  const parsed = parseSTime(r.stdout, where);
  const s: STimeSection | undefined = workload === 'short' ? parsed.new : parsed.reuse;
  if (!s || s.connections === 0) throw new Error(`${where}: no connections counted`);
  const clientCpuSeconds = statCpuSeconds(stat).children;
  const window = { wallSeconds, serverCpuSeconds, clientCpuSeconds };
  return { workload, proto, connections: s.connections, full: s.full, resumed: s.reused, ...window, serverCpuPerConnection: serverCpuSeconds / s.connections, bound: boundBy(window) };
}
