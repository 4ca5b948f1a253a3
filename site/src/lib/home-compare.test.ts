// Unit tests of the home page's model, chart and table, and of the compare page's data files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DetailedIterations, Summary, type SummaryEntry } from '../../../schema/index.ts';
import { compareRounds, DETERMINISTIC_METHODS, SUMMARY_DIGITS, significant, valuesByRound } from '../../../analysis/stats.ts';
import { axisScale, labelParts, pctTick } from './chart-text.ts';
import { journeyInit, journeyPayload, splitJourneys, writeupRefs } from './model.ts';
import { countsFor, headline, headlineRule, homeView, type HomeView } from './home.ts';
import { journeySvg } from './journey-chart.ts';
import { journeyCsv, journeyTableHtml } from './journey-table.ts';
import { changeCell, configText, stepsFor, type Journey, type JourneyPoint } from './journey-view.ts';
import { compareFiles } from './compare/data.ts';
import { compareCsv } from './compare/download.ts';
import { pairFile, sharesRun, type CompareBuild } from './compare/files.ts';
import { forestRows } from './compare/forest.ts';
import { compareTablesHtml } from './compare/html.ts';
import { compareLayout, isApart } from './compare/layout.ts';
import { filterRows, joinRows, seriesKeyOf } from './compare/rows.ts';
import { isTiming } from './runs.ts';
import { forestSvg } from './compare/forest-chart.ts';
import { openSSLOnly } from './data.ts';

const dir = new URL('../../tests/fixtures/data/', import.meta.url);
// the OpenSSL builds' entries: what these pages read (other libraries are on /libraries)
const fixture = openSSLOnly(Summary.parse(JSON.parse(readFileSync(new URL('summary.json', dir), 'utf8'))));
const detailed = DetailedIterations.parse(JSON.parse(readFileSync(new URL('detailed-iterations.json', dir), 'utf8')));

test('an axis reads in the scale of its largest value, as format.ts writes it', () => {
  assert.deepEqual(axisScale('bytes/s', 'openssl-speed', 1.6e9), { factor: 1e9, suffix: 'GB/s' });
  assert.deepEqual(axisScale('us/handshake', 'cpu-time-client', 1500), { factor: 1000, suffix: 'ms' });
  assert.deepEqual(axisScale('us/handshake', 'cpu-time-client', 800), { factor: 1, suffix: 'µs' });
  assert.deepEqual(axisScale('handshakes/s', 'cpu-time-both', 5000), { factor: 1, suffix: 'handshakes/s' });
  assert.deepEqual(axisScale('bytes', 'heap-bytes', 70_000), { factor: 1024, suffix: 'KiB' });
  assert.equal(pctTick(0.9), '−10%');
  assert.equal(pctTick(1), '0%');
  assert.equal(pctTick(1.125), '+12.5%');
});

test('a label splits at its first semicolon outside parentheses', () => {
  assert.deepEqual(labelParts('Instructions per handshake (valgrind, fixed-seed RNG; see hiddenFeatures); TLS 1.3 ecdsa-p256, new'), {
    what: 'Instructions per handshake (valgrind, fixed-seed RNG; see hiddenFeatures)',
    config: 'TLS 1.3 ecdsa-p256, new',
  });
  assert.deepEqual(labelParts('ML-KEM-768 encapsulations per second'), { what: 'ML-KEM-768 encapsulations per second', config: '' });
  assert.equal(
    configText('cert=ecdsa-p256, clientCtx=shared, proto=1.3, resume=none, threads=1'),
    'TLS 1.3, ECDSA P-256 certificate, full handshake, one shared client SSL_CTX, 1 thread',
  );
});

const pt = (version: string, run: string, prev: JourneyPoint['prev'] = null): JourneyPoint => ({
  version,
  series: version.slice(0, 3),
  key: 'k',
  status: 'measured',
  median: 10,
  low: 9,
  high: 11,
  n: 6,
  segment: 'all',
  reason: null,
  negotiated: null,
  run,
  prev,
  base: null,
});

