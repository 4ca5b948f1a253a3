// Programs started through the guard die with their whole process group: a timeout, a signal to node
// or node's own death must not leave grandchildren (make's cc, a server's workers) running.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { programEnv, runGuarded, spawnServer, stopGroup } from './child-guard.ts';
import { parsePidStat } from './quiet/sample.ts';

const dir = mkdtempSync(join(tmpdir(), 'child-guard-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Wait until the file holds a pid. */
async function pidFrom(file: string, ms = 10_000): Promise<number> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(20))
    if (existsSync(file) && /^\d+\n/.test(readFileSync(file, 'utf8'))) return Number(readFileSync(file, 'utf8'));
  throw new Error(`no pid in ${file}`);
}
async function gone(pid: number, ms = 5_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(20)) if (!alive(pid)) return true;
  return false;
}
// a program that starts a grandchild (as make starts cc) and waits for it
const FORKS = (pidFile: string) => ['-c', `sleep 300 & echo $! > ${pidFile}; wait`];

test('runGuarded: a timeout kills the whole process group, not only the direct child', async () => {
  const pidFile = join(dir, 'timeout.pid');
  const r = await runGuarded('sh', FORKS(pidFile), { timeoutMs: 500 });
  assert.equal(r.code, -1);
  const grandchild = await pidFrom(pidFile);
  assert.ok(await gone(grandchild), `the grandchild ${grandchild} outlived the timeout`);
});

test('runGuarded still passes input on stdin and returns the exit status and output', async () => {
  const r = await runGuarded('sh', ['-c', 'read x; echo "got $x"; echo err >&2; exit 3'], { timeoutMs: 10_000, input: 'hello\n' });
  assert.deepEqual([r.code, r.stdout, r.stderr.trim()], [3, 'got hello\n', 'err']);
});

test('runGuarded with stopWhen: the program is stopped once it has printed what is read, its output kept', async () => {
  const started = Date.now();
  const r = await runGuarded('sh', ['-c', 'echo one; echo "+R2:1:2048:0.99" >&2; exec sleep 300'], {
    timeoutMs: 60_000,
    stopWhen: (o) => /^\+R2:.*\n/m.test(o.stderr),
  });
  assert.deepEqual([r.code, r.stopped, r.stdout, r.stderr], [-1, true, 'one\n', '+R2:1:2048:0.99\n']);
  assert.ok(Date.now() - started < 10_000, 'stopped, not left to its timeout');
  const plain = await runGuarded('sh', ['-c', 'echo two'], { timeoutMs: 10_000, stopWhen: () => false });
  assert.deepEqual([plain.code, plain.stopped], [0, undefined]);
});

for (const [how, signal] of [
  ['SIGKILLed', 'SIGKILL'],
  ['SIGTERMed', 'SIGTERM'],
] as const)
  test(`a build command whose node process is ${how} leaves no grandchild (make's cc) running`, async () => {
    const pidFile = join(dir, `build-${signal}.pid`);
    const script = `
      const { runLogged } = await import(${JSON.stringify(new URL('./build/build.ts', import.meta.url).href)});
      const { createWriteStream } = await import('node:fs');
      console.log('STARTED');
      await runLogged('sh', ${JSON.stringify(FORKS(pidFile))}, ${JSON.stringify(dir)}, createWriteStream('/dev/null'), process.env);`;
    const node = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore', env: { ...process.env, OBSERVATORY_CACHE: dir } });
    const grandchild = await pidFrom(pidFile);
    node.kill(signal);
    await new Promise((r) => node.on('close', r));
    assert.ok(await gone(grandchild), `the build's grandchild ${grandchild} outlived node (${signal})`);
  });

test("stopGroup: a stopped server's CPU time is this process's children's time (the quiet check counts it as the run's), and nothing of its group is left", async () => {
  const childTicks = () => {
    const own = parsePidStat(readFileSync('/proc/self/stat', 'utf8'))!;
    return own.ticks - own.ownTicks;
  };
  const pidFile = join(dir, 'server-worker.pid');
  const before = childTicks();
  // burns about half a second of CPU, starts a worker in its group, says it is ready, then serves (sleeps)
  const burn = `i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done; sleep 300 & echo $! > ${pidFile}; echo READY; wait`;
  const server = spawnServer('sh', ['-c', burn], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise<void>((resolve) => server.stdout!.on('data', (d: Buffer) => /READY/.test(d.toString()) && resolve()));
  const worker = await pidFrom(pidFile);
  await stopGroup(server);
  assert.ok(server.exitCode !== null || server.signalCode !== null, 'the group leader has exited when stopGroup returns');
  assert.ok(await gone(worker), `the server's worker ${worker} outlived stopGroup`);
  const used = childTicks() - before;
  assert.ok(used >= 10, `the server burned CPU but only ${used} ticks reached this process's children's time`);
});

test('one environment for every program: the library tuning variables of the caller never reach it, those set on purpose do', async () => {
  const saved = { ...process.env };
  try {
    process.env.OPENSSL_ia32cap = '0x0:0x0';
    process.env.SSL_CERT_FILE = '/nowhere';
    process.env.OBSERVATORY_KEEP = 'kept';
    const plain = await runGuarded('sh', ['-c', 'echo "[$OPENSSL_ia32cap][$SSL_CERT_FILE][$OBSERVATORY_KEEP]"'], { timeoutMs: 10_000 });
    assert.equal(plain.stdout.trim(), '[][][kept]');
    const masked = await runGuarded('sh', ['-c', 'echo "[$OPENSSL_ia32cap]"'], { timeoutMs: 10_000, env: { OPENSSL_ia32cap: ':~0x200000' } });
    assert.equal(masked.stdout.trim(), '[:~0x200000]');
    assert.equal(programEnv().OPENSSL_ia32cap, undefined);
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
});
