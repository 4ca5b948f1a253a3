// Runs tls_sizes.c / quic_sizes.c against one build and turns their JSON into the facts the results
// file records. The programs' output is checked against the schemas below: a program that prints
// something else is a failure naming what was wrong, never a zero.
import { runGuarded, stderrTail } from '../child-guard.ts';
import { join } from 'node:path';
import { z } from 'zod';
import type { BuildUnderTest } from '../benchmark.ts';
import { compileAgainst } from '../compile.ts';
import { describeIssues } from '../../schema/index.ts';
import type { HelloFacts, KeyShare } from '../../schema/mtu.ts';
import { parseHello, type ParsedHello } from './hello.ts';

const here = import.meta.dirname;
export const TLS_SOURCE = join(here, 'tls_sizes.c');
export const QUIC_SOURCE = join(here, 'quic_sizes.c');

const TlsEvent = z.discriminatedUnion('kind', [
  z.object({ seq: z.int(), from: z.enum(['client', 'server']), kind: z.literal('record'), contentType: z.int(), length: z.int().nonnegative() }),
  z.object({
    seq: z.int(),
    from: z.enum(['client', 'server']),
    kind: z.literal('handshake'),
    type: z.int(),
    length: z.int().nonnegative(),
    hex: z.string().optional(),
  }),
]);
export const TlsSizesOutput = z.object({
  openssl: z.string(),
  clientGroups: z.string(),
  serverGroups: z.string(),
  cert: z.string(),
  status: z.enum(['ok', 'failed', 'unsupported']),
  reason: z.string().optional(),
  chain: z.array(z.object({ role: z.enum(['leaf', 'intermediate']), derBytes: z.int().positive() })).optional(),
  events: z.array(TlsEvent).optional(),
  negotiatedGroup: z.string().optional(),
  protocol: z.string().optional(),
  cipher: z.string().optional(),
});
export type TlsSizesOutput = z.infer<typeof TlsSizesOutput>;

const QuicPacketOut = z.object({
  type: z.enum(['initial', '0rtt', 'handshake', 'retry', '1rtt', 'version-negotiation']),
  bytes: z.int().nonnegative(),
  dcidLen: z.int().optional(),
  scidLen: z.int().optional(),
  tokenLen: z.int().optional(),
  lengthField: z.int().optional(),
  headerToLength: z.int().optional(),
});
const Side = z.enum(['client', 'server']);
const Dir = z.enum(['sent', 'received']);
const QuicEvent = z.discriminatedUnion('kind', [
  z.object({ side: Side, dir: Dir, kind: z.literal('datagram'), bytes: z.int().nonnegative(), packets: z.array(QuicPacketOut) }),
  z.object({ side: Side, dir: Dir, kind: z.literal('packet'), firstByte: z.int().min(0).max(255), headerBytes: z.int().positive() }),
  z.object({ side: Side, dir: Dir, kind: z.literal('frame'), part: z.enum(['full', 'header', 'padding']), frameType: z.int(), bytes: z.int() }),
  z.object({ side: Side, dir: Dir, kind: z.literal('handshake'), type: z.int(), length: z.int().nonnegative(), hex: z.string().optional() }),
]);
export const QuicSizesOutput = z.object({
  openssl: z.string(),
  mode: z.string(),
  groups: z.string(),
  cert: z.string(),
  retry: z.string(),
  status: z.enum(['ok', 'failed', 'unsupported']),
  reason: z.string().optional(),
  events: z.array(QuicEvent).optional(),
  steps: z.int().optional(),
});
export type QuicSizesOutput = z.infer<typeof QuicSizesOutput>;
export type QuicEvent = z.infer<typeof QuicEvent>;

