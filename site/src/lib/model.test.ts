import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Summary, type SummaryEntry } from '../../../schema/index.ts';
import {
  journeyKey,
  journeyPayload,
  lineRuns,
  splitJourneys,
  paramsText,
  seriesEntries,
  benchmarkPagePath,
  versionBenchmarkPages,
  versionPages,
  versionSlug,
  type JourneyPoint,
} from './model.ts';
import { configChoices, expandIndex, findJourney, groupsAvailable, measureChoices } from './journey-view.ts';
import { comparisonText, num, pct, withUnit } from './format.ts';
import { openSSLOnly } from './data.ts';

// the OpenSSL builds' entries: what these pages read (other libraries are on /libraries)
const fixture = openSSLOnly(Summary.parse(JSON.parse(readFileSync(new URL('../../tests/fixtures/data/summary.json', import.meta.url), 'utf8'))));

const point = (version: string, median: number | null, segment: string | null): JourneyPoint => ({
  version,
  series: version.slice(0, 3),
  key: `k/${version}`,
  status: median === null ? 'unsupported' : 'measured',
  median,
  low: null,
  high: null,
  n: median === null ? 0 : 5,
  segment,
  reason: null,
  negotiated: null,
  run: null,
  prev: null,
  base: null,
});

test('lineRuns joins only consecutive measured points of the same comparability segment', () => {
  const runs = lineRuns([
    point('1.1.1w', 1, 'pre'),
    point('3.0.22', 2, 'pre'),
    point('3.4.1', 3, 'pre'),
    point('3.5.7', 4, 'post'),
    point('3.6.3', 5, 'post'),
    point('4.0.3', null, 'post'),
    point('4.0.4', 6, 'post'),
  ]);
  assert.deepEqual(
    runs.map((r) => r.map((p) => p.version)),
    [
      ['1.1.1w', '3.0.22', '3.4.1'],
      ['3.5.7', '3.6.3'],
    ],
  );
});

test('lineRuns never joins points that are not comparable with any other version', () => {
  assert.deepEqual(lineRuns([point('3.4.1', 1, null), point('3.5.7', 2, null)]), []);
});

test('journey: defaults and pinned X25519 are separate series with the medians of summary.json', () => {
  const p = journeyPayload(fixture);
  assert.deepEqual(p.hosts, ['obs-fixture-host']);
  assert.deepEqual(p.versions['obs-fixture-host'], ['1.1.1w', '3.0.22', '3.4.0', '3.4.1', '3.5.7']);
  assert.ok(p.defaults);
  // 3.4.0 was measured in another run (the fixture's quick run): in a table of its own, not on the line
  for (const j of p.journeys.filter((x) => x.host === p.defaults!.host && x.config === p.defaults!.config)) {
    assert.ok(!j.points.some((pt) => pt.version === '3.4.0'), `${j.metric} ${j.groups}: 3.4.0 on the line`);
    assert.deepEqual(
      j.apart?.map((a) => [a.run, a.points.map((pt) => pt.version)]),
      [['20261122T040000Z-quick-q2r9', ['3.4.0']]],
    );
  }
  assert.equal(p.defaults.metric, 'handshakes-per-cpu-second:both');
  assert.equal(p.defaults.config, 'cert=ecdsa-p256, clientCtx=shared, proto=1.3, resume=none, threads=1');
  assert.deepEqual(
    measureChoices(p.journeys, p.defaults.host).map(([m]) => m.split('\u0000')[0]),
    ['cpu-per-handshake:client', 'handshakes-per-cpu-second:both', 'cpu-per-handshake:server'],
  );
  assert.deepEqual(
    configChoices(p.journeys, p.defaults.host, measureChoices(p.journeys, p.defaults.host)[0]![0]).map(([c]) => c),
    [p.defaults.config],
  );
  const sel = { ...p.defaults, groups: 'default' as const };
  const def = findJourney(p.journeys, sel)!;
  const pin = findJourney(p.journeys, { ...sel, groups: 'X25519' })!;
  assert.deepEqual(groupsAvailable(p.journeys, p.defaults), ['default', 'X25519']);
  for (const j of [def, pin]) {
    for (const pt of j.points) {
      const e = fixture.entries.find((x) => {
        const k = journeyKey(x);
        return k !== null && x.version === pt.version && k.groups === j.groups && k.metric === j.metric && k.config === j.config;
      })!;
      assert.equal(pt.median, e.stats!.median);
      assert.equal(pt.low, e.stats!.interval!.low);
    }
  }
  assert.notDeepEqual(
    def.points.map((x) => x.median),
    pin.points.map((x) => x.median),
  );
  assert.equal(def.points.find((x) => x.version === '3.5.7')!.negotiated, 'X25519MLKEM768');
  // the no-ml-kem variant is a side experiment: never on the journey
  assert.ok(p.journeys.every((j) => j.points.length === 4));
});