test('a change is read only within one run; another run is said to be one, never divided', () => {
  const cmp = { against: '3.4.1', ratio: 0.7, low: 0.68, high: 0.72, coverage: 0.97, verdict: 'lower' as const, deterministic: false };
  const paired = changeCell(pt('3.5.7', 'r1', cmp), pt('3.4.1', 'r1'), 'prev', true);
  assert.equal(paired.kind, 'paired');
  assert.equal(paired.text, '−30.0%');
  assert.equal(paired.significant, true);
  assert.equal(paired.tone, 'worse');
  const apart = changeCell(pt('3.5.7', 'r2', cmp), pt('3.4.1', 'r1'), 'prev', true);
  assert.equal(apart.kind, 'different-runs');
  assert.equal(apart.text, '');
  assert.equal(changeCell(pt('3.5.7', 'r1', { ...cmp, verdict: 'not-enough-data' }), pt('3.4.1', 'r1'), 'prev', true).significant, false);
});

test('each write-up is marked on the step into the first series it studies after its oldest', () => {
  const axis = [
    { version: '1.1.1w', series: '1.1.1' },
    { version: '3.0.22', series: '3.0' },
    { version: '3.4.1', series: '3.4' },
    { version: '3.5.7', series: '3.5' },
  ];
  const steps = stepsFor(axis, 'handshake:cpu', [
    { id: 'shares', title: 'Key shares', series: ['3.4', '3.5'], families: ['handshake:cpu'] },
    { id: 'providers', title: 'Providers', series: ['1.1.1', '3.0', '3.5'], families: ['handshake:cpu', 'handshake:memory'] },
    { id: 'heap', title: 'Heap', series: ['1.1.1', '3.0'], families: ['handshake:memory'] },
    { id: 'one', title: 'One version only', series: ['3.5'], families: ['handshake:cpu'] },
  ]);
  assert.deepEqual(
    steps.map((s) => [s.n, s.from, s.version, s.writeups.map((w) => w.id)]),
    [
      [1, '1.1.1w', '3.0.22', ['providers']],
      [2, '3.4.1', '3.5.7', ['shares']],
    ],
  );
});

test('write-up references take their kind of cost from the series summary.json holds', () => {
  const key = fixture.entries.find((e) => e.metric === 'handshakes-per-cpu-second')!.key;
  const refs = writeupRefs(fixture, [
    { id: 'a', title: 'A', versions: ['3.5.7', '3.4.1'], seriesKeys: [key, 'handshake/no-such-series'] },
    { id: 'b', title: 'B', versions: ['3.4.1'], seriesKeys: ['handshake/no-such-series'] },
  ]);
  assert.deepEqual(refs[0], { id: 'a', title: 'A', series: ['3.4', '3.5'], families: ['handshake:cpu'] });
  assert.deepEqual(refs[1]!.families, []);
});

/** The view with an instruction-count line of its first line's configuration (no thread parameter, as measured). */
function withCounts(view: HomeView, medians: Record<string, number>, config = view.lines[0]!.config.replace(/, threads=\d+/, '')): HomeView {
  const line = view.lines[0]!;
  const counts: Journey = {
    ...line,
    metric: 'instructions-per-handshake:both',
    label: 'Instructions per handshake',
    unit: 'instructions',
    method: 'instruction-count',
    higherIsBetter: false,
    config,
    points: Object.entries(medians).map(([v, m]) => ({ ...pt(v, 'r-other'), median: m, low: null, high: null, n: 1 })),
  };
  return { ...view, counts: countsFor([counts], line) };
}

test('a CPU-time step leads only where the instruction count moved the same way beyond the threshold', () => {
  const view = homeView(journeyPayload(fixture), [], fixture.statistics.baselineVersion)!;
  const t = fixture.statistics.deterministicThreshold;
  // handshakes per CPU second: 1.1.1w -> 3.0.22 fell 20%, 3.0.22 -> 3.4.1 rose 13%, 3.4.1 -> 3.5.7 fell 33% (the largest)
  assert.deepEqual(
    view.lines[0]!.points.filter((p) => p.prev?.verdict === 'lower' || p.prev?.verdict === 'higher').map((p) => p.version),
    ['3.0.22', '3.4.1', '3.5.7'],
  );
  // the largest step without agreement (counts flat within 0.5%) loses to a smaller one with it (fewer instructions where the rate rose)
  const flat = headline(withCounts(view, { '1.1.1w': 1000, '3.0.22': 1000, '3.4.1': 900, '3.5.7': 901 }), t)!;
  assert.deepEqual([flat.from, flat.to], ['3.0.22', '3.4.1']);
  assert.ok(Math.abs(flat.counts!.ratio - 0.9) < 1e-9);
  // instructions that moved the other way (fewer where the rate fell) make a step ineligible
  const against = headline(withCounts(view, { '1.1.1w': 1000, '3.0.22': 900, '3.4.1': 1100, '3.5.7': 800 }), t);
  assert.equal(against, null);
  const some = headline(withCounts(view, { '1.1.1w': 1000, '3.0.22': 1100, '3.4.1': 1100, '3.5.7': 800 }), t)!;
  assert.deepEqual([some.from, some.to], ['1.1.1w', '3.0.22']);
  // no instruction series for the configuration: nothing is eligible
  assert.equal(headline({ ...view, counts: null }, t), null);
  // counts of another configuration (resumed handshakes) are not a witness
  const other = withCounts(view, { '3.4.1': 1000, '3.5.7': 1200 }, view.lines[0]!.config.replace('resume=none', 'resume=ticket'));
  assert.equal(other.counts, null);
  assert.match(headlineRule(t), /more than 0\.5% in the deterministic instruction count in the same direction/);
});

