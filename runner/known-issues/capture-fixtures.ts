// Capture real output of known_issues.c and of the handshake program for the parsers' fixtures:
//   node runner/known-issues/capture-fixtures.ts [--only lock-classes] 1.1.1w 3.0.22 3.1.4 3.2.1 3.3.2 3.4.1 3.5.7 3.6.3 4.0.3 (the default matrix)
// Writes runner/known-issues/fixtures/<version>/ (--only lock-classes: the last three kinds only):
//   <op>.json                  one native run of every operation (small counts): argv, exit code, stdout
//   usage-error.json           an unknown operation (exit 64)
//   callgrind-<op>-<n>.out.gz  callgrind's own output file for x509-der and ctx-new at n and 2n
//   callgrind-<op>-<n>.json    what the program printed under valgrind for the same runs (and for the handshakes below)
//   callgrind-<op>-<n>.trimmed.out.gz  for the TLS 1.3 full and resumed handshakes (LOCK_CLASS_OPS) at n and 2n:
//                              callgrind's output file cut to the calls into lock and atomic functions and into
//                              their callers (trimCallgrind), a few KB instead of 40-60 KB compressed
//   lock-classes-<op>.json     the counts per handshake read from the two untrimmed files: by kind
//                              (perOperation) and by class (perOperationByClass); the tests read the trimmed
//                              files and must find exactly these
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { requireBuilds } from '../build/cache.ts';
import { configArgs, ensureCerts, handshakeBinary } from '../handshake/invoke.ts';
import { parseCallgrindCalls, perOperation, perOperationByClass, trimCallgrind } from './callgrind-calls.ts';
import { LOCK_CLASS_OPS, OP_DEFS } from './complaints.ts';
import { CALLGRIND_WARMUP, ensureInputs, inputsDir, knownIssuesBinary, PLAN } from './known-issues.ts';
import { PROGRAM_OPS } from './output.ts';

export const FIXTURE_DIR = fileURLToPath(new URL('./fixtures/', import.meta.url));
/** Operations whose callgrind output files are kept, and their n (the pair is n and 2n). */
export const CALLGRIND_FIXTURES = { 'x509-der': PLAN['x509-der'].callgrind, 'ctx-new': PLAN['ctx-new'].callgrind } as const;
const NATIVE_COUNT: Record<string, number> = { 'ca-bundle': 2, 'dtls-heap': 10 };

const run = (cmd: string, args: string[]) =>
  new Promise<{ code: number; stdout: string }>((resolve) =>
    execFile(cmd, args, { encoding: 'utf8', timeout: 600_000, maxBuffer: 1 << 24 }, (err, stdout) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout }),
    ),
  );

/** Callgrind's output file of one run (the same arguments as known-issues.ts underCallgrind), and what the program printed. */
async function callgrindRun(bin: string, argv: string[]): Promise<{ code: number; stdout: string; file: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'ki-fixture-'));
  try {
    const out = join(dir, 'callgrind.out');
    const r = await run('valgrind', ['--tool=callgrind', '--collect-atstart=no', `--callgrind-out-file=${out}`, bin, ...argv]);
    return { ...r, file: readFileSync(out, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const only = onlyAt < 0 ? null : args.splice(onlyAt, 2)[1];
if (only !== null && only !== 'lock-classes') throw new Error(`--only takes lock-classes, not ${String(only)}`);
const versions = args;
if (!versions.length) throw new Error('usage: node runner/known-issues/capture-fixtures.ts [--only lock-classes] VERSION...');
for (const build of requireBuilds(versions)) {
  const v = build.record.version;
  await ensureInputs(build);
  await ensureCerts(build);
  const bin = knownIssuesBinary(build);
  const dest = join(FIXTURE_DIR, v);
  mkdirSync(dest, { recursive: true });
  const save = (name: string, argv: string[], r: { code: number; stdout: string }) =>
    writeFileSync(join(dest, name), JSON.stringify({ version: v, argv, exitCode: r.code, stdout: r.stdout }, null, 1) + '\n');
  for (const id of LOCK_CLASS_OPS) {
    const n = PLAN[id].callgrind;
    const files: string[] = [];
    for (const count of [n, 2 * n]) {
      const argv = [...configArgs(OP_DEFS[id].handshake!, count), '--deterministic'];
      const r = await callgrindRun(handshakeBinary(build), argv);
      save(`callgrind-${id}-${count}.json`, argv, r);
      writeFileSync(join(dest, `callgrind-${id}-${count}.trimmed.out.gz`), gzipSync(trimCallgrind(r.file, `${v} ${id} x${count}`), { level: 9 }));
      files.push(r.file);
    }
    const [small, large] = files.map((f, i) => parseCallgrindCalls(f, `${v} ${id} #${i}`)) as [
      ReturnType<typeof parseCallgrindCalls>,
      ReturnType<typeof parseCallgrindCalls>,
    ];
    const where = `${v} ${id}`;
    const counts = { version: v, op: id, n, perOperation: perOperation(small, large, n, where), byClass: perOperationByClass(small, large, n, where) };
    writeFileSync(join(dest, `lock-classes-${id}.json`), JSON.stringify(counts, null, 1) + '\n');
  }
  if (only === 'lock-classes') {
    console.log(`${v}: lock-class fixtures in ${dest}`);
    continue;
  }
  for (const op of PROGRAM_OPS) {
    const argv = ['run', '--op', op, '--inputs', inputsDir(), '--count', String(NATIVE_COUNT[op] ?? 20)];
    save(`${op}.json`, argv, await run(bin, argv));
  }
  const bad = ['run', '--op', 'no-such-op', '--inputs', inputsDir()];
  save('usage-error.json', bad, await run(bin, bad));
  for (const [op, n] of Object.entries(CALLGRIND_FIXTURES)) {
    for (const count of [n, 2 * n]) {
      const argv = ['run', '--op', op, '--inputs', inputsDir(), '--count', String(count), '--warmup', String(CALLGRIND_WARMUP), '--deterministic'];
      const r = await callgrindRun(bin, argv);
      save(`callgrind-${op}-${count}.json`, argv, r);
      writeFileSync(join(dest, `callgrind-${op}-${count}.out.gz`), gzipSync(r.file));
    }
  }
  console.log(`${v}: fixtures in ${dest}`);
}
