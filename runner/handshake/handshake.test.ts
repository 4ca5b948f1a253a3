import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Series } from '../../schema/index.ts';
import { seriesKey } from '../benchmark.ts';
import { compareSeries } from '../../catalogue/index.ts';
import { seriesOfVersion } from '../../schema/test-data.ts';
import { CASES, FIXTURE_DIR, type Fixture } from './capture-fixtures.ts';
import { pin, type HandshakeConfig } from './config.ts';
import { checkVerification } from './invoke.ts';
import { timingOutcomes } from './series.ts';
import { handshakeMatrix, specsOf, taskId } from './handshake.ts';
import { describeShares, hiddenByValgrind, hiddenFeatures, hiddenFeaturesText, parseHandshakeOutput, type HandshakeRunOutput } from './output.ts';
import { libraryMismatch } from '../library-id.ts';

// ------------------------------------------------------------------ fixtures: real output of each version

const allFixtures: { name: string; f: Fixture }[] = readdirSync(FIXTURE_DIR).flatMap((v) =>
  readdirSync(join(FIXTURE_DIR, v)).map((file) => ({
    name: file.replace(/\.json$/, ''),
    f: JSON.parse(readFileSync(join(FIXTURE_DIR, v, file), 'utf8')) as Fixture,
  })),
);
const fixtures = allFixtures.filter((x) => (x.f.library ?? 'openssl') === 'openssl');
const libraryFixtures = allFixtures.filter((x) => (x.f.library ?? 'openssl') !== 'openssl');
const atLeast35 = (v: string) => compareSeries(seriesOfVersion(v), '3.5') >= 0;

describe('handshake output parser on captured fixtures', () => {
  it('has fixtures from 1.1.1, 3.x and 4.0, every case for every version', () => {
    const versions = new Set(fixtures.map((x) => x.f.version));
    for (const v of ['1.1.1w', '4.0.3']) assert.ok(versions.has(v), `no fixtures from ${v}`);
    assert.ok(
      [...versions].some((v) => v.startsWith('3.')),
      'no fixtures from a 3.x version',
    );
    for (const v of versions)
      for (const c of Object.keys(CASES))
        assert.ok(
          fixtures.some((x) => x.f.version === v && x.name === c),
          `${v} lacks case ${c}`,
        );
  });

  for (const { name, f } of fixtures) {
    it(`${f.version} ${name}`, () => {
      const p = parseHandshakeOutput(f.stdout, f.exitCode, `${f.version}/${name}`);
      const openssl = p.kind === 'run' || p.kind === 'ctx-new' ? p.out.openssl : p.openssl;
      assert.ok(openssl.startsWith(`OpenSSL ${f.version} `), openssl);
      const pq = /mlkem|mldsa/.test(name);
      if (pq && !atLeast35(f.version)) {
        assert.equal(p.kind, 'unsupported', `${name} must be unsupported on ${f.version}`);
        return;
      }
      if (name === 'tls12-ecdsa-without-p256') {
        assert.equal(p.kind, 'failed');
        assert.match(p.kind === 'failed' ? p.reason : '', /no shared cipher/);
        return;
      }
      if (name === 'ctx-new') {
        assert.equal(p.kind, 'ctx-new');
        return;
      }
      if (name === 'tls13-wrong-hostname') {
        assert.equal(p.kind, 'failed', 'a client expecting another name must refuse the server');
        assert.match(p.kind === 'failed' ? p.reason : '', /certificate verify failed/);
        return;
      }
      assert.equal(p.kind, 'run', JSON.stringify(p).slice(0, 300));
      const o = (p as { out: HandshakeRunOutput }).out;
      const cfg = CASES[name] as HandshakeConfig;
      // leaf and intermediate checked up to the root and the name; OpenSSL also calls back for the anchor
      if (cfg.verify === 'none') assert.deepEqual(o.verification, { mode: 'none' });
      else
        assert.deepEqual(o.verification, {
          mode: 'chain',
          hostname: 'observatory.test',
          depth: 2,
          certsChecked: 2,
          callbacks: 3,
          anchorCallback: true,
          certsSent: 2,
          verifiedChain: 3,
        });
      assert.equal(o.negotiated.protocol, cfg.proto === '1.2' ? 'TLSv1.2' : 'TLSv1.3');
      assert.equal(o.negotiated.resumed, cfg.resume !== 'none');
      assert.equal(o.handshakes, 20 * cfg.threads);
      if (cfg.proto === '1.2') assert.deepEqual(o.clientHello.keyShares, []);
      if (cfg.proto === '1.2' && cfg.resume !== 'none') assert.equal(o.negotiated.group, 'none');
      if (cfg.serverGroups !== 'default' && !cfg.serverGroups.includes(':') && !(cfg.proto === '1.2' && cfg.resume !== 'none'))
        assert.equal(o.negotiated.group, cfg.serverGroups);
      if (name === 'tls13-hrr') assert.ok(o.negotiated.hrr && o.clientHello.count === 2);
      else assert.ok(!o.negotiated.hrr && o.clientHello.count === 1);
      if (name === 'tls13-default') {
        // the 3.5 default: a hybrid and a classic key share, sizes from the library (1184+32, 32)
        const expected = atLeast35(f.version) ? 'X25519MLKEM768:1216,X25519:32' : 'X25519:32';
        assert.equal(describeShares(o.clientHello.keyShares), expected);
        if (atLeast35(f.version)) assert.deepEqual(o.serverKeyShare, { group: 'X25519MLKEM768', id: 0x11ec, bytes: 1120 });
      }
      if (name === 'tls13-mlkem768') assert.equal(describeShares(o.clientHello.keyShares), 'MLKEM768:1184');
      if (cfg.mode === 'memory') assert.ok(o.heap && o.heap.clientBytesPerConnection > 1000 && o.heap.serverBytesPerConnection > 1000);
      else assert.equal(o.heap, undefined);
      assert.ok(o.clientHello.recordBytes === o.clientHello.messageBytes + 5, 'one ClientHello in one record');
    });
  }
});