test('the home view overlays both group modes and leads with the largest significant step', () => {
  const p = journeyPayload(fixture);
  const key = fixture.entries.find((e) => e.metric === 'handshakes-per-cpu-second')!.key;
  const view = homeView(
    p,
    writeupRefs(fixture, [{ id: 'w', title: 'W', versions: ['3.4.1', '3.5.7'], seriesKeys: [key] }]),
    fixture.statistics.baselineVersion,
  )!;
  assert.deepEqual(
    view.lines.map((l) => l.groups),
    ['default', 'X25519'],
  );
  assert.deepEqual(view.versions, ['1.1.1w', '3.0.22', '3.4.1', '3.5.7']);
  assert.equal(view.released['3.5.7'], '2025-04-08');
  assert.deepEqual(
    view.steps.map((s) => [s.from, s.version]),
    [['3.4.1', '3.5.7']],
  );
  // the fixture measures no instruction counts in this configuration: no step may lead
  assert.equal(view.counts, null);
  assert.equal(headline(view, fixture.statistics.deterministicThreshold), null);
  // with counts that rose where the handshake rate fell, 3.4.1 -> 3.5.7 leads
  const hl = headline(withCounts(view, { '3.0.22': 1000, '3.4.1': 1000, '3.5.7': 1200 }), fixture.statistics.deterministicThreshold)!;
  assert.deepEqual(hl.counts && [hl.counts.before, hl.counts.after], [1000, 1200]);
  const e = (v: string, g: string) =>
    fixture.entries.find(
      (x) =>
        x.key === view.lines[0]!.points[0]!.key.replace('clientGroups=default', `clientGroups=${g}`).replace('serverGroups=default', `serverGroups=${g}`) &&
        x.version === v &&
        x.variant === 'default',
    )!;
  assert.equal(hl.to, '3.5.7');
  assert.equal(hl.from, '3.4.1');
  assert.equal(hl.after.median, e('3.5.7', 'default').stats!.median);
  assert.equal(hl.change.verdict, e('3.5.7', 'default').vsPreviousSeries!.verdict);
  assert.equal(hl.other!.line.groups, 'X25519');
  assert.equal(hl.other!.after.median, e('3.5.7', 'X25519').stats!.median);
  assert.equal(hl.step!.writeups[0]!.id, 'w');
  // the page embeds what its script needs to redraw this view from one journey file
  const init = journeyInit(p, [{ id: 'w', title: 'W', series: ['3.4', '3.5'], families: ['handshake:cpu'] }])!;
  assert.equal(init.released['1.1.1w'], '2018-09-11');
  assert.equal(init.writeups.length, 1);
  const inFile = splitJourneys(p).files[init.file]!;
  assert.deepEqual(inFile.map((j) => j.groups).sort(), ['X25519', 'default']);
  assert.ok(inFile.every((j) => j.host === view.host && j.metric === view.metric && j.config === view.config));
});

