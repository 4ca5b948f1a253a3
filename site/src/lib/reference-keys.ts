// The series that answer a visitor's main questions, by summary key: the reference handshake (TLS 1.3, ECDSA
// P-256, new sessions, one thread, a shared client context) per side, and bulk AEAD of 16-KiB records. Read by
// the libraries page, the recommendations and compare's default view. Pure: bundled into the compare script.

/** The reference handshake's series: the same groups on both sides (X25519 pinned unless said). */
export const handshakeKey = (metric: string, side: string, groups = 'X25519') =>
  `handshake/${metric}[cert=ecdsa-p256,clientCtx=shared,clientGroups=${groups},proto=1.3,resume=none,serverGroups=${groups},side=${side},threads=1]`;

const aeadKey = (algorithm: string) => `aead/${algorithm}-seal-cpu[aadBytes=13,algorithm=${algorithm},bytes=16384,operation=seal]`;
/** Bulk encryption: AES-128-GCM seal of 16-KiB records, payload per CPU second. */
export const BULK_KEY = aeadKey('aes-128-gcm');

const GROUPS: [string, string][] = [
  ['default', 'library defaults'],
  ['X25519', 'X25519 pinned'],
];

/**
 * Compare's default view: one row per question, grouped, the distinguishing part of each label first
 * (the group heading says what is measured).
 */
export const CURATED: { group: string; label: string; key: string }[] = [
  ...(['client', 'server'] as const).flatMap((side) =>
    GROUPS.map(([g, words]) => ({
      group: 'CPU per handshake (TLS 1.3, ECDSA P-256, new sessions)',
      label: `${side === 'client' ? 'Client' : 'Server'}, ${words}`,
      key: handshakeKey('cpu-per-handshake', side, g),
    })),
  ),
  ...GROUPS.map(([g, words]) => ({
    group: 'Handshakes per CPU second, both sides',
    label: `${words[0]!.toUpperCase()}${words.slice(1)}`,
    key: handshakeKey('handshakes-per-cpu-second', 'both', g),
  })),
  ...[
    ['aes-128-gcm', 'AES-128-GCM'],
    ['aes-256-gcm', 'AES-256-GCM'],
    ['chacha20-poly1305', 'ChaCha20-Poly1305'],
  ].map(([a, name]) => ({ group: 'Bulk encryption, 16-KiB records, per CPU second', label: name!, key: aeadKey(a!) })),
  ...(['client', 'server'] as const).map((side) => ({
    group: 'Heap per connection (X25519 pinned)',
    label: side === 'client' ? 'Client' : 'Server',
    key: handshakeKey('heap-per-connection', side),
  })),
  ...(['client', 'server'] as const).flatMap((side) =>
    GROUPS.map(([g, words]) => ({
      group: 'Bytes sent per handshake',
      label: `${side === 'client' ? 'Client' : 'Server'}, ${words}`,
      key: handshakeKey('bytes-sent', side, g),
    })),
  ),
];
