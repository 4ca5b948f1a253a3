// The site `npm start` builds (issue 28 point 7): the fixture's committed runs plus a newcomer's run that was
// not quiet, aggregated with --local-host as scripts/quickstart.sh does. The pages open on the newcomer's
// machine, beside the committed one, and say its figures are indicative. Read from the built HTML.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Run, readRunFile, writeRunFile } from '../../schema/index.ts';
import { writeAll } from '../../scripts/aggregate/derived-files.ts';
import { ARTIFACTS, REPO } from './browser.ts';

const ME = 'newcomer.fixture-cpu-abc123';
const out = join(ARTIFACTS, 'local-build-dist');
let dir = '';

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'local-build-'));
  const fixture = join(REPO, 'site/tests/fixtures/data');
  cpSync(join(fixture, 'runs'), join(dir, 'runs'), { recursive: true });
  const run = readRunFile(join(fixture, 'runs/obs-fixture-host/2026/11/20261122T000000Z-full-f1x7.json.br'));
  const q = run.quiet!;
  const busy = {
    ...q,
    quiet: false,
    rounds: q.rounds.map((r, i) => (i === 0 ? { ...r, quiet: false, reasons: ['other processes used 85% of a CPU (limit 10%): firefox (pid 4242)'] } : r)),
  };
  writeRunFile(
    join(dir, 'runs'),
    Run.parse({
      ...run,
      runId: '20261124T000000Z-quick-me01',
      host: { ...run.host, id: ME },
      startedAt: '2026-11-24T00:00:00Z',
      finishedAt: '2026-11-24T00:10:00Z',
      quiet: busy,
    }),
  );
  writeAll(dir, { localHost: ME });
  const r = spawnSync(join(REPO, 'node_modules/.bin/astro'), ['build', '--root', 'site', '--silent'], {
    cwd: REPO,
    env: {
      ...process.env,
      OBSERVATORY_DATA_DIR: dir,
      OBSERVATORY_OUT_DIR: out,
      OBSERVATORY_WRITEUPS_DIR: join(REPO, 'site/tests/fixtures/writeups'),
      ASTRO_TELEMETRY_DISABLED: '1',
    },
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (r.status !== 0) throw new Error(`site build failed:\n${r.stdout}\n${r.stderr}`);
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const page = (path: string) => readFileSync(join(out, path, 'index.html'), 'utf8');

test('a local build opens on the machine that just ran, beside the committed one, its figures marked indicative', () => {
  const home = page('');
  assert.match(home, /data-local-build[^>]*>[^<]*Local build: the pages open on this computer/);
  assert.match(home, /Its run was not quiet/);
  assert.match(home, new RegExp(`data-host="${ME.replace(/\./g, '\\.')}"`), 'the home chart opens on the newcomer');
  const compare = page('compare');
  assert.match(compare, new RegExp(`data-a="${ME.replace(/\./g, '\\.')}/3\\.4\\.1"`), 'compare opens on the newcomer');
  assert.match(compare, /this computer, not quiet: indicative/);
  assert.match(compare, /the run of 2026-11-24 00:00 UTC \(not quiet: indicative\)/);
  // the committed machine is still there, without the mark
  const machines = JSON.parse(/data-machines="([^"]*)"/.exec(compare)![1]!.replace(/&quot;/g, '"')) as Record<string, string>;
  assert.ok('obs-fixture-host' in machines);
  assert.doesNotMatch(machines['obs-fixture-host']!, /indicative|this computer/);
});