describe('handshake output of the other libraries (fixtures captured from real AWS-LC, BoringSSL, wolfSSL builds)', () => {
  it('has fixtures from each library built here, every case', () => {
    const libs = new Set(libraryFixtures.map((x) => x.f.library));
    for (const lib of libs)
      for (const c of Object.keys(CASES))
        assert.ok(
          libraryFixtures.some((x) => x.f.library === lib && x.name === c),
          `${lib} lacks case ${c}`,
        );
  });
  for (const { name, f } of libraryFixtures) {
    it(`${f.library} ${f.version} ${name}`, () => {
      const p = parseHandshakeOutput(f.stdout, f.exitCode, `${f.library}/${name}`);
      const reported = p.kind === 'run' || p.kind === 'ctx-new' ? p.out.openssl : p.openssl;
      assert.equal(libraryMismatch(reported, { library: f.library!, version: f.version }), null);
      // a library either does what was asked or says why not; a failure is a bug to look at, not a result
      if (p.kind === 'unsupported') return assert.ok(p.reason.length > 10, 'unsupported without a reason');
      // OpenSSL and AWS-LC refuse an ECDSA P-256 certificate when the client offers no P-256; wolfSSL uses it
      if (name === 'tls12-ecdsa-without-p256' && p.kind === 'failed') return;
      if (name === 'ctx-new') return assert.equal(p.kind, 'ctx-new');
      if (name === 'tls13-wrong-hostname') return assert.equal(p.kind, 'failed', 'a client expecting another name must refuse the server');
      assert.equal(p.kind, 'run', JSON.stringify(p).slice(0, 300));
      const o = (p as { out: HandshakeRunOutput }).out;
      const cfg = CASES[name] as HandshakeConfig;
      // every library verifies the same: leaf and intermediate up to the root, and the name (or nothing, in the control)
      if (cfg.verify === 'none') assert.deepEqual(o.verification, { mode: 'none' });
      else {
        assert.equal(o.verification.mode, 'chain');
        assert.equal(checkVerification(cfg, p, name), p);
      }
      assert.equal(o.negotiated.protocol, cfg.proto === '1.2' ? 'TLSv1.2' : 'TLSv1.3');
      assert.equal(o.negotiated.resumed, cfg.resume !== 'none');
      if (cfg.serverGroups !== 'default' && !cfg.serverGroups.includes(':') && !(cfg.proto === '1.2' && cfg.resume !== 'none'))
        assert.equal(o.negotiated.group, cfg.serverGroups);
      if (name === 'tls13-hrr') assert.ok(o.negotiated.hrr && o.clientHello.count === 2);
      if (cfg.mode === 'memory') assert.ok(o.heap && o.heap.clientBytesPerConnection > 1000 && o.heap.serverBytesPerConnection > 1000);
      assert.ok(o.clientHello.recordBytes === o.clientHello.messageBytes + 5, 'one ClientHello in one record');
    });
  }
});

