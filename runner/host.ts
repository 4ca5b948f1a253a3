// What machine is this? Everything measurement-rules.md section 1 asks for that Linux tells us.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { arch, cpus, hostname, release, totalmem } from 'node:os';
import { machineId, machineName, type CpuFlags, type Host } from '../schema/index.ts';

/** Reads a /proc or /sys file; null when it does not exist or cannot be read. Tests pass their own. */
export type ReadFile = (path: string) => string | null;
export const readSystemFile: ReadFile = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/**
 * The CPU features that select an OpenSSL code path, from /proc/cpuinfo. The format decides the
 * architecture: x86 kernels print a "flags" line, arm64 kernels a "Features" line (hwcap names).
 * x86: AES-NI and PCLMULQDQ (AES-GCM), SHA-NI (SHA-1/256), AVX2, AVX-512 F/VL/BW (AES-GCM, ChaCha20,
 * Poly1305), AVX-512 IFMA (RSA and bignum in 3.x), VAES + VPCLMULQDQ (AES-GCM), ADX + BMI2 (bignum).
 * arm64: ASIMD (NEON), AES, PMULL, SHA2, SHA3, SHA512, SVE, SVE2.
 */
export function cpuFlags(cpuinfo: string): CpuFlags {
  const x86 = /^flags\s*:\s*(.*)$/m.exec(cpuinfo)?.[1];
  const arm = /^Features\s*:\s*(.*)$/m.exec(cpuinfo)?.[1];
  const has = (line: string | undefined) => {
    const set = new Set((line ?? '').split(/\s+/));
    return (name: string) => set.has(name);
  };
  if (x86 === undefined && arm !== undefined) {
    const h = has(arm);
    return { asimd: h('asimd'), aes: h('aes'), pmull: h('pmull'), sha2: h('sha2'), sha3: h('sha3'), sha512: h('sha512'), sve: h('sve'), sve2: h('sve2') };
  }
  const h = has(x86);
  return {
    aesni: h('aes'),
    pclmulqdq: h('pclmulqdq'),
    shani: h('sha_ni'),
    avx2: h('avx2'),
    avx512f: h('avx512f'),
    avx512vl: h('avx512vl'),
    avx512bw: h('avx512bw'),
    avx512ifma: h('avx512ifma'),
    vaes: h('vaes'),
    vpclmulqdq: h('vpclmulqdq'),
    adx: h('adx'),
    bmi2: h('bmi2'),
  };
}

/** Frequency boost where the kernel says: cpufreq's global switch, or intel_pstate's inverse one. */
export function boostState(read: ReadFile = readSystemFile): string | null {
  const boost = read('/sys/devices/system/cpu/cpufreq/boost')?.trim();
  if (boost === '1') return 'on';
  if (boost === '0') return 'off';
  const noTurbo = read('/sys/devices/system/cpu/intel_pstate/no_turbo')?.trim();
  if (noTurbo === '1') return 'off (intel_pstate no_turbo)';
  if (noTurbo === '0') return 'on (intel_pstate)';
  return null;
}

/** SMT as the kernel reports it: on, off, forceoff, notsupported or notimplemented. */
export function smtState(read: ReadFile = readSystemFile): string | null {
  return read('/sys/devices/system/cpu/smt/control')?.trim() || null;
}

export function governorState(read: ReadFile = readSystemFile): string | null {
  return read('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor')?.trim() || null;
}

function virtualization(cpuinfo: string): string | null {
  try {
    const v = execFileSync('systemd-detect-virt', [], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (v && v !== 'none') return v;
  } catch {
    // exits 1 on bare metal, or is missing: fall through to the CPU flag
  }
  if (existsSync('/.dockerenv')) return 'docker';
  return /^flags\s*:.*\bhypervisor\b/m.test(cpuinfo) ? 'hypervisor (unnamed)' : null;
}

/** The name its owner gives the machine (default: the hostname); the machine id adds its hardware to it. */
export function hostId(explicit?: string): string {
  return machineName(explicit ?? process.env.OBSERVATORY_HOST_ID ?? hostname());
}

/**
 * Vendor, family, model and stepping from /proc/cpuinfo (x86: vendor_id, cpu family, model, stepping;
 * arm64: CPU implementer, architecture, part, variant/revision); null where the kernel does not say.
 */
export function cpuIdentity(cpuinfo: string): Pick<Host, 'cpuVendor' | 'cpuFamily' | 'cpuModelNumber' | 'cpuStepping'> {
  const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.+?)\\s*$`, 'm').exec(cpuinfo)?.[1] ?? null;
  if (field('vendor_id') !== null || field('cpu family') !== null)
    return { cpuVendor: field('vendor_id'), cpuFamily: field('cpu family'), cpuModelNumber: field('model'), cpuStepping: field('stepping') };
  const variant = field('CPU variant');
  const revision = field('CPU revision');
  return {
    cpuVendor: field('CPU implementer'),
    cpuFamily: field('CPU architecture'),
    cpuModelNumber: field('CPU part'),
    cpuStepping: variant === null && revision === null ? null : `${variant ?? '?'}/${revision ?? '?'}`,
  };
}

/** This machine's record; its id is the machine id of `name` on this hardware (schema/machine.ts). */
export function describeHost(name: string, cpuinfo: string = readSystemFile('/proc/cpuinfo') ?? ''): Host {
  const osRelease = readSystemFile('/etc/os-release') ?? '';
  const hardware = {
    arch: arch(),
    cpuModel: /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1]?.trim() ?? cpus()[0]?.model ?? 'unknown',
    ...cpuIdentity(cpuinfo),
    cpuFlags: cpuFlags(cpuinfo),
    logicalCpus: cpus().length,
  };
  return {
    id: machineId(name, hardware),
    name: machineName(name),
    ...hardware,
    memoryBytes: totalmem(),
    kernel: release(),
    microcode: microcodeRevision(cpuinfo),
    os: /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(osRelease)?.[1] ?? 'unknown',
    virtualization: virtualization(cpuinfo),
    cpuGovernor: governorState(),
    boost: boostState(),
    smt: smtState(),
  };
}

/**
 * The microcode revision /proc/cpuinfo shows (x86: "microcode : 0x1000065"), or null where the kernel
 * does not show one (arm64, some hypervisors). CPUs that disagree (a late update in progress) are listed.
 */
export function microcodeRevision(cpuinfo: string): string | null {
  const revisions = [...new Set([...cpuinfo.matchAll(/^microcode\s*:\s*(\S+)\s*$/gm)].map((m) => m[1]!))];
  return revisions.length ? revisions.sort().join(' ') : null;
}

/**
 * The CPU a measuring process pins itself to: the last one this process may use (Cpus_allowed_list),
 * so the run loop and the kernel's own work tend to stay on the others; null where that is not readable.
 */
export function pinnableCpu(read: ReadFile = readSystemFile): number | null {
  const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(read('/proc/self/status') ?? '')?.[1];
  if (list === undefined) return null;
  const cpus = list.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number);
    return b === undefined ? [a!] : Array.from({ length: b - a! + 1 }, (_, i) => a! + i);
  });
  const last = cpus.filter(Number.isInteger).pop();
  return last === undefined ? null : last;
}
