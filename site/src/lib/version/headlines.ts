// The headline figures a version page opens with, in the order of a visitor's questions.
import { isPlainHandshake } from '../../../../runner/handshake/series.ts';
import { certName } from '../../../../catalogue/words.ts';
import type { Entry } from '../model.ts';
import { compareEntries, rank, VALUE_ORDER } from './order.ts';

export interface Headline {
  title: string;
  entry: Entry;
}

const PLAIN_HANDSHAKE = (e: Entry) => isPlainHandshake(e.params);
const groupsAre = (e: Entry, g: string) => e.params.clientGroups === g && e.params.serverGroups === g;
const CERT_PREFERENCE = VALUE_ORDER.cert!;

function pick(entries: readonly Entry[], match: (e: Entry) => boolean, prefer: (e: Entry) => number = () => 0): Entry | undefined {
  return entries.filter(match).sort((a, b) => prefer(a) - prefer(b) || compareEntries(a, b))[0];
}

const sizeText = (bytes: unknown) => (typeof bytes === 'number' ? (bytes >= 1024 && bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`) : '');
/** CPU-time methods answer "what does it cost"; prefer them over wall-clock where both exist. */
const cpuFirst = (e: Entry) => (e.method.startsWith('cpu-time') ? 0 : 1);
const largestBuffer = (e: Entry) => -(typeof e.params.bytes === 'number' ? (e.params.bytes as number) : 0);

/** The figures a version page opens with, in a fixed order (the page sorts significant changes first). */
export function headlines(entries: readonly Entry[]): { rows: Headline[]; cert: string | null } {
  const plainCpu = entries.filter((e) => e.metric === 'cpu-per-handshake' && PLAIN_HANDSHAKE(e));
  const cert =
    [...new Set(plainCpu.map((e) => String(e.params.cert)))].sort((a, b) => rank(CERT_PREFERENCE, a) - rank(CERT_PREFERENCE, b) || a.localeCompare(b))[0] ??
    null;
  const hs = (e: Entry) => PLAIN_HANDSHAKE(e) && (cert === null || e.params.cert === cert);
  const groupsPref = (e: Entry) => (groupsAre(e, 'default') ? 0 : groupsAre(e, 'X25519') ? 1 : 2);
  const groupsWords = (e: Entry) =>
    groupsAre(e, 'default') ? 'library-default groups' : groupsAre(e, 'X25519') ? 'groups pinned to X25519' : `groups ${e.params.clientGroups}`;
  const rows: Headline[] = [];
  const add = (entry: Entry | undefined, title: (e: Entry) => string) => {
    if (entry && !rows.some((r) => r.entry === entry)) rows.push({ title: title(entry), entry });
  };
  for (const groups of ['default', 'X25519'])
    for (const side of ['client', 'server'])
      add(
        pick(entries, (e) => e.metric === 'cpu-per-handshake' && hs(e) && e.params.side === side && groupsAre(e, groups)),
        (e) => `Handshake CPU time, ${side} side, ${groupsWords(e)}`,
      );
  // versions measured only by the known-issues run have its TLS 1.2 handshake, not the plain TLS 1.3 one:
  // their page opens with it and with the complaint operations (on the others, those are in the full tables)
  const knownIssuesOnly = !rows.some((r) => r.entry.metric === 'cpu-per-handshake');
  if (knownIssuesOnly)
    for (const side of ['client', 'server'])
      add(
        pick(
          entries,
          (e) =>
            e.metric === 'cpu-per-handshake' &&
            e.params.resume === 'none' &&
            e.params.threads === 1 &&
            e.params.clientCtx === 'shared' &&
            e.params.side === side &&
            groupsAre(e, 'default'),
        ),
        (e) =>
          `Handshake CPU time, ${side} side, TLS ${e.params.proto}${e.params.cipher ? ` ${e.params.cipher}` : ''}, ${certName(String(e.params.cert))} certificate`,
      );
  // in the order of a visitor's questions: CPU per side (above), handshakes per second, bulk, heap, bytes, instructions
  add(
    pick(entries, (e) => e.metric === 'handshakes-per-cpu-second' && hs(e), groupsPref),
    (e) => `Handshakes per CPU-second, client + server, ${groupsWords(e)}`,
  );
  const bulk = () => {
    for (const [algorithm, name] of [
      ['aes-128-gcm', 'AES-128-GCM'],
      ['chacha20-poly1305', 'ChaCha20-Poly1305'],
    ])
      add(
        pick(
          entries,
          (e) => e.benchmark === 'aead' && e.params.algorithm === algorithm,
          (e) => cpuFirst(e) * 1e9 + largestBuffer(e),
        ),
        (e) => `${name} seal, ${sizeText(e.params.bytes)} records`,
      );
  };
  if (rows.length) bulk();
  for (const side of ['client', 'server'])
    add(
      pick(entries, (e) => e.metric === 'heap-per-connection' && hs(e) && e.params.side === side, groupsPref),
      (e) => `Heap per connection, ${side} side, ${groupsWords(e)}`,
    );
  for (const side of ['client', 'server'])
    add(
      pick(entries, (e) => e.metric === 'bytes-sent' && hs(e) && e.params.side === side, groupsPref),
      (e) => `Bytes sent per handshake, ${side} side, ${groupsWords(e)}`,
    );
  add(
    pick(entries, (e) => e.metric === 'instructions-per-handshake' && hs(e), groupsPref),
    (e) => `Instructions per handshake, both sides, ${groupsWords(e)}`,
  );
  add(
    pick(entries, (e) => e.metric === 'ssl-ctx-new'),
    () => 'SSL_CTX_new, one call',
  );
  // the known-issues operations (issue 16), CPU time per call or record, on pages without the handshake figures
  const op = (id: string, title: (e: Entry) => string) => {
    if (knownIssuesOnly)
      add(
        pick(entries, (e) => e.benchmark === 'known-issues' && e.metric === 'cpu-per-op' && e.params.op === id),
        title,
      );
  };
  op('pkey-pem', () => 'Decoding an RSA-2048 private key, PKCS#8 PEM');
  op('pkey-der', () => 'Decoding an RSA-2048 private key, PKCS#8 DER');
  op('x509-der', () => 'Decoding a certificate (d2i_X509)');
  op('ca-bundle', (e) => `Loading a CA bundle of ${e.params.certificates} certificates`);
  if (!rows.some((r) => r.entry.metric === 'ssl-ctx-new')) op('ctx-new', () => 'SSL_CTX_new and SSL_CTX_free, one call');
  op('aead-reinit', (e) => `AES-128-GCM seal of a ${e.params.bytes}-byte record, context keyed once`);
  if (knownIssuesOnly)
    add(
      pick(
        entries,
        (e) => e.benchmark === 'known-issues' && e.metric === 'heap-per-connection' && e.params.op === 'dtls-handshake' && e.params.side === 'server',
      ),
      () => 'DTLS heap per connection, server side',
    );
  bulk();
  const speed = (metric: string, title: string, prefer?: (e: Entry) => number) =>
    add(
      pick(entries, (e) => e.benchmark === 'speed' && e.metric === metric, prefer),
      (e) => (e.params.bytes === undefined ? title : `${title}, ${sizeText(e.params.bytes)} buffers`),
    );
  speed('rsa2048-sign', 'RSA-2048 signatures');
  speed('ecdsa-p256-sign', 'ECDSA P-256 signatures');
  speed('ecdh-x25519-derive', 'X25519 key agreement');
  speed('ml-kem-768-encaps', 'ML-KEM-768 encapsulation');
  speed('ml-dsa-65-sign', 'ML-DSA-65 signatures');
  speed('sha256-digest', 'SHA-256', largestBuffer);
  return { rows, cert };
}
