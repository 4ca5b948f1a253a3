// A stated model of the QUIC Initial and Handshake packets that carry a TLS 1.3 handshake.
//
// Packet layout (RFC 9000 17.2.2 Initial, 17.2.4 Handshake): first byte, 4-byte version, DCID length +
// DCID, SCID length + SCID, (Initial only) token length varint + token, Length varint, packet number,
// then the payload and the 16-byte AEAD tag (RFC 9001 5.3). CRYPTO frames (RFC 9000 19.6): type byte,
// offset varint, length varint, data. Varints: RFC 9000 16. A client pads every datagram that carries
// an Initial packet to at least 1200 bytes, a server every datagram with an ack-eliciting Initial
// (RFC 9000 14.1). Before it has validated the client's address a server may send at most 3 times
// the bytes it received (RFC 9000 8.1).
import type { ClientInitialPlan, ServerFlightPlan } from '../../schema/mtu.ts';

export interface ModelAssumptions {
  /** the client's first Destination Connection ID: at least 8 bytes (RFC 9000 7.2) */
  clientDcidBytes: number;
  /** the client's Source Connection ID; the server's DCID is the same length */
  clientScidBytes: number;
  serverScidBytes: number;
  /** Initial token: 0 on a first connection without Retry or NEW_TOKEN */
  tokenBytes: number;
  /** 1..4 (RFC 9000 17.1) */
  packetNumberBytes: number;
  /** AES-128-GCM / ChaCha20-Poly1305 tag (RFC 9001 5.3) */
  aeadTagBytes: number;
  /** RFC 9000 14.1 */
  minDatagramBytes: number;
  /** RFC 9000 8.1 */
  amplificationFactor: number;
  /** the ACK frame the server puts in its first Initial packet (ack of the client's Initials) */
  serverAckFrameBytes: number;
  /** the packet Length varint; 2 covers every packet from 64 to 16383 bytes */
  lengthFieldBytes: number;
}

/** Observed from OpenSSL 3.5.7's QUIC client and server (quic_sizes.c); the sources are in analyse.ts. */
export const OPENSSL_ASSUMPTIONS: ModelAssumptions = {
  clientDcidBytes: 8,
  clientScidBytes: 0,
  serverScidBytes: 8,
  tokenBytes: 0,
  packetNumberBytes: 4,
  aeadTagBytes: 16,
  minDatagramBytes: 1200,
  amplificationFactor: 3,
  serverAckFrameBytes: 5,
  lengthFieldBytes: 2,
};

/** RFC 9000 16: variable-length integer encoding size. */
export function varintBytes(v: number): number {
  if (!Number.isInteger(v) || v < 0) throw new Error(`varint: ${v} is not a non-negative integer`);
  if (v <= 63) return 1;
  if (v <= 16383) return 2;
  if (v <= 1073741823) return 4;
  return 8;
}

function check(a: ModelAssumptions, maxDatagram: number): void {
  if (maxDatagram < a.minDatagramBytes) throw new Error(`max datagram ${maxDatagram} is below the ${a.minDatagramBytes}-byte minimum`);
  if (a.lengthFieldBytes !== 2 && a.lengthFieldBytes !== 4) throw new Error(`Length field of ${a.lengthFieldBytes} bytes: this model uses 2 or 4`);
  if (a.lengthFieldBytes === 2 && maxDatagram > 16383) throw new Error(`max datagram ${maxDatagram}: a 2-byte Length field covers up to 16383`);
  if (a.packetNumberBytes < 1 || a.packetNumberBytes > 4) throw new Error(`packet number length ${a.packetNumberBytes} is not 1..4`);
}

export function initialHeaderBytes(dcid: number, scid: number, token: number, pn: number, lengthField = 2): number {
  return 1 + 4 + 1 + dcid + 1 + scid + varintBytes(token) + token + lengthField + pn;
}

export function handshakeHeaderBytes(dcid: number, scid: number, pn: number, lengthField = 2): number {
  return 1 + 4 + 1 + dcid + 1 + scid + lengthField + pn;
}

/** How much CRYPTO data fits in `room` bytes of payload at `offset`, and the frame's header size. */
function cryptoFit(room: number, offset: number, left: number): { data: number; frameHeader: number } {
  const fixed = 1 + varintBytes(offset);
  if (left + fixed + varintBytes(left) <= room) return { data: left, frameHeader: fixed + varintBytes(left) };
  const data = Math.max(0, room - fixed - 2);
  return { data, frameHeader: fixed + varintBytes(data) };
}

