// One measurement at a time per host. Every command that measures (bench, the ML-KEM hypothesis test,
// mtu, submit) holds the host lock EXCLUSIVELY for as long as it measures; builds hold it SHARED, so
// builds run beside each other but never beside a measurement.
//
// The lock is flock(2) on <lock dir>/host.lock, where the lock dir is machine-wide, not per user:
// /run/lock/openssl-observatory (or /tmp/openssl-observatory-lock where there is no /run/lock), or
// OBSERVATORY_LOCK_DIR. Two users of one machine therefore exclude each other; the folders are
// world-writable with the sticky bit, like /tmp, and the lock file is opened read-only by everyone but
// its creator (flock needs no write access; opening another user's file with O_CREAT in a sticky folder
// is refused by fs.protected_regular). Node cannot call flock, so the `flock` tool
// (util-linux) is run on a descriptor node itself has open (passed as the child's fd 3): a flock lock
// belongs to the open file description, which the child shares with node, so it stays held after the
// child exits and is released by the kernel when node's descriptor closes. Node opens files
// close-on-exec, so benchmark programs never inherit it; a crash or a SIGKILL therefore releases the lock
// at once, and no lock file can go stale. Who holds it is written beside it (holders/<pid>.json) only to
// name the holder in messages; a record whose process is gone is ignored and removed.
//
// A child of a holder (submit runs `npm run bench`) is told through OBSERVATORY_HOST_LOCK and takes
// part in its ancestor's lock instead of waiting for it.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type LockMode = 'shared' | 'exclusive';

export interface HolderRecord {
  pid: number;
  /** /proc/<pid>/stat start time: tells a live holder from a reused PID */
  startTime: string;
  mode: LockMode;
  command: string;
  runId?: string;
  since: string;
  token: string;
}

export interface HostLock {
  mode: LockMode;
  /** true when the lock is an ancestor's (this process runs inside its measurement) */
  inherited: boolean;
  /** name the run in the holder record, so a waiting command can say which run it waits for */
  setRunId(runId: string): void;
  release(): void;
}

export class HostLockBusy extends Error {}

const ENV = 'OBSERVATORY_HOST_LOCK';
/** The machine-wide lock folder (OBSERVATORY_LOCK_DIR moves it; tests use a scratch one). */
export const lockDir = () => process.env.OBSERVATORY_LOCK_DIR || (existsSync('/run/lock') ? '/run/lock/openssl-observatory' : '/tmp/openssl-observatory-lock');
const lockFile = () => join(lockDir(), 'host.lock');
const holdersDir = () => join(lockDir(), 'holders');
const holderFile = (pid: number) => join(holdersDir(), `${pid}.json`);

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot), or null if the process is gone. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) is in parentheses and may contain spaces: count fields after it
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

const alive = (h: HolderRecord) => processStartTime(h.pid) === h.startTime;

/** The processes that hold (or held until they died without cleaning up) the lock; dead ones are removed. */
export function currentHolders(): HolderRecord[] {
  if (!existsSync(holdersDir())) return [];
  const out: HolderRecord[] = [];
  for (const name of readdirSync(holdersDir())) {
    if (!/^\d+\.json$/.test(name)) continue;
    const path = join(holdersDir(), name);
    let h: HolderRecord;
    try {
      h = JSON.parse(readFileSync(path, 'utf8')) as HolderRecord;
    } catch {
      continue; // being written (records are renamed into place, so this is rare) or removed meanwhile
    }
    if (alive(h)) out.push(h);
    else
      try {
        rmSync(path, { force: true });
      } catch {
        // another user's stale record in the sticky folder: ignored, as any dead holder's
      }
  }
  return out;
}

export function describeHolders(holders: HolderRecord[]): string {
  if (!holders.length) return 'a process that left no record (an older version of this tool?)';
  return holders.map((h) => `PID ${h.pid} (${h.command}${h.runId ? `, run ${h.runId}` : ''}, ${h.mode} since ${h.since})`).join('; ');
}

/** A folder every user of the machine can add to (mode 1777, as /tmp): set by whoever creates it. */
function sharedDir(dir: string): void {
  if (existsSync(dir)) return;
  mkdirSync(dir, { recursive: true });
  try {
    chmodSync(dir, 0o1777);
  } catch {
    // another user created it meanwhile: theirs has the mode already
  }
}

/** The lock file, opened read-only when it exists (it may be another user's), created otherwise. */
function openLockFile(): number {
  sharedDir(lockDir());
  try {
    return openSync(lockFile(), 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  try {
    const fd = openSync(lockFile(), 'wx', 0o644);
    return fd;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return openSync(lockFile(), 'r'); // created by another process just now
  }
}

function writeHolder(h: HolderRecord): void {
  sharedDir(holdersDir());
  const path = holderFile(h.pid);
  writeFileSync(`${path}.tmp`, JSON.stringify(h) + '\n');
  renameSync(`${path}.tmp`, path);
}

/** flock on the descriptor node holds; exit 0 = locked, 1 = busy (with -n). */
function flockArgs(mode: LockMode | 'unlock', wait: boolean): string[] {
  return [...(wait ? [] : ['-n']), mode === 'exclusive' ? '-x' : mode === 'shared' ? '-s' : '-u', '3'];
}

function flockNow(fd: number, mode: LockMode | 'unlock'): boolean {
  const r = spawnSync('flock', flockArgs(mode, false), { stdio: ['ignore', 'ignore', 'pipe', fd], encoding: 'utf8' });
  if (r.error) throw new Error(`the host lock needs flock (util-linux): ${r.error.message}`);
  if (r.status === 0) return true;
  if (r.status === 1) return false;
  throw new Error(`flock failed on ${lockFile()}: ${r.stderr.trim() || `exit ${r.status}`}`);
}

function flockWait(fd: number, mode: LockMode, file = lockFile()): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('flock', flockArgs(mode, true), { stdio: ['ignore', 'ignore', 'pipe', fd] });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', (e) => reject(new Error(`locking needs flock (util-linux): ${e.message}`)));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`flock failed on ${file}: ${err.trim() || `exit ${code}`}`))));
  });
}

