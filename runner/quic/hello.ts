// Reads a ClientHello or ServerHello handshake message (RFC 8446 4.1.2, 4.1.3) as the library wrote it:
// its extensions, key shares and supported groups. Bad bytes give an error naming the field.
import type { HelloFacts, KeyShare } from '../../schema/mtu.ts';

/** IANA TLS Supported Groups registry, the code points OpenSSL 1.1.1 .. 4.0 may send. */
export const GROUP_NAMES: Record<number, string> = {
  0x0017: 'secp256r1',
  0x0018: 'secp384r1',
  0x0019: 'secp521r1',
  0x001d: 'X25519',
  0x001e: 'X448',
  0x001f: 'brainpoolP256r1tls13',
  0x0020: 'brainpoolP384r1tls13',
  0x0021: 'brainpoolP512r1tls13',
  0x0100: 'ffdhe2048',
  0x0101: 'ffdhe3072',
  0x0102: 'ffdhe4096',
  0x0103: 'ffdhe6144',
  0x0104: 'ffdhe8192',
  0x0200: 'MLKEM512',
  0x0201: 'MLKEM768',
  0x0202: 'MLKEM1024',
  0x11eb: 'SecP256r1MLKEM768',
  0x11ec: 'X25519MLKEM768',
  0x11ed: 'SecP384r1MLKEM1024',
};

const EXTENSION_NAMES: Record<number, string> = {
  0: 'server_name',
  5: 'status_request',
  10: 'supported_groups',
  11: 'ec_point_formats',
  13: 'signature_algorithms',
  16: 'alpn',
  18: 'signed_certificate_timestamp',
  21: 'padding',
  22: 'encrypt_then_mac',
  23: 'extended_master_secret',
  35: 'session_ticket',
  41: 'pre_shared_key',
  42: 'early_data',
  43: 'supported_versions',
  44: 'cookie',
  45: 'psk_key_exchange_modes',
  49: 'post_handshake_auth',
  51: 'key_share',
  57: 'quic_transport_parameters',
  65281: 'renegotiation_info',
};

export const groupName = (id: number): string => GROUP_NAMES[id] ?? `0x${id.toString(16).padStart(4, '0')}`;
export const extensionName = (type: number): string => EXTENSION_NAMES[type] ?? `unknown-${type}`;

/** SHA-256("HelloRetryRequest"), RFC 8446 4.1.3: the ServerHello random that marks a HelloRetryRequest. */
const HRR_RANDOM = 'cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c';

export class HelloParseError extends Error {}

class Reader {
  private off = 0;
  private readonly b: Uint8Array;
  private readonly what: string;
  constructor(b: Uint8Array, what: string) {
    this.b = b;
    this.what = what;
  }
  get offset(): number {
    return this.off;
  }
  take(n: number, field: string): Uint8Array {
    if (this.off + n > this.b.length)
      throw new HelloParseError(`${this.what}: ${field} needs ${n} bytes at offset ${this.off}, only ${this.b.length - this.off} left`);
    const out = this.b.subarray(this.off, this.off + n);
    this.off += n;
    return out;
  }
  u8(field: string): number {
    return this.take(1, field)[0]!;
  }
  u16(field: string): number {
    const v = this.take(2, field);
    return (v[0]! << 8) | v[1]!;
  }
  u24(field: string): number {
    const v = this.take(3, field);
    return (v[0]! << 16) | (v[1]! << 8) | v[2]!;
  }
  vec(lenBytes: 1 | 2, field: string): Uint8Array {
    const n = lenBytes === 1 ? this.u8(`${field} length`) : this.u16(`${field} length`);
    return this.take(n, field);
  }
  get left(): number {
    return this.b.length - this.off;
  }
}

export interface ParsedHello extends HelloFacts {
  kind: 'client-hello' | 'server-hello' | 'hello-retry-request';
  /** ServerHello: the server's share; HelloRetryRequest: the group it asks for (bytes 0) */
  serverShare?: KeyShare;
}

function fromHex(hex: string): Uint8Array {
  if (!/^([0-9a-f]{2})*$/i.test(hex)) throw new HelloParseError('hello bytes: not an even-length hex string');
  return Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
}

/** Parses one handshake message (with its 4-byte header) given as hex. */
export function parseHello(hex: string): ParsedHello {
  const bytes = fromHex(hex);
  const r = new Reader(bytes, 'hello');
  const type = r.u8('handshake type');
  if (type !== 1 && type !== 2) throw new HelloParseError(`hello: handshake type ${type} is neither ClientHello (1) nor ServerHello (2)`);
  const length = r.u24('handshake length');
  if (length !== r.left) throw new HelloParseError(`hello: header says ${length} bytes, message has ${r.left}`);
  r.take(2, 'legacy_version');
  const random = Buffer.from(r.take(32, 'random')).toString('hex');
  const sessionId = r.vec(1, 'legacy_session_id');
  const client = type === 1;
  if (client) {
    r.vec(2, 'cipher_suites');
    r.vec(1, 'legacy_compression_methods');
  } else {
    r.take(2, 'cipher_suite');
    r.take(1, 'legacy_compression_method');
  }
  const kind = client ? 'client-hello' : random === HRR_RANDOM ? 'hello-retry-request' : 'server-hello';
  const exts = new Reader(r.vec(2, 'extensions'), `${kind} extensions`);
  if (r.left !== 0) throw new HelloParseError(`${kind}: ${r.left} bytes after the extensions`);
  const out: ParsedHello = {
    kind,
    messageBytes: bytes.length,
    sessionIdBytes: sessionId.length,
    extensions: [],
    keyShares: [],
    supportedGroups: [],
    keyShareExtensionBytes: 0,
  };
  while (exts.left > 0) {
    const extType = exts.u16('extension type');
    const data = exts.vec(2, `extension ${extType}`);
    out.extensions.push({ type: extType, name: extensionName(extType), bytes: data.length });
    const d = new Reader(data, `${kind} ${extensionName(extType)}`);
    if (extType === 51) {
      out.keyShareExtensionBytes = data.length;
      if (kind === 'client-hello') {
        const shares = new Reader(d.vec(2, 'client_shares'), 'client_shares');
        while (shares.left > 0) {
          const groupId = shares.u16('share group');
          out.keyShares.push({ groupId, group: groupName(groupId), bytes: shares.vec(2, 'key_exchange').length });
        }
      } else if (kind === 'hello-retry-request') {
        const groupId = d.u16('selected_group');
        out.serverShare = { groupId, group: groupName(groupId), bytes: 0 };
      } else {
        const groupId = d.u16('share group');
        out.serverShare = { groupId, group: groupName(groupId), bytes: d.vec(2, 'key_exchange').length };
        out.keyShares.push(out.serverShare);
      }
    } else if (extType === 10) {
      const list = new Reader(d.vec(2, 'named_group_list'), 'named_group_list');
      while (list.left > 0) out.supportedGroups.push(groupName(list.u16('named group')));
    }
  }
  return out;
}
