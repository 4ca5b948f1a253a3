// cpucaps.c against real output: on 3.0+ it prints exactly what `openssl info -cpusettings` prints; on
// 1.1.1 (no OPENSSL_info) its reading of the library's globals gives the same words as 3.x on this host.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Build } from '../../schema/index.ts';
import { CPUCAPS_FIXTURES } from './capture.ts';
import { parseCpuCapabilities } from './cpucaps.ts';

const fixtures = readdirSync(CPUCAPS_FIXTURES).map(
  (f) => JSON.parse(readFileSync(join(CPUCAPS_FIXTURES, f), 'utf8')) as { version: string; cpucaps: string; opensslInfo: string | null },
);

describe('cpucaps fixtures', () => {
  test('1.1.1, 3.x and 3.5+ formats are captured', () => {
    const versions = fixtures.map((f) => f.version);
    for (const v of ['1.1.1w', '3.4.1', '3.5.7']) assert.ok(versions.includes(v), v);
  });
  for (const f of fixtures)
    test(`${f.version}: parses${f.opensslInfo ? ', and equals openssl info -cpusettings' : ''}`, () => {
      const caps = parseCpuCapabilities(f.cpucaps, f.version);
      Build.shape.cpuCapabilities.parse(caps);
      if (f.opensslInfo !== null) assert.equal(caps, f.opensslInfo.trim());
    });
  test('1.1.1 reads the same vector from the library globals as 3.x reports through OPENSSL_info', () => {
    const old = fixtures.find((f) => f.version.startsWith('1.1.1'))!;
    const words = (s: string) =>
      s
        .trim()
        .replace(/^OPENSSL_ia32cap=/, '')
        .split(':')
        .map((w) => BigInt(w));
    for (const f of fixtures.filter((x) => x.opensslInfo !== null)) assert.deepEqual(words(old.cpucaps), words(f.cpucaps).slice(0, 2), f.version);
  });
  test('anything else is refused with the text', () => {
    for (const bad of ['', 'CPUINFO: OPENSSL_ia32cap=0x1:0x2', 'OPENSSL_ia32cap=0x1', 'OPENSSL_ia32cap=0xzz:0x1', 'OPENSSL_armcap=0x1\nextra'])
      assert.throws(() => parseCpuCapabilities(bad, 'here'), /^Error: here: not a capability vector/);
  });
});
