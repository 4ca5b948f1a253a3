// npm run mtu [-- --out data/mtu --host-id <name> --versions 3.4.1,3.5.7 --no-wait]
// Measures every cached default build of the catalogue versions below and writes data/mtu/<host>.json.
// Sizes only, no timing: it runs one configuration at a time and takes a few minutes.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MtuResults, type Build } from '../../schema/index.ts';
import type { ClientHelloEntry, HelloRetryEntry, QuicHandshakeEntry, ServerFlightEntry } from '../../schema/mtu.ts';
import { findCached } from '../build/cache.ts';
import { commandLine } from '../cli.ts';
import { describeHost, hostId } from '../host.ts';
import { lockHostForMeasurement } from '../host-lock.ts';
import { harnessInfo } from '../run/identity.ts';
import { hostEvidence, summarizeEvidence } from '../quiet/evidence.ts';
import { clientHelloEntry, helloRetryEntry, quicHandshakeEntry, serverFlightEntry, type Config } from './entries.ts';
import { OPENSSL_ASSUMPTIONS, planClientInitials } from './model.ts';
import { runQuicSizes, runTlsSizes } from './probe.ts';
import { ASSUMPTION_SOURCES, MODEL_DESCRIPTION, REFERENCES } from './references.ts';

export const VERSIONS = ['1.1.1w', '3.0.22', '3.1.4', '3.2.1', '3.3.2', '3.4.1', '3.5.7', '3.6.3', '4.0.3'];
const same = (id: string, label: string, groups: string): Config => ({ id, label, clientGroups: groups, serverGroups: groups.replaceAll('*', '') });
export const CONFIGS: Config[] = [
  same('default', 'library default', 'default'),
  same('x25519', 'X25519', 'X25519'),
  same('x25519mlkem768', 'X25519MLKEM768 alone', 'X25519MLKEM768'),
  same('x25519mlkem768-x25519-one-share', 'X25519MLKEM768:X25519 as written (one key share)', 'X25519MLKEM768:X25519'),
  same('x25519mlkem768-x25519-two-shares', 'X25519MLKEM768 + X25519 key shares (* prefix, 3.5+ syntax)', '*X25519MLKEM768:*X25519'),
  same('secp256r1mlkem768', 'SecP256r1MLKEM768', 'SecP256r1MLKEM768'),
  same('mlkem768', 'MLKEM768 (pure ML-KEM)', 'MLKEM768'),
  same('mlkem1024', 'MLKEM1024 (pure ML-KEM)', 'MLKEM1024'),
];
const CERTS = ['rsa2048', 'ecdsa-p256', 'mldsa65'] as const;
/** server flights for every certificate under these client configurations */
const FLIGHT_CONFIGS = ['default', 'x25519', 'x25519mlkem768'];
export const RETRY_CASES: Config[] = [
  { id: 'default-vs-p256', label: 'client default, server allows only P-256', clientGroups: 'default', serverGroups: 'P-256' },
  { id: 'default-vs-mlkem768', label: 'client default, server allows only MLKEM768', clientGroups: 'default', serverGroups: 'MLKEM768' },
  {
    id: 'hybrid-share-vs-x25519',
    label: 'client X25519MLKEM768:X25519 (one share), server allows only X25519',
    clientGroups: 'X25519MLKEM768:X25519',
    serverGroups: 'X25519',
  },
  {
    id: 'two-shares-vs-x25519',
    label: 'client sends X25519MLKEM768 and X25519 shares, server allows only X25519',
    clientGroups: '*X25519MLKEM768:*X25519',
    serverGroups: 'X25519',
  },
  {
    id: 'x25519-share-vs-hybrid',
    label: 'client X25519:X25519MLKEM768 (one share), server allows only X25519MLKEM768',
    clientGroups: 'X25519:X25519MLKEM768',
    serverGroups: 'X25519MLKEM768',
  },
];
const QUIC_CONFIGS = ['default', 'x25519'];