test('the chart draws every measured median of both lines, and the paired ratios in the relative view', () => {
  const p = journeyPayload(fixture);
  const view = homeView(p, [], fixture.statistics.baselineVersion)!;
  const common = {
    width: 640,
    lines: view.lines,
    versions: view.versions,
    released: view.released,
    baseline: view.baseline,
    steps: [],
    stepHref: (n: number) => `#cause-${n}`,
  };
  const svg = journeySvg({ ...common, scale: 'absolute', axis: 'release' });
  const medians = [...svg.matchAll(/data-groups="(\w+)"[^>]*data-median="([^"]+)"/g)].map((m) => `${m[1]} ${Number(m[2])}`).sort();
  const expected = view.lines.flatMap((l) => l.points.map((x) => `${l.groups} ${x.median}`)).sort();
  assert.deepEqual(medians, expected);
  const rel = journeySvg({ ...common, scale: 'relative', axis: 'date' });
  const ratios = [...rel.matchAll(/data-version="([^"]+)" data-groups="default"[^>]*data-ratio="([^"]+)"/g)].map((m) => [m[1], Number(m[2])]);
  const def = view.lines[0]!;
  assert.deepEqual(
    ratios,
    def.points.map((x) => [x.version, x.version === view.baseline ? 1 : x.base!.ratio]),
  );
  assert.doesNotMatch(rel, /data-median/);
  // the time axis orders versions by their series' release date
  const xs = [...rel.matchAll(/class="xlabel" transform="translate\(([\d.]+),/g)].map((m) => Number(m[1]));
  assert.deepEqual(
    [...xs].sort((a, b) => a - b),
    xs,
  );
});

test('the compact table and the CSV carry the values and verdicts of summary.json', () => {
  const view = homeView(journeyPayload(fixture), [], fixture.statistics.baselineVersion)!;
  const html = journeyTableHtml({ lines: view.lines, versions: view.versions, baseline: view.baseline, steps: [], stepHref: String });
  const e357 = view.lines[0]!.points.find((x) => x.version === '3.5.7')!;
  assert.match(html, new RegExp(`data-median="${e357.median}"`));
  assert.match(html, new RegExp(`data-change="prev" data-kind="paired" data-verdict="${e357.prev!.verdict}"`));
  const csv = journeyCsv(view.lines, view.versions).trim().split('\n');
  assert.equal(csv.length, 1 + view.lines.reduce((a, l) => a + l.points.length, 0));
  assert.match(csv[0]!, /^host,measure,unit/);
});

const files = compareFiles(fixture, detailed);
const build = (id: string): CompareBuild => files.index.builds.find((b) => b.id === id)!;

test('compare: per-build files rebuild every series key, and unsupported values stay null', () => {
  const cat = files.catalogues['obs-fixture-host']!;
  const shard = files.builds['obs-fixture-host/1.1.1w']!;
  const keys = shard.rows.map((r) => seriesKeyOf(cat, r[0])).sort();
  assert.deepEqual(
    keys,
    fixture.entries
      .filter((e) => e.version === '1.1.1w')
      .map((e) => e.key)
      .sort(),
  );
  const mlkem = shard.rows.find((r) => seriesKeyOf(cat, r[0]) === 'speed/mlkem768-encaps')!;
  assert.equal(mlkem[1], 1);
  assert.equal(mlkem[2], null);
  assert.deepEqual(files.index.defaults, { a: 'obs-fixture-host/3.4.1', b: 'obs-fixture-host/3.5.7' });
});

test('compare: a pair file holds exactly the comparisons the aggregation made, either way round', () => {
  const [A, B] = [build('obs-fixture-host/3.4.1'), build('obs-fixture-host/3.5.7')];
  const cat = files.catalogues['obs-fixture-host']!;
  const pair = files.pairs[`obs-fixture-host/${pairFile(A, B)}`]!;
  assert.ok(sharesRun(files.builds[A.id]!, files.builds[B.id]!));
  const rows = joinRows(cat, files.builds[A.id]!, cat, files.builds[B.id]!, pair, false);
  const withPrev = fixture.entries.filter((e) => e.version === '3.5.7' && e.variant === 'default' && e.vsPreviousSeries);
  assert.ok(withPrev.length > 0);
  for (const e of withPrev) {
    const r = rows.find((x) => x.key === e.key)!;
    assert.equal(r.relation, 'paired', e.key);
    assert.equal(r.paired!.ratio, e.vsPreviousSeries!.ratio, e.key);
    assert.equal(r.paired!.verdict, e.vsPreviousSeries!.verdict, e.key);
  }
  // B against A read the other way: A against B, ratio inverted, verdict flipped
  const back = joinRows(cat, files.builds[B.id]!, cat, files.builds[A.id]!, pair, true);
  const e = withPrev.find((x) => x.vsPreviousSeries!.verdict === 'lower')!;
  const r = back.find((x) => x.key === e.key)!;
  assert.equal(r.paired!.ratio, 1 / e.vsPreviousSeries!.ratio);
  assert.equal(r.paired!.verdict, 'higher');
  // the speed AEAD series changed method in 3.5: not comparable, no ratio
  assert.equal(rows.find((x) => x.key.startsWith('speed/aes-128-gcm'))!.relation, 'not-comparable');
});

test('compare: a variant pairs with its default build of the same run (the aggregation does not compare them)', () => {
  const [A, B] = [build('obs-fixture-host/3.5.7'), build('obs-fixture-host/3.5.7-no-ml-kem')];
  const pair = files.pairs[`obs-fixture-host/${pairFile(A, B)}`]!;
  const cat = files.catalogues['obs-fixture-host']!;
  const rows = joinRows(cat, files.builds[A.id]!, cat, files.builds[B.id]!, pair, false);
  const hs = rows.find((r) => r.key.includes('handshakes-per-cpu-second') && r.key.includes('clientGroups=default'))!;
  assert.equal(hs.relation, 'paired');
  const entry = (variant: string) => fixture.entries.find((e) => e.key === hs.key && e.version === '3.5.7' && e.variant === variant)!;
  const rounds = (e: SummaryEntry) => {
    const row = detailed.rows.find((r) => r[5] === e.key && r[3] === e.version && r[4] === e.variant)!;
    return valuesByRound(row[6], row[7]);
  };
  const expected = significant(
    compareRounds(rounds(entry('no-ml-kem')), rounds(entry('default')), '3.5.7', DETERMINISTIC_METHODS.includes(entry('default').method))!,
    SUMMARY_DIGITS,
  );
  assert.equal(hs.paired!.ratio, expected.ratio);
  assert.equal(hs.paired!.verdict, expected.verdict);
  assert.equal(rows.find((r) => r.key === 'speed/mlkem768-encaps')!.relation, 'one-side');
});

test('compare: values of different runs are independent: both shown, no ratio', () => {
  // the same fixture with 3.5.7 taken from another run: nothing may be divided
  const other: Summary = { ...fixture, entries: fixture.entries.map((e) => (e.version === '3.5.7' ? { ...e, runId: 'another-run' } : e)) };
  const f = compareFiles(other, detailed);
  const [A, B] = [f.index.builds.find((b) => b.version === '3.4.1')!, f.index.builds.find((b) => b.id === 'obs-fixture-host/3.5.7')!];
  assert.equal(f.pairs[`obs-fixture-host/${pairFile(A, B)}`], undefined);
  assert.equal(sharesRun(f.builds[A.id]!, f.builds[B.id]!), false);
  const cat = f.catalogues['obs-fixture-host']!;
  const rows = joinRows(cat, f.builds[A.id]!, cat, f.builds[B.id]!, null, false);
  const measured = rows.filter((r) => r.a?.median != null && r.b?.median != null && r.relation !== 'not-comparable');
  assert.ok(measured.length > 0);
  for (const r of measured) {
    assert.equal(r.relation, 'independent');
    assert.equal(r.paired, null);
  }
  assert.match(compareCsv(measured, A, B), /independent: different runs/);
  // the page: timing values of the two runs are never side by side in a table; deterministic counts (one host) may be
  const hosts = [A.host, B.host] as const;
  const { parts, apart } = compareLayout(rows, hosts);
  const timing = rows.filter((r) => r.a?.median != null && r.b?.median != null && isTiming(r.method));
  assert.ok(timing.length > 0);
  assert.deepEqual(apart.map((r) => r.key).sort(), timing.map((r) => r.key).sort());
  for (const p of parts) for (const r of p.rows) assert.ok(!isApart(r, hosts));
  const html = compareTablesHtml(rows, ['3.4.1', '3.5.7'], hosts);
  const tables = [...html.matchAll(/<table [^>]*>[\s\S]*?<\/table>/g)].map((m) => m[0]);
  assert.ok(tables.length > 0);
  for (const t of tables) {
    const timingRuns = /data-timing-runs="([^"]*)"/.exec(t)?.[1]?.split(' ') ?? [];
    assert.ok(timingRuns.length <= 1, t.slice(0, 200));
    assert.match(t, /data-hosts="obs-fixture-host"/);
    // a table of two runs names each row's run
    const runs = /data-runs="([^"]*)"/.exec(t)![1]!.split(' ');
    if (runs.length > 1) for (const tr of t.match(/<tr data-key[\s\S]*?<\/tr>/g) ?? []) assert.match(tr, /data-run="/);
  }
  const item = /<li data-key="[^"]*"[^>]*>([\s\S]*?)<\/li>/.exec(html)![1]!;
  assert.match(
    item,
    /3\.4\.1: .*measured in run 20261122T0\d{5}Z-full-\w+ \(2026-11-22 0\d:00 UTC\) only; 3\.5\.7: .*in run another-run \(another-run\); <strong>not compared: different runs<\/strong>/,
  );
  assert.doesNotMatch(html.slice(html.indexOf('data-compare-apart')), /<table/);
  // two hosts: no row with both values stays in a table, and no table holds both hosts
  const two = compareLayout(rows, ['obs-fixture-host', 'obs-fixture-host-2']);
  assert.ok(two.parts.every((p) => p.rows.every((r) => r.a?.median == null || r.b?.median == null)));
  assert.ok(two.parts.every((p) => !p.attrs['data-hosts']!.includes(' ')));
});

