// data/mtu/<host>.json: what each OpenSSL version puts in a TLS 1.3 / QUIC handshake, measured through
// the library's own message callback, and a stated model of the QUIC Initial packets that would carry
// it. Every size is in bytes; every model parameter is data with its source. Written by
// runner/quic/analyse.ts (npm run mtu).
import { z } from 'zod';
import { isoTime, nonNegative, safeId, shortText } from './primitives.ts';
import { Host } from './host.ts';
import { Build } from './build.ts';
import { QuietEvidence } from './quiet.ts';

const bytes = z.int().nonnegative().describe('bytes');
const count = z.int().nonnegative();

/** Measured, or why not: a group or key type a version lacks is 'unsupported' with the library's words, never 0. */
const Outcome = z.enum(['measured', 'unsupported', 'failed']);
const why = shortText(3000).optional().describe('for unsupported/failed: what the library said');

export const Reference = z.object({
  id: safeId.describe('e.g. rfc9000-14.1'),
  title: shortText(200),
  url: shortText(300),
  says: shortText(600).describe('what we rely on, in our words'),
});

export const Assumption = z.object({
  name: safeId,
  value: z.union([nonNegative, shortText(300)]),
  unit: shortText(40),
  source: shortText(500).describe('an RFC section, or what we observed from OpenSSL and where'),
});

export const KeyShare = z.object({
  groupId: z.int().min(0).max(0xffff).describe('IANA TLS supported-group code point'),
  group: shortText(60).describe('name, or 0x.... when not in our table'),
  bytes: bytes.describe('key_exchange field length (the share itself, not the 4-byte entry header)'),
});
export type KeyShare = z.infer<typeof KeyShare>;

export const HelloFacts = z.object({
  messageBytes: bytes.describe('the handshake message including its 4-byte header: what a QUIC CRYPTO frame carries'),
  sessionIdBytes: bytes.describe('legacy_session_id: 32 over TCP (middlebox compatibility), 0 in QUIC'),
  extensions: z.array(z.object({ type: count, name: shortText(60), bytes: bytes.describe('extension data, without its 4-byte header') })),
  keyShares: z.array(KeyShare),
  supportedGroups: z.array(shortText(60)),
  keyShareExtensionBytes: bytes,
});
export type HelloFacts = z.infer<typeof HelloFacts>;

/** The model's answer for one ClientHello at one maximum datagram size. */
export const ClientInitialPlan = z.object({
  maxDatagramBytes: bytes,
  packets: count.describe('Initial packets, one per datagram'),
  datagramBytes: z.array(bytes).describe('after padding to the 1200-byte minimum'),
  cryptoBytesPerPacket: z.array(bytes),
  paddingBytes: bytes,
  bytesSent: bytes.describe('what the client puts on the wire for its first flight'),
  serverBudgetBytes: bytes.describe('3 x bytesSent: what the server may send before the address is validated'),
});
export type ClientInitialPlan = z.infer<typeof ClientInitialPlan>;

export const ServerFlightPlan = z.object({
  maxDatagramBytes: bytes,
  initialPackets: count,
  handshakePackets: count,
  datagrams: count,
  datagramBytes: z.array(bytes),
  bytes: bytes.describe('the whole server first flight, ServerHello .. Finished, as the model packs it'),
  budgetBytes: bytes.describe('3 x the client first flight of the same model'),
  fitsBudget: z.boolean(),
  datagramsWithinBudget: count.describe('datagrams the server can send before it must wait for more client bytes'),
  bytesWithinBudget: bytes,
});
export type ServerFlightPlan = z.infer<typeof ServerFlightPlan>;

export const GroupConfig = z.object({
  id: safeId,
  label: shortText(120),
  clientGroups: shortText(200).describe('the string given to SSL_CTX_set1_groups_list, or "default"'),
  serverGroups: shortText(200).describe('what the in-process server allowed'),
});