describe('handshake output parser rejects bad input', () => {
  const good = fixtures.find((x) => x.name === 'tls13-x25519')!.f;
  it('refuses text that is not JSON', () => assert.throws(() => parseHandshakeOutput('Segmentation fault', 0, 'x'), /x: handshake output is not JSON/));
  it('refuses a result with a non-zero exit code', () => assert.throws(() => parseHandshakeOutput(good.stdout, 1, 'x'), /exit code 1/));
  it('refuses "unsupported" with exit code 0', () =>
    assert.throws(() => parseHandshakeOutput('{"unsupported":true,"reason":"r","openssl":"OpenSSL 3.4.1 x"}', 0, 'x'), /expected 2/));
  it('names the missing field', () => {
    const o = JSON.parse(good.stdout);
    delete o.negotiated;
    assert.throws(() => parseHandshakeOutput(JSON.stringify(o), 0, 'x'), /negotiated/);
  });
  it('refuses a negative CPU time', () => {
    const o = JSON.parse(good.stdout);
    o.clientCpuNs = -5;
    assert.throws(() => parseHandshakeOutput(JSON.stringify(o), 0, 'x'), /clientCpuNs/);
  });
});

describe('handshake outcomes and matrix', () => {
  it('derives rates and per-side costs from the counts', () => {
    const f = fixtures.find((x) => x.name === 'tls13-x25519' && x.f.version === '4.0.3')!.f;
    const p = parseHandshakeOutput(f.stdout, 0, 'f');
    assert.equal(p.kind, 'run');
    const o = (p as { out: HandshakeRunOutput }).out;
    const outs = timingOutcomes(CASES['tls13-x25519'] as HandshakeConfig, o);
    const get = (metric: string, side: string) => outs.find((x) => x.spec.metric === metric && x.spec.params.side === side);
    const v = (x: ReturnType<typeof get>) => (x && 'value' in x ? x.value : NaN);
    assert.equal(v(get('handshakes-per-cpu-second', 'both')), (1e9 * o.handshakes) / (o.clientCpuNs + o.serverCpuNs));
    assert.equal(v(get('cpu-per-handshake', 'client')), o.clientCpuNs / o.handshakes / 1000);
    assert.equal(get('cpu-per-handshake', 'server')?.spec.method, 'cpu-time-server');
    assert.equal(v(get('clienthello-bytes', 'client')), o.clientHello.messageBytes);
    assert.equal(outs[0]?.observed?.negotiatedGroup, 'X25519');
  });

  for (const mode of ['quick', 'full'] as const) {
    it(`${mode} matrix: unique task ids and series keys, valid series`, () => {
      const defs = handshakeMatrix(mode);
      const ids = defs.map(taskId);
      assert.equal(new Set(ids).size, ids.length, 'duplicate task id');
      const keys = defs.flatMap(specsOf).map(seriesKey);
      assert.equal(new Set(keys).size, keys.length, `duplicate series key: ${keys.find((k, i) => keys.indexOf(k) !== i)}`);
      for (const spec of defs.flatMap(specsOf)) Series.parse({ ...spec, key: seriesKey(spec), buildId: 'b', status: 'measured', iterations: [] });
    });
  }

  it('pins TLS 1.2 ECDSA so the certificate curve stays offered', () => {
    assert.deepEqual(pin('1.2', 'ecdsa-p256', 'X25519'), { clientGroups: 'X25519:P-256', serverGroups: 'X25519' });
    assert.deepEqual(pin('1.3', 'ecdsa-p256', 'X25519'), { clientGroups: 'X25519', serverGroups: 'X25519' });
  });

  it('names the CPU features valgrind hides', () => {
    // captured on this host: natively, and the same binary under valgrind 3.19
    assert.deepEqual(hiddenByValgrind('078bffff:fffa3203:f1bf07ab:00405fc6', 'ffebffff:7ffaf3ff:000427aa:00000000'), [
      'ADX',
      'SHA-NI',
      'AVX-512F',
      'VAES',
      'VPCLMULQDQ',
    ]);
    assert.equal(
      hiddenFeaturesText(hiddenFeatures('078bffff:fffa3203:f1bf07ab:00405fc6', 'ffebffff:7ffaf3ff:000427aa:00000000')),
      'ADX,SHA-NI,AVX-512F,VAES,VPCLMULQDQ',
    );
    assert.equal(hiddenFeaturesText(hiddenFeatures('078bffff:fffa3203:f1bf07ab:00405fc6', '078bffff:fffa3203:f1bf07ab:00405fc6')), 'none');
  });

  it('says "unknown", not "none", when a run printed no capability vector (BoringSSL, wolfSSL)', () => {
    assert.equal(hiddenFeatures(undefined, undefined), null);
    assert.equal(hiddenFeaturesText(hiddenFeatures('078bffff:fffa3203:f1bf07ab:00405fc6', undefined)), 'unknown');
    assert.equal(hiddenFeaturesText(hiddenFeatures(undefined, 'ffebffff:7ffaf3ff:000427aa:00000000')), 'unknown');
  });
});
