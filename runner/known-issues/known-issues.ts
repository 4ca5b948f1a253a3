// Benchmark 'known-issues': the operations behind OpenSSL's most reported performance complaints
// (complaints.ts lists them with their upstream threads). Per build and operation:
// - CPU time per operation, every round: known_issues.c natively (the TLS 1.2 AES128-SHA handshake:
//   the handshake program), thread CPU time around the repetitions;
// - heap per live DTLS connection, every round (allocator hooks, deterministic in practice);
// - once per run, under valgrind callgrind with the fixed-seed RNG: instructions per operation, and
//   the library's lock, RCU and atomic calls and pthread's lock calls per operation, from two runs
//   with n and 2n repetitions (callgrind counts calls outside the collected region too); for the TLS 1.3
//   full and resumed handshakes also by class of the calling function (lock-classes.ts).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Params, RunMode } from '../../schema/index.ts';
import { type Benchmark, type BuildUnderTest, type Outcome, type SeriesSpec, type Task } from '../benchmark.ts';
import { compileAgainst } from '../compile.ts';
import { cacheRoot } from '../sources.ts';
import { configArgs, ensureCerts, exec, handshakeBinary, runHandshake } from '../handshake/invoke.ts';
import { timingOutcomes, timingSpecs } from '../handshake/series.ts';
import { hiddenFeatures, hiddenFeaturesText, parseHandshakeOutput } from '../handshake/output.ts';
import { annotate, perRepetition, type ProfileKind } from '../causes/callgrind.ts';
import { namedCounts, parseCallgrindCalls, perOperation, perOperationByClass, type CallProfile } from './callgrind-calls.ts';
import { LOCK_CLASS_OPS, LOCK_KINDS, OPS, OP_DEFS, cpuSpec, heapSpec, instructionsSpec, lockClassSpec, lockSpec, type OpDef, type OpId } from './complaints.ts';
import { CLASSED_KINDS, LOCK_CLASSES } from './lock-classes.ts';
import { parseRunOutput, type ProgramOp, type RunOutput } from './output.ts';

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));
export const KNOWN_ISSUES_SOURCE = here('./known_issues.c');

export function knownIssuesBinary(build: BuildUnderTest): string {
  return compileAgainst(build, KNOWN_ISSUES_SOURCE, 'known-issues');
}

/**
 * Repetitions per invocation: native timing by mode (sized for a few tenths of a second on 3.0, the
 * slowest series), and n for the callgrind pair (n and 2n). The ca-bundle load is the heaviest call.
 */
export const PLAN: Record<OpId | 'dtls-heap', { quick: number; full: number; callgrind: number }> = {
  'pkey-pem': { quick: 200, full: 500, callgrind: 5 },
  'pkey-der': { quick: 200, full: 500, callgrind: 5 },
  'pkey-pem-p256': { quick: 200, full: 500, callgrind: 5 },
  'pkey-der-p256': { quick: 200, full: 500, callgrind: 5 },
  'x509-der': { quick: 500, full: 2000, callgrind: 10 },
  'ctx-new': { quick: 200, full: 1000, callgrind: 5 },
  'ca-bundle': { quick: 5, full: 10, callgrind: 1 },
  'aead-reinit': { quick: 20000, full: 100000, callgrind: 100 },
  'aead-new-ctx': { quick: 5000, full: 20000, callgrind: 50 },
  'dtls-handshake': { quick: 100, full: 300, callgrind: 3 },
  'dtls-heap': { quick: 50, full: 200, callgrind: 0 },
  'tls13-handshake': { quick: 0, full: 0, callgrind: 3 },
  'tls13-resumed-handshake': { quick: 0, full: 0, callgrind: 3 },
  'tls12-aes128-sha-handshake': { quick: 300, full: 1000, callgrind: 3 },
};
/** Untimed repetitions before the measured ones under valgrind: the first call pays for lazy initialisation. */
export const CALLGRIND_WARMUP = 1;

