// The measurement path against real captured output (fixtures/<version>/, written by
// capture-fixtures.ts from the programs' stdout). The live runs are in probe.integration.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIGS } from './analyse.ts';
import { FIXTURE_DIR } from './capture-fixtures.ts';
import { clientHelloEntry, helloRetryEntry, quicHandshakeEntry, serverFlightEntry } from './entries.ts';
import { HelloParseError, parseHello } from './hello.ts';
import { QuicSizesOutput, TlsSizesOutput, amplification, flights, parseOutput, tlsFacts, type WireDatagram } from './probe.ts';

// Protocol sizes (FIPS 203, draft-ietf-tls-ecdhe-mlkem): what the measurement must reproduce.
const MLKEM768_EK = 1184;
const MLKEM768_CT = 1088;
const X25519 = 32;

const fixture = (version: string, name: string) => readFileSync(join(FIXTURE_DIR, version, `${name}.json`), 'utf8');
const tlsFixture = (v: string, n: string) => parseOutput(TlsSizesOutput, fixture(v, n), `${v}/${n}`);
const quicFixture = (v: string, n: string) => parseOutput(QuicSizesOutput, fixture(v, n), `${v}/${n}`);
const cfg = (id: string) => CONFIGS.find((c) => c.id === id)!;
const ref = (version: string) => ({ buildId: 'fixture', version });

test('3.5.7 default ClientHello: hybrid and X25519 shares of the protocol sizes, two Initials', () => {
  const e = clientHelloEntry(ref('3.5.7'), cfg('default'), tlsFixture('3.5.7', 'tls-default-ecdsa'), quicFixture('3.5.7', 'quic-client-only-default'));
  assert.equal(e.status, 'measured');
  assert.deepEqual(
    e.tcp!.keyShares.map((k) => [k.group, k.bytes]),
    [
      ['X25519MLKEM768', MLKEM768_EK + X25519],
      ['X25519', X25519],
    ],
  );
  assert.equal(e.tcp!.sessionIdBytes, 32);
  assert.equal(e.quic!.sessionIdBytes, 0, 'QUIC has no legacy session id');
  assert.ok(e.quic!.extensions.some((x) => x.name === 'quic_transport_parameters'));
  assert.equal(e.negotiatedGroup, 'X25519MLKEM768');
  assert.equal(e.modelInput, 'quic');
  assert.equal(e.plans![0]!.maxDatagramBytes, 1200);
  assert.ok(e.plans![0]!.packets > 1, 'the 3.5 default ClientHello does not fit one Initial');
  assert.deepEqual(e.measuredFirstFlight!.datagramBytes, e.plans![0]!.datagramBytes);
  assert.equal(e.measuredFirstFlight!.matchesModelAt1200, true);
});

test('3.2.1 and 3.4.1 default ClientHello: one X25519 share, one Initial, as OpenSSL\u2019s QUIC client really sent it', () => {
  for (const v of ['3.2.1', '3.4.1']) {
    const e = clientHelloEntry(ref(v), cfg('default'), tlsFixture(v, 'tls-default-ecdsa'), quicFixture(v, 'quic-client-only-default'));
    assert.deepEqual(
      e.quic!.keyShares.map((k) => [k.group, k.bytes]),
      [['X25519', X25519]],
      v,
    );
    assert.equal(e.plans![0]!.packets, 1, v);
    assert.deepEqual(e.measuredFirstFlight!.datagramBytes, [1200], v);
    assert.equal(e.measuredFirstFlight!.matchesModelAt1200, true, v);
  }
});

test('server share of X25519MLKEM768 is the ML-KEM-768 ciphertext plus X25519', () => {
  for (const v of ['3.5.7', '4.0.3']) {
    const f = tlsFacts(tlsFixture(v, 'tls-x25519mlkem768'));
    assert.deepEqual([f.serverShare!.group, f.serverShare!.bytes], ['X25519MLKEM768', MLKEM768_CT + X25519]);
    assert.deepEqual(
      f.clientHellos[0]!.keyShares.map((k) => k.bytes),
      [MLKEM768_EK + X25519],
    );
  }
});

test('versions without ML-KEM say unsupported with the library error, never 0', () => {
  for (const v of ['1.1.1w', '3.2.1']) {
    const e = clientHelloEntry(ref(v), cfg('x25519mlkem768'), tlsFixture(v, 'tls-x25519mlkem768'), undefined);
    assert.equal(e.status, 'unsupported');
    assert.match(e.reason!, /set1_groups_list refused/);
    assert.equal(e.tcp, undefined);
    assert.equal(e.plans, undefined);
  }
  const q = quicHandshakeEntry(ref('3.2.1'), cfg('default'), 'ecdsa-p256', false, quicFixture('3.2.1', 'quic-handshake-default-ecdsa'));
  assert.equal(q.status, 'unsupported');
  assert.match(q.reason!, /no QUIC server/);
  const n = clientHelloEntry(ref('1.1.1w'), cfg('default'), tlsFixture('1.1.1w', 'tls-default-ecdsa'), quicFixture('1.1.1w', 'quic-client-only-default'));
  assert.equal(n.quicStatus, 'unsupported');
  assert.equal(n.modelInput, 'tcp');
});

