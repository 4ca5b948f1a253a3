import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HypothesisResult } from '../../../schema/index.ts';
import { SiteDataError, listResultFiles, loadResults, loadRunIndex, loadRuns, loadSummary, runDownload } from './data.ts';

const fixture = new URL('../../tests/fixtures/data/', import.meta.url).pathname;
/** `fn` run with the environment variable `name` set to `value` (undefined: unset), then as it was. */
const withEnv = <T>(name: string, value: string | undefined, fn: () => T): T => {
  const before = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  try {
    return fn();
  } finally {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  }
};
const withData = <T>(dir: string, fn: () => T): T => withEnv('OBSERVATORY_DATA_DIR', dir, fn);

test('an absent summary is "not measured yet" (null), not an error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-data-'));
  try {
    assert.equal(withData(dir, loadSummary), null);
    assert.deepEqual(withData(dir, loadRuns), []);
    assert.deepEqual(
      withData(dir, () => listResultFiles('mtu')),
      [],
    );
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('an invalid summary fails the build naming the file and the JSON path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-data-'));
  try {
    const s = JSON.parse(readFileSync(join(fixture, 'summary.json'), 'utf8'));
    s.entries[2].stats.median = 'fast';
    writeFileSync(join(dir, 'summary.json'), JSON.stringify(s));
    assert.throws(
      () => withData(dir, loadSummary),
      (e: Error) => e instanceof SiteDataError && e.message.includes('summary.json') && e.message.includes('entries.2.stats.median'),
    );
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('a run file of the summary that holds another run is refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-data-'));
  try {
    cpSync(fixture, dir, { recursive: true });
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    cpSync(join(dir, summary.runs[0].path), join(dir, 'runs/obs-fixture-host/2026/10/copy.json.br'));
    summary.runs[0].path = 'runs/obs-fixture-host/2026/10/copy.json.br';
    writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary));
    assert.throws(() => withData(dir, loadRuns), /copy\.json\.br: holds run 20261122T000000Z-full-f1x7 .* which belongs at runs\/obs-fixture-host\/2026\/11\//);
    // another folder (the loaders cache per data folder)
    const dir2 = mkdtempSync(join(tmpdir(), 'site-data-'));
    cpSync(dir, dir2, { recursive: true });
    summary.runs[0].path = 'runs/obs-fixture-host/2026/11/missing.json.br';
    writeFileSync(join(dir2, 'summary.json'), JSON.stringify(summary));
    assert.throws(
      () => withData(dir2, loadRuns),
      (e: Error) => e instanceof SiteDataError && /missing\.json\.br: no such file/.test(e.message),
    );
    rmSync(dir2, { recursive: true });
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('the fixture loads: the run behind the summary, the history of every run from the time series', () => {
  const s = withData(fixture, loadSummary);
  assert.ok(s && s.entries.length > 0);
  const runs = withData(fixture, loadRuns);
  assert.deepEqual(
    runs.map((r) => r.path),
    [
      'runs/obs-fixture-host/2026/11/20261122T000000Z-full-f1x7.json.br',
      'runs/obs-fixture-host/2026/11/20261122T010000Z-full-a2e4.json.br',
      'runs/obs-fixture-host/2026/11/20261122T030000Z-full-l1b5.json.br',
      'runs/obs-fixture-host/2026/11/20261122T040000Z-quick-q2r9.json.br',
      'runs/obs-fixture-host/2026/11/20261122T050000Z-full-s3v8.json.br',
    ],
    'the five quiet runs behind the summary (the not-quiet one feeds nothing)',
  );
  const index = withData(fixture, loadRunIndex);
  assert.equal(index.length, 30);
  assert.equal(index[0]!.runId, '20261122T050000Z-full-s3v8', 'newest first');
  assert.deepEqual(
    index.filter((r) => r.inSummary).map((r) => r.runId),
    ['20261122T050000Z-full-s3v8', '20261122T040000Z-quick-q2r9', '20261122T030000Z-full-l1b5', '20261122T010000Z-full-a2e4', '20261122T000000Z-full-f1x7'],
  );
  assert.ok(
    index.some((r) => r.runId === '20261122T020000Z-full-b5y1' && !r.quiet && r.quietReasons.length > 0),
    'the not-quiet run is indexed with its reasons',
  );
  // one SYNTHETIC hypothesis result (site/tests/fixtures/make-hypothesis-fixture.ts) for the page's rendering test
  const hyp = withData(fixture, () => loadResults('hypothesis', HypothesisResult));
  assert.equal(hyp.length, 1);
  assert.match(hyp[0]!.result.notes.join(' '), /SYNTHETIC/);
  assert.equal(hyp[0]!.result.host.id, 'obs-fixture-host');
});

test('run downloads: the runs behind the summary from the site, the others from the repository when it is known', () => {
  const index = withData(fixture, loadRunIndex);
  const [current, older] = [index.find((r) => r.runId === '20261122T000000Z-full-f1x7')!, index[6]!];
  withEnv('OBSERVATORY_REPO_URL', undefined, () => {
    assert.deepEqual(
      withData(fixture, () => runDownload(current)),
      { href: '/data/runs/obs-fixture-host/20261122T000000Z-full-f1x7.json.br', published: true },
    );
    assert.equal(
      withData(fixture, () => runDownload(older)),
      null,
      'no repository known: the page names the path',
    );
  });
  withEnv('OBSERVATORY_REPO_URL', 'https://github.com/o/r/', () =>
    assert.deepEqual(
      withData(fixture, () => runDownload(older)),
      { href: `https://github.com/o/r/raw/main/data/${older.path}`, published: false },
    ),
  );
});

test('result files are found in sub-folders (data/hypothesis/<host>/<run>.json)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-data-'));
  try {
    mkdirSync(join(dir, 'hypothesis/h1'), { recursive: true });
    writeFileSync(join(dir, 'hypothesis/h1/r1.json'), '{"a":1}');
    assert.deepEqual(
      withData(dir, () => listResultFiles('hypothesis')),
      [{ path: 'hypothesis/h1/r1.json', value: { a: 1 } }],
    );
  } finally {
    rmSync(dir, { recursive: true });
  }
});
