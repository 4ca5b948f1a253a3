// What the parameters of a series mean, in the words a reader uses: one place for the runner's series
// labels and every page of the site. A parameter value without words here is shown as it is.

const CERT_NAMES: Record<string, string> = { rsa2048: 'RSA-2048', 'ecdsa-p256': 'ECDSA P-256', mldsa65: 'ML-DSA-65' };
/** A certificate key as a reader names it: "ecdsa-p256" -> "ECDSA P-256". */
export const certName = (cert: string): string => CERT_NAMES[cert] ?? cert;

/** A cipher as a reader names it: "aes-128-gcm" -> "AES-128-GCM", "chacha20-poly1305" -> "ChaCha20-Poly1305". */
export const algorithmName = (a: string): string => a.toUpperCase().replace('CHACHA', 'ChaCha').replace('POLY', 'Poly');

/** The key-exchange groups both sides offer: "default groups" (the library's own), "groups X25519", or each side's. */
export function groupsWords(client: string | undefined, server: string | undefined): string {
  const one = (g: string) => (g === 'default' ? 'default groups' : `groups ${g}`);
  if (client === undefined && server === undefined) return '';
  if (server === undefined || client === server) return one(client!);
  if (client === undefined) return `server ${one(server)}`;
  return `client ${one(client)}, server ${one(server)}`;
}

const RESUME_WORDS: Record<string, string> = { none: 'full handshake', ticket: 'resumed with a ticket', 'session-id': 'resumed by session ID' };
/** How a connection starts: a full handshake or a resumption. */
export const resumeWords = (resume: string): string => RESUME_WORDS[resume] ?? `resumed (${resume})`;

/** The client's SSL_CTX: shared by every connection (what servers and most clients do) or new for each. */
export const clientCtxWords = (ctx: string): string =>
  ctx === 'shared' ? 'one shared client SSL_CTX' : ctx === 'per-connection' ? 'a new client SSL_CTX per connection' : `client SSL_CTX ${ctx}`;

const ORDER = ['proto', 'cert', 'cipher', 'algorithm', 'groups', 'resume', 'clientCtx', 'bytes', 'layer', 'function', 'side', 'threads'];

/**
 * A configuration in words, in reading order ("TLS 1.3", "ECDSA P-256 certificate", "default groups", "full
 * handshake", ...); parameters listed in `omit` (what a title already says) left out, unknown ones as k=v.
 */
export function paramWords(params: Readonly<Record<string, unknown>>, omit: readonly string[] = []): string[] {
  const get = (k: string) => (omit.includes(k) || params[k] === undefined || params[k] === null ? undefined : String(params[k]));
  const parts: { k: string; text: string }[] = [];
  const add = (k: string, text: string) => parts.push({ k, text });
  for (const [k, v] of Object.entries(params)) {
    const value = get(k);
    if (value === undefined || v === undefined) continue;
    switch (k) {
      case 'proto':
        add(k, `TLS ${value}`);
        break;
      case 'cert':
        add(k, `${certName(value)} certificate`);
        break;
      case 'cipher':
        add(k, `cipher ${value}`);
        break;
      case 'algorithm':
        add(k, algorithmName(value));
        break;
      case 'clientGroups':
      case 'serverGroups':
        break;
      case 'resume':
        add(k, resumeWords(value));
        break;
      case 'clientCtx':
        add(k, clientCtxWords(value));
        break;
      case 'bytes':
        add(k, `${value}-byte records`);
        break;
      case 'layer':
        add(k, value === 'message' ? 'counted as a handshake message' : value === 'record' ? 'counted as a TLS record' : `${value} layer`);
        break;
      case 'function':
        add(k, value === 'all' ? 'all functions' : `inside ${value}`);
        break;
      case 'side':
        add(k, value === 'both' ? 'client + server' : `${value} side`);
        break;
      case 'threads':
        add(k, value === '1' ? '1 thread' : `${value} threads`);
        break;
      default:
        add(k, `${k}=${value}`);
    }
  }
  const groups = groupsWords(get('clientGroups'), get('serverGroups'));
  if (groups) add('groups', groups);
  const rank = (k: string) => ORDER.indexOf(k) + 1 || ORDER.length + 1;
  return parts.sort((a, b) => rank(a.k) - rank(b.k) || a.k.localeCompare(b.k)).map((p) => p.text);
}

/** A bisection metric id (runner/bisect/bisect-cli.ts): handshake-<instructions|heap>:<side>:<cert>:<groups>. */
export const BISECT_METRIC = /^handshake-(instructions|heap):(client|server):([a-z0-9-]+):([A-Za-z0-9:_-]+)$/;

/** What a bisection metric measures, in words; null for an id of another form. */
export function bisectMetricWords(id: string): string | null {
  const m = BISECT_METRIC.exec(id);
  if (!m) return null;
  const [, kind, side, cert, groups] = m as unknown as [string, string, string, string, string];
  const shape = `full TLS 1.3 handshake, ${certName(cert)} certificate, ${groups === 'default' ? 'default groups' : `groups ${groups}`} on both sides`;
  return kind === 'instructions'
    ? `instructions the ${side} spends per ${shape} (callgrind, fixed-seed RNG, its own SSL calls only)`
    : `heap bytes the ${side} holds per live connection after a ${shape} (CRYPTO_set_mem_functions)`;
}
