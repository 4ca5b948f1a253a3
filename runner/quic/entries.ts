// From the programs' output to the entries of data/mtu/<host>.json. Pure functions: the tests feed
// them captured output (fixtures/) as well as live runs.
import type { z } from 'zod';
import type { ClientHelloEntry, GroupConfig, HelloRetryEntry, QuicHandshakeEntry, ServerFlightEntry } from '../../schema/mtu.ts';
import { OPENSSL_ASSUMPTIONS, planClientInitials, planServerFlight, type ModelAssumptions } from './model.ts';
import {
  amplification,
  clientView,
  flights,
  packetNumberLengths,
  quicHellos,
  serverMessages,
  strip,
  tlsFacts,
  type QuicSizesOutput,
  type TlsSizesOutput,
} from './probe.ts';

export type Config = z.infer<typeof GroupConfig>;
export interface BuildRef {
  buildId: string;
  version: string;
}
export const DATAGRAM_SIZES = [1200, 1472];

const clean = (s: string) => s.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, 2900);

export function clientHelloEntry(
  b: BuildRef,
  config: Config,
  tls: TlsSizesOutput,
  quic: QuicSizesOutput | undefined,
  a: ModelAssumptions = OPENSSL_ASSUMPTIONS,
): ClientHelloEntry {
  const base = { ...b, config };
  if (tls.status === 'unsupported') return { ...base, status: 'unsupported', reason: clean(tls.reason ?? 'unsupported') };
  const facts = tlsFacts(tls);
  const ch = facts.clientHellos[0];
  if (!ch) return { ...base, status: 'failed', reason: clean(`no ClientHello was written: ${tls.reason ?? ''}`) };
  const entry: ClientHelloEntry = {
    ...base,
    status: 'measured',
    ...(tls.status === 'failed' ? { reason: clean(`the handshake itself failed after the ClientHello: ${tls.reason ?? ''}`) } : {}),
    tcp: strip(ch),
    ...(facts.clientHelloRecordBytes !== undefined ? { tcpRecordBytes: facts.clientHelloRecordBytes } : {}),
    ...(facts.serverShare ? { negotiatedGroup: facts.serverShare.group } : {}),
  };
  if (quic) {
    entry.quicStatus = quic.status === 'ok' ? 'measured' : quic.status;
    if (quic.status !== 'ok') entry.quicReason = clean(quic.reason ?? quic.status);
    else {
      const events = quic.events ?? [];
      const hello = quicHellos(events).client;
      if (!hello) {
        entry.quicStatus = 'failed';
        entry.quicReason = 'the QUIC client wrote no ClientHello';
      } else {
        entry.quic = strip(hello);
        const sent = clientView(events).filter((d) => d.from === 'client');
        const plan1200 = planClientInitials(hello.messageBytes, 1200, a);
        entry.measuredFirstFlight = {
          datagrams: sent.length,
          datagramBytes: sent.map((d) => d.bytes),
          initialPackets: sent.reduce((n, d) => n + d.packets.filter((p) => p.type === 'initial').length, 0),
          bytesSent: sent.reduce((n, d) => n + d.bytes, 0),
          matchesModelAt1200: JSON.stringify(sent.map((d) => d.bytes)) === JSON.stringify(plan1200.datagramBytes),
        };
      }
    }
  }
  const input = entry.quic ?? entry.tcp!;
  entry.modelInput = entry.quic ? 'quic' : 'tcp';
  entry.plans = DATAGRAM_SIZES.map((d) => planClientInitials(input.messageBytes, d, a));
  return entry;
}

/** clientPlans: the same version and configuration's client first flight at each datagram size. */
export function serverFlightEntry(
  b: BuildRef,
  config: Config,
  cert: ServerFlightEntry['cert'],
  tls: TlsSizesOutput,
  clientBytes: ((maxDatagram: number) => number) | undefined,
  a: ModelAssumptions = OPENSSL_ASSUMPTIONS,
): ServerFlightEntry {
  const base = { ...b, config, cert };
  if (tls.status === 'unsupported') return { ...base, status: 'unsupported', reason: clean(tls.reason ?? 'unsupported') };
  if (tls.status === 'failed') return { ...base, status: 'failed', reason: clean(tls.reason ?? 'failed') };
  const facts = tlsFacts(tls);
  if (!facts.messages || !facts.serverShare) return { ...base, status: 'failed', reason: 'the server flight was incomplete in the callback record' };
  const entry: ServerFlightEntry = {
    ...base,
    status: 'measured',
    ...(tls.chain ? { chain: tls.chain } : {}),
    messages: facts.messages,
    serverShare: facts.serverShare,
    negotiatedGroup: facts.serverShare.group,
    ...(facts.serverFlightRecordBytes !== undefined ? { tcpFlightBytes: facts.serverFlightRecordBytes } : {}),
  };
  if (clientBytes) {
    entry.modelInput = 'tcp';
    entry.clientBytesForBudget = clientBytes(1200);
    entry.plans = DATAGRAM_SIZES.map((d) => planServerFlight(facts.messages!.serverHello, facts.messages!.handshakeLevelBytes, clientBytes(d), d, a));
  }
  return entry;
}

