// The probes against live runs of real cached builds, compared with the captured fixtures (integration
// tier: npm run test:integration builds them first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findCached } from '../build/cache.ts';
import { CONFIGS } from './analyse.ts';
import { FIXTURE_DIR } from './capture-fixtures.ts';
import { clientHelloEntry } from './entries.ts';
import { QuicSizesOutput, TlsSizesOutput, parseOutput, runQuicSizes, runTlsSizes } from './probe.ts';
import { needs } from '../integration-needs.ts';

const fixture = (version: string, name: string) => readFileSync(join(FIXTURE_DIR, version, `${name}.json`), 'utf8');
const tlsFixture = (v: string, n: string) => parseOutput(TlsSizesOutput, fixture(v, n), `${v}/${n}`);
const quicFixture = (v: string, n: string) => parseOutput(QuicSizesOutput, fixture(v, n), `${v}/${n}`);
const cfg = (id: string) => CONFIGS.find((c) => c.id === id)!;
const ref = (version: string) => ({ buildId: 'fixture', version });

const LIVE = ['3.4.1', '3.5.7'];
for (const v of LIVE) {
  const build = findCached(v, 'default');
  const fixtureThere = existsSync(join(FIXTURE_DIR, v, 'tls-default-ecdsa.json'));
  test(
    `live run against the ${v} build: same facts as its fixture`,
    { skip: needs(build, `${v} is not built here`) || (!fixtureThere && `no ${v} fixture captured yet`) },
    async () => {
      const tls = await runTlsSizes(build!, 'default', 'default', 'ecdsa-p256');
      const quic = await runQuicSizes(build!, ['client-only', 'default']);
      const e = clientHelloEntry({ buildId: build!.record.id, version: v }, cfg('default'), tls, quic);
      const fx = clientHelloEntry(ref(v), cfg('default'), tlsFixture(v, 'tls-default-ecdsa'), quicFixture(v, 'quic-client-only-default'));
      assert.equal(e.tcp!.messageBytes, fx.tcp!.messageBytes);
      assert.equal(e.quic!.messageBytes, fx.quic!.messageBytes);
      assert.deepEqual(e.quic!.keyShares, fx.quic!.keyShares);
      assert.deepEqual(e.measuredFirstFlight, fx.measuredFirstFlight);
      assert.equal(e.plans![0]!.packets, v === '3.4.1' ? 1 : 2);
    },
  );
}

// a program that cannot go on records OpenSSL's error line without the thread id it starts with
// ("40E71517CC7F0000:error:..."), which differs in every process (runner/c-common/errors.c)
const old = findCached('1.1.1w', 'default');
test("a library error is recorded the same in every run, without OpenSSL's thread id", { skip: needs(old, '1.1.1w is not built here') }, async () => {
  // 1.1.1 has no ML-DSA: generating the certificate's key fails with an error on the queue
  const reasons = await Promise.all([1, 2].map(async () => (await runTlsSizes(old!, 'X25519', 'X25519', 'mldsa65')).reason));
  assert.match(reasons[0] ?? '', /: error:[0-9A-F]{8}:/);
  assert.equal(reasons[1], reasons[0]);
});
