import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Comparison, DetailedIterations, Host, Summary, SummaryEntry } from '../../../schema/index.ts';
import { describeMachine } from '../../../schema/machine.ts';
import { differingFeatures, findingCell, findings, machineCards, machineLabel, machineTexts, type FindingDef } from './machines.ts';
import { entryRounds } from './claims/compare.ts';
import { makeHost, seriesOfVersion } from '../../../schema/test-data.ts';

const host = (id: string, flags: Host['cpuFlags']): Host =>
  makeHost({
    id,
    name: 'obs-box',
    cpuModel: 'AMD EPYC',
    cpuFlags: { aesni: true, pclmulqdq: true, avx2: true, avx512f: false, ...flags },
    memoryBytes: 1,
    os: 'o',
  });
const VAES = host('obs-box.amd-epyc-aaaaaa', { vaes: true, vpclmulqdq: true });
const PLAIN = host('obs-box.amd-epyc-bbbbbb', { vaes: false, vpclmulqdq: false });
const KEY = 'aead/x[bytes=16384]';
const OTHER = 'aead/y[bytes=16384]';

const cmp = (against: string, ratio: number, verdict: Comparison['verdict']): Comparison => ({
  against,
  ratio,
  pairing: 'paired-rounds',
  pairs: 6,
  interval: { low: ratio * 0.98, high: ratio * 1.02, coverage: 0.969, kind: 'order-statistic' },
  verdict,
});
const entry = (h: Host, runId: string, version: string, over: Partial<SummaryEntry> = {}): SummaryEntry =>
  ({
    host: h.id,
    library: 'openssl',
    version,
    series: seriesOfVersion(version),
    variant: 'default',
    key: KEY,
    benchmark: 'aead',
    metric: 'x',
    label: 'x',
    unit: 'bytes/s',
    method: 'cpu-time-thread',
    higherIsBetter: true,
    params: {},
    comparability: { acrossVersions: true },
    status: 'measured',
    runId,
    stats: { n: 6, median: 100, mean: 100, stdev: 1, min: 99, max: 101, cv: 0.01, deterministic: false, interval: null },
    vsPreviousSeries: null,
    vsBaseline: null,
    vsOpenSSL: null,
    ...over,
  }) as SummaryEntry;
const summary = (hosts: Host[], entries: SummaryEntry[]): Summary => ({ hosts, entries, runs: [], builds: [] }) as unknown as Summary;
const def = (over: Partial<FindingDef> = {}): FindingDef => ({
  id: 't',
  title: 't',
  key: KEY,
  subject: { series: '3.0' },
  reference: { series: '1.1.1' },
  paths: [['vaes', 'vpclmulqdq'], ['avx512f']],
  ...over,
});

test('a machine is named by its description, from the file’s own record or the summary; an unknown id stays itself', () => {
  const l = machineLabel(VAES.id, [VAES, PLAIN]);
  assert.equal(l.text, describeMachine(VAES));
  assert.equal(l.name, 'obs-box');
  assert.match(l.text, /VAES/);
  assert.match(machineLabel(PLAIN.id, [VAES, PLAIN]).text, /no VAES/);
  assert.equal(machineLabel(PLAIN.id, [], PLAIN).text, describeMachine(PLAIN));
  // not a project machine: its name says so wherever it is shown
  assert.deepEqual(machineLabel('old-host', [VAES]), {
    id: 'old-host',
    name: 'old-host',
    description: null,
    contributed: true,
    text: 'old-host (contributed machine, not the project’s)',
  });
  assert.deepEqual(Object.keys(machineTexts([VAES, PLAIN])), [VAES.id, PLAIN.id]);
});

test('machine cards: the flags of the architecture with their state, runs deduplicated and dated, benchmarks', () => {
  const s = summary([VAES], [entry(VAES, 'r1', '3.0.22')]);
  s.runs = [{ runId: 'r1', host: VAES.id, startedAt: '2026-11-22T01:00:00Z', benchmarks: ['aead'] } as Summary['runs'][number]];
  const [c] = machineCards(s, [
    { host: VAES.id, runId: 'r1', startedAt: '2026-11-22T01:00:00Z', benchmarks: ['aead'] },
    { host: VAES.id, runId: 'r0', startedAt: '2026-11-20T01:00:00Z', benchmarks: ['handshake'] },
    { host: PLAIN.id, runId: 'x', startedAt: '2026-11-21T00:00:00Z', benchmarks: ['speed'] },
  ]);
  assert.deepEqual(
    c!.runs.map((r) => r.runId),
    ['r0', 'r1'],
  );
  assert.deepEqual(c!.days, { first: '2026-11-20', last: '2026-11-22' });
  assert.deepEqual(c!.benchmarks, ['aead', 'handshake']);
  assert.equal(c!.flags.find((f) => f.flag === 'vaes')!.state, 'present');
  assert.equal(c!.flags.find((f) => f.flag === 'avx512f')!.state, 'absent');
  assert.equal(c!.flags.find((f) => f.flag === 'shani')!.state, 'not recorded');
  assert.ok(!c!.flags.some((f) => f.flag === 'sve'), 'arm flags are not listed for an x86 machine');
});

