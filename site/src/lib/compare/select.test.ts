// The compare page's choice (issue 28 point 4): a machine, then any two of the builds it measured, every
// library included; a ratio only for values one run measured together.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DetailedIterations, Summary } from '../../../../schema/index.ts';
import { buildSlug } from '../../../../catalogue/index.ts';
import { compareFiles } from './data.ts';
import { pairFile, sharesRun, type CompareBuild } from './files.ts';
import { compareTablesHtml } from './html.ts';
import { joinRows } from './rows.ts';
import { neverPairedText, selectPair } from './selection.ts';

const dir = new URL('../../../tests/fixtures/data/', import.meta.url);
const fixture = Summary.parse(JSON.parse(readFileSync(new URL('summary.json', dir), 'utf8')));
const detailed = DetailedIterations.parse(JSON.parse(readFileSync(new URL('detailed-iterations.json', dir), 'utf8')));
// a second machine with the same builds: never offered beside the first
const twoHosts: Summary = { ...fixture, entries: [...fixture.entries, ...fixture.entries.map((e) => ({ ...e, host: 'obs-other-host' }))] };
const files = compareFiles(twoHosts, detailed);
const H = 'obs-fixture-host';

/** The rows of a pair as the page joins them (the pair file is written in index order). */
function rowsOf(a: CompareBuild, b: CompareBuild) {
  const ids = files.index.builds.map((x) => x.id);
  const [first, second] = ids.indexOf(a.id) < ids.indexOf(b.id) ? [a, b] : [b, a];
  const cat = files.catalogues[a.host]!;
  const pair = sharesRun(files.builds[a.id]!, files.builds[b.id]!) ? files.pairs[`${a.host}/${pairFile(first, second)}`]! : null;
  return joinRows(cat, files.builds[a.id]!, cat, files.builds[b.id]!, pair, first !== a);
}

test("every build the machine measured is offered, every library and variant, and only that machine's", () => {
  const sel = selectPair(files.index, { host: H })!;
  const measured = [...new Set(fixture.entries.map((e) => `${H}/${buildSlug(e)}`))].sort();
  assert.deepEqual(sel.offered.map((b) => b.id).sort(), measured);
  for (const id of [
    `${H}/aws-lc-5.12.0`,
    `${H}/boringssl-44-boring-sys-5.4.0`,
    `${H}/wolfssl-5.9.4`,
    `${H}/wolfssl-5.9.4-no-perf-options`,
    `${H}/3.5.7-no-ml-kem`,
  ])
    assert.ok(
      sel.offered.some((b) => b.id === id),
      id,
    );
  assert.ok(sel.offered.every((b) => b.host === H));
  // OpenSSL first, a build's default before its variants; labels name the library
  assert.equal(sel.offered[0]!.library, 'openssl');
  assert.equal(sel.offered.find((b) => b.slug === 'wolfssl-5.9.4-no-perf-options')!.label, 'wolfSSL 5.9.4 without its SP-math, assembly and AES-NI options');
  // the default pair: the newest 3.4 against the newest 3.5
  assert.deepEqual([sel.a.id, sel.b.id], [`${H}/3.4.1`, `${H}/3.5.7`]);
});

test('what was asked is kept on its machine; B of another machine, an unknown build or B = A fall back', () => {
  const s = selectPair(files.index, { a: `${H}/aws-lc-5.12.0`, b: 'other-host/3.5.7' })!;
  assert.equal(s.host, H);
  assert.deepEqual([s.a.id, s.b.id], [`${H}/aws-lc-5.12.0`, `${H}/3.5.7`]);
  const same = selectPair(files.index, { a: `${H}/3.5.7`, b: `${H}/3.5.7` })!;
  assert.notEqual(same.a.id, same.b.id);
  const other = selectPair(files.index, { host: 'obs-other-host' })!;
  assert.ok(other.offered.every((b) => b.host === 'obs-other-host'));
  assert.equal(selectPair(files.index, { a: 'nowhere/1.0' })!.host, files.index.machines[0]);
});

