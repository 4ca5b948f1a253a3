// The machine a run measured on, as the run file records it (schema/machine.ts derives its id).
import { z } from 'zod';
import { safeId, shortText } from './primitives.ts';

export const CpuFlags = z.object({
  // x86
  aesni: z.boolean().optional(),
  pclmulqdq: z.boolean().optional(),
  shani: z.boolean().optional(),
  avx2: z.boolean().optional(),
  avx512f: z.boolean().optional(),
  vaes: z.boolean().optional(),
  vpclmulqdq: z.boolean().optional(),
  adx: z.boolean().optional(),
  bmi2: z.boolean().optional(),
  // AVX-512 subsets that select OpenSSL code paths: IFMA (RSA/bignum on 3.x), VL+BW (AES-GCM, ChaCha20)
  avx512ifma: z.boolean().optional(),
  avx512vl: z.boolean().optional(),
  avx512bw: z.boolean().optional(),
  // arm
  asimd: z.boolean().optional(),
  aes: z.boolean().optional(),
  pmull: z.boolean().optional(),
  sha2: z.boolean().optional(),
  sha3: z.boolean().optional(),
  sha512: z.boolean().optional(),
  sve: z.boolean().optional(),
  sve2: z.boolean().optional(),
});
export type CpuFlags = z.infer<typeof CpuFlags>;

export const Host = z.object({
  id: safeId.describe(
    'the machine: <name>.<cpu>-<hardware fingerprint> (schema/machine.ts); runs are grouped by it. Records from before machine ids carry the name alone',
  ),
  name: safeId.optional().describe('the name the owner chose (OBSERVATORY_HOST_ID, default the hostname); one name can cover several machines'),
  arch: shortText(40),
  cpuModel: shortText(200),
  cpuVendor: shortText(40).nullable().optional().describe('CPU vendor as /proc/cpuinfo says (vendor_id, or the arm64 implementer code)'),
  cpuFamily: shortText(20).nullable().optional().describe('CPU family (x86) or architecture (arm64), /proc/cpuinfo'),
  cpuModelNumber: shortText(20).nullable().optional().describe('CPU model number (x86) or part (arm64), /proc/cpuinfo'),
  cpuStepping: shortText(20).nullable().optional().describe('CPU stepping (x86) or variant/revision (arm64), /proc/cpuinfo'),
  cpuFlags: CpuFlags,
  logicalCpus: z.int().positive().max(4096),
  memoryBytes: z.int().positive(),
  kernel: shortText(200),
  os: shortText(200),
  virtualization: shortText(80).nullable().describe('hypervisor or container if detectable, null on bare metal'),
  cpuGovernor: shortText(80).nullable(),
  boost: shortText(80).nullable().optional().describe('frequency boost / turbo state where readable (cpufreq boost, intel_pstate no_turbo)'),
  smt: shortText(80).nullable().optional().describe('simultaneous multithreading state where readable (/sys/devices/system/cpu/smt/control)'),
  microcode: shortText(80)
    .nullable()
    .optional()
    .describe('CPU microcode revision as /proc/cpuinfo shows it (x86), null where the kernel does not say; a change between runs can move results'),
  note: shortText(1000).optional(),
});
export type Host = z.infer<typeof Host>;
