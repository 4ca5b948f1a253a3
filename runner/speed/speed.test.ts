import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { compareSeries, VERSIONS } from '../../catalogue/index.ts';
import { FIXTURES_DIR, fixtureInvocations, type Fixture } from './capture.ts';
import { FORMATS, parseSpeed, SpeedParseError } from './formats.ts';
import { ALGORITHMS, DEFAULT_SIZES, gcmLoop, invocations, operationsOf, outcomesOf, speedBenchmark, speedFormat, type Invocation } from './speed.ts';

const versions = existsSync(FIXTURES_DIR) ? readdirSync(FIXTURES_DIR).sort() : [];

function load(version: string, name: string): Fixture {
  return JSON.parse(readFileSync(join(FIXTURES_DIR, version, name), 'utf8')) as Fixture;
}

/** Rebuild the invocation a fixture was captured with, from its own arguments. */
function invocationOf(fx: Fixture): Invocation {
  const algorithm = ALGORITHMS.find((a) => a.id === fx.algorithm);
  assert.ok(algorithm, `fixture names unknown algorithm ${fx.algorithm}`);
  const b = fx.args.indexOf('-bytes');
  const sizes = algorithm.kind !== 'symmetric' ? undefined : b >= 0 ? [Number(fx.args[b + 1])] : DEFAULT_SIZES;
  return { algorithm, args: fx.args, ...(sizes ? { sizes } : {}) };
}

describe('openssl speed fixtures: real output of every captured version', () => {
  test('every catalogue version has fixtures', () => {
    assert.deepEqual(
      VERSIONS.map((v) => v.version).filter((v) => !versions.includes(v)),
      [],
      'capture them: node runner/speed/capture.ts <version>',
    );
  });

  test('fixtures exist for every output format', () => {
    const formats = new Set(versions.map((v) => speedFormat(VERSIONS.find((x) => x.version === v)!.series)));
    assert.deepEqual([...formats].sort(), Object.keys(FORMATS).sort(), `formats without a fixture; versions with fixtures: ${versions.join(', ')}`);
  });

  for (const version of versions) {
    const cat = VERSIONS.find((v) => v.version === version);
    test(`${version}: every fixture parses into the series asked for`, () => {
      assert.ok(cat, `fixtures for ${version}, which is not in the catalogue`);
      const names = fixtureInvocations().map((f) => `${f.name}.json`);
      assert.deepEqual(readdirSync(join(FIXTURES_DIR, version)).sort(), [...names].sort(), 'fixture set differs from capture.ts');
      for (const name of names) {
        const fx = load(version, name);
        assert.equal(fx.version, version);
        assert.match(fx.versionString, new RegExp(`^OpenSSL ${version.replace(/\./g, '\\.')} `));
        const inv = invocationOf(fx);
        const outcomes = outcomesOf(inv, fx, { version, series: cat.series }, `${version}/${name}`);
        const a = inv.algorithm;
        const expected = (inv.sizes?.length ?? 1) * operationsOf(a).length;
        assert.equal(outcomes.length, expected, `${name}: outcome count`);
        const pq = a.kind === 'kem' || a.kind === 'signature';
        if (pq && compareSeries(cat.series, '3.5') < 0) {
          // speed's own refusal, recorded as unsupported with its message
          for (const o of outcomes) {
            assert.ok('status' in o && o.status === 'unsupported', `${name}: should be unsupported on ${version}`);
            assert.match(o.reason, /Unknown algorithm/);
          }
          continue;
        }
        const values = new Map<string, number>();
        for (const o of outcomes) {
          assert.ok('value' in o, `${name}: ${o.spec.metric} not measured: ${'reason' in o ? o.reason : ''}`);
          assert.ok(o.value > 0 && Number.isFinite(o.value));
          assert.equal(o.spec.benchmark, 'speed');
          assert.equal(o.spec.method, 'openssl-speed');
          assert.equal(o.spec.params.algorithm, a.id);
          assert.equal(o.spec.params.timeBase, 'user-cpu');
          assert.equal(o.spec.unit, a.kind === 'symmetric' ? 'bytes/s' : 'ops/s');
          values.set(`${o.spec.params.operation}@${o.spec.params.bytes ?? ''}`, o.value);
        }
        // plausibility that catches swapped columns: bigger buffers stream faster; public ops beat private ones
        if (a.kind === 'symmetric' && inv.sizes!.length > 1)
          assert.ok(values.get('encrypt@16384')! > values.get('encrypt@16')!, `${name}: 16 KiB not faster than 16 B`);
        if (a.kind === 'rsa') assert.ok(values.get('verify@')! > 5 * values.get('sign@')!, `${name}: RSA verify should be far faster than sign`);
        if (a.kind === 'symmetric' && a.operation === 'encrypt')
          for (const bytes of inv.sizes!) assert.ok(values.get(`encrypt@${bytes}`)! > 1e6, `${name}: ${bytes} B below 1 MB/s`);
      }
    });
  }
});

