// Fetch a library's source archive (OpenSSL, or another TLS library's crate) and verify it against its pinned sha256 before anything reads it.
import { createHash } from 'node:crypto';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
  copyFileSync,
  mkdtempSync,
  openSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { LIBRARY_NAMES, libraryOf, type CatalogueVersion, type SourceRef } from '../catalogue/index.ts';

export function cacheRoot(): string {
  return process.env.OBSERVATORY_CACHE ?? join(homedir(), '.cache', 'openssl-observatory');
}
export const downloadsDir = () => join(cacheRoot(), 'downloads');

export class SourceError extends Error {}

/**
 * The commands each kind of source needs, and the Debian package that provides each
 * (scripts/setup-machine.sh installs them all; runner/sources.test.ts checks that it does).
 */
export const SOURCE_TOOLS: Record<SourceRef['kind'], { command: string; debianPackage: string }[]> = {
  crate: [{ command: 'cargo', debianPackage: 'cargo' }],
  'debian-orig': [
    { command: 'apt-get', debianPackage: 'apt' },
    { command: 'dpkg-source', debianPackage: 'dpkg-dev' },
  ],
  // node's own fetch; https needs the CA certificates
  'upstream-tarball': [{ command: 'update-ca-certificates', debianPackage: 'ca-certificates' }],
};

/** Long enough for the slowest mirror, short enough that a stalled download does not hang a run. */
export const FETCH_TIMEOUT_MS = 10 * 60_000;
/** OpenSSL archives are 10-60 MB; anything far larger is not one. */
export const MAX_ARCHIVE_BYTES = 256 * 1024 * 1024;

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Refuse a file whose hash differs from the pin; the bad file is moved aside, never used. */
export async function verifyArchive(path: string, source: SourceRef): Promise<void> {
  const actual = await sha256File(path);
  if (actual !== source.sha256) {
    const quarantined = `${path}.rejected-${actual.slice(0, 12)}`;
    renameSync(path, quarantined);
    throw new SourceError(
      `${source.file}: sha256 is ${actual}, the catalogue pins ${source.sha256}. Refused; the file was moved to ${quarantined}. ` +
        'If upstream re-released it, check the new archive by hand before changing the pin.',
    );
  }
}

function run(cmd: string, args: string[], cwd: string): string {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: FETCH_TIMEOUT_MS, killSignal: 'SIGKILL' });
  } catch (e) {
    const err = e as { code?: string; stderr?: string; message: string; signal?: string };
    if (err.code === 'ENOENT') {
      const pkg =
        Object.values(SOURCE_TOOLS)
          .flat()
          .find((t) => t.command === cmd)?.debianPackage ?? cmd;
      throw new SourceError(`${cmd} is not installed: it is needed to fetch this source (apt-get install ${pkg}, or sudo bash scripts/setup-machine.sh)`);
    }
    if (err.signal) throw new SourceError(`${cmd} ${args.join(' ')} did not finish within ${FETCH_TIMEOUT_MS / 60_000} minutes and was stopped`);
    const tail = (err.stderr ?? err.message).trim().split('\n').slice(-3).join(' | ');
    throw new SourceError(`${cmd} ${args.join(' ')} failed: ${tail}`);
  }
}

