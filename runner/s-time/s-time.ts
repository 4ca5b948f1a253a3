// Benchmark 's-time': the build's own `openssl s_server` on 127.0.0.1 and `openssl s_time` against it,
// for comparison with figures published that way. What s_time reports is connections per second of
// the CLIENT's user CPU over loopback sockets: the server's cost, kernel time and the network are not in
// it. TLS 1.2 is forced on the server (`s_server -tls1_2`) and, as a separate configuration, also on the
// client with `s_time -tls1_2` where s_time has that option (3.0+; 1.1.1's s_time has none and ignores
// MaxProtocol in the config file, so its client still offers TLS 1.3 and computes a key share). The
// protocol and group are read back with `s_client -brief`, and a "reuse" figure counts only if s_time
// marked every connection as resumed ('r'); otherwise that series fails with the count.
// s_server runs in its own process group under the parent-death guard (runner/child-guard.ts): a
// signal to the run, or its death, never leaves a server listening.
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../net.ts';
import { join } from 'node:path';
import type { Params, RunMode } from '../../schema/index.ts';
import { certName } from '../../catalogue/words.ts';
import { defaultWindow, type Benchmark, type BuildUnderTest, type Outcome, type SeriesSpec, type Task, type WindowLength } from '../benchmark.ts';
import { appEnv } from '../build/build.ts';
import { runGuarded, spawnServer, stopGroup } from '../child-guard.ts';
import { certFiles } from '../certs.ts';
import { ensureCerts } from '../handshake/invoke.ts';

export interface STimeSection {
  connections: number;
  userSeconds: number;
  perUserSecond: number;
  realSeconds: number;
  /** progress marks: '*' = a full handshake, 'r' = s_time saw the session reused */
  full: number;
  reused: number;
  /** what s_time read from its connections (with -www: the response, headers included), all of them and per connection (rounded down) */
  bytesRead: number;
  bytesPerConnection: number;
}
export interface STimeOutput {
  new?: STimeSection;
  reuse?: STimeSection;
}

const USER = /^(\d+) connections in ([\d.]+)s; ([\d.]+) connections\/user sec, bytes read (\d+)$/;
const REAL = /^(\d+) connections in (\d+) real seconds, (\d+) bytes read per connection$/;

function section(lines: string[], name: string, where: string): STimeSection {
  const user = lines.map((l) => USER.exec(l)).find(Boolean);
  const real = lines.map((l) => REAL.exec(l)).find(Boolean);
  if (!user || !real) throw new Error(`${where}: no "connections/user sec" and "real seconds" lines in the ${name} section`);
  const marks = lines.filter((l) => /^[*r]+$/.test(l)).join('');
  const s = {
    connections: Number(user[1]),
    userSeconds: Number(user[2]),
    perUserSecond: Number(user[3]),
    realSeconds: Number(real[2]),
    full: [...marks].filter((c) => c === '*').length,
    reused: [...marks].filter((c) => c === 'r').length,
    bytesRead: Number(user[4]),
    bytesPerConnection: Number(real[3]),
  };
  if (Number(real[1]) !== s.connections) throw new Error(`${where}: ${name} section counts ${s.connections} and ${real[1]} connections`);
  // s_time prints the per-connection figure as the total divided by the count in integers
  if (s.connections > 0 && Math.floor(s.bytesRead / s.connections) !== s.bytesPerConnection)
    throw new Error(`${where}: ${name} section reads ${s.bytesRead} bytes in ${s.connections} connections but ${s.bytesPerConnection} per connection`);
  if (s.full + s.reused !== s.connections)
    throw new Error(`${where}: ${name} section has ${s.full + s.reused} progress marks for ${s.connections} connections`);
  return s;
}

/** Parse what `openssl s_time` printed (both sections, or the one -new / -reuse asked for). */
export function parseSTime(text: string, where: string): STimeOutput {
  const lines = text.split('\n').map((l) => l.trimEnd());
  const split = lines.findIndex((l) => l.startsWith('Now timing with session id reuse'));
  const out: STimeOutput = {};
  const first = split < 0 ? lines : lines.slice(0, split);
  if (first.some((l) => l.startsWith('Collecting connection statistics'))) out.new = section(first, 'new', where);
  if (split >= 0) out.reuse = section(lines.slice(split), 'reuse', where);
  if (!out.new && !out.reuse) throw new Error(`${where}: not s_time output: ${JSON.stringify(text.slice(0, 200))}`);
  return out;
}

/** Protocol and group from `s_client -brief` (its wording differs by version). */
export function parseBrief(text: string): { protocol?: string; group?: string } {
  const protocol = /^Protocol version: (\S+)/m.exec(text)?.[1];
  const group = /^Negotiated TLS1\.3 group: (\S+)/m.exec(text)?.[1] ?? /^(?:Server|Peer) Temp Key: (?:ECDH, )?([^,\s]+)/m.exec(text)?.[1];
  return { ...(protocol ? { protocol } : {}), ...(group ? { group } : {}) };
}

