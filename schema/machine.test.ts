import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuSlug, describeMachine, machineId, nameOfMachine, type Hardware } from './machine.ts';
import { cpuFlags, cpuIdentity } from '../runner/host.ts';

// TEST DATA: /proc/cpuinfo excerpts in the kernel's format (one CPU shown)
const XEON = `vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 207\nmodel name\t: Intel(R) Xeon(R) Processor\nstepping\t: 2\nmicrocode\t: 0x1\nflags\t\t: fpu sse2 aes pclmulqdq avx2 bmi2 adx avx512f avx512ifma avx512vl avx512bw sha_ni vaes vpclmulqdq\n`;
const EPYC_NO_VAES = `vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nmodel name\t: AMD EPYC\nstepping\t: 1\nflags\t\t: fpu sse2 aes pclmulqdq avx2 bmi2 adx sha_ni\n`;
const GRAVITON = `processor\t: 0\nBogoMIPS\t: 243.75\nFeatures\t: fp asimd aes pmull sha1 sha2 crc32 atomics sve\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x1\nCPU part\t: 0xd40\nCPU revision\t: 1\n`;

const hardware = (cpuinfo: string, model: string, arch = 'x64'): Hardware => ({
  arch,
  cpuModel: model,
  logicalCpus: 2,
  cpuFlags: cpuFlags(cpuinfo),
  ...cpuIdentity(cpuinfo),
});

test('CPU identity comes from /proc/cpuinfo on x86 and arm64', () => {
  assert.deepEqual(cpuIdentity(XEON), { cpuVendor: 'GenuineIntel', cpuFamily: '6', cpuModelNumber: '207', cpuStepping: '2' });
  assert.deepEqual(cpuIdentity(GRAVITON), { cpuVendor: '0x41', cpuFamily: '8', cpuModelNumber: '0xd40', cpuStepping: '0x1/1' });
  assert.deepEqual(cpuIdentity(''), { cpuVendor: null, cpuFamily: null, cpuModelNumber: null, cpuStepping: null });
});

test('the machine id is the name plus the hardware: other hardware under one name is another machine, the OS is not', () => {
  const xeon = hardware(XEON, 'Intel(R) Xeon(R) Processor');
  const id = machineId('obs-devbox-2c', xeon);
  assert.match(id, /^obs-devbox-2c\.intel-xeon-[0-9a-f]{6}$/);
  assert.equal(nameOfMachine(id), 'obs-devbox-2c');
  assert.equal(machineId('obs-devbox-2c', { ...xeon }), id, 'stable');
  // one code-path flag, the stepping, the CPU count: each makes another machine
  assert.notEqual(machineId('obs-devbox-2c', { ...xeon, cpuFlags: { ...xeon.cpuFlags, vaes: false } }), id);
  assert.notEqual(machineId('obs-devbox-2c', { ...xeon, cpuStepping: '3' }), id);
  assert.notEqual(machineId('obs-devbox-2c', { ...xeon, logicalCpus: 4 }), id);
  // a flag the fingerprint does not follow (absent = false) does not
  assert.equal(machineId('obs-devbox-2c', { ...xeon, cpuFlags: { ...xeon.cpuFlags, sve: false } }), id);
  assert.equal(machineId('Obs DevBox 2c', xeon), id, 'the name is normalised like a host id');
});

test('a machine is described by what moves the figures', () => {
  assert.equal(describeMachine(hardware(XEON, 'Intel(R) Xeon(R) Processor')), 'Intel Xeon Processor, 2 logical CPUs, AVX2, AVX-512 with IFMA, VAES, SHA-NI');
  assert.equal(describeMachine(hardware(EPYC_NO_VAES, 'AMD EPYC')), 'AMD EPYC, 2 logical CPUs, AVX2, SHA-NI; no AVX-512, no VAES');
  assert.equal(describeMachine(hardware(GRAVITON, 'unknown', 'arm64')), 'unknown, 2 logical CPUs, AES, PMULL, SHA-2, SVE');
  assert.equal(cpuSlug('AMD EPYC 7R13 Processor'), 'amd-epyc-7r13');
  assert.equal(cpuSlug('Intel(R) Xeon(R) Platinum 8488C @ 2.40GHz'), 'intel-xeon-platinum-8488c');
});
