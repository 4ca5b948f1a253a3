// openssl s_time against s_server of real cached builds (integration tier: npm run test:integration builds them first).
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { findCached } from '../build.ts';
import { ensureCerts } from '../handshake/handshake.ts';
import { runSTime, sTimeBenchmark, sTimeHasProtocolOptions, sTimeOutcomes } from './s-time.ts';

for (const version of ['1.1.1w', '4.0.3']) {
  const b = findCached(version, 'default');
  describe(`s_time on real ${version}`, { skip: b ? false : `OpenSSL ${version} is not built` }, () => {
    it('measures TLS 1.2 new and resumed connections and kills the server', async () => {
      await ensureCerts({ record: b!.record, prefix: b!.prefix });
      const cfg = { proto: '1.2', cert: 'ecdsa-p256', forced: 'server' } as const;
      const run = await runSTime(b!.prefix, cfg, 1);
      const outs = sTimeOutcomes(cfg, run, version);
      assert.ok(outs.every((o) => 'value' in o), JSON.stringify(outs).slice(0, 400));
      assert.equal(outs[0]!.observed?.negotiatedProtocol, 'TLSv1.2');
      assert.equal(await sTimeHasProtocolOptions(b!.prefix), version !== '1.1.1w');
      const refused = await new Promise<boolean>((resolve) => {
        const s = connect(run.port, '127.0.0.1');
        s.on('connect', () => (s.destroy(), resolve(false)));
        s.on('error', () => resolve(true));
      });
      assert.ok(refused, 's_server still listening after the run');
    });

    it('marks "TLS 1.2 forced on both sides" unsupported exactly where s_time cannot force its client', { skip: version === '1.1.1w' ? false : 'runs s_time for 3 s per section elsewhere' }, async () => {
      const task = sTimeBenchmark.tasks({ record: b!.record, prefix: b!.prefix }, 'full').find((t) => t.id.endsWith('forced-both'))!;
      const outs = await task.run();
      assert.ok(outs.length === 2 && outs.every((o) => !('value' in o) && o.status === 'unsupported' && /-tls1_2/.test(o.reason)));
    });
  });
}