describe('openssl speed comparability', () => {
  test('AES-GCM values carry a group by loop; ChaCha20-Poly1305 and SHA-2 do not change method', () => {
    const gcm = ALGORITHMS.find((a) => a.id === 'aes-128-gcm')!;
    const at = (version: string) => {
      const o = outcomesOf(
        { algorithm: gcm, args: [], sizes: [16] },
        { exitCode: 1, stdout: '', stderr: 'x' },
        { version, series: VERSIONS.find((v) => v.version === version)!.series },
        't',
      );
      return o[0]!.spec.comparability;
    };
    assert.deepEqual(
      [at('1.1.1w').group, at('3.0.8').group, at('3.0.22').group, at('3.4.0').group, at('3.4.1').group, at('3.5.7').group],
      ['speed-gcm-stream', 'speed-gcm-stream', 'speed-gcm-per-buffer', 'speed-gcm-stream', 'speed-gcm-per-buffer', 'speed-gcm-per-buffer'],
    );
    assert.equal(at('3.5.7').acrossVersions, false);
    assert.match(at('3.5.7').reason ?? '', /tag/);
    for (const id of ['chacha20-poly1305', 'sha256', 'rsa2048', 'ml-kem-768']) {
      const a = ALGORITHMS.find((x) => x.id === id)!;
      const o = outcomesOf(
        { algorithm: a, args: [], ...(a.kind === 'symmetric' ? { sizes: [16] } : {}) },
        { exitCode: 1, stdout: '', stderr: 'x' },
        { version: '3.5.7', series: '3.5' },
        't',
      );
      assert.equal(o[0]!.spec.comparability.acrossVersions, true, id);
    }
  });

  test('a series the table does not know is an error, not a guess', () => {
    assert.throws(() => gcmLoop('9.9.9', '9.9'), /GCM_PER_BUFFER_SINCE/);
  });
});

