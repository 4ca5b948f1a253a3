// What a visitor of the compare page can choose: one machine, then A and B among its builds.
import type { CompareBuild, CompareIndex } from './files.ts';

/** Every build a machine measured, in display order: what both of its lists offer. */
export const buildsOn = (index: Pick<CompareIndex, 'builds'>, host: string): CompareBuild[] => index.builds.filter((b) => b.host === host);

/**
 * The pair a machine opens with: the newest 3.4 against the newest 3.5 (the step the site is about), else
 * its two newest OpenSSL builds, else its first two builds; null when it measured fewer than two.
 */
export function defaultPairOn(builds: readonly CompareBuild[], host: string): { a: string; b: string } | null {
  const mine = builds.filter((b) => b.host === host);
  const openssl = mine.filter((b) => b.library === 'openssl' && b.variant === 'default');
  const newest = (series: string) => [...openssl].reverse().find((b) => b.version.startsWith(`${series}.`));
  const a = newest('3.4') ?? openssl[openssl.length - 2] ?? mine[0];
  const b = newest('3.5') ?? openssl[openssl.length - 1] ?? mine[1];
  return a && b && a !== b ? { a: a.id, b: b.id } : null;
}

export interface CompareSelection {
  host: string;
  /** what both lists offer: every build of the machine */
  offered: CompareBuild[];
  a: CompareBuild;
  b: CompareBuild;
}

/**
 * What the page shows for what was asked (the address, or a list changed): one machine, A and B among its
 * builds. A build of another machine than the one asked for is not kept (nothing compares two machines);
 * what is missing or unknown falls back to the machine's default pair, and B is never A.
 */
export function selectPair(index: CompareIndex, asked: { host?: string | null; a?: string | null; b?: string | null }): CompareSelection | null {
  const byId = (id: string | null | undefined) => index.builds.find((b) => b.id === id);
  const usable = index.machines.filter((h) => buildsOn(index, h).length >= 2);
  const host = [asked.host, byId(asked.a)?.host, byId(asked.b)?.host, index.defaults ? byId(index.defaults.a)?.host : null, usable[0]].find(
    (h) => h && usable.includes(h),
  );
  if (!host) return null;
  const offered = buildsOn(index, host);
  const def = defaultPairOn(index.builds, host)!;
  const on = (id: string | null | undefined) => offered.find((b) => b.id === id);
  const a = on(asked.a) ?? on(def.a)!;
  const b = [on(asked.b), on(def.b), on(def.a), ...offered].find((x) => x && x !== a)!;
  return { host, offered, a, b };
}

/**
 * What the page says of a pair before its tables when none of its values could be paired: the two builds
 * were never measured in one run on the machine (the project never divides values of two runs).
 */
export function neverPairedText(a: CompareBuild, b: CompareBuild): string {
  return `${a.label} and ${b.label} were never measured in the same run on this machine, so no change between them is computed: each value is listed with its own run, without a ratio.`;
}