export const TlsMessageSizes = z.object({
  serverHello: bytes,
  encryptedExtensions: bytes,
  certificate: bytes,
  certificateVerify: bytes,
  finished: bytes,
  handshakeLevelBytes: bytes.describe('EncryptedExtensions + Certificate + CertificateVerify + Finished: the Handshake-level CRYPTO data'),
});

export const ClientHelloEntry = z.object({
  buildId: safeId,
  version: shortText(20),
  config: GroupConfig,
  status: Outcome,
  reason: why,
  /** TLS over TCP, as tls_sizes.c saw it (also present for versions without QUIC) */
  tcp: HelloFacts.optional(),
  tcpRecordBytes: bytes.optional().describe('the ClientHello record on TCP, with its 5-byte header'),
  negotiatedGroup: shortText(60).optional().describe('from the ServerHello key_share against a server allowing the same groups'),
  /** the QUIC ClientHello from OpenSSL's QUIC client (3.2+), when this version has one */
  quic: HelloFacts.optional(),
  quicStatus: Outcome.optional(),
  quicReason: why,
  /** model: the ClientHello (QUIC's when measured, else TCP's) in Initial packets */
  modelInput: z.enum(['quic', 'tcp']).optional().describe('which ClientHello the plans below carry'),
  plans: z.array(ClientInitialPlan).optional(),
  /** OpenSSL's QUIC client first flight as it really went out (client-only run, nothing answering) */
  measuredFirstFlight: z
    .object({ datagrams: count, datagramBytes: z.array(bytes), initialPackets: count, bytesSent: bytes, matchesModelAt1200: z.boolean() })
    .optional(),
});
export type ClientHelloEntry = z.infer<typeof ClientHelloEntry>;

export const ServerFlightEntry = z.object({
  buildId: safeId,
  version: shortText(20),
  config: GroupConfig,
  cert: z.enum(['rsa2048', 'ecdsa-p256', 'mldsa65']),
  status: Outcome,
  reason: why,
  chain: z.array(z.object({ role: z.enum(['leaf', 'intermediate']), derBytes: bytes })).optional(),
  messages: TlsMessageSizes.optional(),
  serverShare: KeyShare.optional(),
  negotiatedGroup: shortText(60).optional(),
  tcpFlightBytes: bytes.optional().describe('server records on TCP up to and including Finished, record headers included'),
  modelInput: z
    .literal('tcp')
    .optional()
    .describe(
      'the model carries the messages as measured over TCP: a QUIC ServerHello is 32 bytes shorter (no session id echo) and QUIC EncryptedExtensions also carry transport parameters',
    ),
  clientBytesForBudget: bytes.optional().describe('the client first flight the budget is 3x of: this version and group configuration, modelled'),
  plans: z.array(ServerFlightPlan).optional(),
});
export type ServerFlightEntry = z.infer<typeof ServerFlightEntry>;

export const HelloRetryEntry = z.object({
  buildId: safeId,
  version: shortText(20),
  config: GroupConfig,
  status: Outcome,
  reason: why,
  handshakeCompleted: z.boolean().optional(),
  libraryError: shortText(3000).optional().describe('when the handshake failed: what the library said (a result, not a harness failure)'),
  helloRetryRequest: z.boolean().optional(),
  clientHelloBytes: z.array(bytes).optional().describe('each ClientHello the client sent (two after a HelloRetryRequest)'),
  helloRetryRequestBytes: bytes.optional(),
  firstKeyShares: z.array(KeyShare).optional(),
  retryKeyShares: z.array(KeyShare).optional(),
  negotiatedGroup: shortText(60).optional(),
  extraRoundTrips: count.optional().describe('1 after a HelloRetryRequest: the client must send a second ClientHello and wait again'),
});
export type HelloRetryEntry = z.infer<typeof HelloRetryEntry>;

