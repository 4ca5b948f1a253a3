// What each CPU flag of the host record (schema CpuFlags) changes in OpenSSL, for the methodology page.
// The Record over the schema's keys makes the compiler ask for a description when a flag is added.
import type { CpuFlags } from '../../../schema/index.ts';

export const CPU_FLAG_TEXT: Record<keyof CpuFlags, { name: string; arch: 'x86_64' | 'arm64'; selects: string }> = {
  aesni: { name: 'AES-NI', arch: 'x86_64', selects: 'hardware AES rounds: every AES mode, AES-GCM included' },
  pclmulqdq: { name: 'PCLMULQDQ', arch: 'x86_64', selects: 'carry-less multiplication: GHASH, the authentication half of AES-GCM' },
  shani: { name: 'SHA-NI', arch: 'x86_64', selects: 'SHA-1 and SHA-256 instructions' },
  avx2: { name: 'AVX2', arch: 'x86_64', selects: '256-bit integer vectors: ChaCha20, Poly1305, SHA-2 and some elliptic-curve code' },
  avx512f: { name: 'AVX-512F', arch: 'x86_64', selects: 'the AVX-512 foundation every AVX-512 code path needs' },
  avx512ifma: { name: 'AVX-512 IFMA', arch: 'x86_64', selects: '52-bit integer multiply-add: the RSA and big-number code path of 3.x (RSA private-key operations)' },
  avx512vl: { name: 'AVX-512VL', arch: 'x86_64', selects: 'AVX-512 on shorter vectors: needed with BW by the AVX-512 AES-GCM and ChaCha20 code' },
  avx512bw: { name: 'AVX-512BW', arch: 'x86_64', selects: 'byte and word AVX-512 operations: needed with VL by the AVX-512 AES-GCM and ChaCha20 code' },
  vaes: { name: 'VAES', arch: 'x86_64', selects: 'AES on wide vectors: the fastest AES-GCM code path where the version has it' },
  vpclmulqdq: { name: 'VPCLMULQDQ', arch: 'x86_64', selects: 'carry-less multiplication on wide vectors: GHASH beside VAES' },
  adx: { name: 'ADX', arch: 'x86_64', selects: 'add-with-carry chains: big-number arithmetic (RSA, elliptic curves)' },
  bmi2: { name: 'BMI2', arch: 'x86_64', selects: 'flag-free multiplication (MULX): big-number arithmetic beside ADX' },
  asimd: { name: 'Advanced SIMD (NEON)', arch: 'arm64', selects: 'vector code for ChaCha20, Poly1305 and more' },
  aes: { name: 'AES', arch: 'arm64', selects: 'hardware AES rounds' },
  pmull: { name: 'PMULL', arch: 'arm64', selects: 'polynomial multiplication: GHASH for AES-GCM' },
  sha2: { name: 'SHA-2', arch: 'arm64', selects: 'SHA-256 instructions' },
  sha3: { name: 'SHA-3', arch: 'arm64', selects: 'SHA-3 instructions' },
  sha512: { name: 'SHA-512', arch: 'arm64', selects: 'SHA-512 instructions' },
  sve: { name: 'SVE', arch: 'arm64', selects: 'scalable vectors' },
  sve2: { name: 'SVE2', arch: 'arm64', selects: 'scalable vectors, second version' },
};

export const CPU_FLAGS = Object.keys(CPU_FLAG_TEXT) as (keyof CpuFlags)[];

/** "present", "absent" or "not recorded" (the host record predates the flag). */
export function flagState(flags: CpuFlags, flag: keyof CpuFlags): 'present' | 'absent' | 'not recorded' {
  const v = flags[flag];
  return v === undefined ? 'not recorded' : v ? 'present' : 'absent';
}
