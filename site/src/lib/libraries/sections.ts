// What the libraries page shows: its measures (one table each) and the figures it opens with.
import type { Entry } from '../model.ts';
import { pct, verdictWords } from '../format.ts';
import { BULK_KEY, handshakeKey } from '../reference-keys.ts';
import { paramOf as p } from './words.ts';

/** The measures the page shows, in reading order: which entries belong to each. */
export const SECTIONS: { id: string; title: string; about: string; match: (e: Entry) => boolean }[] = [
  {
    id: 'cpu',
    title: 'Handshake CPU time, per side',
    about: 'CPU time each side spends per handshake, client and server in one process on one thread each, over memory BIOs (lower is better).',
    match: (e) =>
      e.benchmark === 'handshake' &&
      e.metric === 'cpu-per-handshake' &&
      (p(e, 'side') === 'client' || p(e, 'side') === 'server') &&
      (p(e, 'threads') ?? '1') === '1',
  },
  {
    id: 'threads',
    title: 'Thread scaling with one shared SSL_CTX',
    about:
      'Handshakes per wall-clock second of all threads together, and CPU time per handshake and side, as 1, 2 and 4 threads share one client and one server SSL_CTX (each thread runs both sides of its own connections). This host has two cores: more than two threads cannot add throughput, and contention of the size a many-core server sees cannot appear (higher handshakes per second and lower CPU are better).',
    match: (e) =>
      e.benchmark === 'handshake' &&
      (e.metric === 'handshakes-per-second-wall' || (e.metric === 'cpu-per-handshake' && p(e, 'side') !== 'both')) &&
      (p(e, 'clientCtx') ?? 'shared') === 'shared',
  },
  {
    id: 'instructions',
    title: 'Instructions per handshake',
    about: 'Instructions retired per handshake, counted deterministically (lower is better).',
    match: (e) => e.benchmark === 'handshake' && e.metric === 'instructions-per-handshake',
  },
  {
    id: 'heap',
    title: 'Heap per connection',
    about:
      'Heap bytes held per live connection after the handshake (the client’s after its SSL_read of what follows the handshake, too), counted through the library’s allocator hooks (lower is better).',
    match: (e) => e.benchmark === 'handshake' && e.metric === 'heap-per-connection',
  },
  {
    id: 'ctx',
    title: 'SSL_CTX_new',
    about: 'CPU time of one SSL_CTX_new call, what a client pays when it creates a context per connection (lower is better).',
    match: (e) => e.benchmark === 'handshake' && e.metric === 'ssl-ctx-new',
  },
  {
    id: 'clienthello',
    title: 'ClientHello size with the default groups',
    about: 'Size of the first ClientHello when the application leaves the groups to the library: what each library sends by default.',
    match: (e) => e.benchmark === 'handshake' && e.metric === 'clienthello-bytes' && p(e, 'clientGroups') === 'default',
  },
  {
    id: 'aead',
    title: 'AEAD throughput',
    about:
      'Bytes of payload sealed per second of the measuring thread’s CPU time, through the EVP AEAD interface (higher is better); the wall-clock series are in the downloads.',
    match: (e) => e.benchmark === 'aead' && e.method.startsWith('cpu-time'),
  },
];

/**
 * The figures the page opens with: the same work on every library (TLS 1.3, ECDSA P-256, X25519 pinned on both
 * sides, so no library's default groups change what is measured), per side, in instructions, and bulk AES-GCM.
 */
export const GLANCE: { id: string; key: string; title: string; unit: string; scale: number }[] = [
  {
    id: 'server-cpu',
    key: handshakeKey('cpu-per-handshake', 'server'),
    title: 'Server CPU time per full TLS 1.3 handshake (ECDSA P-256, X25519)',
    unit: 'µs per handshake',
    scale: 1,
  },
  {
    id: 'client-cpu',
    key: handshakeKey('cpu-per-handshake', 'client'),
    title: 'Client CPU time per full TLS 1.3 handshake (ECDSA P-256, X25519)',
    unit: 'µs per handshake',
    scale: 1,
  },
  {
    id: 'instructions',
    key: handshakeKey('instructions-per-handshake', 'both'),
    title: 'Instructions per full TLS 1.3 handshake, both sides (ECDSA P-256, X25519; deterministic count)',
    unit: 'million instructions',
    scale: 1e-6,
  },
  { id: 'aes-gcm', key: BULK_KEY, title: 'AES-128-GCM seal of 16 KiB records, payload per second of CPU time', unit: 'MB/s', scale: 1e-6 },
];

/** A bar's comparison with OpenSSL in a few words: the change where the run shows one, else why there is none. */
export function glanceNote(c: NonNullable<Entry['vsOpenSSL']>, higherIsBetter: boolean): string {
  if (c.verdict === 'higher' || c.verdict === 'lower') return `${pct(c.ratio)} vs ${c.against}, ${verdictWords(c, higherIsBetter)}`;
  if (c.verdict === 'within-threshold') return `${pct(c.ratio)} vs ${c.against}, within the threshold`;
  if (c.verdict === 'no-difference-shown') return `no difference shown vs ${c.against}`;
  return `too few rounds to compare with ${c.against}`;
}