test('two builds never measured in one run: no ratio anywhere, said so in words', () => {
  // AWS-LC's values taken from another run than 3.5.7's: the same series, nothing may be divided
  const apart: Summary = { ...fixture, entries: fixture.entries.map((e) => (e.library === 'aws-lc' ? { ...e, runId: '20261123T000000Z-full-zz99' } : e)) };
  const f = compareFiles(apart, detailed);
  const [A, B] = [`${H}/3.5.7`, `${H}/aws-lc-5.12.0`].map((id) => f.index.builds.find((b) => b.id === id)!) as [CompareBuild, CompareBuild];
  assert.equal(sharesRun(f.builds[A.id]!, f.builds[B.id]!), false);
  assert.equal(f.pairs[`${H}/${pairFile(A, B)}`], undefined);
  const cat = f.catalogues[H]!;
  const rows = joinRows(cat, f.builds[A.id]!, cat, f.builds[B.id]!, null, false);
  const both = rows.filter((r) => r.a?.median != null && r.b?.median != null);
  assert.ok(both.length > 0);
  for (const r of rows) assert.equal(r.paired, null, r.key);
  assert.ok(both.every((r) => r.relation === 'independent' || r.relation === 'not-comparable'));
  const html = compareTablesHtml(rows, [A.label, B.label], [H, H]);
  assert.doesNotMatch(html, /data-ratio=/);
  assert.match(html, /not compared: different runs/);
  assert.match(neverPairedText(A, B), /^3\.5\.7 and AWS-LC 5\.12\.0 were never measured in the same run on this machine/);
});

test("two builds of one run: the run's own paired ratio (AWS-LC against 3.5.7 is summary.json's vsOpenSSL)", () => {
  const [A, B] = [`${H}/3.5.7`, `${H}/aws-lc-5.12.0`].map((id) => files.index.builds.find((b) => b.id === id)!) as [CompareBuild, CompareBuild];
  assert.ok(sharesRun(files.builds[A.id]!, files.builds[B.id]!));
  const rows = rowsOf(A, B);
  const withRef = fixture.entries.filter((e) => e.host === H && e.library === 'aws-lc' && e.vsOpenSSL?.against === '3.5.7');
  assert.ok(withRef.length > 0);
  for (const e of withRef) {
    const r = rows.find((x) => x.key === e.key)!;
    assert.equal(r.relation, 'paired', e.key);
    assert.equal(r.paired!.ratio, e.vsOpenSSL!.ratio, e.key);
    assert.equal(r.paired!.verdict, e.vsOpenSSL!.verdict, e.key);
  }
  // the same pair the other way round: the inverse ratio
  const back = rowsOf(B, A).find((x) => x.key === withRef[0]!.key)!;
  assert.equal(back.paired!.ratio, 1 / withRef[0]!.vsOpenSSL!.ratio);
  // two other libraries of one run pair with each other too
  const wolf = files.index.builds.find((b) => b.id === `${H}/wolfssl-5.9.4-no-perf-options`)!;
  assert.ok(rowsOf(B, wolf).some((r) => r.relation === 'paired'));
});

test('a run of a machine that was not quiet is named indicative wherever the tables name it', () => {
  const run = fixture.runs.find((r) => r.runId.includes('l1b5'))!;
  const local: Summary = { ...fixture, runs: fixture.runs.map((r) => (r === run ? { ...r, quiet: false, quietReasons: ['busy'] } : r)) };
  const f = compareFiles(local, detailed);
  assert.deepEqual(f.index.indicative, [run.runId]);
  const [A, B] = [`${H}/3.5.7`, `${H}/aws-lc-5.12.0`].map((id) => f.index.builds.find((b) => b.id === id)!) as [CompareBuild, CompareBuild];
  const cat = f.catalogues[H]!;
  const rows = joinRows(cat, f.builds[A.id]!, cat, f.builds[B.id]!, f.pairs[`${H}/${pairFile(A, B)}`]!, false);
  assert.match(
    compareTablesHtml(rows, [A.label, B.label], [H, H], (h) => h, true, new Set(f.index.indicative)),
    /the run of 2026-11-22 03:00 UTC \(not quiet: indicative\)/,
  );
  assert.deepEqual(files.index.indicative, []);
});
