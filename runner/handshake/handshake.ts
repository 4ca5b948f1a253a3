// Benchmark 'handshake': runner/handshake/handshake.c, compiled against every version, runs client and
// server in one process over a BIO pair and measures each side's CPU time per handshake, the bytes each
// side sends, the ClientHello, heap per connection and (under valgrind) instructions per handshake.
// Every handshake is checked by the program itself (protocol, pinned group, resumption); a configuration
// a version cannot do comes back 'unsupported' with the library's reason.
import { Library, type RunMode } from '../../schema/index.ts';
import { median } from '../../analysis/stats.ts';
import { defaultWindow, type Benchmark, type BuildUnderTest, type Outcome, type SeriesSpec, type Task, type WindowLength, type Windows } from '../benchmark.ts';
import { CERTS } from '../certs.ts';
import { libraryMismatch } from '../library-id.ts';
import { hiddenFeaturesText } from './output.ts';
import { baseConfig, pin, sameGroups, type HandshakeConfig } from './config.ts';
import { countInstructions, ensureCerts, execCtxNew, handshakeBinary, runHandshake } from './invoke.ts';
import { ctxNewSpec, instructionSpec, memorySpecs, observedOf, timingOutcomes, timingSpecs } from './series.ts';

export type TaskDef =
  | { kind: 'timing'; cfg: HandshakeConfig; count: number }
  | { kind: 'memory'; cfg: HandshakeConfig; count: number }
  | { kind: 'instructions'; cfg: HandshakeConfig; count: number }
  | { kind: 'ctx-new'; count: number };

const PQ_GROUPS = ['X25519MLKEM768', 'SecP256r1MLKEM768', 'MLKEM768'];

/** Handshake shapes: new handshakes for every cert x group setting, resumption, TLS 1.2. */
export function handshakeShapes(mode: RunMode): HandshakeConfig[] {
  const c = baseConfig;
  if (mode === 'quick')
    return [
      c(),
      c(sameGroups('X25519')),
      c({ serverGroups: 'X25519' }),
      c(sameGroups('X25519MLKEM768')),
      c({ cert: 'rsa2048', ...sameGroups('X25519') }),
      c({ resume: 'ticket' }),
      c({ proto: '1.2', ...pin('1.2', 'ecdsa-p256', 'X25519') }),
      c({ proto: '1.2', resume: 'session-id' }),
    ];
  const shapes: HandshakeConfig[] = [];
  for (const cert of CERTS) {
    shapes.push(c({ cert }), c({ cert, ...sameGroups('X25519') }), c({ cert, ...sameGroups('P-256') }), c({ cert, serverGroups: 'X25519' }));
    for (const g of PQ_GROUPS) shapes.push(c({ cert, ...sameGroups(g) }));
  }
  for (const cert of ['rsa2048', 'ecdsa-p256'] as const) {
    for (const groups of ['default', 'X25519']) shapes.push(c({ cert, resume: 'ticket', ...sameGroups(groups) }));
    shapes.push(c({ proto: '1.2', cert }));
    for (const group of ['X25519', 'P-256']) shapes.push(c({ proto: '1.2', cert, ...pin('1.2', cert, group) }));
    shapes.push(c({ proto: '1.2', cert, resume: 'ticket' }), c({ proto: '1.2', cert, resume: 'session-id' }));
  }
  return shapes;
}

/** Handshakes per timed window (resumed ones and SSL_CTX_new calls are cheaper: more of them per window); runner/windows.ts chooses. */
export const HANDSHAKE_WINDOWS: Record<WindowLength, { new: number; resumed: number; ctxNew: number }> = {
  short: { new: 300, resumed: 1000, ctxNew: 300 },
  long: { new: 1000, resumed: 3000, ctxNew: 2000 },
};

export function handshakeMatrix(mode: RunMode, window: WindowLength = defaultWindow(mode)): TaskDef[] {
  const quick = mode === 'quick';
  const per = HANDSHAKE_WINDOWS[window];
  const n = (cfg: HandshakeConfig) => (cfg.resume === 'none' ? per.new : per.resumed);
  const shapes = handshakeShapes(mode);
  const defs: TaskDef[] = shapes.map((cfg) => ({ kind: 'timing', cfg, count: n(cfg) }));
  const pinned = baseConfig(sameGroups('X25519'));
  for (const threads of quick ? [2] : [2, 4]) defs.push({ kind: 'timing', cfg: { ...pinned, threads }, count: n(pinned) });
  if (!quick) defs.push({ kind: 'timing', cfg: { ...baseConfig({ cert: 'rsa2048', ...sameGroups('X25519') }), threads: 2 }, count: n(pinned) });
  defs.push({ kind: 'ctx-new', count: per.ctxNew });
  for (const proto of quick ? (['1.3'] as const) : (['1.3', '1.2'] as const))
    defs.push({ kind: 'timing', cfg: { ...pinned, proto, ...pin(proto, 'ecdsa-p256', 'X25519'), mode: 'ctx-per-conn' }, count: n(pinned) });
  for (const proto of ['1.3', '1.2'] as const)
    for (const cert of quick ? (['ecdsa-p256'] as const) : (['ecdsa-p256', 'rsa2048'] as const))
      defs.push({ kind: 'memory', cfg: { ...baseConfig({ proto, cert, ...pin(proto, cert, 'X25519') }), mode: 'memory' }, count: quick ? 50 : 200 });
  // what verifying the chain costs each library: the same handshake with a client that verifies nothing
  const controls = (quick ? (['ecdsa-p256'] as const) : (['ecdsa-p256', 'rsa2048'] as const)).map((cert) =>
    baseConfig({ cert, ...sameGroups('X25519'), verify: 'none' }),
  );
  for (const cfg of controls) defs.push({ kind: 'timing', cfg, count: n(cfg) });
  const counted = quick ? [baseConfig(), pinned] : [...shapes];
  for (const cfg of [...counted, ...controls]) defs.push({ kind: 'instructions', cfg, count: quick ? 5 : 10 });
  return defs;
}

