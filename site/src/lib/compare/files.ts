// The compare page's data files, shared by the build (lib/compare/data.ts writes them) and the browser
// script (site/src/scripts/compare.ts reads them). Runtime imports only from pure modules.
//
// Files, so a pair loads only what it needs (all under /data/compare/):
//   index: the machines and their builds (embedded in the page)
//   <host>/series.json: the series measured on a host (label, configuration, unit, ...), indexed
//   <host>/<build>.json: one build's values, by series index
//   <host>/<a>_vs_<b>.json: B against A paired by round, for the series both measured in the same run
import type { SummaryEntry } from '../../../../schema/index.ts';

export const VERDICTS = ['higher', 'lower', 'no-difference-shown', 'within-threshold', 'not-enough-data'] as const;
export type Verdict = (typeof VERDICTS)[number];
export const STATUSES = ['measured', 'unsupported', 'failed'] as const;

export interface CompareBuild {
  /** "<host>/<slug>", the value in the address */
  id: string;
  host: string;
  library: SummaryEntry['library'];
  version: string;
  variant: string;
  /** catalogue buildSlug: "3.5.7-no-ml-kem", "aws-lc-5.12.0" */
  slug: string;
  /** catalogue buildLabel: "3.5.7 (no-ml-kem)", "AWS-LC 5.12.0" */
  label: string;
}

export interface CompareIndex {
  /** every build of every library measured, by machine (display order within a machine) */
  builds: CompareBuild[];
  /** the machines, the one the page opens on first (lib/hosts.ts) */
  machines: string[];
  defaults: { a: string; b: string } | null;
  /** runs whose machine was not quiet (only in a local build, npm start): their values are indicative */
  indicative: string[];
  /** how the build lists head each library's group (catalogue LIBRARY_NAMES) */
  libraryNames: Record<string, string>;
}

export interface SeriesCatalogue {
  host: string;
  runs: string[];
  benchmarks: string[];
  metrics: string[];
  /** what is measured, in full (labels without their configuration part) */
  whats: string[];
  /** "k=v" parameter tokens */
  tokens: string[];
  units: string[];
  methods: string[];
  segments: string[];
  /**
   * [benchmark, metric, what, configuration words from the label, parameter tokens, unit, method, higher is
   * better (1/0), the key itself where it is not benchmark/metric[sorted parameters]]
   */
  series: [number, number, number, string, number[], number, number, 0 | 1, string?][];
}

/** [series, status, median, low, high, n, segment (null: comparable with no other version), run, reason] */
export type BuildRow = [number, number, number | null, number | null, number | null, number, number | null, number, string | null];
export interface BuildShard {
  id: string;
  rows: BuildRow[];
}

/** [series, ratio B/A, low, high, coverage, verdict, rounds paired, deterministic (1/0)] */
export type PairRow = [number, number, number | null, number | null, number | null, number, number, 0 | 1];
export interface PairShard {
  a: string;
  b: string;
  rows: PairRow[];
}

export const pairFile = (a: CompareBuild, b: CompareBuild) => `${a.slug}_vs_${b.slug}`;

/** Values of A and B were measured as pairs (same host, same run) for some series: the pair file exists. */
export function sharesRun(a: BuildShard, b: BuildShard): boolean {
  const runs = new Map(a.rows.filter((r) => r[1] === 0).map((r) => [r[0], r[7]]));
  return b.rows.some((r) => r[1] === 0 && runs.get(r[0]) === r[7]);
}
