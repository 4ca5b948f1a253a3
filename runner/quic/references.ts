// What the results file cites, and where each model assumption comes from. Sections paraphrased.
import type { z } from 'zod';
import type { Reference } from '../../schema/mtu.ts';

export const REFERENCES: z.infer<typeof Reference>[] = [
  {
    id: 'rfc9000-14.1',
    title: 'RFC 9000 QUIC, 14.1 Initial Datagram Size',
    url: 'https://www.rfc-editor.org/rfc/rfc9000#section-14.1',
    says: 'A client pads every UDP datagram that carries an Initial packet to at least 1200 bytes; a server does the same for datagrams with ack-eliciting Initial packets. 1200 is a minimum, not a maximum.',
  },
  {
    id: 'rfc9000-8.1',
    title: 'RFC 9000 QUIC, 8.1 Address Validation during Connection Establishment',
    url: 'https://www.rfc-editor.org/rfc/rfc9000#section-8.1',
    says: 'Until it has validated the client address, a server sends at most three times the bytes it has received. Receiving a Handshake packet from the client validates it; so does a Retry token.',
  },
  {
    id: 'rfc9000-17.2.2',
    title: 'RFC 9000 QUIC, 17.2.2 Initial Packet',
    url: 'https://www.rfc-editor.org/rfc/rfc9000#section-17.2.2',
    says: 'Long header: first byte, version, DCID and SCID with their lengths, token length and token, Length, packet number (1 to 4 bytes), then the payload.',
  },
  {
    id: 'rfc9000-17.2.5',
    title: 'RFC 9000 QUIC, 17.2.5 Retry Packet',
    url: 'https://www.rfc-editor.org/rfc/rfc9000#section-17.2.5',
    says: 'A server may answer an Initial with a Retry carrying a token; the client repeats its Initial with the token, costing one round trip but validating its address.',
  },
  {
    id: 'rfc9000-19.6',
    title: 'RFC 9000 QUIC, 19.6 CRYPTO Frames',
    url: 'https://www.rfc-editor.org/rfc/rfc9000#section-19.6',
    says: 'TLS handshake messages travel in CRYPTO frames: a type byte, the offset and the length as variable-length integers, then the data.',
  },
  {
    id: 'rfc9000-16',
    title: 'RFC 9000 QUIC, 16 Variable-Length Integer Encoding',
    url: 'https://www.rfc-editor.org/rfc/rfc9000#section-16',
    says: '1, 2, 4 or 8 bytes for values up to 63, 16383, 2^30-1 and 2^62-1.',
  },
  {
    id: 'rfc9001-5.3',
    title: 'RFC 9001 Using TLS to Secure QUIC, 5.3 AEAD Usage',
    url: 'https://www.rfc-editor.org/rfc/rfc9001#section-5.3',
    says: 'Initial packets are protected with AEAD_AES_128_GCM; the tag adds 16 bytes to every packet.',
  },
  {
    id: 'rfc9001-5.4',
    title: 'RFC 9001, 5.4 Header Protection',
    url: 'https://www.rfc-editor.org/rfc/rfc9001#section-5.4',
    says: 'The packet number length is hidden by header protection; it is read here from the library before protection is applied or after it is removed.',
  },
  {
    id: 'rfc8446-4.1.4',
    title: 'RFC 8446 TLS 1.3, 4.1.4 Hello Retry Request',
    url: 'https://www.rfc-editor.org/rfc/rfc8446#section-4.1.4',
    says: 'When the client sent no key share for a group the server will accept, the server asks for one with a HelloRetryRequest; the client sends a second ClientHello, one extra round trip.',
  },
  {
    id: 'draft-ietf-tls-ecdhe-mlkem',
    title: 'Post-quantum hybrid ECDHE-MLKEM Key Agreement for TLS 1.3 (IETF draft)',
    url: 'https://datatracker.ietf.org/doc/draft-ietf-tls-ecdhe-mlkem/',
    says: 'X25519MLKEM768 (0x11EC): client share = ML-KEM-768 encapsulation key (1184) + X25519 (32) = 1216 bytes; server share = ML-KEM-768 ciphertext (1088) + 32 = 1120 bytes.',
  },
  {
    id: 'fips203',
    title: 'FIPS 203 Module-Lattice-Based Key-Encapsulation Mechanism',
    url: 'https://csrc.nist.gov/pubs/fips/203/final',
    says: 'ML-KEM-768: encapsulation key 1184 bytes, ciphertext 1088; ML-KEM-1024: 1568 and 1568.',
  },
];

