// The write-ups themselves (every file under site/src/content/writeups) and the chart helpers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { parseFrontmatter } from '@astrojs/markdown-remark';
import { Summary, describeIssues } from '../../../schema/index.ts';
import { Claim, MEASURED_NUMBER } from './claims/schema.ts';
import { evaluateClaims } from './claims/evaluate.ts';
import { WriteupFrontmatter, barGeometry, namesOtherLibraries, scaleFor, scaled, seriesCharts } from './writeups.ts';

const dir = new URL('../content/writeups/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.md'));
const read = (f: string) => parseFrontmatter(readFileSync(new URL(f, dir), 'utf8'));
const fixture = Summary.parse(JSON.parse(readFileSync(new URL('../../tests/fixtures/data/summary.json', import.meta.url), 'utf8')));

test('every write-up matches the format, with claims, and no measured number in its prose', () => {
  assert.ok(files.length > 0);
  for (const f of files) {
    const { frontmatter, content } = read(f);
    const parsed = WriteupFrontmatter.safeParse(frontmatter);
    assert.ok(parsed.success, `${f}: ${parsed.success ? '' : describeIssues(parsed.error)}`);
    // the body: numbers with units, percentages or multipliers belong to the data, not to the prose
    const lines = content.split('\n').filter((l) => MEASURED_NUMBER.test(l.replace(/`[^`]*`/g, '')));
    assert.deepEqual(lines, [], `${f}: prose with a measured number`);
    assert.doesNotMatch(`${JSON.stringify(parsed.data)}\n${content}`, /\bseeds? ?0\d\d\b|our mirror/i, `${f}: internal names in public text`);
    assert.doesNotMatch(content, /\d\s?us\b/, `${f}: write µs, not us`);
  }
});

test('the test fixture write-up matches the format too', () => {
  const f = new URL('../../tests/fixtures/writeups/fixture-default-key-shares.md', import.meta.url);
  assert.ok(WriteupFrontmatter.safeParse(parseFrontmatter(readFileSync(f, 'utf8')).frontmatter).success);
});

test('with no data, every claim of every write-up is "not measured yet" or "unverified", never a verdict', () => {
  for (const f of files) {
    const w = WriteupFrontmatter.parse(read(f).frontmatter);
    const empty = { ...fixture, hosts: [], builds: [], runs: [], entries: [] };
    for (const data of [
      { summary: null, detailed: null },
      { summary: empty, detailed: null },
    ])
      for (const r of evaluateClaims(w, data)) assert.ok(r.verdict === 'not-measured' || r.verdict === 'unverified', `${f} ${r.claim.id}: ${r.verdict}`);
  }
});

test('units a reader knows, one scale per chart', () => {
  assert.deepEqual(scaleFor('bytes/s', [5e8, 2e9]), { divisor: 1e9, suffix: 'GB/s', label: 'GB/s' });
  assert.equal(scaled(1.5534e9, scaleFor('bytes/s', [1.5534e9])), '1.553 GB/s');
  assert.equal(scaled(153.2, scaleFor('us/handshake', [153.2])), '153.2 µs');
  assert.equal(scaled(61256, scaleFor('bytes', [61256])), '59.82 KiB');
  assert.equal(scaled(12_074_000, scaleFor('instructions', [12_074_000])), '12.07 M');
  assert.equal(scaleFor('instructions', [900]).label, 'instructions');
});

test('charts: one per series and run, oldest version first, unmeasured rows kept with their reason', () => {
  const key = 'speed/mlkem768-encaps';
  const charts = seriesCharts(fixture, key);
  assert.equal(charts.length, 1);
  assert.deepEqual(
    charts[0]!.rows.map((r) => [r.version, r.variant, r.median === null ? r.entry.status : 'measured']),
    [
      ['1.1.1w', 'default', 'unsupported'],
      ['3.0.22', 'default', 'unsupported'],
      ['3.4.1', 'default', 'unsupported'],
      ['3.5.7', 'default', 'measured'],
      ['3.5.7', 'no-ml-kem', 'unsupported'],
    ],
  );
  assert.deepEqual(
    seriesCharts(fixture, key, ['3.5.7']).flatMap((c) => c.rows.map((r) => r.version)),
    ['3.5.7', '3.5.7'],
  );
  assert.deepEqual(seriesCharts(null, key), []);
  assert.deepEqual(seriesCharts(fixture, 'no/such-series'), []);
  // a series measured in two runs: two charts, each naming its run
  const twoRuns = structuredClone(fixture);
  for (const e of twoRuns.entries) if (e.key === key && e.version === '3.5.7' && e.variant === 'no-ml-kem') e.runId = 'another-run';
  const split = seriesCharts(twoRuns, key);
  assert.deepEqual(
    split.map((c) => [c.runId, c.rows.length]),
    [
      [fixture.entries.find((e) => e.key === key)!.runId, 4],
      ['another-run', 1],
    ],
  );
});

test("a write-up's first chart is a project machine's, even beside a contributed host with more rows and a name that sorts first (issue 30 item 1)", () => {
  const key = fixture.entries.find((e) => e.key.includes('handshakes-per-cpu-second'))!.key;
  const mixed = structuredClone(fixture);
  const ours = mixed.entries.filter((e) => e.key === key);
  // the project machine measured two of the builds; a lookalike contributed host all of them
  const project = ours.slice(0, 2).map((e) => ({ ...structuredClone(e), host: 'obs-devbox-2c', runId: 'project-run' }));
  for (const e of ours) Object.assign(e, { host: 'obs_devbox-2c', runId: 'contributed-run' });
  mixed.entries.push(...project);
  assert.deepEqual(
    seriesCharts(mixed, key).map((c) => c.host),
    ['obs-devbox-2c', 'obs_devbox-2c'],
  );
});

test('bar geometry: the median and its interval in percent of the chart maximum', () => {
  const [chart] = seriesCharts(fixture, fixture.entries.find((e) => e.key.includes('handshakes-per-cpu-second') && e.key.includes('clientGroups=X25519'))!.key);
  const row = chart!.rows[0]!;
  const g = barGeometry(row, chart!.max);
  const iv = row.entry.stats!.interval!;
  assert.ok(Math.abs(g.bar - (row.median! / chart!.max) * 100) < 1e-9);
  assert.ok(g.low! <= g.bar && g.bar <= g.high!, JSON.stringify({ g, iv }));
  assert.ok(chart!.rows.every((r) => barGeometry(r, chart!.max).high! <= 100));
});

test('other libraries appear in a write-up chart only when its claims name one of their builds', () => {
  const key = fixture.entries.find((e) => e.library === 'aws-lc' && e.metric === 'cpu-per-handshake')!.key;
  const libs = (charts: ReturnType<typeof seriesCharts>) => charts.flatMap((c) => c.rows.map((r) => r.entry.library));
  assert.deepEqual([...new Set(libs(seriesCharts(fixture, key, ['3.5.7'])))], ['openssl']);
  assert.deepEqual(
    [...new Set(libs(seriesCharts(fixture, key, ['3.5.7'], true)))],
    ['openssl', 'aws-lc', 'boringssl', 'wolfssl'],
    'OpenSSL first, then by library',
  );
  const claim = (builds: string[]) => ({ claims: [Claim.parse({ id: 'c', text: 't', tests: [{ series: 's', builds, expect: 'lower', threshold: 0.05 }] })] });
  assert.equal(namesOtherLibraries(claim(['3.5.7', '3.4.1'])), false);
  assert.equal(namesOtherLibraries(claim(['wolfssl-5.9.4+no-perf-options', '3.5.7'])), true);
});
