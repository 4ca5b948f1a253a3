// A machine of the observatory is its hardware, not its name: the name its owner chose plus a fingerprint
// of what decides which code OpenSSL runs (CPU identity, the CPU features that select code paths, the
// number of logical CPUs). Two runs under one name on different hardware are two machines, and nothing
// compares or combines them. Kernel, microcode and OS are not in the fingerprint: they are steps within
// one machine, which the drift view marks.
//
// The machine id (Host.id, the folder of data/runs/) is `<name>.<cpu>-<hash>`: readable, and it changes
// whenever the fingerprint does. The runner computes it (runner/host.ts); the validator recomputes it and
// refuses a run whose id does not match its own hardware.
import { createHash } from 'node:crypto';
import type { CpuFlags, Host } from './host.ts';

/** Display names of the CPU flags the host record keeps (one list: the site and the claims use it). */
export const CPU_FLAG_NAMES: Record<keyof CpuFlags, string> = {
  aesni: 'AES-NI',
  pclmulqdq: 'PCLMULQDQ',
  shani: 'SHA-NI',
  avx2: 'AVX2',
  avx512f: 'AVX-512F',
  avx512ifma: 'AVX-512 IFMA',
  avx512vl: 'AVX-512VL',
  avx512bw: 'AVX-512BW',
  vaes: 'VAES',
  vpclmulqdq: 'VPCLMULQDQ',
  adx: 'ADX',
  bmi2: 'BMI2',
  asimd: 'Advanced SIMD (NEON)',
  aes: 'AES',
  pmull: 'PMULL',
  sha2: 'SHA-2',
  sha3: 'SHA-3',
  sha512: 'SHA-512',
  sve: 'SVE',
  sve2: 'SVE2',
};

/** The parts of a host record that make it a machine, in a fixed order. */
export type Hardware = Pick<Host, 'arch' | 'cpuModel' | 'cpuFlags' | 'logicalCpus'> &
  Partial<Pick<Host, 'cpuVendor' | 'cpuFamily' | 'cpuModelNumber' | 'cpuStepping'>>;

/** The canonical text the fingerprint hashes: absent CPU identity fields (older records) count as null. */
export function hardwareText(h: Hardware): string {
  const flags = (Object.keys(CPU_FLAG_NAMES) as (keyof CpuFlags)[]).filter((f) => h.cpuFlags[f] === true);
  return JSON.stringify([h.arch, h.cpuVendor ?? null, h.cpuFamily ?? null, h.cpuModelNumber ?? null, h.cpuStepping ?? null, h.cpuModel, flags, h.logicalCpus]);
}

export const hardwareFingerprint = (h: Hardware): string => createHash('sha256').update(hardwareText(h)).digest('hex').slice(0, 6);

/** "Intel(R) Xeon(R) Platinum 8488C @ 2.4GHz" -> "intel-xeon-platinum-8488c": the model name without marks and clock. */
export function cpuSlug(cpuModel: string): string {
  const slug = cpuModel
    .toLowerCase()
    .replace(/\((r|tm)\)/g, ' ')
    .replace(/@.*$/, ' ')
    .replace(/\b(processor|cpu|with radeon graphics|\d+-core)\b/g, ' ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/, '');
  return slug || 'cpu';
}

/** The name part of a machine id: its owner's choice, in the id alphabet. */
export const machineName = (raw: string): string =>
  raw
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 60) || 'host';

/** `<name>.<cpu>-<fingerprint>`, e.g. obs-devbox-2c.amd-epyc-3f9a1c. */
export const machineId = (name: string, h: Hardware): string => `${machineName(name)}.${cpuSlug(h.cpuModel)}-${hardwareFingerprint(h)}`;

/** The name a machine id was made from (ids of records from before machine ids are their own name). */
export const nameOfMachine = (id: string): string => /^(.*)\.[a-z0-9-]+-[0-9a-f]{6}$/.exec(id)?.[1] ?? id;

/**
 * What a reader needs to tell machines apart, in words: "AMD EPYC, 2 logical CPUs, AVX2, SHA-NI; no VAES,
 * no AVX-512". The features named are those that move the figures most (AES-GCM, ChaCha20, RSA, SHA-2).
 */
export function describeMachine(h: Hardware): string {
  const f = h.cpuFlags;
  const has: string[] = [];
  const lacks: string[] = [];
  const put = (present: boolean | undefined, name: string) => {
    if (present === true) has.push(name);
    else if (present === false) lacks.push(`no ${name}`);
  };
  if (f.asimd !== undefined || f.sve !== undefined) {
    put(f.aes, 'AES');
    put(f.pmull, 'PMULL');
    put(f.sha2, 'SHA-2');
    put(f.sve, 'SVE');
  } else {
    put(f.avx2, 'AVX2');
    if (f.avx512f === true) has.push(f.avx512ifma ? 'AVX-512 with IFMA' : 'AVX-512 without IFMA');
    else put(f.avx512f, 'AVX-512');
    put(f.vaes === undefined ? undefined : f.vaes && f.vpclmulqdq === true, 'VAES');
    put(f.shani, 'SHA-NI');
  }
  const cpus = `${h.logicalCpus} logical CPU${h.logicalCpus === 1 ? '' : 's'}`;
  const model = h.cpuModel
    .replace(/\((R|TM)\)/gi, '')
    .replace(/\s+/g, ' ')
    .trim();
  return [model, cpus, has.join(', ')].filter(Boolean).join(', ') + (lacks.length ? `; ${lacks.join(', ')}` : '');
}
