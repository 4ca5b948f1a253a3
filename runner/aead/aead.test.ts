import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { VERSIONS } from '../catalogue.ts';
import type { BuildUnderTest } from '../benchmark.ts';
import { AEAD_CIPHERS, AEAD_PLAN, aeadOutcomes, createAeadBenchmark, parseAeadOutput } from './aead.ts';
import { AEAD_FIXTURES_DIR } from './capture.ts';

const versions = existsSync(AEAD_FIXTURES_DIR) ? readdirSync(AEAD_FIXTURES_DIR).sort() : [];
const sizes = AEAD_PLAN.full.sizes;

describe('aead fixtures: real output of aead.c built against each captured version', () => {
  test('every catalogue version has fixtures', () => {
    assert.deepEqual(VERSIONS.map((v) => v.version).filter((v) => !versions.includes(v)), [], 'capture them: node runner/aead/capture.ts <version>');
  });
  for (const version of versions)
    test(`${version}: each cipher parses, every size measured and verified`, () => {
      assert.deepEqual(readdirSync(join(AEAD_FIXTURES_DIR, version)).sort(), AEAD_CIPHERS.map((c) => `${c}.json`).sort());
      for (const cipher of AEAD_CIPHERS) {
        const text = readFileSync(join(AEAD_FIXTURES_DIR, version, `${cipher}.json`), 'utf8');
        const out = parseAeadOutput(text, { version, cipher, sizes }, `${version}/${cipher}`);
        assert.equal(out.aadBytes, 13);
        const outcomes = aeadOutcomes(out);
        assert.deepEqual(
          outcomes.map((o) => o.spec.params.bytes),
          sizes,
        );
        for (const o of outcomes) {
          assert.ok('value' in o && o.value > 1e6, `${version} ${cipher}: below 1 MB/s`);
          assert.equal(o.spec.unit, 'bytes/s');
          assert.equal(o.spec.method, 'wall-clock-throughput');
          assert.equal(o.spec.comparability.acrossVersions, true);
          assert.equal(o.spec.params.algorithm, cipher);
        }
      }
    });
});

describe('aead output: bad input', () => {
  const good = readFileSync(join(AEAD_FIXTURES_DIR, versions[0]!, 'aes-128-gcm.json'), 'utf8');
  const v = versions[0]!;
  const expect = { version: v, cipher: 'aes-128-gcm' as const, sizes };
  const edit = (f: (j: Record<string, unknown>) => void) => {
    const j = JSON.parse(good) as Record<string, unknown>;
    f(j);
    return JSON.stringify(j);
  };
  test('truncated output', () => assert.throws(() => parseAeadOutput(good.slice(0, 100), expect, 'here'), /here: aead output is not JSON/));
  test('another library, cipher or size list', () => {
    assert.throws(() => parseAeadOutput(good, { ...expect, version: '9.9.9' }, 'here'), /reports "OpenSSL .*", not OpenSSL 9\.9\.9/);
    assert.throws(() => parseAeadOutput(good, { ...expect, cipher: 'aes-256-gcm' }, 'here'), /measured aes-128-gcm, asked for aes-256-gcm/);
    assert.throws(() => parseAeadOutput(good, { ...expect, sizes: [16] }, 'here'), /measured sizes 16,64,.*asked for 16$/);
  });
  test('a failed check, a zero or negative count, an unknown field', () => {
    assert.throws(() => parseAeadOutput(edit((j) => (j.knownAnswer = 'failed')), expect, 'here'), /knownAnswer/);
    assert.throws(() => parseAeadOutput(edit((j) => ((j.results as { records: number }[])[0]!.records = 0)), expect, 'here'), /results\.0\.records/);
    assert.throws(() => parseAeadOutput(edit((j) => ((j.results as { wallSeconds: number }[])[1]!.wallSeconds = -1)), expect, 'here'), /results\.1\.wallSeconds/);
    assert.throws(() => parseAeadOutput(edit((j) => (j.extra = 1)), expect, 'here'), /extra/i);
  });
});

describe('aead benchmark module', () => {
  const fakeBuild = { prefix: '/nonexistent', record: { id: 'fake', version: '3.5.7', series: '3.5', variant: 'default' } } as unknown as BuildUnderTest;
  test('a program that fails its checks gives failed series with its message, not numbers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aead-test-'));
    const script = join(dir, 'aead');
    writeFileSync(script, '#!/bin/sh\necho "aead: known-answer test failed: wrong tag" >&2\nexit 1\n');
    chmodSync(script, 0o755);
    const bench = createAeadBenchmark(() => script);
    const outcomes = await bench.tasks(fakeBuild, 'quick')[0]!.run();
    assert.equal(outcomes.length, AEAD_PLAN.quick.sizes.length);
    for (const o of outcomes) assert.ok('status' in o && o.status === 'failed' && /wrong tag/.test(o.reason));
  });
  test('output from another library version is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aead-test-'));
    const script = join(dir, 'aead');
    writeFileSync(script, `#!/bin/sh\ncat <<'X'\n${good()}\nX\n`);
    chmodSync(script, 0o755);
    const bench = createAeadBenchmark(() => script);
    await assert.rejects(bench.tasks({ ...fakeBuild, record: { ...fakeBuild.record, version: '3.4.1' } }, 'full')[0]!.run(), /not OpenSSL 3\.4\.1/);
  });
  function good() {
    return readFileSync(join(AEAD_FIXTURES_DIR, versions.at(-1)!, 'aes-128-gcm.json'), 'utf8').trim();
  }
});
