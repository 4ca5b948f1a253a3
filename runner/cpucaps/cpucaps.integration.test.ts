// cpucaps.c against a real cached 1.1.1w (integration tier: npm run test:integration builds it first).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { findCached } from '../build/cache.ts';
import { compileAgainst } from '../compile.ts';
import { CPUCAPS_SOURCE, cpuCapabilities } from './cpucaps.ts';
import { needs } from '../integration-needs.ts';

const b = findCached('1.1.1w', 'default');
test(
  'on real 1.1.1w: the record names the vector, and OPENSSL_ia32cap masks the library actually applied',
  { skip: process.arch !== 'x64' ? 'x86-64 only (OPENSSL_ia32cap)' : needs(b, '1.1.1w is not built') },
  async () => {
    const build = { record: b!.record, prefix: b!.prefix };
    const caps = await cpuCapabilities(build);
    assert.match(caps, /^OPENSSL_ia32cap=0x[0-9a-f]+:0x[0-9a-f]+$/);
    // hide AES-NI (bit 57 of the first word): the library must report it gone, and say why
    const masked = execFileSync(compileAgainst(build, CPUCAPS_SOURCE, 'cpucaps'), [], {
      encoding: 'utf8',
      env: { ...process.env, OPENSSL_ia32cap: '~0x200000000000000' },
    }).trim();
    const first = (s: string) => BigInt(s.replace(/^OPENSSL_ia32cap=/, '').split(/[: ]/)[0]!);
    assert.equal(first(masked), first(caps) & ~0x200000000000000n);
    assert.match(masked, / env:~0x200000000000000$/);
  },
);