describe('openssl speed parser: bad input', () => {
  const rsaInv = (): Invocation => ({ algorithm: ALGORITHMS.find((a) => a.id === 'rsa2048')!, args: ['speed', '-mr', 'rsa2048'] });
  const ecdsaInv = (): Invocation => ({ algorithm: ALGORITHMS.find((a) => a.id === 'ecdsa-p256')!, args: ['speed', '-mr', 'ecdsap256'] });
  const gcmInv = (sizes: number[]): Invocation => ({ algorithm: ALGORITHMS.find((a) => a.id === 'aes-128-gcm')!, args: [], sizes });
  const v35 = { version: '3.5.7', series: '3.5' };

  test('an unknown tag names the version, the line and its text', () => {
    assert.throws(
      () => parseSpeed('mr-3.0', '+F2:2:2048:10.0:100.0\n+F9:1:2:3:4\n', '', 'OpenSSL 3.0.22'),
      (e: Error) =>
        e instanceof SpeedParseError && /OpenSSL 3\.0\.22 \(mr-3\.0\): stdout line 2 "\+F9:1:2:3:4": tag \+F9 is not part of format mr-3\.0/.test(e.message),
    );
  });
  test('the 3.2 RSA line is refused by the 1.1.1 parser (field count)', () => {
    assert.throws(() => parseSpeed('mr-1.1.1', '+F2:2:2048:1.0:2.0:3.0:4.0\n', '', 'OpenSSL 1.1.1w'), /needs 4 fields, found 6/);
  });
  test('text where a rate belongs', () => {
    assert.throws(() => parseSpeed('mr-3.2', '+F2:2:2048:inf:2.0:3.0:4.0\n', '', 'v'), /"inf" is not a rate/);
  });
  test('a human-readable line is not machine-readable output', () => {
    assert.throws(() => parseSpeed('mr-3.2', 'rsa 2048 bits 0.000221s\n', '', 'v'), /stdout line 1 .*not a machine-readable result line/);
  });
  test('symmetric values before the header, or too few values', () => {
    assert.throws(() => parseSpeed('mr-3.2', '+F:25:AES-128-GCM:1.00\n', '', 'v'), /before the \+H header/);
    assert.throws(() => parseSpeed('mr-3.2', '+H:16:64\n+F:25:AES-128-GCM:1.00\n', '', 'v'), /1 values for 2 buffer sizes/);
  });
  test('an error message from speed on stderr', () => {
    assert.throws(() => parseSpeed('mr-3.2', '', '+DTP:2048:private:rsa sign:1\nRSA sign failure\n', 'v'), /stderr line 2 "RSA sign failure"/);
  });
  test('KEM lines without their names, or with rates that do not match', () => {
    assert.throws(() => parseSpeed('mr-3.2', '+F9:5:100.0:200.0:300.0\n', '', 'v'), /1 KEM result line\(s\) on stdout but 0/);
    assert.throws(() => parseSpeed('mr-3.2', '+F9:5:100.0:200.0:300.0\n', '+R15:500:ML-KEM-768:1.00\n', 'v'), /does not match stderr ML-KEM-768/);
    const ok = parseSpeed('mr-3.2', '+F9:5:500.0:200.0:300.0\n', '+R15:500:ML-KEM-768:1.00\n', 'v');
    assert.deepEqual(ok, [{ kind: 'kem', name: 'ML-KEM-768', keygen: 500, encaps: 200, decaps: 300 }]);
  });
  test('a result for something not asked for', () => {
    const fx = { exitCode: 0, stdout: '+F4:3:256:100.0:50.0\n', stderr: '' };
    assert.throws(() => outcomesOf(rsaInv(), fx, v35, 'v'), /expected one rsa result for rsa2048, found ecdsa/);
    const bits = { exitCode: 0, stdout: '+F2:3:3072:100.0:5000.0:1.0:1.0\n', stderr: '+R1:100:3072:1.00\n+R2:5000:3072:1.00\n' };
    assert.throws(() => outcomesOf(rsaInv(), bits, v35, 'v'), /for 3072 bits, not 2048/);
    const sizes = { exitCode: 0, stdout: '+H:16\n+F:25:AES-128-GCM:100.0\n', stderr: '' };
    assert.throws(() => outcomesOf(gcmInv([16384]), sizes, v35, 'v'), /measured sizes 16, asked for 16384/);
    const name = { exitCode: 0, stdout: '+H:16\n+F:25:AES-256-GCM:100.0\n', stderr: '' };
    assert.throws(() => outcomesOf(gcmInv([16]), name, v35, 'v'), /measured AES-256-GCM, asked for aes-128-gcm/);
  });
  test('missing output is an error, a zero rate a failed series, a crash a failed series with its message', () => {
    assert.throws(() => outcomesOf(ecdsaInv(), { exitCode: 0, stdout: '', stderr: '' }, v35, 'v'), /found none/);
    assert.throws(() => outcomesOf(rsaInv(), { exitCode: 0, stdout: '', stderr: '' }, v35, 'v'), /no \+R1 progress line \(rsa sign\)/);
    const zero = outcomesOf(rsaInv(), { exitCode: 0, stdout: '', stderr: '+R1:0:2048:1.00\n+R2:5000:2048:1.00\n' }, v35, 'v');
    assert.ok('status' in zero[0]! && zero[0].status === 'failed' && 'value' in zero[1]!);
    const crash = outcomesOf(rsaInv(), { exitCode: 1, stdout: '', stderr: 'RSA sign failure\n' }, v35, 'v');
    assert.ok(crash.every((o) => 'status' in o && o.status === 'failed' && /RSA sign failure/.test(o.reason)));
  });
});