// ------------------------------------------------------------------ running

export interface STimeConfig {
  proto: '1.2' | '1.3';
  cert: 'rsa2048' | 'ecdsa-p256';
  /** 'server': only s_server is limited to `proto`; 'both': s_time and s_client get -tls1_2/-tls1_3 too */
  forced: 'server' | 'both';
}

async function exec(
  bin: string,
  args: string[],
  env: Record<string, string>,
  input: string | undefined,
  timeoutMs: number,
): Promise<{ code: number; out: string }> {
  const r = await runGuarded(bin, args, { env, timeoutMs, maxBuffer: 1 << 24, input });
  return { code: r.code, out: r.stdout + r.stderr };
}

/** Start s_server and wait for its ACCEPT line; the caller must kill it. */
async function startServer(prefix: string, cfg: STimeConfig): Promise<{ server: ChildProcess; port: number }> {
  let last = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    // the same chain the handshake benchmark's server sends: the leaf (the first certificate of the file) and its intermediate CA
    const files = certFiles(cfg.cert);
    const args = ['s_server', '-accept', `127.0.0.1:${port}`, '-cert', files.chain, '-cert_chain', files.intermediate, '-key', files.key, '-www'];
    args.push(cfg.proto === '1.2' ? '-tls1_2' : '-tls1_3');
    const server = spawnServer(join(prefix, 'bin', 'openssl'), args, { env: appEnv(prefix), stdio: ['ignore', 'pipe', 'pipe'] });
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 10_000);
      const seen = (d: Buffer) => {
        last += d.toString();
        if (/^ACCEPT/m.test(last)) (clearTimeout(timer), resolve(true));
      };
      server.stdout!.on('data', seen);
      server.stderr!.on('data', seen);
      server.on('exit', () => (clearTimeout(timer), resolve(false)));
    });
    if (ready) return { server, port };
    await stopGroup(server);
  }
  throw new Error(`s_server did not start: ${last.slice(0, 500)}`);
}

export interface STimeRun {
  port: number;
  brief: string;
  stime: string;
  exitCode: number;
}

/** Whether this build's s_time can limit its own protocol version (it cannot in 1.1.1). */
export async function sTimeHasProtocolOptions(prefix: string): Promise<boolean> {
  const r = await exec(join(prefix, 'bin', 'openssl'), ['s_time', '-help'], appEnv(prefix), '', 30_000);
  return /^\s*-tls1_2\s/m.test(r.out);
}

/** One comparison run: server up, one s_client check, s_time for `seconds` per section, server killed. With `www`, s_time GETs that path from each connection (the fixtures' byte counts). */
export async function runSTime(prefix: string, cfg: STimeConfig, seconds: number, www?: string): Promise<STimeRun> {
  const { server, port } = await startServer(prefix, cfg);
  try {
    const bin = join(prefix, 'bin', 'openssl');
    const env = appEnv(prefix);
    const flag = cfg.forced === 'both' ? [cfg.proto === '1.2' ? '-tls1_2' : '-tls1_3'] : [];
    const brief = await exec(bin, ['s_client', '-connect', `127.0.0.1:${port}`, '-brief', ...flag], env, '', 30_000);
    const st = await exec(
      bin,
      ['s_time', '-connect', `127.0.0.1:${port}`, '-time', String(seconds), ...(www ? ['-www', www] : []), ...flag],
      env,
      undefined,
      (4 * seconds + 60) * 1000,
    );
    return { port, brief: brief.out, stime: st.out, exitCode: st.code };
  } finally {
    await stopGroup(server);
  }
}

// ------------------------------------------------------------------ series

export function sTimeSpec(cfg: STimeConfig, resume: 'none' | 'reuse'): SeriesSpec {
  const params: Params = {
    proto: cfg.proto,
    cert: cfg.cert,
    clientGroups: 'default',
    serverGroups: 'default',
    resume,
    forced: cfg.forced,
    tool: 's_time',
    side: 'client',
  };
  const forced =
    cfg.forced === 'both' ? `TLS ${cfg.proto} forced on both sides` : `TLS ${cfg.proto} forced on the server only (the client offers its defaults)`;
  return {
    benchmark: 's-time',
    metric: 'connections-per-client-user-second',
    label: `openssl s_time against s_server over loopback, ${resume === 'none' ? 'new sessions' : 'session reuse (-reuse)'}: connections per second of CLIENT user CPU only (no server, kernel or system time); ${forced}; ${certName(cfg.cert)} certificate, default groups`,
    unit: 'connections/s',
    method: 'client-user-cpu',
    higherIsBetter: true,
    params,
    comparability: { acrossVersions: true },
  };
}

