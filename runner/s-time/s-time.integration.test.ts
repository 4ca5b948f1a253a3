// openssl s_time against s_server of real cached builds (integration tier: npm run test:integration builds them first).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { findCached } from '../build/cache.ts';
import { childPids } from '../child-guard.ts';
import { ensureCerts } from '../handshake/invoke.ts';
import { runSTime, sTimeBenchmark, sTimeHasProtocolOptions, sTimeOutcomes } from './s-time.ts';
import { needs } from '../integration-needs.ts';

for (const version of ['1.1.1w', '4.0.3']) {
  const b = findCached(version, 'default');
  describe(`s_time on real ${version}`, { skip: needs(b, `OpenSSL ${version} is not built`) }, () => {
    it('measures TLS 1.2 new and resumed connections and kills the server', async () => {
      await ensureCerts({ record: b!.record, prefix: b!.prefix });
      const cfg = { proto: '1.2', cert: 'ecdsa-p256', forced: 'server' } as const;
      const run = await runSTime(b!.prefix, cfg, 1);
      const outs = sTimeOutcomes(cfg, run, version);
      assert.ok(
        outs.every((o) => 'value' in o),
        JSON.stringify(outs).slice(0, 400),
      );
      assert.equal(outs[0]!.observed?.negotiatedProtocol, 'TLSv1.2');
      assert.equal(await sTimeHasProtocolOptions(b!.prefix), version !== '1.1.1w');
      const refused = await new Promise<boolean>((resolve) => {
        const s = connect(run.port, '127.0.0.1');
        s.on('connect', () => (s.destroy(), resolve(false)));
        s.on('error', () => resolve(true));
      });
      assert.ok(refused, 's_server still listening after the run');
    });

    it(
      'marks "TLS 1.2 forced on both sides" unsupported exactly where s_time cannot force its client',
      { skip: version === '1.1.1w' ? false : 'runs s_time for 3 s per section elsewhere' },
      async () => {
        const task = sTimeBenchmark.tasks({ record: b!.record, prefix: b!.prefix }, 'full').find((t) => t.id.endsWith('forced-both'))!;
        const outs = await task.run();
        assert.ok(outs.length === 2 && outs.every((o) => !('value' in o) && o.status === 'unsupported' && /-tls1_2/.test(o.reason)));
      },
    );
  });
}

/**
 * openssl processes (s_server, s_time, s_client) descended from `pid`, with their command lines; zombies
 * count as gone. Descendants, not children: a server runs under the shell that leads its process group,
 * and that shell can be gone a moment before the server it kills.
 */
function opensslDescendants(pid: number): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  for (let level = childPids(pid); level.length; level = level.flatMap(childPids))
    for (const p of level) {
      try {
        const cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' ');
        if (aliveNotZombie(p) && /openssl (s_server|s_time|s_client)/.test(cmd)) out.push({ pid: p, cmd });
      } catch {
        // gone meanwhile
      }
    }
  return out;
}
const aliveNotZombie = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0] !== 'Z';
  } catch {
    return false;
  }
};
const until = async (what: string, ok: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (ok()) return;
  assert.fail(`${what} within ${ms} ms`);
};

const stBuild = findCached('1.1.1w', 'default') ?? findCached('4.0.3', 'default');
describe('a signal to a running s_time benchmark never leaves s_server behind', { skip: needs(stBuild, 'neither 1.1.1w nor 4.0.3 is built') }, () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGKILL'] as const)
    it(signal, async () => {
      await ensureCerts({ record: stBuild!.record, prefix: stBuild!.prefix });
      const script = `
        const { runSTime } = await import(${JSON.stringify(new URL('./s-time.ts', import.meta.url).href)});
        await runSTime(${JSON.stringify(stBuild!.prefix)}, { proto: '1.2', cert: 'ecdsa-p256', forced: 'server' }, 60);`;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
      let procs: { pid: number; cmd: string }[] = [];
      // wait until s_time is measuring against its server
      await until(
        's_server and s_time running',
        () => (procs = opensslDescendants(child.pid!)).some((p) => p.cmd.includes('s_time')) && procs.some((p) => p.cmd.includes('s_server')),
        20_000,
      );
      const server = procs.find((p) => p.cmd.includes('s_server'))!;
      const port = Number(/-accept 127\.0\.0\.1:(\d+)/.exec(server.cmd)![1]);
      const exited = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_code, sig) => r(sig)));
      child.kill(signal);
      assert.equal(await exited, signal, 'node dies of the signal it got');
      await until(`every openssl process gone after ${signal}`, () => procs.every((p) => !aliveNotZombie(p.pid)), 5_000);
      const refused = await new Promise<boolean>((resolve) => {
        const s = connect(port, '127.0.0.1');
        s.on('connect', () => (s.destroy(), resolve(false)));
        s.on('error', () => resolve(true));
      });
      assert.ok(refused, `s_server still listening on ${port} after ${signal}`);
    });
});