/**
 * Run `fn` holding an exclusive flock on `path` (created if needed), waiting for it: a short critical
 * section between processes, e.g. two builders of one cache key. Released when `fn` ends, or by the
 * kernel when the process dies.
 */
export async function withFileLock<T>(path: string, fn: () => T | Promise<T>): Promise<T> {
  const fd = openSync(path, 'a');
  try {
    await flockWait(fd, 'exclusive', path);
    return await fn();
  } finally {
    closeSync(fd);
  }
}

interface Held {
  fd: number;
  mode: LockMode;
  record: HolderRecord;
  users: number;
}
let held: Held | undefined;
let exitHook = false;

interface Inherited {
  token: string;
  pid: number;
  mode: LockMode;
}

/** The lock of an ancestor process, if this process was started inside its measurement. */
function inheritedLock(): Inherited | undefined {
  const raw = process.env[ENV];
  if (!raw) return undefined;
  let claim: Inherited;
  try {
    claim = JSON.parse(raw) as Inherited;
  } catch {
    return undefined;
  }
  const record = currentHolders().find((h) => h.pid === claim.pid && h.token === claim.token);
  if (!record) return undefined;
  for (let p = parentOf(process.pid); p && p > 1; p = parentOf(p)) if (p === claim.pid) return { ...claim, mode: record.mode };
  return undefined;
}

export interface AcquireOptions {
  mode: LockMode;
  /** what this process is, for the messages of those who wait for it: "npm run bench -- --full" */
  command: string;
  /** false: fail at once with HostLockBusy instead of waiting */
  wait?: boolean;
  runId?: string;
  log?: (line: string) => void;
  /** how often to repeat who is being waited for */
  remindEveryMs?: number;
}

export async function acquireHostLock(opts: AcquireOptions): Promise<HostLock> {
  const { mode, command, wait = true, log = (l: string) => process.stderr.write(`${l}\n`), remindEveryMs = 60_000 } = opts;
  const inherited = inheritedLock();
  if (inherited) {
    if (mode === 'exclusive' && inherited.mode !== 'exclusive')
      throw new Error(`this process runs under PID ${inherited.pid}, which holds the host lock shared (building); it cannot measure from inside a build`);
    return {
      mode,
      inherited: true,
      setRunId(runId) {
        const h = currentHolders().find((x) => x.pid === inherited.pid);
        if (h) writeHolder({ ...h, runId });
      },
      release() {},
    };
  }
  if (held && (held.mode === 'exclusive' || mode === 'shared')) {
    held.users++;
    return handle(held, mode);
  }
  if (held) throw new Error('this process holds the host lock shared; release it before taking it exclusively');

  const fd = openLockFile();
  try {
    if (!flockNow(fd, mode)) {
      const holders = currentHolders();
      const who = describeHolders(holders);
      if (!wait)
        throw new HostLockBusy(
          `the host is busy: the host lock (${lockFile()}) is held by ${who}. Wait for it to finish, or run again without --no-wait to wait.`,
        );
      log(`waiting for the host lock, held by ${who}`);
      let last = who;
      const timer = setInterval(() => {
        const now = describeHolders(currentHolders());
        if (now !== last) log(`still waiting for the host lock, now held by ${now}`);
        last = now;
      }, remindEveryMs);
      try {
        await flockWait(fd, mode);
      } finally {
        clearInterval(timer);
      }
      log('host lock acquired');
    }
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  const record: HolderRecord = {
    pid: process.pid,
    startTime: processStartTime(process.pid) ?? 'unknown',
    mode,
    command,
    ...(opts.runId ? { runId: opts.runId } : {}),
    since: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  writeHolder(record);
  held = { fd, mode, record, users: 1 };
  process.env[ENV] = JSON.stringify({ token: record.token, pid: record.pid, mode });
  if (!exitHook) process.once('exit', () => held && rmSync(holderFile(process.pid), { force: true }));
  exitHook = true;
  return handle(held, mode);
}

function handle(h: Held, mode: LockMode): HostLock {
  let released = false;
  return {
    mode,
    inherited: false,
    setRunId(runId) {
      h.record = { ...h.record, runId };
      if (held === h) writeHolder(h.record);
    },
    release() {
      if (released || held !== h) return;
      released = true;
      if (--h.users > 0) return;
      rmSync(holderFile(process.pid), { force: true });
      closeSync(h.fd); // the last descriptor of the open file description: the kernel drops the lock
      held = undefined;
      delete process.env[ENV];
    },
  };
}

/** Run `fn` holding the lock shared (builds); a process that already holds it just runs `fn`. */
export async function withSharedLock<T>(command: string, fn: () => Promise<T>, log?: (line: string) => void): Promise<T> {
  const lock = await acquireHostLock({ mode: 'shared', command, ...(log ? { log } : {}) });
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

/** For the measuring commands: a --no-wait refusal is a clear error and exit status 75 (EX_TEMPFAIL). */
export async function lockHostForMeasurement(command: string, noWait: boolean, runId?: string): Promise<HostLock> {
  try {
    return await acquireHostLock({ mode: 'exclusive', command, wait: !noWait, ...(runId ? { runId } : {}) });
  } catch (e) {
    if (!(e instanceof HostLockBusy)) throw e;
    process.stderr.write(`error: ${e.message}\n`);
    process.exit(75);
  }
}
