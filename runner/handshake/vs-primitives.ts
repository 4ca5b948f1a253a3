// Is the harness the bottleneck? Compare one TLS 1.3 handshake (X25519 pinned) with the public-key
// operations it cannot avoid, measured by `openssl speed` on the same build, back to back:
//   node runner/handshake/vs-primitives.ts 1.1.1w 4.0.3 [--seconds 2] [--count 2000]
// Per handshake the server signs once and the client verifies once; each side generates an X25519 key
// and derives the shared secret (speed measures the derive; the keygen is costed like a derive).
import { parseArgs } from 'node:util';
import { requireBuilds } from '../build/cache.ts';
import { speedFormat, runOpenssl } from '../speed/speed.ts';
import { parseSpeed, type SpeedRecord } from '../speed/formats.ts';
import { baseConfig } from './config.ts';
import { ensureCerts, handshakeBinary, runHandshake } from './invoke.ts';
import type { Cert } from '../certs.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { seconds: { type: 'string', default: '2' }, count: { type: 'string', default: '2000' } },
});
if (!positionals.length) throw new Error('usage: node runner/handshake/vs-primitives.ts VERSION... [--seconds S] [--count N]');
const us = (perSecond: number) => 1e6 / perSecond;

for (const build of requireBuilds(positionals)) {
  const v = build.record.version;
  await ensureCerts(build);
  const records: SpeedRecord[] = [];
  for (const alg of ['ecdsap256', 'rsa2048', 'ecdhx25519']) {
    const got = await runOpenssl(build.prefix, ['speed', '-mr', '-seconds', values.seconds, alg], 600_000);
    records.push(...parseSpeed(speedFormat(build.record.series), got.stdout, got.stderr, `speed ${alg} on ${v}`));
  }
  const x25519 = records.find((r) => r.kind === 'ecdh' && r.bits === 253);
  const ecdsa = records.find((r) => r.kind === 'ecdsa' && r.bits === 256);
  const rsa = records.find((r) => r.kind === 'rsa' && r.bits === 2048);
  if (x25519?.kind !== 'ecdh' || ecdsa?.kind !== 'ecdsa' || rsa?.kind !== 'rsa') throw new Error(`${v}: speed did not report ECDSA P-256, RSA-2048 and X25519`);
  const sig: Record<string, { sign: number; verify: number }> = { 'ecdsa-p256': ecdsa, rsa2048: rsa };
  const bin = handshakeBinary(build);
  for (const cert of ['ecdsa-p256', 'rsa2048'] as Cert[]) {
    const r = await runHandshake(bin, baseConfig({ cert, clientGroups: 'X25519', serverGroups: 'X25519' }), Number(values.count));
    if (r.kind !== 'run') throw new Error(`${v} ${cert}: ${JSON.stringify(r).slice(0, 300)}`);
    const n = r.out.handshakes;
    const client = r.out.clientCpuNs / n / 1000;
    const server = r.out.serverCpuNs / n / 1000;
    const s = sig[cert]!;
    const dh = us(x25519.derive);
    const floorServer = us(s.sign) + 2 * dh;
    const floorClient = us(s.verify) + 2 * dh;
    const minimal = us(s.sign) + us(s.verify) + 2 * dh;
    console.log(
      `${v} TLS 1.3 ${cert} X25519: handshake client ${client.toFixed(1)} us, server ${server.toFixed(1)} us, both ${(client + server).toFixed(1)} us | ` +
        `speed: sign ${us(s.sign).toFixed(1)}, verify ${us(s.verify).toFixed(1)}, X25519 derive ${dh.toFixed(1)} us | ` +
        `sign+verify+2 X25519 = ${minimal.toFixed(1)} us (${((100 * minimal) / (client + server)).toFixed(0)}% of the handshake); ` +
        `with keygens: server ${floorServer.toFixed(1)} us (${((100 * floorServer) / server).toFixed(0)}%), client ${floorClient.toFixed(1)} us (${((100 * floorClient) / client).toFixed(0)}%)`,
    );
  }
}