export const QuicPacket = z.object({
  type: z.enum(['initial', '0rtt', 'handshake', 'retry', '1rtt', 'version-negotiation']),
  bytes,
  dcidLen: count.optional(),
  scidLen: count.optional(),
  tokenLen: count.optional(),
});
export const QuicDatagram = z.object({ from: z.enum(['client', 'server']), bytes, packets: z.array(QuicPacket) });

export const QuicFlight = z.object({
  from: z.enum(['client', 'server']),
  datagrams: count,
  bytes,
  packetTypes: z.array(shortText(40)),
});

export const QuicHandshakeEntry = z.object({
  buildId: safeId,
  version: shortText(20),
  config: GroupConfig,
  cert: z.enum(['rsa2048', 'ecdsa-p256', 'mldsa65']),
  retry: z.boolean().describe('whether the server validated the address with a Retry first'),
  status: Outcome,
  reason: why,
  clientHelloBytes: bytes.optional(),
  serverMessages: TlsMessageSizes.optional(),
  datagrams: z.array(QuicDatagram).optional().describe('every datagram until both sides finished, in order'),
  flights: z.array(QuicFlight).optional().describe('runs of datagrams in one direction'),
  flightsReproduced: z.boolean().optional().describe('a second run of the same configuration gave the same flights (direction, datagrams, bytes)'),
  clientFirstFlightBytes: bytes.optional().describe('client bytes before the server answered with anything but a Retry'),
  serverBytesBeforeValidation: bytes
    .optional()
    .describe('server bytes sent before it received a client Handshake packet or sent a Retry (RFC 9000 8.1); 0 with Retry'),
  amplificationLimitRespected: z.boolean().optional(),
  clientFlightsToFinished: count
    .optional()
    .describe(
      'client flights up to the one carrying its Finished: 2 is the plain 1-RTT handshake, each one more is a round trip (Retry, HelloRetryRequest, or a server waiting under the 3x limit)',
    ),
  packetNumberBytes: z
    .object({ client: z.array(count), server: z.array(count) })
    .optional()
    .describe('PN lengths seen in unprotected headers'),
  shortInitialDatagrams: z
    .object({ client: count, server: count })
    .optional()
    .describe(
      'datagrams carrying an Initial packet yet shorter than 1200 bytes (RFC 9000 14.1; for the server it applies to ack-eliciting Initials, which the wire view does not tell apart)',
    ),
  model: z
    .object({ clientDatagrams: count, clientBytes: bytes, serverDatagrams: count, serverBytes: bytes, agrees: z.boolean(), note: shortText(600) })
    .optional(),
});
export type QuicHandshakeEntry = z.infer<typeof QuicHandshakeEntry>;

export const MtuResults = z.object({
  schemaVersion: z.literal(1),
  kind: z.literal('mtu-analysis'),
  generatedAt: isoTime,
  host: Host,
  harness: z.object({
    gitCommit: z.string().regex(/^[0-9a-f]{7,40}$|^unknown$/),
    gitDirty: z.boolean(),
    node: shortText(40),
    revision: z.int().positive().optional(),
  }),
  quiet: QuietEvidence.optional().describe(
    'how quiet the host was before and during the measurement (one round: all of it); absent in files written before it was kept',
  ),
  builds: z.array(Build).min(1),
  unit: z.literal('bytes'),
  method: z.literal('wire-bytes').describe('sizes of what the library wrote, reported by its message callback'),
  references: z.array(Reference),
  model: z.object({
    description: shortText(3000),
    maxDatagramSizes: z.array(bytes).min(1),
    assumptions: z.array(Assumption),
  }),
  clientHellos: z.array(ClientHelloEntry),
  serverFlights: z.array(ServerFlightEntry),
  helloRetries: z.array(HelloRetryEntry),
  quicHandshakes: z.array(QuicHandshakeEntry),
  notes: z.array(shortText(2000)),
});
export type MtuResults = z.infer<typeof MtuResults>;
