// The sub-hypotheses of the ML-KEM key-share test, one claim per side where the sides differ. Each is
// a ratio numerator / denominator of CPU time per handshake on one side (verdict.ts says how a claim
// of each kind is decided). Configuration ids are those of configurations.ts.
import type { ClaimKind } from '../../analysis/verdict.ts';

export type Side = 'client' | 'server' | 'both';

export interface Claim {
  id: string;
  kind: ClaimKind;
  side: Side;
  numerator: string;
  denominator: string;
  statement: string;
}

export const CLAIMS: Claim[] = [
  {
    id: 'H1',
    kind: 'more',
    side: 'both',
    numerator: 'v35-default',
    denominator: 'v35-ecdh',
    statement: 'On the same 3.5 build, library defaults cost more CPU per handshake (client + server) than ECDH-only groups',
  },
  {
    id: 'H2',
    kind: 'same',
    side: 'both',
    numerator: 'v35-ecdh',
    denominator: 'v34-default',
    statement: '3.5 with ECDH-only groups costs the same as 3.4 with its defaults (client + server): no regression outside key exchange',
  },
  {
    id: 'H3',
    kind: 'same',
    side: 'both',
    numerator: 'v35-no-ml-kem',
    denominator: 'v35-ecdh',
    statement: '3.5 built without ML-KEM, with its defaults, costs the same as 3.5 with ECDH-only groups (client + server)',
  },
  {
    id: 'H4a',
    kind: 'more',
    side: 'client',
    numerator: 'v35-classic-server',
    denominator: 'v35-ecdh',
    statement: 'Against a server that allows only classic groups, the 3.5 default client pays for the ML-KEM share it sends and the server ignores',
  },
  {
    id: 'H4b',
    kind: 'same',
    side: 'server',
    numerator: 'v35-classic-server',
    denominator: 'v35-ecdh',
    statement: 'A server that allows only classic groups does not pay for the ML-KEM share the client sends and it ignores',
  },
  {
    id: 'H1b',
    kind: 'more',
    side: 'both',
    numerator: 'v36-default',
    denominator: 'v36-ecdh',
    statement: 'The same holds on 3.6: library defaults cost more than ECDH-only groups (client + server)',
  },
  {
    id: 'H1c',
    kind: 'more',
    side: 'both',
    numerator: 'v40-default',
    denominator: 'v40-ecdh',
    statement: 'The same holds on 4.0: library defaults cost more than ECDH-only groups (client + server)',
  },
];

/** The gap between 3.5's defaults and 3.4, split by cause; every part is a difference of two configurations. */
export const DECOMPOSITION = {
  defaults: 'v35-default',
  baseline: 'v34-default',
  classicServer: 'v35-classic-server',
  ecdhOnly: 'v35-ecdh',
} as const;

/**
 * The parts of the gap, each the difference of two configurations measured in the same rounds (minuend
 * minus subtrahend), with what that difference measures. With library defaults on both sides the ML-KEM
 * share is used: the first part is the cost of generating and sending it, which a 3.5 client pays whether
 * or not the server takes it, measured where the server does not (a classic-only server).
 * The three parts add up to the total (defaults minus baseline).
 */
export const GAP_PARTS = [
  {
    key: 'unusedShare',
    minuend: DECOMPOSITION.classicServer,
    subtrahend: DECOMPOSITION.ecdhOnly,
    name: "the client's ML-KEM share",
    measures:
      'generating and sending the ML-KEM share, which the client pays whether or not the server takes it: a default client against a classic-only server, minus ECDH-only groups on both sides',
  },
  {
    key: 'negotiatedHybrid',
    minuend: DECOMPOSITION.defaults,
    subtrahend: DECOMPOSITION.classicServer,
    name: 'negotiating the hybrid',
    measures:
      'what negotiating the hybrid group adds on top (the server encapsulates, the client decapsulates, larger messages): library defaults on both sides, minus a default client against a classic-only server',
  },
  {
    key: 'other',
    minuend: DECOMPOSITION.ecdhOnly,
    subtrahend: DECOMPOSITION.baseline,
    name: 'outside key exchange',
    measures: 'everything not due to key exchange: the new version with ECDH-only groups on both sides, minus the old version with its defaults',
  },
] as const;

/** Configurations the decomposition needs: measured in every round, whatever the claims' state. */
export const ALWAYS_MEASURED = new Set<string>(Object.values(DECOMPOSITION));
