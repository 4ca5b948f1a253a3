// `npm run reproduce -- <write-up>`: what a write-up's claims need measured. stopping.ts says when the
// measuring may stop, verdicts.ts what it found; the command (reproduce.ts) wires them to the run loop.
//
// What to measure. The write-up's frontmatter (validated with WriteupFrontmatter) names its claims; each
// claim's tests expand into comparisons (site/src/lib/claims/compare.ts pairings): series key a on build a against series key
// b on build b. The builds are the comparisons' builds; the tasks are those that declare (Task.produces)
// a key some comparison needs, from the benchmarks that have such tasks. A benchmark whose tasks declare
// nothing (speed: its series come from what `openssl speed` prints) is run whole, and only when a needed
// key names it and no declaring task produces the key.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { WriteupFrontmatter } from '../../site/src/lib/writeups.ts';
import { type Build, type Claim } from '../../site/src/lib/claims/schema.ts';
import { pairings, type Pairing } from '../../site/src/lib/claims/compare.ts';
import { describeIssues, type Build as BuildRecord, type RunMode } from '../../schema/index.ts';
import type { Benchmark, BuildUnderTest, Task } from '../../runner/benchmark.ts';
import { measures, seriesKey } from '../../runner/benchmark.ts';
import { resolveBuildSpec } from '../../catalogue/index.ts';

// ------------------------------------------------------------------ the write-up

/** A write-up's frontmatter, parsed as YAML and validated as the site validates it. */
export function parseWriteup(text: string, where: string): WriteupFrontmatter {
  const m = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!m) throw new Error(`${where}: no frontmatter (a block between two lines of ---)`);
  const parsed = WriteupFrontmatter.safeParse(parseYaml(m[1]!));
  if (!parsed.success) throw new Error(`${where}:\n${describeIssues(parsed.error, 5)}`);
  return parsed.data;
}

export const readWriteup = (path: string): WriteupFrontmatter => parseWriteup(readFileSync(path, 'utf8'), path);

/** The command a write-up's `reproduce` field gives. */
export const reproduceCommand = (slug: string): string => `npm run reproduce -- ${slug}`;

export interface Needs {
  /** every comparison of every tested claim, with its claim */
  comparisons: { claim: Claim; pairing: Pairing }[];
  /** the series keys they compare */
  keys: Set<string>;
  /** the builds they compare, in the order the claims name them */
  builds: Build[];
}

/** one build's identity in a comparison: library, version and variant */
export const buildIdentity = (b: Build) => `${b.library}\u0000${b.version}\u0000${b.variant}`;

export function needsOf(w: Pick<WriteupFrontmatter, 'claims' | 'series'>): Needs {
  const comparisons = w.claims.flatMap((claim) => claim.tests.flatMap((t) => pairings(t, w.series).map((pairing) => ({ claim, pairing }))));
  const keys = new Set(comparisons.flatMap(({ pairing: p }) => [p.a.key, p.b.key]));
  const builds = new Map<string, Build>();
  for (const { pairing: p } of comparisons) for (const b of [p.a.build, p.b.build]) builds.set(buildIdentity(b), b);
  return { comparisons, keys, builds: [...builds.values()] };
}

/** A claim's build as `npm run bench` names it: 3.5.7, 3.5.7:no-ml-kem, aws-lc@5.12.0, wolfssl@5.9.4:no-perf-options. */
export function buildSpec(b: Build): string {
  const name = b.library === 'openssl' ? b.version : `${b.library}@${b.version}`;
  return b.variant === 'default' ? name : `${name}:${b.variant}`;
}

// ------------------------------------------------------------------ which tasks

export interface TaskPlan {
  mode: RunMode;
  /** benchmark ids, in the registry's order */
  benchmarks: string[];
  /** keys produced by no declaring task, measured by running a benchmark whose tasks declare nothing */
  undeclared: string[];
  /** keys nothing here can produce */
  missing: string[];
  /** some wanted task is timed (not once per run): rounds and looks are needed */
  timed: boolean;
  /** wanted tasks per benchmark and mode, for the record */
  tasks: number;
}

/** The catalogue's release series of a build (1.1.1, 3.5), or its first two numbers when not catalogued. */
function seriesOf(b: Build): string {
  try {
    return resolveBuildSpec(buildSpec({ ...b, variant: 'default' })).version.series;
  } catch {
    return b.version.split('.').slice(0, 2).join('.');
  }
}

/** A build record good enough for Benchmark.tasks() (which only builds closures): planning happens before the builds. */
export function standIn(b: Build): BuildUnderTest {
  return {
    prefix: '/nonexistent',
    record: { id: buildIdentity(b), library: b.library, version: b.version, variant: b.variant, series: seriesOf(b) } as BuildRecord,
  };
}

/**
 * The benchmarks and mode that produce `keys` on `builds`: quick mode (shorter tasks, so more rounds in the
 * budget) when its tasks declare every key, else full mode when it declares more.
 */
export function planTasks(keys: ReadonlySet<string>, builds: readonly Build[], registry: readonly Benchmark[]): TaskPlan {
  const plans = (['quick', 'full'] as const).map((mode) => {
    const declared = new Set<string>();
    const perBench = registry.map((bench) => {
      const tasks: Task[] = builds.filter((b) => measures(bench, b.library)).flatMap((b) => bench.tasks(standIn(b), mode));
      for (const t of tasks) for (const spec of t.produces ?? []) declared.add(seriesKey(spec));
      return { bench, tasks };
    });
    const undeclared = [...keys].filter((k) => !declared.has(k));
    const chosen = new Set<string>();
    const missing: string[] = [];
    let timed = false;
    let count = 0;
    for (const { bench, tasks } of perBench) {
      const wanted = tasks.filter((t) => t.produces?.some((spec) => keys.has(seriesKey(spec))));
      // a benchmark whose tasks declare nothing runs when a key names it and nothing declares the key
      const blind = tasks.filter((t) => t.produces === undefined);
      const blindNeeded = blind.length > 0 && undeclared.some((k) => k.split('/')[0] === bench.id);
      const run = [...wanted, ...(blindNeeded ? blind : [])];
      if (!run.length) continue;
      chosen.add(bench.id);
      count += new Set(run.map((t) => t.id)).size;
      if (run.some((t) => !t.oncePerRun)) timed = true;
    }
    for (const k of undeclared)
      if (!perBench.some(({ bench, tasks }) => k.split('/')[0] === bench.id && tasks.some((t) => t.produces === undefined))) missing.push(k);
    return {
      mode,
      benchmarks: registry.filter((b) => chosen.has(b.id)).map((b) => b.id),
      undeclared: undeclared.filter((k) => !missing.includes(k)),
      missing,
      timed,
      tasks: count,
    } satisfies TaskPlan;
  });
  const [quick, full] = plans as [TaskPlan, TaskPlan];
  return quick.undeclared.length + quick.missing.length === 0 || full.undeclared.length + full.missing.length >= quick.undeclared.length + quick.missing.length
    ? quick
    : full;
}

/** The run loop's task filter for these keys. */
export const wantedKeys = (keys: ReadonlySet<string>) => (key: string) => keys.has(key);