test('a cell uses the summary’s own comparison when its reference is the one asked for, the newest release of each series', () => {
  const es = [
    entry(VAES, 'r1', '1.1.1w'),
    entry(VAES, 'r1', '3.0.2', { vsBaseline: cmp('1.1.1w', 0.5, 'lower') }),
    entry(VAES, 'r1', '3.0.22', { vsBaseline: cmp('1.1.1w', 0.9, 'lower') }),
  ];
  const c = findingCell(def(), VAES.id, es, () => null);
  assert.equal(c.state, 'measured');
  if (c.state !== 'measured') return;
  assert.equal(c.comparison.ratio, 0.9);
  assert.equal(c.runId, 'r1');
  assert.equal(c.source, 'summary');
  assert.equal(c.subject, 'OpenSSL 3.0.22');
  assert.equal(c.reference, 'OpenSSL 1.1.1w');
});

test('two series of one run are paired by round here; two runs are never divided; nothing measured says so', () => {
  const a = entry(VAES, 'r1', '3.5.7');
  const b = entry(VAES, 'r1', '3.5.7', { key: OTHER });
  const detailed = {
    rows: [
      ['r1', VAES.id, 'b', '3.5.7', 'default', KEY, [1, 2, 3, 4, 5, 6], [90, 91, 92, 90, 91, 92]],
      ['r1', VAES.id, 'b', '3.5.7', 'default', OTHER, [1, 2, 3, 4, 5, 6], [100, 100, 100, 100, 100, 100]],
    ],
  } as unknown as DetailedIterations;
  const d = def({ refKey: OTHER, sides: ['one', 'other'], subject: { series: '3.5' }, reference: { series: '3.5' } });
  const builds = [{ host: VAES.id, id: 'b', library: 'openssl', version: '3.5.7', variant: 'default' }] as unknown as Summary['builds'];
  const c = findingCell(d, VAES.id, [a, b], (e) => entryRounds(e, { builds }, detailed));
  assert.equal(c.state, 'measured');
  if (c.state === 'measured') {
    assert.equal(c.source, 'paired here');
    assert.ok(Math.abs(c.comparison.ratio - 0.91) < 0.011, String(c.comparison.ratio));
    assert.equal(c.comparison.verdict, 'lower');
    assert.equal(c.subject, 'OpenSSL 3.5.7, one');
  }
  // the reference only in another run: the medians are there, the ratio is not made
  const split = findingCell(def(), VAES.id, [entry(VAES, 'r1', '3.0.22'), entry(VAES, 'r2', '1.1.1w')], () => null);
  assert.deepEqual(split, { state: 'not-in-one-run', host: VAES.id, runs: ['r1', 'r2'] });
  assert.deepEqual(
    findingCell(def(), PLAIN.id, [entry(VAES, 'r1', '3.0.22'), entry(VAES, 'r1', '1.1.1w')], () => null),
    { state: 'not-measured', host: PLAIN.id },
  );
});

test('another library against the newest OpenSSL of its run, through vsOpenSSL', () => {
  const es = [
    entry(VAES, 'r1', '3.5.7'),
    entry(VAES, 'r1', '4.0.3'),
    entry(VAES, 'r1', '5.12.0', { library: 'aws-lc', vsOpenSSL: cmp('4.0.3', 1.3, 'higher') }),
  ];
  const c = findingCell(def({ subject: { library: 'aws-lc' }, reference: { newestOpenSSL: true } }), VAES.id, es, () => null);
  assert.equal(c.state === 'measured' && `${c.subject} / ${c.reference} ${c.comparison.ratio}`, 'AWS-LC 5.12.0 / OpenSSL 4.0.3 1.3');
});

test('the words of a row: holds everywhere, differs (naming a differing code-path feature as a hypothesis), one machine only', () => {
  const both = (v1: Comparison['verdict'], v2: Comparison['verdict']) => [
    entry(VAES, 'r1', '1.1.1w'),
    entry(VAES, 'r1', '3.0.22', { vsBaseline: cmp('1.1.1w', 0.9, v1) }),
    entry(PLAIN, 'r2', '1.1.1w'),
    entry(PLAIN, 'r2', '3.0.22', { vsBaseline: cmp('1.1.1w', 0.8, v2) }),
  ];
  const [same] = findings(summary([VAES, PLAIN], both('lower', 'lower')), null, [def()]);
  assert.equal(same!.agreement, 'all');
  assert.match(same!.words, /Holds on every machine that measured it \(2\): lower/);
  const [diff] = findings(summary([VAES, PLAIN], both('no-difference-shown', 'lower')), null, [def()]);
  assert.equal(diff!.agreement, 'differs');
  assert.match(diff!.words, /Hypothesis: the machines differ in VAES\/VPCLMULQDQ/);
  assert.doesNotMatch(diff!.words, /AVX-512F/, 'a feature both machines lack is no explanation');
  assert.deepEqual(differingFeatures(def(), [VAES, VAES]), []);
  const [one] = findings(summary([VAES, PLAIN], both('lower', 'lower').slice(0, 2)), null, [def()]);
  assert.equal(one!.agreement, 'one');
  assert.equal(one!.cells[1]!.state, 'not-measured');
  assert.match(one!.words, /one machine only/);
  const [none] = findings(summary([VAES], []), null, [def()]);
  assert.equal(none!.agreement, 'none');
});
