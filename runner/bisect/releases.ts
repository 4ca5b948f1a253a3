// A release of the catalogue as a commit of the history: its tag, checked against the source the
// journey measured (the catalogue's pinned archive), so that a bisection starts from exactly that code.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { SERIES, VERSIONS, compareVersions, libraryOf } from '../../catalogue/index.ts';
import { obtainSource } from '../sources.ts';
import { git, resolve } from './history.ts';

/** OpenSSL's tag for a release: openssl-3.5.0 from 3.0 on, OpenSSL_1_1_1w before. */
export const releaseTag = (version: string): string => (version.startsWith('1.') ? `OpenSSL_${version.replace(/\./g, '_')}` : `openssl-${version}`);

/** Paths left out of the comparison: test data (absent from the crate's archive and from this snapshot in part). */
const skipped = (path: string) => path.startsWith('test/') || path.startsWith('fuzz/corpora/');

export interface ReleaseCommit {
  version: string;
  tag: string;
  commit: string;
  /** files of the archive found in the tree with the same content */
  same: number;
  /** files of the archive that are in the tree with other content */
  differing: string[];
  /** files of the archive that the tree does not have (generated when the archive was made) */
  generated: string[];
}

/**
 * The commit of a catalogued release, with the comparison of its tree and the pinned archive. Throws when
 * a file differs: then the tag is not the code the journey measured.
 */
export async function releaseCommit(repo: string, version: string): Promise<ReleaseCommit> {
  const v = VERSIONS.find((x) => x.version === version);
  if (!v) throw new Error(`${version} is not an OpenSSL release of the catalogue (npm run openssl -- list)`);
  const tag = releaseTag(version);
  const commit = resolve(repo, tag);
  const { source, path } = await obtainSource(v);
  return { version, tag, commit, ...compareWithArchive(repo, commit, path, source.root, tag) };
}

/** Every file of the archive (under `root`) against the commit's tree; throws when one differs or none is found. */
export function compareWithArchive(
  repo: string,
  commit: string,
  archive: string,
  root: string,
  name: string,
): Pick<ReleaseCommit, 'same' | 'differing' | 'generated'> {
  const tree = new Map(
    git(repo, ['ls-tree', '-r', commit])
      .split('\n')
      .map((l) => /^\d+ blob ([0-9a-f]+)\t(.*)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[2]!, m[1]!]),
  );
  const dir = mkdtempSync(join(tmpdir(), 'release-'));
  try {
    execFileSync('tar', ['xzf', archive, '-C', dir]);
    const top = join(dir, root);
    const files: string[] = [];
    const walk = (d: string) => {
      for (const f of readdirSync(d)) {
        const p = join(d, f);
        if (statSync(p).isDirectory()) walk(p);
        else files.push(relative(top, p));
      }
    };
    walk(top);
    const compared = files.filter((f) => !skipped(f)).sort();
    const hashes = execFileSync('git', ['hash-object', '--no-filters', '--stdin-paths'], {
      cwd: top,
      input: compared.join('\n'),
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    })
      .trim()
      .split('\n');
    const out: Pick<ReleaseCommit, 'same' | 'differing' | 'generated'> = { same: 0, differing: [], generated: [] };
    compared.forEach((f, i) => {
      const blob = tree.get(f);
      if (blob === undefined) out.generated.push(f);
      else if (blob === hashes[i]) out.same++;
      else out.differing.push(f);
    });
    if (out.differing.length)
      throw new Error(
        `${name} (${commit.slice(0, 12)}) is not the code of the archive: ${out.differing.length} files differ (${out.differing.slice(0, 5).join(', ')})`,
      );
    if (out.same === 0) throw new Error(`${name}: no file of the archive is in the tree of ${commit.slice(0, 12)}`);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One step of the journey as a bisection: from a release of one series to a release of the next. */
export type ReleaseStep = { from: string; to: string } | { from: string | null; to: string | null; skipped: string };

/**
 * The journey's neighbouring series as pairs of releases the history can start from: each series' newest
 * catalogued OpenSSL release whose tag the repository has (the journey measures the newest patches; a
 * snapshot may lack their tags). A pair without such a release on either side is listed with the reason.
 */
export function releaseSteps(repo: string): ReleaseStep[] {
  const firstTagged = (series: string): string | null =>
    VERSIONS.filter((v) => v.series === series && libraryOf(v) === 'openssl')
      .map((v) => v.version)
      .sort((a, b) => compareVersions(b, a))
      .find((version) => {
        try {
          resolve(repo, releaseTag(version));
          return true;
        } catch {
          return false;
        }
      }) ?? null;
  const openssl = SERIES.filter((s) => VERSIONS.some((v) => v.series === s.series && libraryOf(v) === 'openssl'));
  return openssl.slice(1).map((s, i) => {
    const from = firstTagged(openssl[i]!.series);
    const to = firstTagged(s.series);
    if (from && to) return { from, to };
    const missing = [from ? null : openssl[i]!.series, to ? null : s.series].filter(Boolean).join(' and ');
    return { from, to, skipped: `${repo} has no tag of a catalogued ${missing} release` };
  });
}
