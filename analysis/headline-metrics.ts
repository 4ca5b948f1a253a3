// The metrics the tracker follows night after night (the time-series records of analysis/history.ts and
// the drift view), and the series the night plan measures first (runner/night-plan.ts).
import type { HeadlineMetric, Method, Unit } from '../schema/index.ts';

const hs = (cert: string, proto: string, groups: string) =>
  `handshake/handshakes-per-cpu-second[cert=${cert},clientCtx=shared,clientGroups=${groups},proto=${proto},resume=none,serverGroups=${groups},side=both,threads=1]`;
const aead = (alg: string, bytes: number) => `aead/${alg}-seal[aadBytes=13,algorithm=${alg},bytes=${bytes},operation=seal]`;
const speed = (alg: string, op: string, bytes?: number) =>
  `speed/${alg}-${op}[algorithm=${alg},${bytes === undefined ? '' : `bytes=${bytes},`}operation=${op},timeBase=user-cpu]`;
const cpuBoth = { unit: 'handshakes/s' as Unit, method: 'cpu-time-both' as Method, higherIsBetter: true, deterministic: false };
const wall = { unit: 'bytes/s' as Unit, method: 'wall-clock-throughput' as Method, higherIsBetter: true, deterministic: false };
const speedOps = { unit: 'ops/s' as Unit, method: 'openssl-speed' as Method, higherIsBetter: true, deterministic: false };

/**
 * The metrics followed night after night: the handshake in its common configurations (per CPU-second of
 * both sides), one deterministic count that any code or build change moves, the AEAD seal throughput at
 * both ends of the record sizes, and openssl speed's public-key, hash and ML-KEM figures. Changing this
 * list makes the next aggregation re-read every run once (the files record the list they were made with).
 */
export const HEADLINE_METRICS: readonly HeadlineMetric[] = [
  {
    id: 'handshake-ecdsa-tls13-default',
    key: hs('ecdsa-p256', '1.3', 'default'),
    title: 'TLS 1.3 handshakes per CPU-second, ECDSA P-256, library default groups',
    ...cpuBoth,
  },
  {
    id: 'handshake-ecdsa-tls13-x25519',
    key: hs('ecdsa-p256', '1.3', 'X25519'),
    title: 'TLS 1.3 handshakes per CPU-second, ECDSA P-256, X25519 pinned',
    ...cpuBoth,
  },
  {
    id: 'handshake-rsa-tls13-default',
    key: hs('rsa2048', '1.3', 'default'),
    title: 'TLS 1.3 handshakes per CPU-second, RSA-2048, library default groups',
    ...cpuBoth,
  },
  {
    id: 'handshake-ecdsa-tls12-default',
    key: hs('ecdsa-p256', '1.2', 'default'),
    title: 'TLS 1.2 handshakes per CPU-second, ECDSA P-256, library default groups',
    ...cpuBoth,
  },
  {
    id: 'handshake-ecdsa-tls13-default-instructions',
    key: 'handshake/instructions-per-handshake[cert=ecdsa-p256,clientCtx=shared,clientGroups=default,proto=1.3,resume=none,serverGroups=default,side=both,threads=1]',
    title: 'Instructions per TLS 1.3 handshake, both sides, ECDSA P-256, library default groups',
    unit: 'instructions',
    method: 'instruction-count',
    higherIsBetter: false,
    deterministic: true,
  },
  { id: 'aead-aes-128-gcm-16k', key: aead('aes-128-gcm', 16384), title: 'AES-128-GCM seal throughput, 16 KiB records', ...wall },
  { id: 'aead-aes-128-gcm-16', key: aead('aes-128-gcm', 16), title: 'AES-128-GCM seal throughput, 16-byte records', ...wall },
  { id: 'aead-chacha20-poly1305-16k', key: aead('chacha20-poly1305', 16384), title: 'ChaCha20-Poly1305 seal throughput, 16 KiB records', ...wall },
  { id: 'speed-rsa2048-sign', key: speed('rsa2048', 'sign'), title: 'openssl speed: RSA-2048 signatures per second', ...speedOps },
  { id: 'speed-ecdsa-p256-sign', key: speed('ecdsa-p256', 'sign'), title: 'openssl speed: ECDSA P-256 signatures per second', ...speedOps },
  { id: 'speed-ecdh-x25519-derive', key: speed('ecdh-x25519', 'derive'), title: 'openssl speed: X25519 key agreements per second', ...speedOps },
  { id: 'speed-ml-kem-768-encaps', key: speed('ml-kem-768', 'encaps'), title: 'openssl speed: ML-KEM-768 encapsulations per second', ...speedOps },
  {
    id: 'speed-sha256-16k',
    key: speed('sha256', 'digest', 16384),
    title: 'openssl speed: SHA-256 over 16 KiB buffers',
    unit: 'bytes/s',
    method: 'openssl-speed',
    higherIsBetter: true,
    deterministic: false,
  },
];
