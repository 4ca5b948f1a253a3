import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HypothesisResult } from '../../../schema/index.ts';
import { SiteDataError, listResultFiles, loadResults, loadRuns, loadSummary } from './data.ts';

const fixture = new URL('../../tests/fixtures/data/', import.meta.url).pathname;
const withData = <T>(dir: string, fn: () => T): T => {
  const before = process.env.OBSERVATORY_DATA_DIR;
  process.env.OBSERVATORY_DATA_DIR = dir;
  try {
    return fn();
  } finally {
    if (before === undefined) delete process.env.OBSERVATORY_DATA_DIR;
    else process.env.OBSERVATORY_DATA_DIR = before;
  }
};

test('an absent summary is "not measured yet" (null), not an error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-data-'));
  try {
    assert.equal(withData(dir, loadSummary), null);
    assert.deepEqual(withData(dir, loadRuns), []);
    assert.deepEqual(withData(dir, () => listResultFiles('mtu')), []);
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
    assert.throws(() => withData(dir, loadSummary), (e: Error) => e instanceof SiteDataError && e.message.includes('summary.json') && e.message.includes('entries.2.stats.median'));
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('a run file stored under the wrong host or name is refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-data-'));
  try {
    const src = join(fixture, 'runs/fixture-host/20261122T000000Z-full-f1x7.json');
    mkdirSync(join(dir, 'runs/other-host'), { recursive: true });
    writeFileSync(join(dir, 'runs/other-host/20261122T000000Z-full-f1x7.json'), readFileSync(src));
    assert.throws(() => withData(dir, loadRuns), /expected runs\/<host>\/<runId>\.json/);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('the fixture loads', () => {
  const s = withData(fixture, loadSummary);
  assert.ok(s && s.entries.length > 0);
  assert.equal(withData(fixture, loadRuns).length, 3);
  // one SYNTHETIC hypothesis result (site/tests/fixtures/make-hypothesis-fixture.ts) for the page's rendering test
  const hyp = withData(fixture, () => loadResults('hypothesis', HypothesisResult));
  assert.equal(hyp.length, 1);
  assert.match(hyp[0]!.result.notes.join(' '), /SYNTHETIC/);
  assert.equal(hyp[0]!.result.host.id, 'fixture-host');
});

test('result files are found in sub-folders (data/hypothesis/<host>/<run>.json)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-data-'));
  try {
    mkdirSync(join(dir, 'hypothesis/h1'), { recursive: true });
    writeFileSync(join(dir, 'hypothesis/h1/r1.json'), '{"a":1}');
    assert.deepEqual(withData(dir, () => listResultFiles('hypothesis')), [{ path: 'hypothesis/h1/r1.json', value: { a: 1 } }]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});
