// The run loop: build what is needed, interleave builds round by round, append every value to a
// journal the moment it exists, and turn the journal into one validated run file at the end.
//
// Journal: <out>/<host>/<runId>.partial.jsonl. Line 1 is the header (everything but the values), each
// further line one finished task of one build in one round. A killed run is resumed with --resume <runId>:
// finished (round, build, benchmark, task) entries are kept and skipped.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Run, writeRunFile, type Build, type Host, type Iteration, type RunMode, type Series } from '../schema/index.ts';
import { seriesKey, type Benchmark, type BuildUnderTest, type Outcome } from './benchmark.ts';

export interface RunPlan {
  runId: string;
  mode: RunMode;
  host: Host;
  benchmarks: string[];
  rounds: number;
  warmupRounds: number;
  builds: Build[];
  startedAt: string;
  harness: Run['harness'];
}

interface JournalEntry {
  round: number;
  buildId: string;
  benchmark: string;
  task: string;
  at: string;
  outcomes?: Outcome[];
  error?: string;
}

export function newRunId(mode: RunMode, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${mode}-${randomBytes(2).toString('hex')}`;
}

export function harnessInfo(): Run['harness'] {
  const git = (args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  let gitCommit = 'unknown';
  let gitDirty = true;
  try {
    gitCommit = git(['rev-parse', 'HEAD']);
    gitDirty = git(['status', '--porcelain', '--untracked-files=no']).length > 0;
  } catch {
    // not a git checkout: say so through 'unknown'
  }
  return { gitCommit, gitDirty, node: process.version };
}

/** Builds in the order they run in a round: rotated each round so no version always goes first. */
export function roundOrder(buildIds: string[], round: number): string[] {
  const k = buildIds.length ? round % buildIds.length : 0;
  return [...buildIds.slice(k), ...buildIds.slice(0, k)];
}

export function journalPath(outDir: string, plan: Pick<RunPlan, 'host' | 'runId'>): string {
  return join(outDir, plan.host.id, `${plan.runId}.partial.jsonl`);
}

export function readJournal(path: string): { plan: RunPlan; entries: JournalEntry[] } {
  const lines = readFileSync(path, 'utf8').split('\n');
  const header = lines.shift();
  if (!header) throw new Error(`${path}: empty journal`);
  const plan = JSON.parse(header).plan as RunPlan;
  const entries: JournalEntry[] = [];
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    try {
      entries.push(JSON.parse(line) as JournalEntry);
    } catch {
      // only the last line can be torn by a kill; anything else is corruption worth stopping for
      if (i !== lines.length - 1 && lines.slice(i + 1).some((l) => l.trim())) throw new Error(`${path}:${i + 2}: unreadable journal line`);
    }
  });
  return { plan, entries };
}

export interface RunCallbacks {
  progress(msg: string): void;
}

export async function executeRun(
  plan: RunPlan,
  builds: BuildUnderTest[],
  benchmarks: Benchmark[],
  outDir: string,
  cb: RunCallbacks,
  notes: string[] = [],
): Promise<{ path: string; run: Run }> {
  const jpath = journalPath(outDir, plan);
  mkdirSync(join(outDir, plan.host.id), { recursive: true });
  let done: JournalEntry[] = [];
  if (existsSync(jpath)) {
    done = readJournal(jpath).entries;
    // rewrite without a torn last line so appends stay one JSON object per line
    writeFileSync(jpath, JSON.stringify({ plan }) + '\n' + done.map((e) => JSON.stringify(e) + '\n').join(''));
    cb.progress(`resuming ${plan.runId}: ${done.length} finished task(s) kept`);
  } else {
    writeFileSync(jpath, JSON.stringify({ plan }) + '\n');
  }
  const finished = new Set(done.map((e) => `${e.round}|${e.buildId}|${e.benchmark}|${e.task}`));

  const prepared = new Map<string, string | null>(); // build|benchmark -> error or null
  for (const build of builds)
    for (const bench of benchmarks) {
      const id = `${build.record.id}|${bench.id}`;
      try {
        cb.progress(`preparing ${bench.id} for ${build.record.version}/${build.record.variant}`);
        await bench.prepare?.(build, plan.mode);
        prepared.set(id, null);
      } catch (e) {
        prepared.set(id, (e as Error).message);
        notes.push(`${bench.id} could not be prepared for ${build.record.version}/${build.record.variant}: ${(e as Error).message.slice(0, 1500)}`);
        cb.progress(`  FAILED: ${(e as Error).message.split('\n')[0]}`);
      }
    }

  const totalRounds = plan.warmupRounds + plan.rounds;
  const byId = new Map(builds.map((b) => [b.record.id, b]));
  const started = Date.now();
  let stepsDone = 0;
  const tasksPerRound = benchmarks.reduce((n, b) => n + Math.max(...builds.map((x) => b.tasks(x, plan.mode).length), 0) * builds.length, 0);
  const totalSteps = tasksPerRound * totalRounds;
  for (let round = 0; round < totalRounds; round++) {
    const order = roundOrder(
      builds.map((b) => b.record.id),
      round,
    );
    const warmup = round < plan.warmupRounds;
    for (const bench of benchmarks) {
      // interleave at task level: one task runs on every build before the next task starts
      const taskIds = [...new Set(builds.flatMap((b) => bench.tasks(b, plan.mode).map((t) => t.id)))];
      for (const taskId of taskIds)
        for (const buildId of order) {
          stepsDone++;
          const build = byId.get(buildId)!;
          const task = bench.tasks(build, plan.mode).find((t) => t.id === taskId);
          if (!task || prepared.get(`${buildId}|${bench.id}`) !== null) continue;
          if (task.oncePerRun && round !== plan.warmupRounds) continue;
          if (finished.has(`${round}|${buildId}|${bench.id}|${taskId}`)) continue;
          const label = `${warmup ? 'warm-up' : `round ${round - plan.warmupRounds + 1}/${plan.rounds}`} ${bench.id}/${taskId} ${build.record.version}${build.record.variant === 'default' ? '' : '/' + build.record.variant}`;
          const elapsed = (Date.now() - started) / 1000;
          const eta = stepsDone > 1 ? (elapsed / (stepsDone - 1)) * (totalSteps - stepsDone + 1) : 0;
          cb.progress(`[${stepsDone}/${totalSteps} ${elapsed.toFixed(0)}s${eta ? `, ~${Math.ceil(eta / 60)} min left` : ''}] ${label}`);
          const entry: JournalEntry = { round, buildId, benchmark: bench.id, task: taskId, at: '' };
          try {
            entry.outcomes = await task.run();
          } catch (e) {
            entry.error = (e as Error).message.slice(0, 2000);
            cb.progress(`  FAILED: ${entry.error.split('\n')[0]}`);
          }
          entry.at = new Date().toISOString();
          appendFileSync(jpath, JSON.stringify(entry) + '\n');
          done.push(entry);
        }
    }
  }

  const run = assembleRun(plan, done, notes);
  const path = writeRunFile(outDir, run);
  rmSync(jpath);
  return { path, run };
}

/** Journal -> run file. Throws with the zod path if the result does not validate (the journal is kept). */
export function assembleRun(plan: RunPlan, entries: JournalEntry[], notes: string[] = []): Run {
  const series = new Map<string, Series>();
  for (const e of entries) {
    if (e.error) {
      notes.push(`round ${e.round}: ${e.benchmark}/${e.task} on build ${e.buildId} failed: ${e.error}`);
      continue;
    }
    for (const o of e.outcomes ?? []) {
      const key = seriesKey(o.spec);
      const id = `${e.buildId}|${key}`;
      let s = series.get(id);
      if (!s) {
        s = { key, ...o.spec, buildId: e.buildId, status: 'measured', iterations: [] };
        series.set(id, s);
      }
      if ('value' in o) {
        const it: Iteration = { round: e.round, value: o.value, at: e.at, warmup: e.round < plan.warmupRounds };
        s.iterations.push(it);
        if (o.observed) s.observed = { ...s.observed, ...o.observed };
      } else if (s.iterations.length === 0) {
        s.status = o.status;
        s.reason = o.reason;
        if (o.observed) s.observed = o.observed;
      } else {
        notes.push(`round ${e.round}: ${key} on build ${e.buildId} was ${o.status} after earlier success: ${o.reason}`);
      }
    }
  }
  // a series that measured something in some rounds and failed in others keeps its values; the
  // failures are in the notes. One that never measured stays unsupported/failed with its reason.
  for (const s of series.values())
    if (s.status === 'measured' && !s.iterations.some((i) => !i.warmup)) {
      s.status = 'failed';
      s.reason = 'measured only in warm-up rounds: every measured round failed (see the run notes)';
    }
  const ordered = [...series.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.buildId < b.buildId ? -1 : 1));
  const totalRounds = plan.warmupRounds + plan.rounds;
  const run = {
    schemaVersion: 1 as const,
    kind: 'run' as const,
    runId: plan.runId,
    mode: plan.mode,
    startedAt: plan.startedAt,
    finishedAt: new Date().toISOString(),
    host: plan.host,
    harness: plan.harness,
    plan: {
      benchmarks: plan.benchmarks,
      rounds: plan.rounds,
      warmupRounds: plan.warmupRounds,
      order: Array.from({ length: totalRounds }, (_, r) =>
        roundOrder(
          plan.builds.map((b) => b.id),
          r,
        ),
      ),
    },
    builds: plan.builds,
    series: ordered,
    notes: notes.length > 100 ? [...notes.slice(0, 99), `... and ${notes.length - 99} more notes`] : notes,
  };
  const parsed = Run.safeParse(run);
  if (!parsed.success) {
    const first = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`the assembled run does not validate:\n  ${first.join('\n  ')}`);
  }
  return parsed.data;
}