export const ASSUMPTION_SOURCES: Record<string, { unit: string; source: string }> = {
  clientDcidBytes: {
    unit: 'bytes',
    source: 'RFC 9000 7.2 requires at least 8; OpenSSL 3.5.7 .. 4.0.3 clients used 8 (dcidLen of their first Initial, quicHandshakes[].datagrams)',
  },
  clientScidBytes: { unit: 'bytes', source: 'OpenSSL clients sent a zero-length Source Connection ID (scidLen 0 in every client Initial measured here)' },
  serverScidBytes: { unit: 'bytes', source: 'OpenSSL 3.5+ servers chose 8-byte connection IDs (scidLen of their Initial and Handshake packets)' },
  tokenBytes: {
    unit: 'bytes',
    source: 'a first connection without Retry carries no token (RFC 9000 17.2.2); after a Retry OpenSSL 3.5.7 sent a 60-byte token',
  },
  packetNumberBytes: {
    unit: 'bytes',
    source:
      'OpenSSL wrote 4-byte packet numbers in its Initial and Handshake packets (low bits of the unprotected first byte, packetNumberBytes in quicHandshakes)',
  },
  aeadTagBytes: { unit: 'bytes', source: 'RFC 9001 5.3: AEAD_AES_128_GCM for Initial packets, 16-byte tag' },
  minDatagramBytes: { unit: 'bytes', source: 'RFC 9000 14.1 (a minimum the client pads up to)' },
  amplificationFactor: { unit: 'x bytes received', source: 'RFC 9000 8.1' },
  serverAckFrameBytes: {
    unit: 'bytes',
    source: 'the ACK frame OpenSSL 3.5.7 put in its first Initial: type, largest acknowledged, delay, range count, first range, 1 byte each',
  },
  lengthFieldBytes: {
    unit: 'bytes',
    source:
      'RFC 9000 16: 2 bytes for 64..16383. Every client Initial is padded inside the packet, so always 2; OpenSSL 3.5.7 gave a server Initial that only carried the last few bytes of a ServerHello a 1-byte Length, one byte less than modelled',
  },
};

export const MODEL_DESCRIPTION = [
  'The ClientHello handshake message (4-byte header included) is cut into CRYPTO frames (RFC 9000 19.6), one Initial packet per datagram, each datagram as large as the maximum datagram size allows; a datagram shorter than 1200 bytes is padded to 1200 (RFC 9000 14.1).',
  'Initial header = 1 + 4 + (1 + DCID) + (1 + SCID) + token-length varint + token + 2-byte Length + packet number; Handshake header the same without the token fields; every packet ends with a 16-byte AEAD tag (RFC 9001 5.3).',
  'The server flight carries the ServerHello in Initial packets (the first with an ACK frame) and EncryptedExtensions, Certificate, CertificateVerify and Finished in Handshake packets, coalesced into full datagrams; a datagram that carries an Initial packet is padded to 1200.',
  'The server budget before address validation is 3 x the client first flight (RFC 9000 8.1); a flight larger than the budget needs the client to send more (an ACK, itself padded to 1200) before the rest: one more round trip.',
  'The ClientHello carried is the one OpenSSL’s QUIC client wrote (3.2+); for versions without a QUIC client it is the TLS-over-TCP ClientHello, which differs (a 32-byte legacy session id, no QUIC transport parameters).',
].join(' ');