export function helloRetryEntry(b: BuildRef, config: Config, tls: TlsSizesOutput): HelloRetryEntry {
  const base = { ...b, config };
  if (tls.status === 'unsupported') return { ...base, status: 'unsupported', reason: clean(tls.reason ?? 'unsupported') };
  const facts = tlsFacts(tls);
  if (facts.clientHellos.length === 0) return { ...base, status: 'failed', reason: clean(tls.reason ?? 'no ClientHello') };
  const hrr = facts.helloRetry !== undefined;
  return {
    ...base,
    status: 'measured',
    handshakeCompleted: tls.status === 'ok',
    ...(tls.status === 'failed' ? { libraryError: clean(tls.reason ?? '') } : {}),
    helloRetryRequest: hrr,
    clientHelloBytes: facts.clientHellos.map((c) => c.messageBytes),
    ...(hrr ? { helloRetryRequestBytes: facts.helloRetry!.messageBytes } : {}),
    firstKeyShares: facts.clientHellos[0]!.keyShares,
    ...(facts.clientHellos[1] ? { retryKeyShares: facts.clientHellos[1].keyShares } : {}),
    ...(facts.serverShare ? { negotiatedGroup: facts.serverShare.group } : {}),
    extraRoundTrips: hrr ? 1 : 0,
  };
}

export function quicHandshakeEntry(
  b: BuildRef,
  config: Config,
  cert: QuicHandshakeEntry['cert'],
  retry: boolean,
  out: QuicSizesOutput,
  a: ModelAssumptions = OPENSSL_ASSUMPTIONS,
): QuicHandshakeEntry {
  const base = { ...b, config, cert, retry };
  if (out.status !== 'ok') return { ...base, status: out.status, reason: clean(out.reason ?? out.status) };
  const events = out.events ?? [];
  const wire = clientView(events);
  const hellos = quicHellos(events);
  const messages = serverMessages(hellos.server);
  const fl = flights(wire);
  const amp = amplification(wire, a.amplificationFactor);
  const finIndex = events.findIndex((e) => e.kind === 'handshake' && e.side === 'client' && e.type === 20);
  const wireBeforeFin = clientView(events.slice(0, finIndex < 0 ? events.length : finIndex));
  const entry: QuicHandshakeEntry = {
    ...base,
    status: 'measured',
    ...(hellos.client ? { clientHelloBytes: hellos.client.messageBytes } : {}),
    ...(messages ? { serverMessages: messages } : {}),
    datagrams: wire.map((d) => ({ from: d.from, bytes: d.bytes, packets: d.packets.map(({ lengthField: _l, headerToLength: _h, ...p }) => p) })),
    flights: fl,
    clientFirstFlightBytes: fl[0]?.from === 'client' ? fl[0].bytes : 0,
    serverBytesBeforeValidation: amp.serverBytesBeforeValidation,
    amplificationLimitRespected: amp.respected,
    // the flight carrying the client's Finished starts after the last datagram before it
    clientFlightsToFinished: flights(wireBeforeFin).filter((f) => f.from === 'client').length + (wireBeforeFin.at(-1)?.from === 'server' ? 1 : 0),
    packetNumberBytes: packetNumberLengths(events),
    shortInitialDatagrams: {
      client: wire.filter((d) => d.from === 'client' && d.bytes < 1200 && d.packets.some((p) => p.type === 'initial')).length,
      server: wire.filter((d) => d.from === 'server' && d.bytes < 1200 && d.packets.some((p) => p.type === 'initial')).length,
    },
  };
  if (!retry && hellos.client && messages && fl[0]?.from === 'client' && fl[1]?.from === 'server') {
    const c = planClientInitials(hellos.client.messageBytes, 1200, a);
    const s = planServerFlight(messages.serverHello, messages.handshakeLevelBytes, c.bytesSent, 1200, a);
    const expected = s.fitsBudget ? s.bytes : s.bytesWithinBudget;
    const expectedDatagrams = s.fitsBudget ? s.datagrams : s.datagramsWithinBudget;
    const agrees = c.packets === fl[0].datagrams && c.bytesSent === fl[0].bytes && expected === fl[1].bytes && expectedDatagrams === fl[1].datagrams;
    const what = s.fitsBudget
      ? `the whole server flight (${s.bytes} bytes in ${s.datagrams} datagrams) fits 3 x ${c.bytesSent}`
      : `the server flight (${s.bytes} bytes) exceeds 3 x ${c.bytesSent} = ${s.budgetBytes}: it can send ${s.bytesWithinBudget} bytes in ${s.datagramsWithinBudget} datagrams, then must wait for the client`;
    const measured = `measured: client ${fl[0].datagrams} datagrams / ${fl[0].bytes} bytes, then server ${fl[1].datagrams} datagrams / ${fl[1].bytes} bytes`;
    const short = entry.shortInitialDatagrams?.server ?? 0;
    const why = agrees ? '' : short > 0 ? `; the server sent ${short} datagram(s) carrying an Initial packet below 1200 bytes (see shortInitialDatagrams)` : '';
    entry.model = {
      clientDatagrams: c.packets,
      clientBytes: c.bytesSent,
      serverDatagrams: expectedDatagrams,
      serverBytes: expected,
      agrees,
      note: `model: ${what}; ${measured}${why}`,
    };
  }
  return entry;
}
