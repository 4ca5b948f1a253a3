// What each CPU flag of the host record (schema CpuFlags) changes in OpenSSL, for the methodology and
// machines pages. The Record over the schema's keys makes the compiler ask for a description when a flag is
// added; display names are schema/machine.ts CPU_FLAG_NAMES (one list for the site, the claims and the ids).
import type { CpuFlags } from '../../../schema/index.ts';
import { CPU_FLAG_NAMES } from '../../../schema/machine.ts';

const SELECTS: Record<keyof CpuFlags, { arch: 'x86_64' | 'arm64'; selects: string }> = {
  aesni: { arch: 'x86_64', selects: 'hardware AES rounds: every AES mode, AES-GCM included' },
  pclmulqdq: { arch: 'x86_64', selects: 'carry-less multiplication: GHASH, the authentication half of AES-GCM' },
  shani: { arch: 'x86_64', selects: 'SHA-1 and SHA-256 instructions' },
  avx2: { arch: 'x86_64', selects: '256-bit integer vectors: ChaCha20, Poly1305, SHA-2 and some elliptic-curve code' },
  avx512f: { arch: 'x86_64', selects: 'the AVX-512 foundation every AVX-512 code path needs' },
  avx512ifma: { arch: 'x86_64', selects: '52-bit integer multiply-add: the RSA and big-number code path of 3.x (RSA private-key operations)' },
  avx512vl: { arch: 'x86_64', selects: 'AVX-512 on shorter vectors: needed with BW by the AVX-512 AES-GCM and ChaCha20 code' },
  avx512bw: { arch: 'x86_64', selects: 'byte and word AVX-512 operations: needed with VL by the AVX-512 AES-GCM and ChaCha20 code' },
  vaes: { arch: 'x86_64', selects: 'AES on wide vectors: the fastest AES-GCM code path where the version has it' },
  vpclmulqdq: { arch: 'x86_64', selects: 'carry-less multiplication on wide vectors: GHASH beside VAES' },
  adx: { arch: 'x86_64', selects: 'add-with-carry chains: big-number arithmetic (RSA, elliptic curves)' },
  bmi2: { arch: 'x86_64', selects: 'flag-free multiplication (MULX): big-number arithmetic beside ADX' },
  asimd: { arch: 'arm64', selects: 'vector code for ChaCha20, Poly1305 and more' },
  aes: { arch: 'arm64', selects: 'hardware AES rounds' },
  pmull: { arch: 'arm64', selects: 'polynomial multiplication: GHASH for AES-GCM' },
  sha2: { arch: 'arm64', selects: 'SHA-256 instructions' },
  sha3: { arch: 'arm64', selects: 'SHA-3 instructions' },
  sha512: { arch: 'arm64', selects: 'SHA-512 instructions' },
  sve: { arch: 'arm64', selects: 'scalable vectors' },
  sve2: { arch: 'arm64', selects: 'scalable vectors, second version' },
};

export const CPU_FLAG_TEXT: Record<keyof CpuFlags, { name: string; arch: 'x86_64' | 'arm64'; selects: string }> = Object.fromEntries(
  (Object.keys(SELECTS) as (keyof CpuFlags)[]).map((f) => [f, { name: CPU_FLAG_NAMES[f], ...SELECTS[f] }]),
) as Record<keyof CpuFlags, { name: string; arch: 'x86_64' | 'arm64'; selects: string }>;

export const CPU_FLAGS = Object.keys(CPU_FLAG_TEXT) as (keyof CpuFlags)[];

/** "present", "absent" or "not recorded" (the host record predates the flag). */
export function flagState(flags: CpuFlags, flag: keyof CpuFlags): 'present' | 'absent' | 'not recorded' {
  const v = flags[flag];
  return v === undefined ? 'not recorded' : v ? 'present' : 'absent';
}
