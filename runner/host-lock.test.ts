// The host lock between real processes: a second measurer waits and names the holder, --no-wait fails
// with that name, a SIGKILLed holder releases at once, builds share, and a holder's child takes part.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const cache = mkdtempSync(join(tmpdir(), 'host-lock-test-'));
/** the machine-wide lock folder, a scratch one here (never the machine's real one) */
const lockDir = mkdtempSync(join(tmpdir(), 'host-lock-dir-'));
after(() => [cache, lockDir].forEach((d) => rmSync(d, { recursive: true, force: true })));
const LOCK = new URL('./host-lock.ts', import.meta.url).href;

interface Proc {
  child: ChildProcess;
  out: () => string;
  /** resolves when the output contains `text` */
  saw(text: string | RegExp, ms?: number): Promise<void>;
  exit: Promise<number | null>;
}

/**
 * A node process that takes the lock (mode, command, wait) and then prints "LOCKED" and holds it until
 * its stdin closes; `extra` runs after locking.
 */
function locker(mode: 'shared' | 'exclusive', command: string, opts: { wait?: boolean; runId?: string; extra?: string; env?: NodeJS.ProcessEnv } = {}): Proc {
  const script = `
    const { lockHostForMeasurement, acquireHostLock } = await import(${JSON.stringify(LOCK)});
    const lock = ${
      mode === 'exclusive'
        ? `await lockHostForMeasurement(${JSON.stringify(command)}, ${opts.wait === false}, ${JSON.stringify(opts.runId ?? '')} || undefined)`
        : `await acquireHostLock({ mode: 'shared', command: ${JSON.stringify(command)}, wait: ${opts.wait !== false} })`
    };
    console.log('LOCKED inherited=' + lock.inherited);
    ${opts.extra ?? ''}
    process.stdin.resume();
    process.stdin.on('end', () => { lock.release(); console.log('RELEASED'); });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, OBSERVATORY_CACHE: cache, OBSERVATORY_LOCK_DIR: lockDir, OBSERVATORY_HOST_LOCK: '', ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    out: () => out,
    exit,
    saw: (text, ms = 15_000) =>
      new Promise((resolve, reject) => {
        const hit = () => (typeof text === 'string' ? out.includes(text) : text.test(out));
        const timer = setTimeout(() => (clearInterval(poll), reject(new Error(`no ${text} within ${ms} ms; output so far:\n${out}`))), ms);
        const poll = setInterval(() => hit() && (clearInterval(poll), clearTimeout(timer), resolve()), 20);
      }),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("a second measurer waits, naming the holder's PID, command and run id, and goes on when it finishes", async () => {
  const a = locker('exclusive', 'npm run bench -- --full', { runId: 'run-a' });
  await a.saw('LOCKED');
  const b = locker('exclusive', 'npm run mtu');
  await b.saw('waiting for the host lock');
  assert.match(b.out(), new RegExp(`held by PID ${a.child.pid} \\(npm run bench -- --full, run run-a, exclusive since `));
  await sleep(300);
  assert.ok(!b.out().includes('LOCKED'), 'the second measurer must not start while the first holds the lock');
  a.child.stdin!.end();
  await b.saw('LOCKED');
  assert.equal(await a.exit, 0);
  b.child.stdin!.end();
  assert.equal(await b.exit, 0);
});

test('--no-wait fails at once with a clear error naming the holder (exit 75)', async () => {
  const a = locker('exclusive', 'npm run test:mlkem-hypothesis -- --full', { runId: 'hyp-1' });
  await a.saw('LOCKED');
  const c = locker('exclusive', 'npm run bench', { wait: false });
  assert.equal(await c.exit, 75);
  assert.match(
    c.out(),
    new RegExp(
      `error: the host is busy: the host lock \\(.*host\\.lock\\) is held by PID ${a.child.pid} \\(npm run test:mlkem-hypothesis -- --full, run hyp-1`,
    ),
  );
  assert.ok(!c.out().includes('LOCKED'));
  a.child.stdin!.end();
  await a.exit;
});

test('a SIGKILLed holder releases the lock at once, and its stale record is ignored', async () => {
  const a = locker('exclusive', 'npm run submit');
  await a.saw('LOCKED');
  const b = locker('exclusive', 'npm run bench');
  await b.saw('waiting for the host lock');
  a.child.kill('SIGKILL');
  await a.exit;
  await b.saw('LOCKED', 5_000);
  b.child.stdin!.end();
  await b.exit;
  // the killed holder left its record behind; nobody holds the lock now, so a --no-wait measurer gets it
  const c = locker('exclusive', 'npm run bench', { wait: false });
  await c.saw('LOCKED');
  c.child.stdin!.end();
  assert.equal(await c.exit, 0);
});

test('builds share the lock with each other, never with a measurement', async () => {
  const b1 = locker('shared', 'npm run openssl -- build 3.5');
  const b2 = locker('shared', 'npm run openssl -- build 3.4');
  await b1.saw('LOCKED');
  await b2.saw('LOCKED');
  const m = locker('exclusive', 'npm run bench');
  await m.saw('waiting for the host lock');
  assert.match(m.out(), /npm run openssl -- build 3\.5/);
  assert.match(m.out(), /npm run openssl -- build 3\.4/);
  b1.child.stdin!.end();
  await b1.exit;
  await sleep(300);
  assert.ok(!m.out().includes('LOCKED'), 'one build still runs');
  b2.child.stdin!.end();
  await m.saw('LOCKED');
  const b3 = locker('shared', 'npm run openssl -- build 4.0');
  await b3.saw('waiting for the host lock');
  m.child.stdin!.end();
  await b3.saw('LOCKED');
  b3.child.stdin!.end();
  await Promise.all([m.exit, b2.exit, b3.exit]);
});

test("a holder's child (submit running bench) takes part in its lock instead of waiting for it", async () => {
  // the holder starts a child that asks for the lock exclusively, with --no-wait: it must get it at once
  const inner = `
    const { lockHostForMeasurement } = await import(${JSON.stringify(LOCK)});
    const lock = await lockHostForMeasurement('npm run bench', true);
    lock.setRunId('inner-run');
    console.log('INNER inherited=' + lock.inherited);`;
  const extra = `
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', ${JSON.stringify(inner)}], { encoding: 'utf8' });
    console.log(r.stdout.trim(), r.stderr.trim(), 'status', r.status);`;
  const a = locker('exclusive', 'npm run submit', { extra });
  await a.saw(/INNER inherited=true.*status 0/s);
  const b = locker('exclusive', 'npm run mtu', { wait: false });
  assert.equal(await b.exit, 75);
  assert.match(b.out(), /npm run submit, run inner-run/, 'the child named its run in the holder record');
  a.child.stdin!.end();
  await a.exit;
});

test('two users of one machine exclude each other: the lock is machine-wide, not in either build cache', async () => {
  // two users: each their own HOME and build cache, the same machine (the same lock folder)
  const homes = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'host-lock-user-')));
  after(() => homes.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const user = (i: number) => ({ HOME: homes[i]!, OBSERVATORY_CACHE: join(homes[i]!, '.cache', 'openssl-observatory') });
  const a = locker('exclusive', 'npm run bench -- --full', { env: user(0) });
  await a.saw('LOCKED');
  const b = locker('exclusive', 'npm run bench', { wait: false, env: user(1) });
  b.child.stdin!.end(); // should it get the lock, it lets go at once rather than hold it
  assert.equal(await b.exit, 75, b.out());
  assert.match(b.out(), /the host is busy/);
  a.child.stdin!.end();
  await a.exit;
});

test('the default lock folder is machine-wide (under /run/lock or /tmp), never under a home or cache', async () => {
  const { lockDir: dirOf } = await import('./host-lock.ts');
  const saved = process.env.OBSERVATORY_LOCK_DIR;
  delete process.env.OBSERVATORY_LOCK_DIR;
  try {
    assert.match(dirOf(), /^\/(run\/lock|tmp)\//);
  } finally {
    if (saved !== undefined) process.env.OBSERVATORY_LOCK_DIR = saved;
  }
});