test('compare: a key not written as benchmark/metric[sorted parameters] is carried whole', () => {
  const odd: Summary = { ...fixture, entries: fixture.entries.map((e, i) => (i === 0 ? { ...e, key: 'handshake/odd-key' } : e)) };
  const f = compareFiles(odd, detailed);
  const e = odd.entries[0]!;
  const cat = f.catalogues[e.host]!;
  const shard = f.builds[`${e.host}/${e.variant === 'default' ? e.version : `${e.version}-${e.variant}`}`]!;
  assert.ok(shard.rows.some((r) => seriesKeyOf(cat, r[0]) === 'handshake/odd-key'));
});

test('compare: filters, sorting by change and the forest of the largest changes', () => {
  const [A, B] = [build('obs-fixture-host/1.1.1w'), build('obs-fixture-host/3.5.7')];
  const cat = files.catalogues['obs-fixture-host']!;
  const rows = joinRows(cat, files.builds[A.id]!, cat, files.builds[B.id]!, files.pairs[`obs-fixture-host/${pairFile(A, B)}`]!, false);
  const sorted = filterRows(rows, { benchmark: '', text: '', significantOnly: false, sort: 'change' });
  const sizes = sorted.filter((r) => r.paired).map((r) => Math.abs(Math.log(r.paired!.ratio)));
  assert.deepEqual(
    sizes,
    [...sizes].sort((a, b) => b - a),
  );
  assert.ok(filterRows(rows, { benchmark: 'speed', text: '', significantOnly: false, sort: 'name' }).every((r) => r.benchmark === 'speed'));
  assert.ok(filterRows(rows, { benchmark: '', text: '', significantOnly: true, sort: 'name' }).every((r) => r.significant));
  assert.deepEqual(
    filterRows(rows, { benchmark: '', text: 'CPU side=server', significantOnly: false, sort: 'name' })
      .map((r) => r.key)
      .sort(),
    rows
      .filter((r) => /CPU/.test(r.what) && r.params.includes('side=server'))
      .map((r) => r.key)
      .sort(),
  );
  const svg = forestSvg(
    sorted
      .filter((r) => r.paired)
      .slice(0, 3)
      .map((r) => ({
        key: r.key,
        label: r.what,
        ratio: r.paired!.ratio,
        low: r.paired!.low,
        high: r.paired!.high,
        tone: r.tone,
        significant: r.significant,
        detail: '',
      })),
    366,
    't',
  );
  assert.equal([...svg.matchAll(/class="frow/g)].length, 3);
  // the forest tells the two group modes apart: by the aggregation's labels (which name the groups), or where two
  // labels coincide by the parameters that differ
  const labels = forestRows(sorted, 15).map((r) => r.label);
  assert.equal(new Set(labels).size, labels.length, labels.join(' | '));
  assert.ok(
    labels.some((l) => /clientGroups=X25519|groups X25519/.test(l)),
    labels.join(' | '),
  );
  assert.match(svg, /class="refline"/);
});