/** The client's first flight: a ClientHello of `helloBytes` (handshake message incl. header), one Initial per datagram. */
export function planClientInitials(helloBytes: number, maxDatagram: number, a: ModelAssumptions = OPENSSL_ASSUMPTIONS): ClientInitialPlan {
  check(a, maxDatagram);
  const header = initialHeaderBytes(a.clientDcidBytes, a.clientScidBytes, a.tokenBytes, a.packetNumberBytes, a.lengthFieldBytes);
  const datagramBytes: number[] = [];
  const cryptoBytesPerPacket: number[] = [];
  let padding = 0;
  for (let offset = 0; offset < helloBytes;) {
    const fit = cryptoFit(maxDatagram - header - a.aeadTagBytes, offset, helloBytes - offset);
    if (fit.data <= 0) throw new Error(`max datagram ${maxDatagram}: no room for CRYPTO data after ${header} header bytes`);
    const packet = header + fit.frameHeader + fit.data + a.aeadTagBytes;
    const datagram = Math.max(packet, a.minDatagramBytes);
    padding += datagram - packet;
    datagramBytes.push(datagram);
    cryptoBytesPerPacket.push(fit.data);
    offset += fit.data;
  }
  const bytesSent = datagramBytes.reduce((s, b) => s + b, 0);
  return {
    maxDatagramBytes: maxDatagram,
    packets: datagramBytes.length,
    datagramBytes,
    cryptoBytesPerPacket,
    paddingBytes: padding,
    bytesSent,
    serverBudgetBytes: a.amplificationFactor * bytesSent,
  };
}

/**
 * The server's first flight: ServerHello in Initial packets (the first also carries an ACK frame),
 * then EncryptedExtensions .. Finished in Handshake packets, coalesced into full datagrams. A datagram
 * carrying an Initial packet is padded to the minimum. `clientBytes` is what the client sent first.
 */
export function planServerFlight(
  serverHelloBytes: number,
  handshakeLevelBytes: number,
  clientBytes: number,
  maxDatagram: number,
  a: ModelAssumptions = OPENSSL_ASSUMPTIONS,
): ServerFlightPlan {
  check(a, maxDatagram);
  const levels = [
    {
      name: 'initial',
      left: serverHelloBytes,
      offset: 0,
      packets: 0,
      header: initialHeaderBytes(a.clientScidBytes, a.serverScidBytes, 0, a.packetNumberBytes, a.lengthFieldBytes),
    },
    {
      name: 'handshake',
      left: handshakeLevelBytes,
      offset: 0,
      packets: 0,
      header: handshakeHeaderBytes(a.clientScidBytes, a.serverScidBytes, a.packetNumberBytes, a.lengthFieldBytes),
    },
  ];
  const datagrams: number[] = [];
  let ackSent = false;
  while (levels.some((l) => l.left > 0)) {
    let used = 0;
    let hasInitial = false;
    for (const level of levels) {
      if (level.left === 0) continue;
      const ack = level.name === 'initial' && !ackSent ? a.serverAckFrameBytes : 0;
      const fit = cryptoFit(maxDatagram - used - level.header - a.aeadTagBytes - ack, level.offset, level.left);
      if (fit.data <= 0) break; // no room left in this datagram
      used += level.header + ack + fit.frameHeader + fit.data + a.aeadTagBytes;
      if (ack) ackSent = true;
      if (level.name === 'initial') hasInitial = true;
      level.left -= fit.data;
      level.offset += fit.data;
      level.packets++;
      if (level.left > 0) break; // the datagram is full
    }
    if (used === 0) throw new Error(`max datagram ${maxDatagram}: no room for a packet`);
    datagrams.push(hasInitial ? Math.max(used, a.minDatagramBytes) : used);
  }
  const budget = a.amplificationFactor * clientBytes;
  let total = 0;
  let within = 0;
  let withinBytes = 0;
  for (const d of datagrams) {
    total += d;
    if (total > budget) continue;
    within++;
    withinBytes = total;
  }
  return {
    maxDatagramBytes: maxDatagram,
    initialPackets: levels[0]!.packets,
    handshakePackets: levels[1]!.packets,
    datagrams: datagrams.length,
    datagramBytes: datagrams,
    bytes: total,
    budgetBytes: budget,
    fitsBudget: total <= budget,
    datagramsWithinBudget: within,
    bytesWithinBudget: withinBytes,
  };
}
