// The handshake program against real cached builds (integration tier: npm run test:integration builds them first).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import type { BuildUnderTest } from '../benchmark.ts';
import { findCached } from '../build/cache.ts';
import { baseConfig, pin, type HandshakeConfig } from './config.ts';
import { countInstructions, ensureCerts, handshakeBinary, runHandshake } from './invoke.ts';
import { certDir } from '../certs.ts';
import { parseHandshakeOutput, type HandshakeRunOutput } from './output.ts';
import { needs } from '../integration-needs.ts';

// ------------------------------------------------------------------ real builds

function buildOrSkip(version: string, variant = 'default'): BuildUnderTest | undefined {
  const b = findCached(version, variant);
  return b ? { record: b.record, prefix: b.prefix } : undefined;
}

const haveValgrind = (() => {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

for (const version of ['1.1.1w', '4.0.3']) {
  const build = buildOrSkip(version);
  const skip = needs(build, `OpenSSL ${version} is not built (npm run openssl -- build ${version})`);
  describe(`handshake on real ${version}`, { skip }, () => {
    let bin = '';
    const run = async (cfg: HandshakeConfig, count = 30) => {
      if (!bin) {
        await ensureCerts(build!);
        bin = handshakeBinary(build!);
      }
      return runHandshake(bin, cfg, count);
    };
    const measured = async (cfg: HandshakeConfig) => {
      const p = await run(cfg);
      assert.equal(p.kind, 'run', JSON.stringify(p).slice(0, 500));
      return (p as { out: HandshakeRunOutput }).out;
    };

    it('resumed handshakes are resumed (TLS 1.3 tickets, TLS 1.2 tickets and session ids)', async () => {
      for (const cfg of [
        baseConfig({ resume: 'ticket' }),
        baseConfig({ proto: '1.2', resume: 'ticket' }),
        baseConfig({ proto: '1.2', cert: 'rsa2048', resume: 'session-id' }),
      ]) {
        const o = await measured(cfg);
        assert.equal(o.negotiated.resumed, true, `${cfg.proto} ${cfg.resume}`);
      }
    });

    it('TLS 1.2 runs negotiate TLS 1.2', async () => {
      for (const cert of ['rsa2048', 'ecdsa-p256'] as const) assert.equal((await measured(baseConfig({ proto: '1.2', cert }))).negotiated.protocol, 'TLSv1.2');
    });

    it('the negotiated group is the pinned group', async () => {
      for (const group of ['X25519', 'P-256']) {
        assert.equal((await measured(baseConfig({ clientGroups: group, serverGroups: group }))).negotiated.group, group);
        assert.equal((await measured(baseConfig({ proto: '1.2', ...pin('1.2', 'ecdsa-p256', group) }))).negotiated.group, group);
      }
      // a default client against a server that allows only X25519
      assert.equal((await measured(baseConfig({ serverGroups: 'X25519' }))).negotiated.group, 'X25519');
    });

    it('marks what this version cannot do as unsupported, with the reason', async () => {
      const mlkem = await run(baseConfig({ clientGroups: 'X25519MLKEM768', serverGroups: 'X25519MLKEM768' }));
      const mldsa = await run(baseConfig({ cert: 'mldsa65', clientGroups: 'X25519', serverGroups: 'X25519' }));
      if (version === '1.1.1w') {
        assert.equal(mlkem.kind, 'unsupported');
        assert.match(mlkem.kind === 'unsupported' ? mlkem.reason : '', /X25519MLKEM768/);
        assert.equal(mldsa.kind, 'unsupported');
      } else {
        assert.equal(mlkem.kind, 'run');
        assert.equal(mldsa.kind, 'run');
      }
    });

    it('fails loudly when the negotiated group is not the expected one', async () => {
      await run(baseConfig(), 1);
      // both sides allow X25519 and P-256; the client prefers X25519, so expecting P-256 must fail
      const args = [
        'run',
        '--cert-dir',
        certDir(),
        '--client-groups',
        'X25519:P-256',
        '--server-groups',
        'X25519:P-256',
        '--expect-group',
        'P-256',
        '--count',
        '3',
      ];
      const r = spawnSync(bin, args, { encoding: 'utf8' });
      assert.equal(r.status, 1);
      const p = parseHandshakeOutput(r.stdout, r.status ?? -1, 'expect-group');
      assert.equal(p.kind, 'failed');
      assert.match(p.kind === 'failed' ? p.reason : '', /group P-256 was pinned but X25519 was negotiated/);
    });

    it('fails loudly with the library error when the handshake cannot complete', async () => {
      const p = await run(baseConfig({ proto: '1.2', clientGroups: 'X25519', serverGroups: 'X25519' }));
      assert.equal(p.kind, 'failed');
      assert.match(p.kind === 'failed' ? p.reason : '', /no shared cipher/);
    });

    it('counts the same instructions in two runs', { skip: needs(haveValgrind, 'valgrind is not installed') }, async () => {
      await run(baseConfig(), 1);
      for (const cfg of [baseConfig({ clientGroups: 'X25519', serverGroups: 'X25519' }), baseConfig({ proto: '1.2', resume: 'ticket' })]) {
        const a = await countInstructions(bin, cfg, 5);
        const b = await countInstructions(bin, cfg, 5);
        assert.equal(a.kind, 'measured', JSON.stringify(a).slice(0, 300));
        assert.equal(b.kind, 'measured');
        if (a.kind === 'measured' && b.kind === 'measured') {
          assert.equal(a.totalInstructions, b.totalInstructions);
          assert.ok(a.instructionsPerHandshake > 100_000);
        }
      }
    });
  });
}

// ML-KEM groups and ML-DSA certificates before 3.5, and in a 3.5 build configured without ML-KEM
for (const [version, variant, mldsa] of [
  ['3.4.1', 'default', 'unsupported'],
  ['3.5.7', 'no-ml-kem', 'run'],
] as const) {
  const build = buildOrSkip(version, variant);
  describe(`unsupported configurations on real ${version} (${variant})`, { skip: needs(build, `OpenSSL ${version} ${variant} is not built`) }, () => {
    it('marks ML-KEM groups (and ML-DSA certificates before 3.5) unsupported', async () => {
      await ensureCerts(build!);
      const bin = handshakeBinary(build!);
      for (const g of ['X25519MLKEM768', 'MLKEM768']) {
        const p = await runHandshake(bin, baseConfig({ clientGroups: g, serverGroups: g }), 10);
        assert.equal(p.kind, 'unsupported', `${g}: ${JSON.stringify(p).slice(0, 300)}`);
      }
      const p = await runHandshake(bin, baseConfig({ cert: 'mldsa65', clientGroups: 'X25519', serverGroups: 'X25519' }), 10);
      assert.equal(p.kind, mldsa);
    });
  });
}
