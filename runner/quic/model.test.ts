// The packet model against cases computed by hand. Assumptions: client DCID 8, SCID 0, no token,
// 4-byte packet numbers, 16-byte tag, so a client Initial header is
//   1 (first byte) + 4 (version) + 1+8 (DCID) + 1+0 (SCID) + 1 (token length 0) + 2 (Length) + 4 (PN) = 22
// and a server Initial header (DCID = client SCID, 0; SCID 8) is 1+4+1+0+1+8+1+2+4 = 22, Handshake 21.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OPENSSL_ASSUMPTIONS, handshakeHeaderBytes, initialHeaderBytes, planClientInitials, planServerFlight, varintBytes } from './model.ts';

test('varint sizes follow RFC 9000 section 16', () => {
  assert.deepEqual([0, 63, 64, 16383, 16384, 1073741823, 1073741824].map(varintBytes), [1, 1, 2, 2, 4, 4, 8]);
  assert.throws(() => varintBytes(-1), /not a non-negative integer/);
});

test('header sizes', () => {
  assert.equal(initialHeaderBytes(8, 0, 0, 4), 22);
  assert.equal(initialHeaderBytes(8, 8, 0, 1), 1 + 4 + 1 + 8 + 1 + 8 + 1 + 2 + 1); // 27
  assert.equal(initialHeaderBytes(8, 0, 60, 4), 22 + 60); // token 60: its length still fits one varint byte
  assert.equal(handshakeHeaderBytes(0, 8, 4), 21);
});

test('a 250-byte ClientHello (pre-3.5 size) fits one Initial, padded to 1200', () => {
  // CRYPTO frame header: 1 (type) + 1 (offset 0) + 2 (length 250) = 4; packet 22 + 4 + 250 + 16 = 292
  const p = planClientInitials(250, 1200);
  assert.equal(p.packets, 1);
  assert.deepEqual(p.datagramBytes, [1200]);
  assert.deepEqual(p.cryptoBytesPerPacket, [250]);
  assert.equal(p.paddingBytes, 1200 - 292); // 908
  assert.equal(p.bytesSent, 1200);
  assert.equal(p.serverBudgetBytes, 3600);
});

test('the largest ClientHello in one 1200-byte Initial is 1158 bytes', () => {
  // 22 + 4 + 1158 + 16 = 1200
  assert.equal(planClientInitials(1158, 1200).packets, 1);
  assert.equal(planClientInitials(1158, 1200).paddingBytes, 0);
  assert.equal(planClientInitials(1159, 1200).packets, 2);
});

test('a 1484-byte ClientHello (3.5 QUIC default) needs two Initials at 1200 and at 1472', () => {
  // 1200: room 1200-22-16 = 1162; first frame header 4 -> 1158 bytes; second: offset 1158 takes 2 bytes,
  // header 1+2+2 = 5, 326 bytes: 22+5+326+16 = 369, padded by 831 to 1200
  const p = planClientInitials(1484, 1200);
  assert.deepEqual(p.cryptoBytesPerPacket, [1158, 326]);
  assert.deepEqual(p.datagramBytes, [1200, 1200]);
  assert.equal(p.paddingBytes, 831);
  assert.equal(p.serverBudgetBytes, 7200);
  // 1472: room 1434, first 1430 bytes; 54 left: 22 + (1+2+1) + 54 + 16 = 96, padded to 1200
  const q = planClientInitials(1484, 1472);
  assert.deepEqual(q.cryptoBytesPerPacket, [1430, 54]);
  assert.deepEqual(q.datagramBytes, [1472, 1200]);
  assert.equal(q.bytesSent, 2672);
});

test('server flight: hybrid ServerHello and an ECDSA chain fit the 3x budget of a two-datagram client', () => {
  // datagram 1: Initial 22 + ACK 5 + CRYPTO header 4 + 1153 + 16 = 1200
  // datagram 2: Initial 22 + (1+2+1) + 25 + 16 = 67, Handshake 21 + 4 + 894 + 16 = 935; 1002 padded to 1200
  const p = planServerFlight(1178, 894, 2400, 1200);
  assert.equal(p.initialPackets, 2);
  assert.equal(p.handshakePackets, 1);
  assert.equal(p.datagrams, 2);
  assert.equal(p.bytes, 2400);
  assert.equal(p.budgetBytes, 7200);
  assert.equal(p.fitsBudget, true);
  assert.equal(p.datagramsWithinBudget, 2);
});

test('server flight: an ML-DSA-sized flight after a one-datagram ClientHello exceeds 3 x 1200', () => {
  // datagram 1: Initial 22 + 5 + (1+1+2) + 90 + 16 = 137; Handshake in 1063 left: 21 + 4 + 1022 + 16
  // then 13369 bytes in Handshake packets of 1158 (21 + 5 + 1158 + 16 = 1200): 11 full, 631 left -> 673
  const p = planServerFlight(90, 14391, 1200, 1200);
  assert.equal(p.datagrams, 13);
  assert.equal(p.bytes, 1200 + 11 * 1200 + 673);
  assert.equal(p.budgetBytes, 3600);
  assert.equal(p.fitsBudget, false);
  assert.equal(p.datagramsWithinBudget, 3);
});

test('bad model input is refused with a reason', () => {
  assert.throws(() => planClientInitials(300, 1000), /below the 1200-byte minimum/);
  assert.throws(() => planClientInitials(300, 20000), /2-byte Length field covers up to 16383/);
  assert.throws(() => planClientInitials(300, 1200, { ...OPENSSL_ASSUMPTIONS, packetNumberBytes: 5 }), /not 1..4/);
});