/** crates.io through cargo: a throwaway manifest depending on exactly this version, then `cargo fetch`. */
function fetchCrate(source: SourceRef, dest: string): void {
  const work = mkdtempSync(join(downloadsDir(), '.cargo-'));
  mkdirSync(join(work, 'src'), { recursive: true });
  writeFileSync(join(work, 'src', 'main.rs'), 'fn main() {}\n');
  writeFileSync(
    join(work, 'Cargo.toml'),
    `[package]\nname = "fetch-source"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\n${source.package} = "=${source.ref}"\n`,
  );
  try {
    run('cargo', ['fetch', '--quiet'], work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const registryCache = join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'registry', 'cache');
  for (const index of existsSync(registryCache) ? readdirSync(registryCache) : []) {
    const candidate = join(registryCache, index, source.file);
    if (existsSync(candidate)) {
      copyFileSync(candidate, dest);
      return;
    }
  }
  throw new SourceError(`cargo fetched ${source.package} ${source.ref} but ${source.file} is not in ${registryCache}`);
}

/** Debian source package: `apt-get source --download-only` needs a deb-src line for the suite. */
function fetchDebian(source: SourceRef, dest: string): void {
  const work = mkdtempSync(join(downloadsDir(), '.apt-'));
  try {
    const got = join(work, source.file);
    try {
      run('apt-get', ['source', '--download-only', '-q', `${source.package}=${source.ref}`], work);
    } catch (e) {
      // the mirror may lack the .dsc or the Debian diff while serving the orig tarball, which is all we
      // need: apt then exits non-zero with the tarball in place, and the pinned hash decides
      if (!existsSync(got)) throw e;
    }
    if (!existsSync(got)) throw new SourceError(`apt-get source did not produce ${source.file}`);
    renameSync(got, dest);
  } catch (e) {
    throw new SourceError(
      `${(e as Error).message}. Debian's source for ${source.package} ${source.ref} needs a deb-src entry for its suite in /etc/apt/sources.list.d and 'apt-get update'.`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Download to `dest`, refusing what takes longer than `timeoutMs` or is larger than `maxBytes`. */
export async function fetchUrl(source: SourceRef, dest: string, limits = { timeoutMs: FETCH_TIMEOUT_MS, maxBytes: MAX_ARCHIVE_BYTES }): Promise<void> {
  const { timeoutMs, maxBytes } = limits;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const fail = (why: string) => new SourceError(`cannot download ${source.ref}: ${why}`);
  const fd = openSync(dest, 'w');
  try {
    let res: Response;
    try {
      res = await fetch(source.ref, { signal: controller.signal });
    } catch (e) {
      throw fail(controller.signal.aborted ? `no answer within ${timeoutMs / 1000} s` : `${(e as Error).message} (no network?)`);
    }
    if (!res.ok) throw fail(`HTTP ${res.status}`);
    const declared = Number(res.headers.get('content-length'));
    if (declared > maxBytes) throw fail(`it announces ${declared} bytes, more than the ${maxBytes} an OpenSSL archive can be`);
    if (!res.body) throw fail('empty response');
    let bytes = 0;
    try {
      for await (const chunk of res.body) {
        bytes += chunk.byteLength;
        if (bytes > maxBytes) throw fail(`more than ${maxBytes} bytes, more than an OpenSSL archive can be; stopped`);
        writeSync(fd, chunk);
      }
    } catch (e) {
      if (e instanceof SourceError) throw e;
      throw fail(controller.signal.aborted ? `not finished within ${timeoutMs / 1000} s (${bytes} bytes received); stopped` : (e as Error).message);
    }
  } catch (e) {
    controller.abort();
    closeSync(fd);
    rmSync(dest, { force: true });
    throw e;
  } finally {
    clearTimeout(timer);
  }
  closeSync(fd);
}

const fetchers: Record<SourceRef['kind'], (s: SourceRef, dest: string) => void | Promise<void>> = {
  crate: fetchCrate,
  'debian-orig': fetchDebian,
  'upstream-tarball': fetchUrl,
};

/**
 * Get a verified archive for this version, trying its sources in catalogue order (or only `onlyKind`).
 * A cached archive is re-hashed every time: a cache is not a trust anchor.
 */
export async function obtainSource(
  v: CatalogueVersion,
  onlyKind?: SourceRef['kind'],
  log: (msg: string) => void = () => {},
): Promise<{ source: SourceRef; path: string }> {
  return obtainArchive(v.sources, `${LIBRARY_NAMES[libraryOf(v)]} ${v.version}`, onlyKind, log);
}

/** The first of `sources` that can be had and matches its pin (`what` names it in errors): a library release, a server release. */
export async function obtainArchive(
  sources: readonly SourceRef[],
  what: string,
  onlyKind?: SourceRef['kind'],
  log: (msg: string) => void = () => {},
): Promise<{ source: SourceRef; path: string }> {
  mkdirSync(downloadsDir(), { recursive: true });
  const failures: string[] = [];
  for (const source of sources.filter((s) => !onlyKind || s.kind === onlyKind)) {
    const path = join(downloadsDir(), source.file);
    try {
      if (!existsSync(path)) {
        log(`fetching ${source.file} (${source.kind})`);
        const partial = `${path}.partial-${process.pid}-${Date.now()}`;
        await fetchers[source.kind](source, partial);
        renameSync(partial, path);
      }
      await verifyArchive(path, source);
      return { source, path };
    } catch (e) {
      if (!(e instanceof SourceError)) throw e;
      // a hash mismatch is never retried through another source: the pin or the file is wrong
      if (e.message.includes('sha256 is')) throw e;
      failures.push(`${source.kind}: ${e.message}`);
    }
  }
  throw new SourceError(`no source for ${what} could be obtained:\n  ${failures.join('\n  ')}`);
}
