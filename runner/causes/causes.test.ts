import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { seriesKey } from '../benchmark.ts';
import { notCountable } from '../handshake/invoke.ts';
import { handshakeMatrix, specsOf, taskId } from '../handshake/handshake.ts';
import { parseProfile } from './callgrind.ts';
import { AVX512_MASK, MASKED, maskSpec } from './gcm-mask.ts';
import { cpuFeatures } from '../handshake/output.ts';
import { allCauses, causesMatrix, fnCostConfigs, fnSpec, FUNCTIONS, totalSpec } from './causes.ts';

const dir = fileURLToPath(new URL('./fixtures/', import.meta.url));
const fixture = (v: string) => gunzipSync(readFileSync(`${dir}${v}/tls1.3-p256.txt.gz`)).toString('utf8');
const versions = readdirSync(dir);

test('fixtures from at least 1.1.1, 3.0 and 3.4 are present', () => {
  for (const v of ['1.1.1w', '3.0.22', '3.4.1']) assert.ok(versions.includes(v), `fixture for ${v}`);
});

for (const v of versions) {
  test(`callgrind_annotate output of ${v}: totals equal the measured loop's inclusive cost`, () => {
    const p = parseProfile(fixture(v), v);
    // collection is on only inside run_worker's measured loop, so that loop holds every instruction
    assert.equal(p.functions.get('run_worker'), p.total);
    assert.ok((p.functions.get('SSL_do_handshake') ?? 0) > p.total / 2, 'most instructions are in SSL_do_handshake');
    assert.ok((p.functions.get('EC_POINT_mul') ?? 0) > 0, 'P-256 key exchange multiplies points');
  });
}

test('the public-key check runs on 3.0 and 3.1 handshakes, costs little on 3.4 and is absent on 1.1.1', () => {
  const share = (v: string) => {
    const p = parseProfile(fixture(v), v);
    return (p.functions.get('EVP_PKEY_public_check') ?? 0) / p.total;
  };
  assert.equal(share('1.1.1w'), 0);
  assert.ok(share('3.0.22') > 0.05, `3.0.22 share ${share('3.0.22')}`);
  if (versions.includes('3.1.4')) assert.ok(share('3.1.4') > 0.05);
  assert.ok(share('3.4.1') < share('3.0.22') / 5, `3.4.1 share ${share('3.4.1')}`);
});

test('the parser refuses output it cannot trust', () => {
  const good = fixture('3.0.22');
  assert.throws(() => parseProfile('', 'empty'), /Events shown/);
  assert.throws(() => parseProfile(good.replace(/^Thresholds:.*$/m, 'Thresholds:       99'), 't'), /threshold=100/);
  assert.throws(() => parseProfile(good.replace(/^.*PROGRAM TOTALS.*$/m, ''), 'no totals'), /PROGRAM TOTALS/);
  const cut = good.slice(0, good.indexOf('file:function')); // the header and totals, no function table
  assert.throws(() => parseProfile(cut, 'no functions'), /no function lines/);
  assert.throws(() => parseProfile(good.replace(/^\s*[\d,]+ \(100\.0%\)\s+PROGRAM TOTALS/m, '0 (100.0%)  PROGRAM TOTALS'), 'zero'), /no instructions/);
});

test('task ids and series keys are unique, and fn-cost keys name the function', () => {
  for (const mode of ['quick', 'full'] as const) {
    const ids = causesMatrix(mode).map(taskId);
    assert.equal(new Set(ids).size, ids.length, ids.join('\n'));
  }
  const keys = fnCostConfigs()
    .flatMap((cfg) => [totalSpec(cfg), ...FUNCTIONS.map((f) => fnSpec(cfg, f))])
    .map(seriesKey);
  assert.equal(new Set(keys).size, keys.length);
  assert.ok(keys.some((k) => k.includes('function=EVP_PKEY_public_check')));
});

test('causes never measures a series the handshake benchmark measures in the same mode, and keeps the rest', () => {
  for (const mode of ['quick', 'full'] as const) {
    const theirs = new Set(handshakeMatrix(mode).flatMap(specsOf).map(seriesKey));
    const ours = causesMatrix(mode).flatMap(specsOf).map(seriesKey);
    assert.deepEqual(
      ours.filter((k) => theirs.has(k)),
      [],
    );
    // everything dropped is available from the handshake benchmark
    const wanted = allCauses(mode).flatMap(specsOf).map(seriesKey);
    assert.deepEqual(
      wanted.filter((k) => !theirs.has(k) && !ours.includes(k)),
      [],
    );
    assert.ok(ours.length > 0);
  }
});

test('the AVX-512 mask clears exactly AVX-512F, VAES and VPCLMULQDQ from a real capability vector', () => {
  // ia32cap printed by the handshake program on 3.3.0 on this project's dev host, without and with the mask
  const native = cpuFeatures('078bffff:fffa3203:f1bf07ab:00405fc6');
  const masked = cpuFeatures('078bffff:fffa3203:f1be07ab:004059c6');
  assert.deepEqual(native.filter((f) => !masked.includes(f)).sort(), [...MASKED].sort());
  const [w1, w2] = AVX512_MASK.split(':').map((w) => BigInt(w.replace('~', '')));
  assert.equal(w1, 0n);
  // CPUID.7 EBX in the low half, ECX in the high half
  assert.equal(w2, (1n << 16n) | (1n << 41n) | (1n << 42n));
  const keys = (['none', 'avx512'] as const).flatMap((m) => [16, 1024].flatMap((b) => [seriesKey(maskSpec(m, b, 'cpu')), seriesKey(maskSpec(m, b, 'wall'))]));
  assert.equal(new Set(keys).size, keys.length);
});

test('every configuration fn-cost and causes count instructions for is one handshake.c can count (a new context per connection included)', () => {
  for (const cfg of fnCostConfigs()) assert.equal(notCountable(cfg), null, JSON.stringify(cfg));
  for (const mode of ['quick', 'full'] as const)
    for (const t of [...handshakeMatrix(mode), ...allCauses(mode)])
      if (t.kind === 'instructions') assert.equal(notCountable(t.cfg), null, JSON.stringify(t.cfg));
  const perConn = fnCostConfigs().find((c) => c.mode === 'ctx-per-conn')!;
  assert.match(notCountable(perConn, 'client') ?? '', /ctx-per-conn mode counting the client/);
  assert.match(notCountable({ ...perConn, mode: 'handshake', threads: 2 }) ?? '', /2 thread/);
});
