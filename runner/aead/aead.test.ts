import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { OTHER_LIBRARIES, VERSIONS } from '../../catalogue/index.ts';
import type { BuildUnderTest } from '../benchmark.ts';
import { AEAD_CIPHERS, AEAD_PLAN, aeadArgs, aeadOutcomes, aeadRates, createAeadBenchmark, parseAeadOutput } from './aead.ts';
import { median } from '../../analysis/stats.ts';
import { AEAD_FIXTURES_DIR } from './capture.ts';

const dirs = existsSync(AEAD_FIXTURES_DIR) ? readdirSync(AEAD_FIXTURES_DIR).sort() : [];
/** fixture directories are build slugs: OpenSSL's is its version, another library's starts with its name */
const libraryOfDir = (d: string) => OTHER_LIBRARIES.find((l) => d.startsWith(`${l}-`));
const versions = dirs.filter((d) => !libraryOfDir(d));
const sizes = AEAD_PLAN.full.sizes;

describe('aead fixtures: real output of aead.c built against each captured version', () => {
  test('every catalogue version has fixtures', () => {
    assert.deepEqual(
      VERSIONS.map((v) => v.version).filter((v) => !versions.includes(v)),
      [],
      'capture them: node runner/aead/capture.ts <version>',
    );
  });
  for (const version of versions)
    test(`${version}: each cipher parses, every size measured in every repetition and verified`, () => {
      assert.deepEqual(readdirSync(join(AEAD_FIXTURES_DIR, version)).sort(), AEAD_CIPHERS.map((c) => `${c}.json`).sort());
      for (const cipher of AEAD_CIPHERS) {
        const text = readFileSync(join(AEAD_FIXTURES_DIR, version, `${cipher}.json`), 'utf8');
        const out = parseAeadOutput(text, { build: { library: 'openssl', version }, cipher, sizes }, `${version}/${cipher}`);
        assert.equal(out.aadBytes, 13);
        assert.equal(out.cpuClock, 'thread');
        for (const r of out.results) {
          assert.equal(r.repetitions.length, AEAD_PLAN.full.repetitions);
          // each window ran until its thread had used the CPU time asked for (0.01 s in the fixtures), or
          // until 20 times that in wall time on a machine that gave it too little CPU (some fixtures were
          // captured while builds ran)
          for (const rep of r.repetitions)
            assert.ok(rep.cpuSeconds >= 0.01 || rep.wallSeconds >= 0.2, `${version} ${cipher} ${r.bytes}: ${rep.cpuSeconds} s of CPU in ${rep.wallSeconds} s`);
        }
        const outcomes = aeadOutcomes(out);
        assert.deepEqual(
          outcomes.map((o) => [o.spec.params.bytes, o.spec.method, o.spec.metric]),
          sizes.flatMap((b) => [
            [b, 'cpu-time-thread', `${cipher}-seal-cpu`],
            [b, 'wall-clock-throughput', `${cipher}-seal`],
          ]),
        );
        for (const o of outcomes) {
          assert.ok('value' in o && o.value > 1e6, `${version} ${cipher}: below 1 MB/s`);
          assert.equal(o.spec.unit, 'bytes/s');
          assert.equal(o.spec.comparability.acrossVersions, true);
          assert.equal(o.spec.params.algorithm, cipher);
        }
      }
    });
});

describe('aead fixtures of the other libraries: measured with known answers, or the cipher is missing', () => {
  for (const dir of dirs.filter(libraryOfDir)) {
    const library = libraryOfDir(dir)!;
    const version = dir.slice(library.length + 1);
    test(`${dir}: each cipher parses or says why the library lacks it`, () => {
      for (const cipher of AEAD_CIPHERS) {
        const json = join(AEAD_FIXTURES_DIR, dir, `${cipher}.json`);
        if (!existsSync(json)) {
          assert.match(readFileSync(join(AEAD_FIXTURES_DIR, dir, `${cipher}.unsupported.txt`), 'utf8'), /^aead: unsupported: .+ has no /);
          continue;
        }
        const out = parseAeadOutput(readFileSync(json, 'utf8'), { build: { library, version }, cipher, sizes }, `${dir}/${cipher}`);
        assert.ok(aeadOutcomes(out).every((o) => 'value' in o && o.value > 1e6));
      }
    });
  }
});

describe('aead rates', () => {
  test('each figure is the median of the repetitions: one preempted window does not move it', () => {
    const r = {
      bytes: 1000,
      verified: true as const,
      repetitions: [
        { records: 100, cpuSeconds: 0.001, wallSeconds: 0.001 },
        { records: 100, cpuSeconds: 0.001, wallSeconds: 0.004 }, // waited 3 ms for a CPU
        { records: 110, cpuSeconds: 0.0011, wallSeconds: 0.0011 },
      ],
    };
    const { cpu, wall } = aeadRates(r);
    assert.equal(cpu, 1e8);
    assert.equal(wall, 1e8);
    assert.equal(median([3, 1, 2, 10]), 2.5);
  });
});

