// What machine is this? Everything measurement-rules.md section 1 asks for that Linux tells us.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { arch, cpus, hostname, release, totalmem } from 'node:os';
import type { CpuFlags, Host } from '../schema/index.ts';

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

export function cpuFlags(cpuinfo: string): CpuFlags {
  const line = /^(flags|Features)\s*:\s*(.*)$/m.exec(cpuinfo)?.[2] ?? '';
  const has = new Set(line.split(/\s+/));
  if (arch() === 'arm64' || /^Features/m.test(cpuinfo)) {
    return { aes: has.has('aes'), pmull: has.has('pmull'), sha2: has.has('sha2'), sve: has.has('sve') };
  }
  return {
    aesni: has.has('aes'),
    pclmulqdq: has.has('pclmulqdq'),
    shani: has.has('sha_ni'),
    avx2: has.has('avx2'),
    avx512f: has.has('avx512f'),
    vaes: has.has('vaes'),
    vpclmulqdq: has.has('vpclmulqdq'),
    adx: has.has('adx'),
    bmi2: has.has('bmi2'),
  };
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

/** The host id names the machine in data/runs/<host>/; its owner chooses it (default: the hostname). */
export function hostId(explicit?: string): string {
  const raw = explicit ?? process.env.OBSERVATORY_HOST_ID ?? hostname();
  return raw.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+/, '').slice(0, 60) || 'host';
}

export function describeHost(id: string): Host {
  const cpuinfo = read('/proc/cpuinfo') ?? '';
  const osRelease = read('/etc/os-release') ?? '';
  const governor = read('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor');
  return {
    id,
    arch: arch(),
    cpuModel: /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1]?.trim() ?? cpus()[0]?.model ?? 'unknown',
    cpuFlags: cpuFlags(cpuinfo),
    logicalCpus: cpus().length,
    memoryBytes: totalmem(),
    kernel: release(),
    microcode: microcodeRevision(cpuinfo),
    os: /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(osRelease)?.[1] ?? 'unknown',
    virtualization: virtualization(cpuinfo),
    cpuGovernor: governor ? governor.trim() : null,
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
