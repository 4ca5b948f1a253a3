// Master watched night by night, on a synthetic history with known dates, and nights whose measuring and
// bisecting are stand-ins with known figures.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { BisectReport, MasterNight } from '../../schema/index.ts';
import { bisectChange, bisectPending, previousFigure, snapshots, watchNight, type WatchDeps } from './master-watch.ts';

const dir = mkdtempSync(join(tmpdir(), 'master-watch-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const DAY = 86_400;
const T0 = Date.UTC(2025, 0, 6) / 1000; // a Monday
const sh = (args: string[], when?: number) =>
  execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
      ...(when ? { GIT_COMMITTER_DATE: `@${when} +0000`, GIT_AUTHOR_DATE: `@${when} +0000` } : {}),
    },
  }).trim();
const commitOn = (day: number, msg: string) => {
  writeFileSync(join(dir, 'f'), msg);
  sh(['add', '-A']);
  sh(['commit', '-q', '-m', msg], T0 + day * DAY);
  return sh(['rev-parse', 'HEAD']);
};

sh(['init', '-q', '-b', 'master']);
const byDay = new Map<number, string>();
for (const day of [0, 1, 2, 5, 6, 9, 13, 15, 16]) byDay.set(day, commitOn(day, `day ${day}`));
// a side branch merged on day 17: its commits are not snapshots (first parents only)
sh(['checkout', '-q', '-b', 'side', byDay.get(16)!]);
const sideCommit = commitOn(16.5, 'side work');
sh(['checkout', '-q', 'master']);
sh(['merge', '-q', '--no-ff', '-m', 'merge side', 'side'], T0 + 17 * DAY);
const merge = sh(['rev-parse', 'HEAD']);
const gitDir = join(dir, '.git');

test('snapshots: the last first-parent commit of every 7-day boundary, the start and the end, each once', () => {
  const s = snapshots(gitDir, byDay.get(0)!, 'master', 7);
  assert.deepEqual(
    s.map((x) => x.commit),
    [byDay.get(0), byDay.get(6), byDay.get(13), merge],
  );
  assert.equal(s[1]!.at, new Date((T0 + 7 * DAY) * 1000).toISOString());
  assert.equal(s[3]!.at, new Date((T0 + 17 * DAY) * 1000).toISOString(), 'the last snapshot is dated by its commit, not by a boundary past it');
  assert.ok(!s.some((x) => x.commit === sideCommit), 'a merged side branch commit is not a snapshot of master');
  // a boundary with no new commit adds nothing; every day: every commit of the first-parent line
  assert.equal(snapshots(gitDir, byDay.get(0)!, 'master', 1).length, 10);
});

const c = (n: number) => n.toString(16).padStart(40, '0');
function deps(figures: Record<string, number | null>, bisected: string[][], fails = false): WatchDeps {
  return {
    measure: async (commit) => {
      const v = figures[commit];
      return v === null || v === undefined ? { value: null, reason: 'does not build' } : { value: v };
    },
    bisect: async (from, to, metric) => {
      bisected.push([from, to, metric]);
      if (fails) throw new Error('no history here');
      const step = { commit: to, subject: 'the culprit', before: figures[from]!, after: figures[to]! };
      return { report: { steps: [step], unresolved: [] } as unknown as BisectReport, file: `${from.slice(0, 12)}..${to.slice(0, 12)}-m.json` };
    },
    info: () => ({ subject: 's', date: '2025-01-01T00:00:00Z' }),
  };
}

test('a night compares with the last night that measured the figure, bisects only a change above the threshold, and names the culprits', async () => {
  const figures = { [c(1)]: 1000, [c(2)]: 1001, [c(3)]: null, [c(4)]: 1100 };
  const bisected: string[][] = [];
  const state = { threshold: 0.002, nights: [] as MasterNight[] };
  for (const n of [1, 2, 3, 4]) state.nights.push(await watchNight(state, { commit: c(n), at: `2025-01-0${n}`, replay: true }, ['m'], deps(figures, bisected)));
  // 1000 -> 1001 is 0.1%: no change; night 3 does not build; night 4 is compared with night 2, not 3
  assert.deepEqual(bisected, [[c(2), c(4), 'm']]);
  assert.deepEqual(
    state.nights.map((n) => n.changes.length),
    [0, 0, 0, 1],
  );
  assert.equal(state.nights[2]!.reasons?.m, 'does not build');
  const change = state.nights[3]!.changes[0]!;
  assert.deepEqual([change.fromCommit, change.before, change.after, change.culprits[0]!.commit], [c(2), 1001, 1100, c(4)]);
  assert.deepEqual(previousFigure(state.nights, 'm'), { commit: c(4), value: 1100 });
});

test('a bisection that fails leaves the change recorded with why, and the night kept', async () => {
  const state = { threshold: 0.002, nights: [] as MasterNight[] };
  const figures = { [c(1)]: 10, [c(2)]: 20 };
  for (const n of [1, 2]) state.nights.push(await watchNight(state, { commit: c(n), at: 'x', replay: false }, ['m'], deps(figures, [], true)));
  const change = state.nights[1]!.changes[0]!;
  assert.equal(change.report, null);
  assert.match(change.why ?? '', /bisection failed: no history here/);
});

test('measured now, bisected later: a change without a bisector is pending, and bisecting it later names the culprits', async () => {
  const figures = { [c(1)]: 10, [c(2)]: 20 };
  const bisected: string[][] = [];
  const { bisect, ...measureOnly } = deps(figures, bisected);
  const state = { threshold: 0.002, nights: [] as MasterNight[] };
  for (const n of [1, 2]) state.nights.push(await watchNight(state, { commit: c(n), at: 'x', replay: true }, ['m'], measureOnly));
  const change = state.nights[1]!.changes[0]!;
  assert.deepEqual([change.pending, change.why, bisected.length], [true, 'not bisected yet', 0]);
  const done = await bisectChange(change, c(2), bisect!);
  assert.deepEqual(
    [done.pending, done.why, done.culprits.map((x) => x.commit), done.report],
    [undefined, undefined, [c(2)], `${c(1).slice(0, 12)}..${c(2).slice(0, 12)}-m.json`],
  );
});

test('bisecting pending changes with --metric bisects only those metrics; the others stay pending', async () => {
  const figures = { [c(1)]: 10, [c(2)]: 20 };
  const bisected: string[][] = [];
  const { bisect, ...measureOnly } = deps(figures, bisected);
  const state = { threshold: 0.002, nights: [] as MasterNight[] };
  for (const n of [1, 2])
    state.nights.push(
      await watchNight(state, { commit: c(n), at: 'x', replay: true }, ['m', 'other'], {
        ...measureOnly,
        measure: async (commit) => ({ value: figures[commit]! }),
      }),
    );
  const told: string[] = [];
  await bisectPending(state.nights, bisect!, new Set(['m']), (_night, change) => told.push(change.metric));
  const [m, other] = state.nights[1]!.changes;
  assert.deepEqual(told, ['m']);
  assert.deepEqual([m!.pending, m!.culprits.map((x) => x.commit)], [undefined, [c(2)]]);
  assert.deepEqual([other!.metric, other!.pending, other!.why], ['other', true, 'not bisected yet'], 'left as it was');
  await bisectPending(state.nights, bisect!, undefined, (_night, change) => told.push(change.metric));
  assert.deepEqual(told, ['m', 'other'], 'without --metric every pending change');
});
