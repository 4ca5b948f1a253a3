import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { microcodeRevision } from './host.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/cpuinfo/${name}`, import.meta.url), 'utf8');

test('the microcode revision from a real x86 /proc/cpuinfo', () => {
  assert.equal(microcodeRevision(fixture('x86-amd-epyc-docker-microcode.cpuinfo')), '0x1000065');
});

test('no microcode line (arm64, some hypervisors) is null; CPUs that disagree are all named', () => {
  assert.equal(microcodeRevision('processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd aes pmull sha1 sha2\n'), null);
  const two = fixture('x86-amd-epyc-docker-microcode.cpuinfo');
  assert.equal(microcodeRevision(`${two}\n${two.replace('0x1000065', '0x1000066')}`), '0x1000065 0x1000066');
});
