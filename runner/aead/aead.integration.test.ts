// aead.c compiled against a real cached build (integration tier: npm run test:integration builds it first).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { listCached } from '../build/cache.ts';
import { pinnableCpu } from '../host.ts';
import { compileAgainst } from '../compile.ts';
import { EXIT } from '../exit-codes.ts';
import { AEAD_CIPHERS, AEAD_SOURCE, aeadBinary, parseAeadOutput } from './aead.ts';
import { needs } from '../integration-needs.ts';

// The program itself, against one real build when one is cached (the suite runs after `npm run openssl -- build`).
describe('aead.c against a cached build', () => {
  const build = listCached().find((b) => b.record.variant === 'default');
  test(
    'known answers pass, a count run reports exactly that count per repetition, a CPU window its CPU, bad arguments are refused',
    { skip: needs(build, 'no cached OpenSSL build') },
    () => {
      const bin = aeadBinary(build!);
      for (const cipher of AEAD_CIPHERS) {
        const text = execFileSync(bin, ['--cipher', cipher, '--sizes', '16,1024', '--count', '300', '--repetitions', '2', '--warmup-seconds', '0'], {
          encoding: 'utf8',
        });
        const out = parseAeadOutput(text, { build: build!.record, cipher, sizes: [16, 1024] }, 'live');
        assert.deepEqual(
          out.results.map((r) => r.repetitions.map((x) => x.records)),
          [
            [300, 300],
            [300, 300],
          ],
        );
      }
      const timed = parseAeadOutput(
        execFileSync(bin, ['--cipher', 'aes-128-gcm', '--sizes', '64', '--cpu-seconds', '0.02', '--repetitions', '3'], { encoding: 'utf8' }),
        { build: build!.record, cipher: 'aes-128-gcm', sizes: [64] },
        'live',
      );
      for (const rep of timed.results[0]!.repetitions)
        assert.ok(
          (rep.cpuSeconds >= 0.02 || rep.wallSeconds >= 0.4) && rep.cpuSeconds < 0.2,
          `${rep.cpuSeconds} s of thread CPU in ${rep.wallSeconds} s for a 0.02 s window`,
        );
      // --cpu: pinned to a CPU this process may use, reported; a CPU it may not use is refused by the kernel and the run fails (c-common/cpu.h)
      const cpu = pinnableCpu();
      if (cpu !== null) {
        const pinned = parseAeadOutput(
          execFileSync(bin, ['--cipher', 'aes-128-gcm', '--sizes', '16', '--count', '10', '--cpu', String(cpu)], { encoding: 'utf8' }),
          { build: build!.record, cipher: 'aes-128-gcm', sizes: [16] },
          'live',
        );
        assert.equal(pinned.pinnedCpu, cpu);
        const refused = spawnSync(bin, ['--cipher', 'aes-128-gcm', '--sizes', '16', '--count', '10', '--cpu', '1000'], { encoding: 'utf8' });
        assert.equal(refused.status, EXIT.failed);
        assert.match(refused.stderr, /^aead: pinning to CPU 1000: /);
        assert.match(JSON.parse(refused.stdout).error, /^pinning to CPU 1000: /);
      }
      for (const args of [
        ['--cipher', 'aes-128-gcm', '--sizes', '16', '--count', '1', '--cpu', '-1'],
        ['--cipher', 'aes-128-cbc', '--sizes', '16', '--count', '1'],
        ['--cipher', 'aes-128-gcm', '--sizes', '0', '--count', '1'],
        ['--cipher', 'aes-128-gcm', '--sizes', '16'],
        ['--cipher', 'aes-128-gcm', '--sizes', '16', '--count', '1', '--cpu-seconds', '1'],
        ['--cipher', 'aes-128-gcm', '--sizes', '16', '--count', '1', '--repetitions', '0'],
        ['--cipher', 'aes-128-gcm', '--sizes', '16', '--seconds', '1'],
      ]) {
        const r = spawnSync(bin, args, { encoding: 'utf8' });
        assert.equal(r.status, EXIT.usage, `${args.join(' ')} should be refused`);
        assert.match(r.stderr, /^aead: .*\nusage:/);
      }
    },
  );
  test('a wrong expected tag makes the program refuse to measure', { skip: needs(build, 'no cached OpenSSL build') }, () => {
    // the same source with one bit of the AES-128-GCM test vector's tag changed
    const src = readFileSync(AEAD_SOURCE, 'utf8');
    const broken = src.replace('"5bc94fbc3221a5db94fae95ae7121a47"', '"5bc94fbc3221a5db94fae95ae7121a46"');
    assert.notEqual(broken, src);
    // beside a link to c-common, so that its #include "../c-common/..." lines resolve as in the tree
    const dir = mkdtempSync(join(tmpdir(), 'aead-kat-'));
    mkdirSync(join(dir, 'aead'));
    symlinkSync(join(dirname(AEAD_SOURCE), '..', 'c-common'), join(dir, 'c-common'));
    writeFileSync(join(dir, 'aead', 'aead.c'), broken);
    const bin = compileAgainst(build!, join(dir, 'aead', 'aead.c'), 'aead-broken-kat');
    const r = spawnSync(bin, ['--cipher', 'aes-128-gcm', '--sizes', '16', '--count', '1'], { encoding: 'utf8' });
    assert.equal(r.status, EXIT.failed);
    assert.match(r.stderr, /known-answer test failed: wrong tag/);
    assert.match(JSON.parse(r.stdout).error, /known-answer test failed: wrong tag/);
  });
});
