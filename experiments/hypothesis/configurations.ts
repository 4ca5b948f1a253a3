// The configurations the hypothesis test measures: what each one is, the group its claims need it to
// negotiate and the key shares its client must send (checked on what each handshake reports).
import { resolveVersion } from '../../catalogue/index.ts';
import { findCached } from '../../runner/build/cache.ts';
import type { Cert } from '../../runner/certs.ts';

export const ECDH_ONLY = 'X25519:P-256:P-384';
export const CERTS: Cert[] = ['rsa2048', 'ecdsa-p256'];

export interface ConfigDef {
  id: string;
  label: string;
  version: string;
  variant: string;
  clientGroups: string;
  serverGroups: string;
  /** the group the premise of the claims needs this configuration to negotiate */
  expectGroup: string;
  /** shares the client must send (checked on the ClientHello) */
  expectShares?: string[];
  required: boolean;
}

export function configurations(): ConfigDef[] {
  const v35 = resolveVersion('3.5').version;
  const v34 = resolveVersion('3.4').version;
  const defs: ConfigDef[] = [
    {
      id: 'v35-default',
      label: `${v35}, library defaults on both sides`,
      version: v35,
      variant: 'default',
      clientGroups: 'default',
      serverGroups: 'default',
      expectGroup: 'X25519MLKEM768',
      expectShares: ['X25519MLKEM768', 'X25519'],
      required: true,
    },
    {
      id: 'v35-ecdh',
      label: `${v35}, ECDH-only groups (${ECDH_ONLY}) on both sides`,
      version: v35,
      variant: 'default',
      clientGroups: ECDH_ONLY,
      serverGroups: ECDH_ONLY,
      expectGroup: 'X25519',
      required: true,
    },
    {
      id: 'v35-no-ml-kem',
      label: `${v35} built no-ml-kem, library defaults`,
      version: v35,
      variant: 'no-ml-kem',
      clientGroups: 'default',
      serverGroups: 'default',
      expectGroup: 'X25519',
      required: false,
    },
    {
      id: 'v34-default',
      label: `${v34}, library defaults (the baseline)`,
      version: v34,
      variant: 'default',
      clientGroups: 'default',
      serverGroups: 'default',
      expectGroup: 'X25519',
      required: true,
    },
    {
      id: 'v35-classic-server',
      label: `${v35} client with defaults, server allowing only ${ECDH_ONLY}`,
      version: v35,
      variant: 'default',
      clientGroups: 'default',
      serverGroups: ECDH_ONLY,
      expectGroup: 'X25519',
      expectShares: ['X25519MLKEM768', 'X25519'],
      required: false,
    },
  ];
  // newer series where already built: defaults vs ECDH-only on the same build
  for (const series of ['3.6', '4.0']) {
    const v = resolveVersion(series).version;
    if (!findCached(v, 'default')) continue;
    const tag = `v${series.replace('.', '')}`;
    defs.push(
      {
        id: `${tag}-default`,
        label: `${v}, library defaults on both sides`,
        version: v,
        variant: 'default',
        clientGroups: 'default',
        serverGroups: 'default',
        expectGroup: 'X25519MLKEM768',
        required: false,
      },
      {
        id: `${tag}-ecdh`,
        label: `${v}, ECDH-only groups on both sides`,
        version: v,
        variant: 'default',
        clientGroups: ECDH_ONLY,
        serverGroups: ECDH_ONLY,
        expectGroup: 'X25519',
        required: false,
      },
    );
  }
  return defs;
}
