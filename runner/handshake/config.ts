// A handshake configuration of runner/handshake/handshake.c: what it is, its words in a label and its
// parameters in a series key (its command-line arguments: invoke.ts).
import type { Params } from '../../schema/index.ts';
import { certName, groupsWords, resumeWords } from '../../catalogue/words.ts';
import type { Cert } from '../certs.ts';

export type Proto = '1.2' | '1.3';
export type Resume = 'none' | 'ticket' | 'session-id';

export interface HandshakeConfig {
  proto: Proto;
  cert: Cert;
  /** "default" (the library's own list) or a list as for SSL_CTX_set1_groups_list */
  clientGroups: string;
  serverGroups: string;
  resume: Resume;
  threads: number;
  /** ctx-per-conn: the client creates and configures a new SSL_CTX for every connection */
  mode: 'handshake' | 'ctx-per-conn' | 'memory';
  cipher?: string;
  /**
   * chain (the default): the client verifies the server's leaf and intermediate up to the root CA it
   * trusts, and the leaf's name (runner/certs.ts). none: the control that verifies nothing, so that
   * chain minus none is what verification costs a library.
   */
  verify?: 'chain' | 'none';
}

export const baseConfig = (over: Partial<HandshakeConfig> = {}): HandshakeConfig => ({
  proto: '1.3',
  cert: 'ecdsa-p256',
  clientGroups: 'default',
  serverGroups: 'default',
  resume: 'none',
  threads: 1,
  mode: 'handshake',
  ...over,
});

/** The same groups on both sides. */
export const sameGroups = (groups: string) => ({ clientGroups: groups, serverGroups: groups });
/**
 * Pin one group. TLS 1.2 only allows an ECDSA certificate whose curve the client offers, so there the
 * client also offers P-256 and the server (which allows only the pinned group) makes the choice.
 */
export function pin(proto: Proto, cert: Cert, group: string): Pick<HandshakeConfig, 'clientGroups' | 'serverGroups'> {
  if (proto === '1.2' && cert === 'ecdsa-p256' && group !== 'P-256') return { clientGroups: `${group}:P-256`, serverGroups: group };
  return sameGroups(group);
}

/** "TLS 1.3 ECDSA P-256, default groups, full handshake": the configuration in a label's words (catalogue/words.ts). */
export function describeConfig(c: HandshakeConfig): string {
  const extra = [
    c.threads > 1 ? `${c.threads} threads, shared SSL_CTX` : '',
    c.mode === 'ctx-per-conn' ? 'new client SSL_CTX per connection' : '',
    c.verify === 'none' ? 'client verifies nothing (control)' : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `TLS ${c.proto} ${certName(c.cert)}, ${groupsWords(c.clientGroups, c.serverGroups)}, ${resumeWords(c.resume)}${extra ? `, ${extra}` : ''}`;
}

export function configParams(c: HandshakeConfig, side: 'client' | 'server' | 'both'): Params {
  return {
    proto: c.proto,
    cert: c.cert,
    clientGroups: c.clientGroups,
    serverGroups: c.serverGroups,
    resume: c.resume,
    threads: c.threads,
    clientCtx: c.mode === 'ctx-per-conn' ? 'per-connection' : 'shared',
    ...(c.cipher ? { cipher: c.cipher } : {}),
    // only the control names it: the chain is what every other series verifies
    ...(c.verify === 'none' ? { verify: 'none' } : {}),
    side,
  };
}