describe('aead pinning', () => {
  const out = (pinnedCpu?: number | null) =>
    parseAeadOutput(
      JSON.stringify({
        ...JSON.parse(readFileSync(join(AEAD_FIXTURES_DIR, versions[0]!, 'aes-128-gcm.json'), 'utf8')),
        ...(pinnedCpu === undefined ? {} : { pinnedCpu }),
      }),
      { build: { library: 'openssl', version: versions[0]! }, cipher: 'aes-128-gcm', sizes },
      'here',
    );
  test('the CPU the program pinned itself to is recorded with every value; a refused pin is a failed run, never a value', () => {
    for (const o of aeadOutcomes(out(1))) assert.deepEqual(o.observed, { pinnedCpu: 1 });
    assert.throws(() => out(null), /unexpected aead output/);
    for (const o of aeadOutcomes(out())) assert.equal(o.observed, undefined, 'output of a program not asked to pin');
  });
  test('arguments: --cpu only when there is a CPU to pin to', () => {
    assert.deepEqual(aeadArgs('aes-128-gcm', AEAD_PLAN.quick, 3).slice(-2), ['--cpu', '3']);
    assert.ok(!aeadArgs('aes-128-gcm', AEAD_PLAN.quick, null).includes('--cpu'));
  });
});

describe('aead output: bad input', () => {
  const good = readFileSync(join(AEAD_FIXTURES_DIR, versions[0]!, 'aes-128-gcm.json'), 'utf8');
  const v = versions[0]!;
  const expect = { build: { library: 'openssl' as const, version: v }, cipher: 'aes-128-gcm' as const, sizes };
  const edit = (f: (j: Record<string, unknown>) => void) => {
    const j = JSON.parse(good) as Record<string, unknown>;
    f(j);
    return JSON.stringify(j);
  };
  test('truncated output', () => assert.throws(() => parseAeadOutput(good.slice(0, 100), expect, 'here'), /here \(aead\): output is not JSON/));
  test('another library, cipher or size list', () => {
    assert.throws(
      () => parseAeadOutput(good, { ...expect, build: { library: 'openssl' as const, version: '9.9.9' } }, 'here'),
      /reports "OpenSSL .*", not OpenSSL 9\.9\.9/,
    );
    assert.throws(() => parseAeadOutput(good, { ...expect, cipher: 'aes-256-gcm' }, 'here'), /measured aes-128-gcm, asked for aes-256-gcm/);
    assert.throws(() => parseAeadOutput(good, { ...expect, sizes: [16] }, 'here'), /measured sizes 16,64,.*asked for 16$/);
  });
  test('a failed check, a zero or negative count, an unknown field', () => {
    assert.throws(
      () =>
        parseAeadOutput(
          edit((j) => (j.knownAnswer = 'failed')),
          expect,
          'here',
        ),
      /knownAnswer/,
    );
    type Reps = { repetitions: { records: number; cpuSeconds: number; wallSeconds: number }[] }[];
    assert.throws(
      () =>
        parseAeadOutput(
          edit((j) => ((j.results as Reps)[0]!.repetitions[0]!.records = 0)),
          expect,
          'here',
        ),
      /results\.0\.repetitions\.0\.records/,
    );
    assert.throws(
      () =>
        parseAeadOutput(
          edit((j) => ((j.results as Reps)[1]!.repetitions[2]!.wallSeconds = -1)),
          expect,
          'here',
        ),
      /results\.1\.repetitions\.2\.wallSeconds/,
    );
    assert.throws(
      () =>
        parseAeadOutput(
          edit((j) => ((j.results as Reps)[0]!.repetitions[1]!.cpuSeconds = 0)),
          expect,
          'here',
        ),
      /results\.0\.repetitions\.1\.cpuSeconds/,
    );
    assert.throws(
      () =>
        parseAeadOutput(
          edit((j) => ((j.results as Reps)[0]!.repetitions = [])),
          expect,
          'here',
        ),
      /results\.0\.repetitions/,
    );
    assert.throws(
      () =>
        parseAeadOutput(
          edit((j) => (j.cpuClock = 'process')),
          expect,
          'here',
        ),
      /cpuClock/,
    );
    assert.throws(
      () =>
        parseAeadOutput(
          edit((j) => (j.extra = 1)),
          expect,
          'here',
        ),
      /extra/i,
    );
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
    assert.equal(outcomes.length, 2 * AEAD_PLAN.quick.sizes.length, 'the CPU-time and the wall-clock series of every size');
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