test('HelloRetryRequest: a client default against a P-256-only server costs a second ClientHello', () => {
  for (const v of ['1.1.1w', '3.5.7']) {
    const e = helloRetryEntry(ref(v), { id: 'x', label: 'x', clientGroups: 'default', serverGroups: 'P-256' }, tlsFixture(v, 'tls-hrr-default-vs-p256'));
    assert.equal(e.helloRetryRequest, true);
    assert.equal(e.clientHelloBytes!.length, 2);
    assert.equal(e.extraRoundTrips, 1);
    assert.deepEqual(
      e.retryKeyShares!.map((k) => [k.group, k.bytes]),
      [['secp256r1', 65]],
    );
    assert.equal(e.negotiatedGroup, 'secp256r1');
  }
});

test('server flight sizes: messages after the real ServerHello, and the model budget', () => {
  const out = tlsFixture('3.5.7', 'tls-default-ecdsa');
  const e = serverFlightEntry(ref('3.5.7'), cfg('default'), 'ecdsa-p256', out, () => 2400);
  const m = e.messages!;
  assert.equal(m.handshakeLevelBytes, m.encryptedExtensions + m.certificate + m.certificateVerify + m.finished);
  assert.equal(e.plans![0]!.budgetBytes, 7200);
  assert.equal(e.plans![0]!.fitsBudget, true);
  // the TCP flight is every server record from ServerHello to Finished: each message + 5-byte header (+ TLS 1.3 inner type and tag)
  assert.ok(e.tcpFlightBytes! > m.serverHello + m.handshakeLevelBytes);
});

test('a real QUIC handshake (3.5.7, 4.0.3): ML-DSA chain stops at 3 x 1200 and needs one more round trip, as modelled', () => {
  for (const v of ['3.5.7', '4.0.3']) {
    const e = quicHandshakeEntry(ref(v), cfg('x25519'), 'mldsa65', false, quicFixture(v, 'quic-handshake-x25519-mldsa65'));
    assert.equal(e.status, 'measured');
    assert.equal(e.clientFirstFlightBytes, 1200);
    assert.equal(e.flights![1]!.bytes, 3600, 'the server used exactly its 3x budget');
    assert.equal(e.amplificationLimitRespected, true);
    assert.equal(e.clientFlightsToFinished, 3);
    assert.equal(e.model!.agrees, true, e.model!.note);
    assert.deepEqual(e.packetNumberBytes, { client: [4], server: [4] });
  }
});

test('a real QUIC handshake (3.5.7): default groups and ECDSA fit in one server flight', () => {
  const e = quicHandshakeEntry(ref('3.5.7'), cfg('default'), 'ecdsa-p256', false, quicFixture('3.5.7', 'quic-handshake-default-ecdsa'));
  assert.deepEqual(
    e.flights!.slice(0, 2).map((f) => [f.from, f.datagrams]),
    [
      ['client', 2],
      ['server', 2],
    ],
  );
  assert.equal(e.clientFlightsToFinished, 2);
  assert.ok(e.datagrams!.every((d) => d.packets.every((p) => p.type !== 'initial' || p.dcidLen === (d.from === 'client' ? 8 : 0))));
});

test('the 3x check counts until a client Handshake packet or a Retry, and catches an excess', () => {
  const d = (from: 'client' | 'server', bytes: number, ...types: WireDatagram['packets'][number]['type'][]): WireDatagram => ({
    from,
    bytes,
    packets: types.map((type) => ({ type, bytes })),
  });
  const ok = [d('client', 1200, 'initial'), d('server', 1200, 'initial', 'handshake'), d('server', 1200, 'handshake'), d('server', 1200, 'handshake')];
  assert.deepEqual(amplification(ok), { serverBytesBeforeValidation: 3600, respected: true });
  assert.equal(amplification([...ok, d('server', 1, 'handshake')]).respected, false); // 3601 > 3 x 1200
  // after a client Handshake packet the address is validated: nothing more is counted
  assert.deepEqual(amplification([...ok, d('client', 1200, 'initial', 'handshake'), d('server', 9000, 'handshake')]), {
    serverBytesBeforeValidation: 3600,
    respected: true,
  });
  assert.deepEqual(amplification([d('client', 1200, 'initial'), d('server', 91, 'retry'), d('client', 1200, 'initial'), d('server', 9000, 'handshake')]), {
    serverBytesBeforeValidation: 0,
    respected: true,
  });
  assert.deepEqual(
    flights(ok).map((f) => [f.from, f.datagrams, f.bytes, f.packetTypes.join('+')]),
    [
      ['client', 1, 1200, 'initial'],
      ['server', 3, 3600, 'initial+handshake'],
    ],
  );
});

test('bad input is refused with a message naming what is wrong', () => {
  assert.throws(() => parseOutput(TlsSizesOutput, 'Segmentation fault', 'x'), /not JSON/);
  assert.throws(() => parseOutput(TlsSizesOutput, '{"openssl":"x"}', 'x'), /clientGroups/);
  assert.throws(() => parseHello('0100'), HelloParseError);
  assert.throws(() => parseHello('0b000000'), /neither ClientHello/);
  const good = JSON.parse(fixture('3.5.7', 'tls-default-ecdsa')).events.find((e: { type?: number }) => e.type === 1).hex as string;
  assert.throws(() => parseHello(good.slice(0, 200)), /header says/);
  assert.throws(() => parseHello(good + '00'), /header says/);
});