/** Parse a program's stdout with a clear error. */
export function parseOutput<T>(schema: z.ZodType<T>, text: string, what: string): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`${what}: output is not JSON (${(e as Error).message}): ${text.slice(0, 300)}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new Error(`${what}: unexpected output\n${describeIssues(parsed.error)}`);
  return parsed.data;
}

async function run(bin: string, args: string[]): Promise<string> {
  const r = await runGuarded(bin, args, { timeoutMs: 120_000, maxBuffer: 64 << 20 });
  // exit 1 (failed) and 2 (unsupported) still print the JSON that says why
  if (r.stdout.trim().startsWith('{')) return r.stdout;
  throw new Error(`${bin} ${args.join(' ')}: exit ${r.code}, no JSON output: ${stderrTail(r.stderr, 500)}`);
}

export async function runTlsSizes(build: BuildUnderTest, clientGroups: string, serverGroups: string, cert: string): Promise<TlsSizesOutput> {
  const bin = compileAgainst(build, TLS_SOURCE, 'tls_sizes');
  return parseOutput(TlsSizesOutput, await run(bin, [clientGroups, serverGroups, cert]), `tls_sizes on ${build.record.version}`);
}

export async function runQuicSizes(build: BuildUnderTest, args: string[]): Promise<QuicSizesOutput> {
  const bin = compileAgainst(build, QUIC_SOURCE, 'quic_sizes');
  return parseOutput(QuicSizesOutput, await run(bin, args), `quic_sizes on ${build.record.version}`);
}

// ---------------------------------------------------------------- TLS over TCP

export const strip = (h: ParsedHello): HelloFacts => ({
  messageBytes: h.messageBytes,
  sessionIdBytes: h.sessionIdBytes,
  extensions: h.extensions,
  keyShares: h.keyShares,
  supportedGroups: h.supportedGroups,
  keyShareExtensionBytes: h.keyShareExtensionBytes,
});

export interface ServerMessages {
  serverHello: number;
  encryptedExtensions: number;
  certificate: number;
  certificateVerify: number;
  finished: number;
  handshakeLevelBytes: number;
}

/** Sizes of the server's flight after its real ServerHello, from handshake messages in order. */
export function serverMessages(msgs: { type: number; length: number }[]): ServerMessages | undefined {
  const find = (t: number) => msgs.find((m) => m.type === t)?.length;
  const sh = find(2),
    ee = find(8),
    cert = find(11),
    cv = find(15),
    fin = find(20);
  if (sh === undefined || ee === undefined || cert === undefined || cv === undefined || fin === undefined) return undefined;
  return { serverHello: sh, encryptedExtensions: ee, certificate: cert, certificateVerify: cv, finished: fin, handshakeLevelBytes: ee + cert + cv + fin };
}

export interface TlsFacts {
  clientHellos: ParsedHello[];
  clientHelloRecordBytes?: number;
  helloRetry?: ParsedHello;
  serverHello?: ParsedHello;
  serverShare?: KeyShare;
  messages?: ServerMessages;
  /** server records from the one carrying the real ServerHello to the one carrying Finished, headers included */
  serverFlightRecordBytes?: number;
}

export function tlsFacts(out: TlsSizesOutput): TlsFacts {
  const events = out.events ?? [];
  const hellos = events.flatMap((e) => (e.kind === 'handshake' && (e.type === 1 || e.type === 2) ? [e] : []));
  for (const h of hellos) if (!h.hex) throw new Error(`tls_sizes: ${h.from} hello at seq ${h.seq} has no bytes`);
  const clientHellos = hellos.filter((h) => h.from === 'client').map((h) => parseHello(h.hex!));
  const serverHellos = hellos.filter((h) => h.from === 'server').map((h) => ({ seq: h.seq, hello: parseHello(h.hex!) }));
  for (const [i, h] of clientHellos.entries())
    if (h.kind !== 'client-hello' || h.messageBytes !== hellos.filter((x) => x.from === 'client')[i]!.length)
      throw new Error('tls_sizes: a client hello does not parse as the ClientHello the callback reported');
  const facts: TlsFacts = { clientHellos };
  const first = events.find((e) => e.kind === 'record' && e.from === 'client');
  if (first?.kind === 'record' && first.contentType === 22) facts.clientHelloRecordBytes = 5 + first.length;
  facts.helloRetry = serverHellos.find((s) => s.hello.kind === 'hello-retry-request')?.hello;
  const real = serverHellos.find((s) => s.hello.kind === 'server-hello');
  if (real) {
    facts.serverHello = real.hello;
    facts.serverShare = real.hello.serverShare;
    const after = events.filter((e) => e.seq >= real.seq - 1 && e.from === 'server');
    facts.messages = serverMessages(after.flatMap((e) => (e.kind === 'handshake' ? [e] : [])));
    const fin = after.find((e) => e.kind === 'handshake' && e.type === 20);
    if (fin) facts.serverFlightRecordBytes = after.filter((e) => e.kind === 'record' && e.seq < fin.seq).reduce((s, e) => s + 5 + e.length, 0);
  }
  return facts;
}

// ---------------------------------------------------------------- QUIC

export interface WireDatagram {
  from: 'client' | 'server';
  bytes: number;
  packets: z.infer<typeof QuicPacketOut>[];
}

/** The wire as the client saw it: what it sent and what it received, in order. */
export function clientView(events: QuicEvent[]): WireDatagram[] {
  return events.flatMap((e) =>
    e.kind === 'datagram' && e.side === 'client'
      ? [{ from: e.dir === 'sent' ? ('client' as const) : ('server' as const), bytes: e.bytes, packets: e.packets }]
      : [],
  );
}

export function flights(wire: WireDatagram[]): { from: 'client' | 'server'; datagrams: number; bytes: number; packetTypes: string[] }[] {
  const out: { from: 'client' | 'server'; datagrams: number; bytes: number; packetTypes: string[] }[] = [];
  for (const d of wire) {
    let last = out[out.length - 1];
    if (!last || last.from !== d.from) out.push((last = { from: d.from, datagrams: 0, bytes: 0, packetTypes: [] }));
    last.datagrams++;
    last.bytes += d.bytes;
    for (const p of d.packets) if (!last.packetTypes.includes(p.type)) last.packetTypes.push(p.type);
  }
  return out;
}

/** RFC 9000 8.1 as observed: until the server receives a client Handshake packet (or sends a Retry), every prefix of its bytes stays within 3x. */
export function amplification(wire: WireDatagram[], factor = 3): { serverBytesBeforeValidation: number; respected: boolean } {
  let client = 0;
  let server = 0;
  let respected = true;
  for (const d of wire) {
    if (d.from === 'client') {
      if (d.packets.some((p) => p.type === 'handshake')) break; // the server has now validated the address
      client += d.bytes;
    } else if (d.packets.every((p) => p.type === 'retry')) {
      break; // the client's next Initial carries the token: its address counts as validated
    } else {
      server += d.bytes;
      if (server > factor * client) respected = false;
    }
  }
  return { serverBytesBeforeValidation: server, respected };
}

/** Packet number lengths seen in unprotected headers (RFC 9000 17.2: the low two bits + 1). */
export function packetNumberLengths(events: QuicEvent[]): { client: number[]; server: number[] } {
  const seen = { client: new Set<number>(), server: new Set<number>() };
  for (const e of events) if (e.kind === 'packet' && e.side === 'client') seen[e.dir === 'sent' ? 'client' : 'server'].add((e.firstByte & 3) + 1);
  return { client: [...seen.client].sort(), server: [...seen.server].sort() };
}

export function quicHellos(events: QuicEvent[]): { client?: ParsedHello; server: { type: number; length: number }[] } {
  const ch = events.find((e) => e.kind === 'handshake' && e.side === 'client' && e.type === 1);
  const server = events.flatMap((e) => (e.kind === 'handshake' && e.side === 'server' ? [{ type: e.type, length: e.length }] : []));
  if (ch?.kind === 'handshake' && !ch.hex) throw new Error('quic_sizes: the ClientHello event has no bytes');
  return { ...(ch?.kind === 'handshake' ? { client: parseHello(ch.hex!) } : {}), server };
}