// ------------------------------------------------------------------ inputs

/** Keys, certificates and the CA bundle: generated once (fixed-seed RNG) by the first build that needs them, read by every version. */
export const INPUTS_FORMAT = 2; // bump when gen-inputs writes something else: a new folder, never a stale one
export const inputsDir = () => join(cacheRoot(), `known-issues-inputs-v${INPUTS_FORMAT}`);

export interface InputsManifest {
  generatedBy: string;
  files: Record<string, string>;
}

export function readManifest(dir = inputsDir()): InputsManifest | null {
  const f = join(dir, 'manifest.json');
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as InputsManifest) : null;
}

/** One digest of every input file: recorded with each value, so a reader sees that all versions read the same bytes. */
export function inputsDigest(m: InputsManifest): string {
  const h = createHash('sha256');
  for (const name of Object.keys(m.files).sort()) h.update(`${name}=${m.files[name]}\n`);
  return h.digest('hex').slice(0, 16);
}

export async function ensureInputs(build: BuildUnderTest): Promise<InputsManifest> {
  const existing = readManifest();
  if (existing) return existing;
  mkdirSync(cacheRoot(), { recursive: true });
  const tmp = mkdtempSync(join(cacheRoot(), '.known-issues-inputs-'));
  try {
    const r = await exec(knownIssuesBinary(build), ['gen-inputs', tmp], 300_000);
    if (r.code !== 0)
      throw new Error(`known_issues gen-inputs with OpenSSL ${build.record.version} failed (exit ${r.code}): ${(r.stdout + r.stderr).slice(0, 1500)}`);
    const files: Record<string, string> = {};
    for (const name of readdirSync(tmp).sort())
      files[name] = createHash('sha256')
        .update(readFileSync(join(tmp, name)))
        .digest('hex');
    const manifest: InputsManifest = { generatedBy: build.record.version, files };
    writeFileSync(join(tmp, 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n');
    try {
      renameSync(tmp, inputsDir());
    } catch (e) {
      if (!readManifest()) throw e; // another run put its inputs in place first: use those
    }
    return readManifest()!;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------ running

const programArgs = (op: ProgramOp, count: number, warmup?: number) => [
  'run',
  '--op',
  op,
  '--inputs',
  inputsDir(),
  '--count',
  String(count),
  ...(warmup === undefined ? [] : ['--warmup', String(warmup)]),
];

function checkVersion(openssl: string, version: string): void {
  if (!openssl.startsWith(`OpenSSL ${version} `)) throw new Error(`the harness reports "${openssl}", not OpenSSL ${version}`);
}

function inputsObserved(op: OpDef): Params {
  if (!['pkey-pem', 'pkey-der', 'pkey-pem-p256', 'pkey-der-p256', 'x509-der', 'ca-bundle'].includes(op.id)) return {};
  const m = readManifest();
  return m ? { inputs: inputsDigest(m), inputsGeneratedBy: m.generatedBy } : {};
}

const fail = (specs: SeriesSpec[], status: 'unsupported' | 'failed', reason: string): Outcome[] =>
  specs.map((spec) => ({ spec, status, reason: reason.slice(0, 2000) }));

async function runProgram(
  binary: string,
  op: ProgramOp,
  count: number,
  version: string,
): Promise<{ kind: 'run'; out: RunOutput } | { kind: 'unsupported' | 'failed'; reason: string }> {
  const r = await exec(binary, programArgs(op, count), 600_000);
  const where = `known_issues ${op} on ${version}`;
  if (r.code === -1 || !r.stdout.trim()) return { kind: 'failed', reason: `${where}: exit ${r.code}: ${r.stderr.trim().slice(0, 1500)}` };
  const p = parseRunOutput(r.stdout, r.code, { op, count, deterministic: false }, where);
  if (p.kind === 'run') checkVersion(p.out.openssl, version);
  return p;
}

/** Operations counted under callgrind only: their CPU time and instructions are the handshake benchmark's series. */
type CountedOnly = 'tls13-handshake' | 'tls13-resumed-handshake';
const COUNTED_ONLY: OpId[] = ['tls13-handshake', 'tls13-resumed-handshake'] satisfies CountedOnly[];
const classed = (id: OpId) => (LOCK_CLASS_OPS as readonly OpId[]).includes(id);

/** The series a callgrind task emits: instructions (unless the handshake benchmark counts them), lock kinds, and lock classes. */
export function callgrindSpecs(id: OpId): SeriesSpec[] {
  const op = OP_DEFS[id];
  return [
    ...(COUNTED_ONLY.includes(id) ? [] : [instructionsSpec(op)]),
    ...LOCK_KINDS.map((k) => lockSpec(op, k)),
    ...(classed(id) ? CLASSED_KINDS.flatMap((k) => LOCK_CLASSES.map((c) => lockClassSpec(op, k, c))) : []),
  ];
}

export async function cpuTask(build: BuildUnderTest, id: Exclude<OpId, CountedOnly>, mode: RunMode): Promise<Outcome[]> {
  const op = OP_DEFS[id];
  const count = PLAN[id][mode];
  if (op.handshake) {
    const specs = timingSpecs(op.handshake);
    const r = await runHandshake(handshakeBinary(build), op.handshake, count);
    if (r.kind === 'unsupported' || r.kind === 'failed') return fail(specs, r.kind, r.reason);
    if (r.kind !== 'run') throw new Error(`unexpected ${r.kind} output from the handshake program`);
    checkVersion(r.out.openssl, build.record.version);
    return timingOutcomes(op.handshake, r.out);
  }
  const spec = cpuSpec(op);
  const p = await runProgram(knownIssuesBinary(build), id as ProgramOp, count, build.record.version);
  if (p.kind !== 'run') return fail([spec], p.kind, p.reason);
  return [{ spec, value: p.out.cpuNs! / count / 1000, observed: inputsObserved(op) }];
}

export async function heapTask(build: BuildUnderTest, mode: RunMode): Promise<Outcome[]> {
  const specs = [heapSpec('client'), heapSpec('server')];
  const count = PLAN['dtls-heap'][mode];
  const p = await runProgram(knownIssuesBinary(build), 'dtls-heap', count, build.record.version);
  if (p.kind !== 'run') return fail(specs, p.kind, p.reason);
  const h = p.out.heap!;
  const observed = { cipher: p.out.cipher ?? 'unknown', connections: h.connections };
  return [
    { spec: specs[0]!, value: h.clientBytesPerConnection, observed },
    { spec: specs[1]!, value: h.serverBytesPerConnection, observed },
  ];
}

interface CallgrindRun {
  profile: CallProfile;
  /** what the program printed under valgrind */
  stdout: string;
  code: number;
}

/**
 * One invocation under callgrind (collection is toggled by the program around its measured repetitions);
 * `read` takes the output file before it is removed. A string says why there is none.
 */
async function callgrindOutput<T>(
  binary: string,
  args: string[],
  where: string,
  read: (file: string, r: { stdout: string; code: number }) => Promise<T> | T,
): Promise<T | string> {
  const dir = mkdtempSync(join(tmpdir(), 'known-issues-cg-'));
  try {
    const file = join(dir, 'callgrind.out');
    const r = await exec(
      'valgrind',
      ['--tool=callgrind', '--collect-atstart=no', `--callgrind-out-file=${file}`, binary, ...args, '--deterministic'],
      1_800_000,
    );
    if (r.code === -1 && /ENOENT/.test(r.stderr)) return 'valgrind is not installed (apt-get install valgrind)';
    if (!existsSync(file)) return `${where}: valgrind exit ${r.code}, no callgrind output: ${r.stderr.trim().slice(-1500)}`;
    return await read(file, r);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One invocation under callgrind, its lock calls counted. */
export async function underCallgrind(binary: string, args: string[], where: string): Promise<CallgrindRun | { failed: string }> {
  const r = await callgrindOutput(binary, args, where, (file, x) => ({
    profile: parseCallgrindCalls(readFileSync(file, 'utf8'), where),
    stdout: x.stdout,
    code: x.code,
  }));
  return typeof r === 'string' ? { failed: r } : r;
}

/**
 * Per-function instructions per operation of one of the program's operations under callgrind, by a
 * function's own instructions and with its callees (the frames that hold the whole measured loop left
 * out): what a bisection step's function table shows. A string says why there is none.
 */
export async function opFunctionProfiles(build: BuildUnderTest, id: OpId): Promise<Record<ProfileKind, Map<string, number>> | string> {
  if (OP_DEFS[id].handshake) return 'a handshake operation: the handshake metrics profile those';
  const count = 2 * PLAN[id].callgrind;
  const per = async (file: string, kind: ProfileKind) => perRepetition(await annotate(file, kind), kind, count);
  try {
    return await callgrindOutput(
      knownIssuesBinary(build),
      programArgs(id as ProgramOp, count, CALLGRIND_WARMUP),
      `callgrind ${id} on ${build.record.version}`,
      async (file) => ({
        self: await per(file, 'self'),
        inclusive: await per(file, 'inclusive'),
      }),
    );
  } catch (e) {
    return (e as Error).message.slice(0, 300);
  }
}

/** The CPU features valgrind hides from the library: the native capability vector against the one under valgrind. */
async function hiddenText(binary: string, underValgrind: string | undefined): Promise<string> {
  const native = await exec(binary, ['run', '--op', 'ctx-new', '--inputs', inputsDir(), '--count', '1', '--warmup', '0'], 60_000);
  return hiddenFeaturesText(hiddenFeatures(/"ia32cap":"([0-9a-f:]+)"/.exec(native.stdout)?.[1], underValgrind));
}

export async function callgrindTask(build: BuildUnderTest, id: OpId): Promise<Outcome[]> {
  const op = OP_DEFS[id];
  const n = PLAN[id].callgrind;
  const version = build.record.version;
  const withInstructions = !COUNTED_ONLY.includes(id); // the handshake benchmark counts those (same binary, same arguments)
  const specs = callgrindSpecs(id);
  const binary = op.handshake ? handshakeBinary(build) : knownIssuesBinary(build);
  const argsFor = (count: number) => (op.handshake ? configArgs(op.handshake, count) : programArgs(id as ProgramOp, count, CALLGRIND_WARMUP));
  const runs: CallgrindRun[] = [];
  let cap: string | undefined;
  for (const count of [n, 2 * n]) {
    const where = `callgrind ${id} x${count} on ${version}`;
    const r = await underCallgrind(binary, argsFor(count), where);
    if ('failed' in r) return fail(specs, 'failed', r.failed);
    if (op.handshake) {
      const p = parseHandshakeOutput(r.stdout, r.code, where);
      if (p.kind === 'unsupported' || p.kind === 'failed') return fail(specs, p.kind, p.reason);
      if (p.kind !== 'run' || !p.out.underValgrind || !p.out.deterministicRng)
        return fail(specs, 'failed', `${where}: not run under valgrind with the fixed-seed RNG`);
      if (p.out.handshakes !== count) throw new Error(`${where}: ${p.out.handshakes} handshakes counted, asked for ${count}`);
      if (p.out.negotiated.resumed !== (op.handshake.resume !== 'none'))
        return fail(specs, 'failed', `${where}: resumed ${p.out.negotiated.resumed}, asked for resume=${op.handshake.resume}`);
      checkVersion(p.out.openssl, version);
      cap = p.out.ia32cap;
    } else {
      const p = parseRunOutput(r.stdout, r.code, { op: id as ProgramOp, count, deterministic: true }, where);
      if (p.kind !== 'run') return fail(specs, p.kind, p.reason);
      if (!p.out.underValgrind) return fail(specs, 'failed', `${where}: the program did not report running under valgrind`);
      checkVersion(p.out.openssl, version);
      cap = p.out.ia32cap;
    }
    runs.push(r);
  }
  const [small, large] = runs as [CallgrindRun, CallgrindRun];
  const locks = perOperation(small.profile, large.profile, n, `callgrind ${id} on ${version}`);
  const observed: Params = { ...inputsObserved(op), hiddenFeatures: await hiddenText(knownIssuesBinary(build), cap), repetitions: `${n},${2 * n}` };
  const out: Outcome[] = [];
  if (withInstructions) out.push({ spec: instructionsSpec(op), value: large.profile.instructions / (2 * n), observed });
  for (const k of LOCK_KINDS) out.push({ spec: lockSpec(op, k), value: locks[k], observed });
  if (classed(id)) {
    const by = perOperationByClass(small.profile, large.profile, n, `callgrind ${id} on ${version}`);
    for (const k of CLASSED_KINDS) {
      const sum = LOCK_CLASSES.reduce((a, c) => a + by.counts[k][c], 0);
      if (Math.abs(sum - locks[k]) > 1e-9) throw new Error(`callgrind ${id} on ${version}: ${k} by class sums to ${sum}, the total is ${locks[k]}`);
      for (const c of LOCK_CLASSES) {
        const callers = by.callers[k][c];
        const via = by.via[k][c];
        out.push({
          spec: lockClassSpec(op, k, c),
          value: by.counts[k][c],
          observed: { ...observed, ...(callers.length ? { callers: namedCounts(callers) } : {}), ...(via?.length ? { via: namedCounts(via) } : {}) },
        });
      }
    }
  }
  return out;
}

// ------------------------------------------------------------------ tasks

/** Every operation but the counted-only ones, in the tracker's order (complaints.ts OPS), which is the run order. */
const TIMED = OPS.filter((id): id is Exclude<OpId, CountedOnly> => !COUNTED_ONLY.includes(id));
const COUNTED: OpId[] = [...TIMED, ...COUNTED_ONLY];

/** Every series the benchmark can emit, per task id (for tests: keys unique, none shared with the handshake benchmark's matrix). */
export function taskSpecs(): Record<string, SeriesSpec[]> {
  const out: Record<string, SeriesSpec[]> = {};
  for (const id of TIMED) out[`cpu/${id}`] = OP_DEFS[id].handshake ? timingSpecs(OP_DEFS[id].handshake!) : [cpuSpec(OP_DEFS[id])];
  out['heap/dtls'] = [heapSpec('client'), heapSpec('server')];
  for (const id of COUNTED) out[`calls/${id}`] = callgrindSpecs(id);
  return out;
}

export const knownIssuesBenchmark: Benchmark = {
  id: 'known-issues',
  source: import.meta.url,
  libraries: ['openssl'], // needs OpenSSL APIs and internals named in the reports it reproduces
  description:
    'Known regressions tracker: the operations behind reported complaints (key and certificate decoding, CA bundle loading, SSL_CTX_new, tiny AEAD records, DTLS heap, lock calls per handshake), CPU time, instructions and lock calls per operation',
  async prepare(build) {
    knownIssuesBinary(build);
    handshakeBinary(build);
    await ensureCerts(build);
    await ensureInputs(build);
  },
  tasks(build: BuildUnderTest, mode: RunMode): Task[] {
    const specs = taskSpecs();
    const produces = (id: string) => specs[id]!;
    return [
      ...TIMED.map((id): Task => ({ id: `cpu/${id}`, run: () => cpuTask(build, id, mode), produces: produces(`cpu/${id}`) })),
      { id: 'heap/dtls', run: () => heapTask(build, mode), produces: produces('heap/dtls') },
      ...COUNTED.map((id): Task => ({ id: `calls/${id}`, oncePerRun: true, run: () => callgrindTask(build, id), produces: produces(`calls/${id}`) })),
    ];
  },
};