describe('openssl speed RSA: read from the progress lines, speed stopped after its verify loop', () => {
  for (const version of versions) {
    const cat = VERSIONS.find((v) => v.version === version)!;
    test(`${version}: a speed stopped after +R2 gives the rates of the whole output`, () => {
      const fx = load(version, 'rsa2048.json');
      const inv = invocations(
        ALGORITHMS.find((a) => a.id === 'rsa2048')!,
        'full',
      )[0]!;
      assert.ok(inv.stopAfter?.test(fx.stderr), 'the stop condition matches what speed prints after its verify loop');
      const end = fx.stderr.search(inv.stopAfter!) + fx.stderr.match(inv.stopAfter!)![0].length;
      // what a stopped run captures: stderr up to the verify loop's line and a line begun after it, no stdout
      const stopped = { exitCode: null, stopped: true, stdout: '', stderr: fx.stderr.slice(0, end) + '+DTP:2048:pub' };
      const build = { version, series: cat.series };
      const value = (o: ReturnType<typeof outcomesOf>) => o.map((x) => ('value' in x ? x.value : x.reason));
      assert.deepEqual(value(outcomesOf(inv, stopped, build, 'stopped')), value(outcomesOf(inv, fx, build, 'whole')));
    });
  }
  test('a +F2 line that disagrees with the progress lines is an error', () => {
    const inv = invocations(
      ALGORITHMS.find((a) => a.id === 'rsa2048')!,
      'full',
    )[0]!;
    const got = { exitCode: 0, stdout: '+F2:2:2048:4300.0:70000.0\n', stderr: '+R1:4287:2048:0.99\n+R2:70501:2048:0.99\n' };
    assert.throws(() => outcomesOf(inv, got, { version: '3.0.2', series: '3.0' }, 'v'), /differs from the progress lines/);
  });
  test('stopped before the verify loop ended: an error, not a guess', () => {
    const inv = invocations(
      ALGORITHMS.find((a) => a.id === 'rsa2048')!,
      'full',
    )[0]!;
    const got = { exitCode: null, stopped: true, stdout: '', stderr: '+R1:4287:2048:0.99\n' };
    assert.throws(() => outcomesOf(inv, got, { version: '3.5.7', series: '3.5' }, 'v'), /no \+R2 progress line \(rsa verify\)/);
  });
});

describe('speed benchmark plan', () => {
  const build = (version: string, series: string) => ({
    prefix: '/nonexistent',
    record: { version, series, variant: 'default' } as never,
  });
  test('quick and full name the same task ids on every version, full measures all', () => {
    const quick = speedBenchmark.tasks(build('1.1.1w', '1.1.1'), 'quick').map((t) => t.id);
    const full = speedBenchmark.tasks(build('4.0.3', '4.0'), 'full').map((t) => t.id);
    assert.deepEqual(
      full,
      ALGORITHMS.map((a) => a.id),
    );
    assert.ok(quick.every((id) => full.includes(id)) && quick.length < full.length);
    assert.deepEqual(
      speedBenchmark.tasks(build('4.0.3', '4.0'), 'quick').map((t) => t.id),
      quick,
    );
  });
});
