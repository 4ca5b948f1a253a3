// cpuFlags on real /proc/cpuinfo from x86 hosts with and without AVX-512 IFMA and from two arm64 hosts
// (runner/fixtures/cpuinfo/README.md says where each comes from); boost and SMT from stand-in sysfs files.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CpuFlags } from '../schema/index.ts';
import { boostState, cpuFlags, pinnableCpu, smtState } from './host.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/cpuinfo/${name}.cpuinfo`, import.meta.url), 'utf8');
const on = (flags: CpuFlags) =>
  Object.entries(flags)
    .filter(([, v]) => v)
    .map(([k]) => k)
    .sort();

test('x86 with AVX-512 IFMA (AMD EPYC 9654): every AVX-512 subset that selects a code path', () => {
  const flags = CpuFlags.parse(cpuFlags(fixture('x86-amd-epyc-9654-zen4')));
  assert.deepEqual(on(flags), ['adx', 'aesni', 'avx2', 'avx512bw', 'avx512f', 'avx512ifma', 'avx512vl', 'bmi2', 'pclmulqdq', 'shani', 'vaes', 'vpclmulqdq']);
});

test('x86 without AVX-512 (a KVM guest that hides it): the AVX-512 flags are recorded as absent, not missing', () => {
  const flags = cpuFlags(fixture('x86-amd-epyc-kvm-no-avx512'));
  assert.deepEqual(on(flags), ['adx', 'aesni', 'avx2', 'bmi2', 'pclmulqdq', 'shani', 'vaes', 'vpclmulqdq']);
  for (const k of ['avx512f', 'avx512vl', 'avx512bw', 'avx512ifma'] as const) assert.equal(flags[k], false, k);
  assert.equal(flags.sve, undefined, 'no arm fields on x86');
});

test('arm64 (Neoverse V2): SHA3, SHA512, SVE2 from the Features line; "sveaes" does not count as "aes"', () => {
  const flags = CpuFlags.parse(cpuFlags(fixture('arm64-google-axion-neoverse-v2')));
  assert.deepEqual(on(flags), ['aes', 'asimd', 'pmull', 'sha2', 'sha3', 'sha512', 'sve', 'sve2']);
  assert.equal(flags.aesni, undefined, 'no x86 fields on arm64');
  const sveOnly = cpuFlags('processor\t: 0\nFeatures\t: fp asimd sve2 sveaes svepmull svesha3\n');
  assert.deepEqual(on(sveOnly), ['asimd', 'sve2']);
});

test('arm64 without SVE or SHA-3 (Cavium ThunderX)', () => {
  assert.deepEqual(on(cpuFlags(fixture('arm64-cavium-thunderx'))), ['aes', 'asimd', 'pmull', 'sha2']);
});

test('boost and SMT state from sysfs, null where the kernel does not say', () => {
  const files = (map: Record<string, string>) => (p: string) => map[p] ?? null;
  assert.equal(boostState(files({ '/sys/devices/system/cpu/cpufreq/boost': '0\n' })), 'off');
  assert.equal(boostState(files({ '/sys/devices/system/cpu/cpufreq/boost': '1\n' })), 'on');
  assert.equal(boostState(files({ '/sys/devices/system/cpu/intel_pstate/no_turbo': '1\n' })), 'off (intel_pstate no_turbo)');
  assert.equal(boostState(files({})), null);
  assert.equal(smtState(files({ '/sys/devices/system/cpu/smt/control': 'notsupported\n' })), 'notsupported');
  assert.equal(smtState(files({})), null);
});

test('pinnableCpu: the last CPU of Cpus_allowed_list, or null where it cannot be read', () => {
  const status = (list: string) => (path: string) =>
    path === '/proc/self/status' ? `Name:\tnode\nCpus_allowed:\tf\nCpus_allowed_list:\t${list}\nMems_allowed:\t1\n` : null;
  assert.equal(pinnableCpu(status('0-1')), 1);
  assert.equal(pinnableCpu(status('0,2-5')), 5);
  assert.equal(pinnableCpu(status('3')), 3);
  assert.equal(
    pinnableCpu(() => null),
    null,
  );
  assert.equal(
    pinnableCpu(() => 'Name:\tnode\n'),
    null,
  );
});
