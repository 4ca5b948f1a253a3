import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Series } from '../../schema/index.ts';
import { seriesKey } from '../benchmark.ts';
import { findCached } from '../build.ts';
import { ensureCerts } from '../handshake/handshake.ts';
import { CASES, FIXTURE_DIR } from './capture-fixtures.ts';
import { parseBrief, parseSTime, runSTime, sTimeBenchmark, sTimeConfigs, sTimeHasProtocolOptions, sTimeOutcomes, sTimeSpec, type STimeConfig, type STimeRun } from './s-time.ts';

type Fixture = STimeRun & STimeConfig & { version: string };
const fixtures = readdirSync(FIXTURE_DIR).flatMap((v) =>
  readdirSync(join(FIXTURE_DIR, v)).map((f) => ({ name: f.replace(/\.json$/, ''), f: JSON.parse(readFileSync(join(FIXTURE_DIR, v, f), 'utf8')) as Fixture })),
);

describe('s_time parser on captured output', () => {
  it('has output from 1.1.1, 3.x and 4.0 for every case', () => {
    const versions = new Set(fixtures.map((x) => x.f.version));
    for (const v of ['1.1.1w', '4.0.3']) assert.ok(versions.has(v), `no fixtures from ${v}`);
    assert.ok([...versions].some((v) => v.startsWith('3.')));
    for (const v of versions)
      for (const [c, cfg] of Object.entries(CASES)) {
        // 1.1.1's s_time cannot limit its client's protocol: that case does not exist there
        const expected = !(cfg.forced === 'both' && v.startsWith('1.1.1'));
        assert.equal(fixtures.some((x) => x.f.version === v && x.name === c), expected, `${v} ${c}`);
      }
  });

  for (const { name, f } of fixtures) {
    it(`${f.version} ${name}`, () => {
      const out = parseSTime(f.stime, name);
      assert.ok(out.new && out.reuse);
      assert.equal(out.new.reused, 0);
      assert.ok(out.new.perUserSecond > 0 && out.new.connections > 0);
      // s_time's rate is its connection count over the client's user CPU seconds (printed to 2 decimals)
      const ratio = out.new.connections / out.new.userSeconds / out.new.perUserSecond;
      assert.ok(Math.abs(ratio - 1) < 0.01, `rate ${out.new.perUserSecond} vs ${out.new.connections}/${out.new.userSeconds}`);
      assert.equal(parseBrief(f.brief).protocol, f.proto === '1.2' ? 'TLSv1.2' : 'TLSv1.3');
      const outcomes = sTimeOutcomes(f, f, name);
      assert.ok('value' in outcomes[0]!, 'new-session rate measured');
      const reuse = outcomes[1]!;
      if (f.proto === '1.2') {
        assert.ok('value' in reuse, 'TLS 1.2 -reuse resumes');
        assert.equal(reuse.observed?.resumptionVerified, true);
      } else {
        // s_time -reuse does not resume TLS 1.3 sessions in any of these versions: the series fails, never a number
        assert.ok(!('value' in reuse) && reuse.status === 'failed');
        assert.match(reuse.reason, /did not resume: \d+ of \d+/);
      }
    });
  }

  it('refuses text that is not s_time output, and inconsistent counts', () => {
    assert.throws(() => parseSTime('connect: Connection refused', 'x'), /x: not s_time output/);
    const f = fixtures[0]!.f;
    assert.throws(() => parseSTime(f.stime.replace(/^(\d+) connections in (\d+) real/m, '1 connections in $2 real'), 'x'), /counts/);
  });

  it('fails both series when the protocol is not the one asked', () => {
    const f = fixtures.find((x) => x.f.proto === '1.2')!.f;
    const outs = sTimeOutcomes(f, { ...f, brief: f.brief.replace('TLSv1.2', 'TLSv1.3') }, 'x');
    assert.ok(outs.every((o) => !('value' in o) && o.status === 'failed' && /asked for TLSv1.2/.test(o.reason)));
  });

  it('labels the value as client user CPU, valid series', () => {
    for (const cfg of sTimeConfigs('full'))
      for (const r of ['none', 'reuse'] as const) {
        const spec = sTimeSpec(cfg, r);
        assert.equal(spec.method, 'client-user-cpu');
        assert.match(spec.label, /CLIENT user CPU/);
        Series.parse({ ...spec, key: seriesKey(spec), buildId: 'b', status: 'measured', iterations: [] });
      }
  });
});

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

/** openssl processes (s_server, s_time, s_client) whose parent is `pid`, with their command lines; zombies count as gone. */
function opensslChildren(pid: number): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[1]) !== pid || f[0] === 'Z') continue;
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ');
      if (/openssl (s_server|s_time|s_client)/.test(cmd)) out.push({ pid: Number(name), cmd });
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
describe('a signal to a running s_time benchmark never leaves s_server behind', { skip: stBuild ? false : 'neither 1.1.1w nor 4.0.3 is built' }, () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGKILL'] as const)
    it(signal, async () => {
      await ensureCerts({ record: stBuild!.record, prefix: stBuild!.prefix });
      const script = `
        const { runSTime } = await import(${JSON.stringify(new URL('./s-time.ts', import.meta.url).href)});
        await runSTime(${JSON.stringify(stBuild!.prefix)}, { proto: '1.2', cert: 'ecdsa-p256', forced: 'server' }, 60);`;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
      let procs: { pid: number; cmd: string }[] = [];
      // wait until s_time is measuring against its server
      await until('s_server and s_time running', () => (procs = opensslChildren(child.pid!)).some((p) => p.cmd.includes('s_time')) && procs.some((p) => p.cmd.includes('s_server')), 20_000);
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
