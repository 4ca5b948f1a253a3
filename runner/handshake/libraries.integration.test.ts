// handshake.c and aead.c built against every cached build of another library (AWS-LC, BoringSSL,
// wolfSSL): each configuration of capture-fixtures' CASES either runs and checks out like OpenSSL's, or
// comes back unsupported with the library's own reason; never a silent zero.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { listCached } from '../build/cache.ts';
import { buildLabel } from '../../catalogue/index.ts';
import { AEAD_CIPHERS, aeadArgs, aeadBinary, parseAeadOutput } from '../aead/aead.ts';
import { EXIT } from '../exit-codes.ts';
import { libraryMismatch } from '../library-id.ts';
import { CASES } from './capture-fixtures.ts';
import { baseConfig, type HandshakeConfig } from './config.ts';
import { checkVerification, configArgs, ensureCerts, handshakeBinary, runHandshake } from './invoke.ts';
import { certDir } from '../certs.ts';
import { parseHandshakeOutput } from './output.ts';
import { needs } from '../integration-needs.ts';

const others = listCached().filter((b) => b.record.library !== 'openssl' && b.record.variant === 'default');

describe('handshake and aead on other libraries', { skip: needs(others.length, 'no AWS-LC, BoringSSL or wolfSSL build cached') }, () => {
  for (const build of others) {
    const label = buildLabel(build.record);
    it(`${label}: every configuration runs as asked or is unsupported with a reason`, async (t) => {
      await ensureCerts(build);
      const bin = handshakeBinary(build);
      const table: string[] = [];
      for (const [name, c] of Object.entries(CASES)) {
        if (name === 'tls13-wrong-hostname') {
          const r = spawnSync(
            bin,
            (c as string[]).map((a) => (a === '<cert-dir>' ? certDir() : a)),
            { encoding: 'utf8' },
          );
          assert.equal(r.status, EXIT.failed, `${name}: a client expecting another name must refuse the server: ${r.stdout.slice(0, 300)}`);
          table.push(`${name}: refused (${r.stdout.slice(0, 120)})`);
          continue;
        }
        if (Array.isArray(c)) continue;
        const cfg = c as HandshakeConfig;
        const p = await runHandshake(bin, cfg, 5);
        if (p.kind === 'unsupported') {
          assert.ok(p.reason.length > 10, `${name}: an unsupported result needs the library's reason`);
          table.push(`${name}: unsupported (${p.reason})`);
          continue;
        }
        if (name === 'tls12-ecdsa-without-p256') {
          // an ECDSA P-256 certificate with no P-256 offered: OpenSSL refuses it, a library may too
          table.push(`${name}: ${p.kind}${p.kind === 'failed' ? ` (${p.reason.slice(0, 200)})` : ''}`);
          continue;
        }
        assert.equal(p.kind, 'run', `${name}: ${JSON.stringify(p).slice(0, 600)}`);
        const o = p.kind === 'run' ? p.out : undefined!;
        assert.equal(libraryMismatch(o.openssl, build.record), null);
        assert.equal(checkVerification(cfg, p, name), p, `${name}: verified other than every library must`);
        assert.equal(o.negotiated.protocol, cfg.proto === '1.2' ? 'TLSv1.2' : 'TLSv1.3', name);
        assert.equal(o.negotiated.resumed, cfg.resume !== 'none', name);
        if (cfg.serverGroups !== 'default' && !cfg.serverGroups.includes(':') && !(cfg.proto === '1.2' && cfg.resume !== 'none'))
          assert.equal(o.negotiated.group, cfg.serverGroups, name);
        assert.ok(o.clientHello.messageBytes > 0 && o.clientHello.recordBytes === o.clientHello.messageBytes + 5, name);
        if (cfg.mode === 'memory') assert.ok(o.heap && o.heap.clientBytesPerConnection > 0 && o.heap.serverBytesPerConnection > 0, name);
        table.push(
          `${name}: run, group ${o.negotiated.group}, ClientHello ${o.clientHello.messageBytes} B, shares ${o.clientHello.keyShares.map((s) => s.group).join('+') || 'none'}`,
        );
      }
      const det = spawnSync(bin, [...configArgs(baseConfig(), 1), '--deterministic'], { encoding: 'utf8' });
      const d = parseHandshakeOutput(det.stdout, det.status ?? -1, `${label} --deterministic`);
      // instruction counts: a fixed RNG, or the library's reason why not (then the count is repeated, runner/handshake runTask)
      assert.equal(d.kind, 'run', JSON.stringify(d));
      const o = d.kind === 'run' ? d.out : undefined!;
      assert.ok(o.deterministicRng !== (o.rngNotFixed !== undefined), 'either the RNG is fixed or the output says why not');
      table.push(`instruction counts: ${o.deterministicRng ? 'fixed RNG' : `RNG not fixed (${o.rngNotFixed})`}`);
      t.diagnostic(table.join('\n'));
    });

    it(`${label}: a TLS 1.3 ticket resumption chain longer than 255 (a full run resumes 3000 times) runs, every handshake resumed`, async () => {
      await ensureCerts(build);
      const cfg: HandshakeConfig = { ...baseConfig(), resume: 'ticket', clientGroups: 'X25519', serverGroups: 'X25519' };
      const p = await runHandshake(handshakeBinary(build), cfg, 600);
      assert.equal(p.kind, 'run', JSON.stringify(p).slice(0, 600));
      const o = p.kind === 'run' ? p.out : undefined!;
      assert.equal(o.handshakes, 600);
      assert.equal(o.negotiated.resumed, true);
      // wolfSSL's server refuses the 256th ticket of one chain: the program restarts chains and says so
      assert.equal(o.ticketChainLimit, build.record.library === 'wolfssl' ? 200 : undefined);
    });

    it(`${label}: aead seals with known answers, or says the library lacks the cipher`, (t) => {
      const bin = aeadBinary(build);
      for (const cipher of AEAD_CIPHERS) {
        const r = spawnSync(bin, aeadArgs(cipher, { sizes: [16, 1024], cpuSeconds: 0.01, repetitions: 2 }), { encoding: 'utf8' });
        if (r.status === EXIT.unsupported) {
          assert.match(r.stderr, /^aead: unsupported: .+ has no /);
          t.diagnostic(`${cipher}: ${r.stderr.trim()}`);
          continue;
        }
        assert.equal(r.status, EXIT.ok, r.stderr);
        parseAeadOutput(r.stdout, { build: build.record, cipher, sizes: [16, 1024] }, `${label} ${cipher}`);
        t.diagnostic(`${cipher}: measured`);
      }
    });
  }
});