async function measureBuild(
  build: { record: Build; prefix: string },
  log: (m: string) => void,
): Promise<{ ch: ClientHelloEntry[]; sf: ServerFlightEntry[]; hr: HelloRetryEntry[]; qh: QuicHandshakeEntry[] }> {
  const ref = { buildId: build.record.id, version: build.record.version };
  const ch: ClientHelloEntry[] = [];
  const sf: ServerFlightEntry[] = [];
  const hr: HelloRetryEntry[] = [];
  const qh: QuicHandshakeEntry[] = [];
  for (const config of CONFIGS) {
    log(`${ref.version} ClientHello ${config.id}`);
    const tls = await runTlsSizes(build, config.clientGroups, config.serverGroups, 'ecdsa-p256');
    const quic = await runQuicSizes(build, ['client-only', config.clientGroups]);
    const entry = clientHelloEntry(ref, config, tls, quic);
    ch.push(entry);
    if (!FLIGHT_CONFIGS.includes(config.id)) continue;
    // the budget is 3x this version's client first flight for the same groups, as the model packs it
    const hello = entry.quic ?? entry.tcp;
    const clientBytes = hello ? (d: number) => planClientInitials(hello.messageBytes, d).bytesSent : undefined;
    for (const cert of CERTS) {
      log(`${ref.version} server flight ${config.id} ${cert}`);
      const out = cert === 'ecdsa-p256' ? tls : await runTlsSizes(build, config.clientGroups, config.serverGroups, cert);
      sf.push(serverFlightEntry(ref, config, cert, out, clientBytes));
    }
  }
  for (const config of RETRY_CASES) {
    log(`${ref.version} HelloRetryRequest ${config.id}`);
    hr.push(helloRetryEntry(ref, config, await runTlsSizes(build, config.clientGroups, config.serverGroups, 'ecdsa-p256')));
  }
  for (const id of QUIC_CONFIGS) {
    const config = CONFIGS.find((c) => c.id === id)!;
    for (const cert of CERTS)
      for (const retry of id === 'default' ? [false, true] : [false]) {
        log(`${ref.version} QUIC handshake ${id} ${cert}${retry ? ' retry' : ''}`);
        const args = ['handshake', config.clientGroups, cert, retry ? 'retry' : 'no-retry'];
        const entry = quicHandshakeEntry(ref, config, cert, retry, await runQuicSizes(build, args));
        if (entry.status === 'measured') {
          // timers run on the real clock: say whether the flights come out the same a second time
          const again = quicHandshakeEntry(ref, config, cert, retry, await runQuicSizes(build, args));
          const shape = (e: QuicHandshakeEntry) => JSON.stringify(e.flights?.map((f) => [f.from, f.datagrams, f.bytes]));
          entry.flightsReproduced = shape(entry) === shape(again);
        }
        qh.push(entry);
      }
  }
  return { ch, sf, hr, qh };
}

/** Notes that follow from the QUIC handshakes measured, worded from the data. */
export function observations(qh: QuicHandshakeEntry[]): string[] {
  const out: string[] = [];
  const measured = qh.filter((e) => e.status === 'measured');
  const short = measured.filter((e) => (e.shortInitialDatagrams?.server ?? 0) > 0);
  if (short.length > 0) {
    const sizes = [
      ...new Set(
        short.flatMap((e) =>
          e.datagrams!.filter((d) => d.from === 'server' && d.bytes < 1200 && d.packets.some((p) => p.type === 'initial')).map((d) => d.bytes),
        ),
      ),
    ];
    out.push(
      `In ${short.length} of ${measured.length} QUIC handshakes (${[...new Set(short.map((e) => e.version))].join(', ')}) the server sent a datagram carrying an Initial packet that was shorter than 1200 bytes (${sizes.join(', ')} bytes), where RFC 9000 14.1 asks for at least 1200 when the Initial is ack-eliciting. The model pads such datagrams to 1200, so its server bytes differ from these runs by that amount.`,
    );
  }
  const retried = measured.filter((e) => e.retry);
  if (retried.length > 0) {
    const extra = retried.filter((e) => (e.clientFlightsToFinished ?? 0) > 3).length;
    const unstable = retried.filter((e) => e.flightsReproduced === false).length;
    out.push(
      `With Retry (address validation by token), ${extra} of ${retried.length} of these in-process handshakes needed more than the one extra round trip a Retry costs (clientFlightsToFinished > 3): after the Retry, client and server exchanged single Initial datagrams once or twice more before the server sent the flight that carried Handshake packets (see their flights). In ${unstable} of ${retried.length} a second run gave different flights (flightsReproduced), so these counts depend on timers. The cause was not investigated and may differ over a real network. The 3x limit no longer applies after a valid token; congestion control (RFC 9002 7.2) bounds the server instead.`,
    );
  }
  return out;
}

const HELP = `usage: npm run mtu -- [--out DIR] [--host-id NAME] [--versions 3.4.1,3.5.7] [--no-wait]

Measures, on every cached default build of the listed versions (default: ${VERSIONS.join(', ')}), the
sizes that decide whether a TLS or QUIC handshake fits a path's MTU (ClientHello, server flight,
HelloRetryRequest, QUIC Initial datagrams) and writes DIR/<machine>.json (default data/mtu). Sizes only,
no timing; holds the host's measurement lock (--no-wait: fail if another measurement has it).
  --host-id NAME   the name of this machine (default $OBSERVATORY_HOST_ID or the hostname)`;

