// Capture real output of known_issues.c for the parsers' fixtures:
//   node runner/known-issues/capture-fixtures.ts 1.1.1w 3.0.22 3.1.4 3.2.1 3.3.2 3.4.1 3.5.7 3.6.3 4.0.3 (the default matrix)
// Writes runner/known-issues/fixtures/<version>/:
//   <op>.json                  one native run of every operation (small counts): argv, exit code, stdout
//   usage-error.json           an unknown operation (exit 64)
//   callgrind-<op>-<n>.out.gz  callgrind's own output file for x509-der and ctx-new at n and 2n
//   callgrind-<op>-<n>.json    what the program printed under valgrind for the same runs
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { requireBuilds } from '../build.ts';
import { CALLGRIND_WARMUP, ensureInputs, inputsDir, knownIssuesBinary, PLAN } from './known-issues.ts';
import { PROGRAM_OPS } from './output.ts';

export const FIXTURE_DIR = fileURLToPath(new URL('./fixtures/', import.meta.url));
/** Operations whose callgrind output files are kept, and their n (the pair is n and 2n). */
export const CALLGRIND_FIXTURES = { 'x509-der': PLAN['x509-der'].callgrind, 'ctx-new': PLAN['ctx-new'].callgrind } as const;
const NATIVE_COUNT: Record<string, number> = { 'ca-bundle': 2, 'dtls-heap': 10 };

const run = (cmd: string, args: string[]) =>
  new Promise<{ code: number; stdout: string }>((resolve) =>
    execFile(cmd, args, { encoding: 'utf8', timeout: 600_000, maxBuffer: 1 << 24 }, (err, stdout) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout })),
  );

const versions = process.argv.slice(2);
if (!versions.length) throw new Error('usage: node runner/known-issues/capture-fixtures.ts VERSION...');
for (const build of requireBuilds(versions)) {
  const v = build.record.version;
  await ensureInputs(build);
  const bin = knownIssuesBinary(build);
  const dest = join(FIXTURE_DIR, v);
  mkdirSync(dest, { recursive: true });
  const save = (name: string, argv: string[], r: { code: number; stdout: string }) =>
    writeFileSync(join(dest, name), JSON.stringify({ version: v, argv, exitCode: r.code, stdout: r.stdout }, null, 1) + '\n');
  for (const op of PROGRAM_OPS) {
    const argv = ['run', '--op', op, '--inputs', inputsDir(), '--count', String(NATIVE_COUNT[op] ?? 20)];
    save(`${op}.json`, argv, await run(bin, argv));
  }
  const bad = ['run', '--op', 'no-such-op', '--inputs', inputsDir()];
  save('usage-error.json', bad, await run(bin, bad));
  for (const [op, n] of Object.entries(CALLGRIND_FIXTURES)) {
    for (const count of [n, 2 * n]) {
      const dir = mkdtempSync(join(tmpdir(), 'ki-fixture-'));
      try {
        const out = join(dir, 'callgrind.out');
        const argv = ['run', '--op', op, '--inputs', inputsDir(), '--count', String(count), '--warmup', String(CALLGRIND_WARMUP), '--deterministic'];
        const r = await run('valgrind', ['--tool=callgrind', '--collect-atstart=no', `--callgrind-out-file=${out}`, bin, ...argv]);
        save(`callgrind-${op}-${count}.json`, argv, r);
        writeFileSync(join(dest, `callgrind-${op}-${count}.out.gz`), gzipSync(readFileSync(out)));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  console.log(`${v}: fixtures in ${dest}`);
}