/**
 * Why s_time cannot time TLS 1.3 resumption. A TLS 1.3 server sends its session ticket after the handshake;
 * s_time reads from a connection only when given -www, so without it the client closes before the ticket
 * arrives and has nothing to resume. Checked with 3.5.7 against s_server -www -tls1_3: `s_time -reuse` made
 * 0 of ~1,700 connections resumed, `s_time -reuse -www /` resumed all but the first ~1,850 (each then also
 * fetching a ~4.7 KB page, which is why the benchmark does not time it that way).
 */
export const S_TIME_TLS13_REUSE =
  "s_time cannot time TLS 1.3 resumption: it reads nothing after the handshake (unless -www), so it closes before the server's session ticket arrives and every -reuse connection is a full handshake; the handshake benchmark times TLS 1.3 resumption";

export function sTimeOutcomes(cfg: STimeConfig, run: STimeRun, where: string): Outcome[] {
  const specs = { none: sTimeSpec(cfg, 'none'), reuse: sTimeSpec(cfg, 'reuse') };
  const failAll = (reason: string): Outcome[] => [specs.none, specs.reuse].map((spec) => ({ spec, status: 'failed' as const, reason }));
  const brief = parseBrief(run.brief);
  const want = cfg.proto === '1.2' ? 'TLSv1.2' : 'TLSv1.3';
  if (brief.protocol !== want) return failAll(`${where}: s_client negotiated ${brief.protocol ?? 'nothing'}, asked for ${want}: ${run.brief.slice(0, 600)}`);
  if (run.exitCode !== 0) return failAll(`${where}: s_time exited with ${run.exitCode}: ${run.stime.slice(-600)}`);
  const out = parseSTime(run.stime, where);
  if (!out.new || !out.reuse) return failAll(`${where}: s_time printed only ${out.new ? 'the new' : 'the reuse'} section`);
  const observed: Params = { negotiatedProtocol: brief.protocol, negotiatedGroup: brief.group ?? 'unknown', checkedWith: 's_client -brief' };
  const result: Outcome[] = [{ spec: specs.none, value: out.new.perUserSecond, observed: { ...observed, connections: out.new.connections } }];
  if (cfg.proto === '1.3' && out.reuse.reused === 0) result.push({ spec: specs.reuse, status: 'unsupported', reason: S_TIME_TLS13_REUSE, observed });
  else if (out.reuse.full > 0)
    result.push({
      spec: specs.reuse,
      status: 'failed',
      reason: `s_time -reuse did not resume: ${out.reuse.full} of ${out.reuse.connections} connections were full handshakes ('*'), ${out.reuse.reused} resumed ('r')`,
      observed,
    });
  else
    result.push({ spec: specs.reuse, value: out.reuse.perUserSecond, observed: { ...observed, resumptionVerified: true, connections: out.reuse.connections } });
  return result;
}

export function sTimeConfigs(mode: RunMode): STimeConfig[] {
  const certs = mode === 'quick' ? (['ecdsa-p256'] as const) : (['ecdsa-p256', 'rsa2048'] as const);
  const shapes: Omit<STimeConfig, 'cert'>[] = [
    { proto: '1.3', forced: 'server' },
    { proto: '1.2', forced: 'server' },
    ...(mode === 'full' ? [{ proto: '1.2', forced: 'both' } as const] : []),
  ];
  return shapes.flatMap((s) => certs.map((cert) => ({ ...s, cert })));
}

/** Seconds per section (new, reuse) of one window; s_time's user CPU has 10 ms resolution. */
const S_TIME_WINDOWS = { unit: 'seconds per section (new, reuse)', short: 2, long: 3 };

export const sTimeBenchmark: Benchmark = {
  id: 's-time',
  libraries: ['openssl'], // needs the openssl s_time app
  description: 'openssl s_time against openssl s_server over loopback: connections per CLIENT user-CPU second, for comparison with published figures',
  async prepare(build: BuildUnderTest) {
    await ensureCerts(build);
  },
  windows: S_TIME_WINDOWS,
  wakesOtherCpus: true,
  tasks(build: BuildUnderTest, mode: RunMode, window: WindowLength = defaultWindow(mode)): Task[] {
    const seconds = S_TIME_WINDOWS[window];
    return sTimeConfigs(mode).map((cfg) => ({
      id: `tls${cfg.proto}/${cfg.cert}/forced-${cfg.forced}`,
      produces: [sTimeSpec(cfg, 'none'), sTimeSpec(cfg, 'reuse')],
      run: async () => {
        if (cfg.forced === 'both' && !(await sTimeHasProtocolOptions(build.prefix))) {
          const reason = `this version's s_time has no -tls1_2/-tls1_3 option (and ignores MaxProtocol in the config file), so its client cannot be limited`;
          return [sTimeSpec(cfg, 'none'), sTimeSpec(cfg, 'reuse')].map((spec) => ({ spec, status: 'unsupported' as const, reason }));
        }
        return sTimeOutcomes(cfg, await runSTime(build.prefix, cfg, seconds), `s_time TLS ${cfg.proto} ${cfg.cert} on ${build.record.version}`);
      },
    }));
  },
};