async function main(): Promise<void> {
  const { values, positionals, fail } = commandLine('mtu', HELP, {
    out: { type: 'string', default: join('data', 'mtu') },
    'host-id': { type: 'string' },
    versions: { type: 'string' },
    'no-wait': { type: 'boolean' },
  });
  if (positionals.length) fail(`takes no arguments, not ${positionals.join(' ')}`);
  // measuring: hold the host lock (runner/host-lock.ts); --no-wait fails if another measurement has it
  await lockHostForMeasurement(`npm run mtu -- ${process.argv.slice(2).join(' ')}`.trim(), values['no-wait'] === true);
  const versions = values.versions ? values.versions.split(',') : VERSIONS;
  const host = describeHost(hostId(values['host-id']));
  const log = (m: string) => process.stderr.write(`mtu: ${m}\n`);
  const builds: Build[] = [];
  const notes: string[] = [];
  const results = { ch: [] as ClientHelloEntry[], sf: [] as ServerFlightEntry[], hr: [] as HelloRetryEntry[], qh: [] as QuicHandshakeEntry[] };
  // sizes are deterministic, but the file says how quiet the host was, as every measurement does
  const evidence = hostEvidence({ exclusive: true, settleSeconds: 30 });
  const quietBefore = await evidence.before(log);
  const measuring = evidence.sample();
  for (const v of versions) {
    const build = findCached(v, 'default');
    if (!build) {
      notes.push(`OpenSSL ${v}: no cached build when this file was written; not measured.`);
      log(`${v}: not built, skipped`);
      continue;
    }
    builds.push(build.record);
    const r = await measureBuild(build, log);
    results.ch.push(...r.ch);
    results.sf.push(...r.sf);
    results.hr.push(...r.hr);
    results.qh.push(...r.qh);
  }
  if (builds.length === 0) throw new Error(`none of ${versions.join(', ')} is built: run npm run openssl -- build <version>`);
  const quiet = summarizeEvidence(evidence.thresholds, evidence.exclusive, quietBefore, [evidence.round(measuring, 1)], [1]);
  notes.push(
    'Certificates are minimal (a leaf with one subjectAltName, signed by an intermediate of the same algorithm; the server sends both, never the root). Real chains carry SCTs, AIA and policies and are larger, so the server flights here are lower bounds.',
    'Sizes come from one handshake per configuration. ClientHello sizes are deterministic for a version and configuration; certificate and signature sizes of ECDSA vary by a byte or two between runs (DER encoding of the signature).',
    'OpenSSL’s QUIC client and server sent datagrams of at most 1200 bytes in every run here; the 1472-byte plans are the model only.',
    'QUIC handshakes run in one process over a datagram BIO pair: each side in turn handles everything it has received, so a flight is what one side sends per round trip. There is no network delay or loss; timers still run on the real clock.',
    ...observations(results.qh),
  );
  const file = MtuResults.parse({
    schemaVersion: 1,
    kind: 'mtu-analysis',
    generatedAt: new Date().toISOString(),
    host,
    harness: harnessInfo(),
    quiet,
    builds,
    unit: 'bytes',
    method: 'wire-bytes',
    references: REFERENCES,
    model: {
      description: MODEL_DESCRIPTION,
      maxDatagramSizes: [1200, 1472],
      assumptions: Object.entries(OPENSSL_ASSUMPTIONS).map(([name, value]) => ({
        name,
        value,
        unit: ASSUMPTION_SOURCES[name]!.unit,
        source: ASSUMPTION_SOURCES[name]!.source,
      })),
    },
    clientHellos: results.ch,
    serverFlights: results.sf,
    helloRetries: results.hr,
    quicHandshakes: results.qh,
    notes,
  });
  mkdirSync(values.out, { recursive: true });
  const path = join(values.out, `${host.id}.json`);
  writeFileSync(`${path}.tmp`, JSON.stringify(file, null, 1) + '\n');
  renameSync(`${path}.tmp`, path);
  log(`wrote ${path}: ${builds.length} builds, ${results.ch.length} ClientHellos, ${results.sf.length} server flights, ${results.qh.length} QUIC handshakes`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e: Error) => {
    process.stderr.write(`mtu: ${e.message}\n`);
    process.exit(1);
  });
}