test('journey leaves out entries whose groups are not both default or both X25519', () => {
  const odd: SummaryEntry = { ...fixture.entries[0]!, params: { ...fixture.entries[0]!.params, serverGroups: 'P-256' } };
  const p = journeyPayload({ ...fixture, entries: [odd] });
  assert.equal(p.journeys.length, 0);
  assert.equal(p.defaults, null);
});

test('version pages: one per version and variant, slugs safe for URLs', () => {
  const pages = versionPages(fixture);
  assert.deepEqual(
    pages.map((p) => p.slug),
    ['1.1.1w', '3.0.22', '3.4.0', '3.4.1', '3.5.7', '3.5.7-no-ml-kem'],
  );
  assert.equal(versionSlug('3.5.7', 'no-ml-kem'), '3.5.7-no-ml-kem');
});

test('benchmark pages: one per version, host and benchmark with entries there', () => {
  const pages = versionBenchmarkPages(fixture);
  for (const v of versionPages(fixture))
    for (const host of v.hosts) {
      const expected = [
        ...new Set(fixture.entries.filter((e) => e.host === host && versionSlug(e.version, e.variant) === v.slug).map((e) => e.benchmark)),
      ].sort();
      assert.deepEqual(
        pages.filter((p) => p.page.slug === v.slug && p.host === host).map((p) => p.benchmark),
        expected,
        `${v.slug} on ${host}`,
      );
    }
  assert.ok(pages.length > versionPages(fixture).length, 'the fixture has versions with several benchmarks');
  assert.equal(benchmarkPagePath({ slug: '3.5.7-no-ml-kem', host: 'box-1', benchmark: 'speed' }), '/versions/3.5.7-no-ml-kem/box-1/speed');
});

test('seriesEntries filters by key and versions (every variant), oldest first', () => {
  const key = fixture.entries.find((e) => e.benchmark === 'handshake' && e.runId === '20261122T000000Z-full-f1x7')!.key;
  assert.deepEqual(
    seriesEntries(fixture, key, ['3.5.7', '1.1.1w']).map((e) => `${e.version}/${e.variant}`),
    ['1.1.1w/default', '3.5.7/default', '3.5.7/no-ml-kem'],
  );
});

test('formatting: missing values are words, ratios are signed changes', () => {
  assert.equal(num(null), 'not measured');
  assert.equal(withUnit(undefined, 'ops/s'), 'not measured');
  assert.equal(num(1234567.8), '1,234,568');
  assert.equal(num(0.012345), '0.01235');
  assert.equal(pct(0.93), '−7.0%');
  assert.equal(pct(1.25), '+25.0%');
  assert.equal(pct(1), '±0.0%');
  assert.deepEqual(
    comparisonText({
      against: '3.4.1',
      ratio: 0.99,
      pairing: 'paired-rounds',
      pairs: 6,
      interval: { low: 0.96, high: 1.02, coverage: 0.96875, kind: 'order-statistic' },
      verdict: 'no-difference-shown',
    }),
    {
      change: '−1.0%',
      interval: '−4.0% to +2.0% (96.8% interval, paired by round)',
      verdict: 'no difference shown',
    },
  );
  assert.equal(paramsText({ b: 1, a: 'x' }), 'a=x, b=1');
});

test('the home index carries no points; each file holds one configuration with both group modes', () => {
  const p = journeyPayload(fixture);
  const { index, files } = splitJourneys(p);
  const metas = expandIndex(JSON.parse(JSON.stringify(index)));
  assert.equal(metas.length, p.journeys.length);
  for (const meta of metas) {
    const inFile = files[meta.file]!;
    assert.ok(inFile.every((j) => j.host === meta.host && j.metric === meta.metric && j.config === meta.config));
    assert.deepEqual(inFile.map((j) => j.groups).sort(), ['X25519', 'default']);
    const { points: _p, apart: _a, ...full } = inFile.find((j) => j.groups === meta.groups)!;
    (void _p, _a);
    assert.deepEqual({ ...full, file: meta.file }, meta);
  }
  assert.equal(Object.values(files).flat().length, p.journeys.length);
});