export function taskId(d: TaskDef): string {
  if (d.kind === 'ctx-new') return 'ctx-new';
  const c = d.cfg;
  const g = c.clientGroups === c.serverGroups ? c.clientGroups : `${c.clientGroups}-vs-${c.serverGroups}`;
  return [d.kind, `tls${c.proto}`, c.cert, g, c.resume, `t${c.threads}`, c.mode, ...(c.verify === 'none' ? ['verify-none'] : [])].join('/');
}

export function specsOf(d: TaskDef): SeriesSpec[] {
  if (d.kind === 'ctx-new') return [ctxNewSpec];
  if (d.kind === 'memory') return memorySpecs(d.cfg);
  if (d.kind === 'instructions') return [instructionSpec(d.cfg)];
  return timingSpecs(d.cfg);
}

const all = (d: TaskDef, status: 'unsupported' | 'failed', reason: string): Outcome[] =>
  specsOf(d).map((spec) => ({ spec, status, reason: reason.slice(0, 2000) }));

/** Callgrind counts per configuration on a library whose RNG cannot be fixed (median reported, spread observed). */
export const UNFIXED_RNG_COUNTS = 3;

export async function runTask(d: TaskDef, binary: string, build: Pick<BuildUnderTest['record'], 'library' | 'version'>): Promise<Outcome[]> {
  const checkVersion = (reported: string) => {
    const wrong = libraryMismatch(reported, build);
    if (wrong) throw new Error(`handshake: ${wrong}`);
  };
  if (d.kind === 'instructions') {
    const r = await countInstructions(binary, d.cfg, d.count);
    if (r.kind !== 'measured') return all(d, r.kind, r.reason);
    checkVersion(r.out.openssl);
    const observed = { ...observedOf(r.out), hiddenFeatures: hiddenFeaturesText(r.hiddenFeatures) };
    if (r.out.deterministicRng) return [{ spec: instructionSpec(d.cfg), value: r.instructionsPerHandshake, observed }];
    // the library's RNG cannot be fixed: count UNFIXED_RNG_COUNTS times, report the median and the spread
    const counts = [r.instructionsPerHandshake];
    while (counts.length < UNFIXED_RNG_COUNTS) {
      const again = await countInstructions(binary, d.cfg, d.count);
      if (again.kind !== 'measured') return all(d, again.kind, again.reason);
      counts.push(again.instructionsPerHandshake);
    }
    counts.sort((a, b) => a - b);
    const mid = median(counts);
    return [
      {
        spec: instructionSpec(d.cfg),
        value: mid,
        observed: {
          ...observed,
          rng: `not fixed: ${r.out.rngNotFixed}`.slice(0, 200),
          instructionCounts: counts.map((c) => Math.round(c)).join(','),
          instructionSpread: (counts.at(-1)! - counts[0]!) / mid,
        },
      },
    ];
  }
  const cfg = d.kind === 'ctx-new' ? baseConfig() : d.cfg;
  const r = d.kind === 'ctx-new' ? await execCtxNew(binary, d.count) : await runHandshake(binary, cfg, d.count);
  if (r.kind === 'unsupported' || r.kind === 'failed') return all(d, r.kind, r.reason);
  checkVersion(r.out.openssl);
  if (r.kind === 'ctx-new') return [{ spec: ctxNewSpec, value: r.out.ctxNewCpuNs / r.out.count / 1000 }];
  if (d.kind === 'memory') {
    const h = r.out.heap;
    if (!h) throw new Error('memory mode output without heap counts');
    const [c, s] = memorySpecs(cfg);
    const observed = observedOf(r.out);
    return [
      { spec: c!, value: h.clientBytesPerConnection, observed },
      { spec: s!, value: h.serverBytesPerConnection, observed },
    ];
  }
  return timingOutcomes(cfg, r.out);
}

/** The handshake benchmark over a matrix of configurations; `windows` where the matrix sizes its windows by the window it is given (runner/windows.ts chooses). */
export function createHandshakeBenchmark(matrix: (mode: RunMode, window?: WindowLength) => TaskDef[], windows?: Windows): Benchmark {
  return {
    id: 'handshake',
    libraries: Library.options, // handshake.c compiles against every library c-common/library.h knows
    source: import.meta.url,
    description:
      'TLS 1.2/1.3 handshakes in-process over a BIO pair: client and server CPU per handshake, bytes, ClientHello, heap per connection, instruction counts, thread scaling, SSL_CTX_new cost',
    async prepare(build) {
      handshakeBinary(build);
      await ensureCerts(build);
    },
    ...(windows ? { windows } : {}),
    tasks(build: BuildUnderTest, mode: RunMode, window?: WindowLength): Task[] {
      return matrix(mode, window).map((d) => ({
        id: taskId(d),
        run: () => runTask(d, handshakeBinary(build), build.record),
        oncePerRun: d.kind === 'instructions',
        produces: specsOf(d),
      }));
    },
  };
}

export const handshakeBenchmark: Benchmark = createHandshakeBenchmark(handshakeMatrix, {
  unit: 'new handshakes per window',
  short: HANDSHAKE_WINDOWS.short.new,
  long: HANDSHAKE_WINDOWS.long.new,
});
