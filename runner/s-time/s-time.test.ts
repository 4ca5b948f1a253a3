import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Series } from '../../schema/index.ts';
import { seriesKey } from '../benchmark.ts';
import { CASES, FIXTURE_DIR } from './capture-fixtures.ts';
import { parseBrief, parseSTime, S_TIME_TLS13_REUSE, sTimeConfigs, sTimeOutcomes, sTimeSpec, type STimeConfig, type STimeRun } from './s-time.ts';

type Fixture = STimeRun & STimeConfig & { version: string; www?: string };
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
        assert.equal(
          fixtures.some((x) => x.f.version === v && x.name === c),
          expected,
          `${v} ${c}`,
        );
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
        // s_time -reuse resumes no TLS 1.3 session in any of these versions (it never reads the ticket): unsupported, never a number
        assert.equal(parseSTime(f.stime, name).reuse!.reused, 0);
        assert.ok(!('value' in reuse) && reuse.status === 'unsupported');
        assert.equal(reuse.reason, S_TIME_TLS13_REUSE);
      }
    });
  }

  it("bytes read: none without -www; with it, every version reads s_server's status page, the total and the per-connection figure agreeing", () => {
    const www = fixtures.filter((x) => x.f.www);
    assert.equal(new Set(www.map((x) => x.f.version)).size, new Set(fixtures.map((x) => x.f.version)).size, 'a -www capture from every version');
    for (const { name, f } of fixtures) {
      const out = parseSTime(f.stime, name);
      for (const s of [out.new!, out.reuse!]) {
        if (!f.www) assert.deepEqual([s.bytesRead, s.bytesPerConnection], [0, 0], `${f.version} ${name}`);
        else {
          // the status page lists the ciphers, a few KB; s_time's per-connection figure is the total over the count, rounded down
          assert.ok(s.bytesPerConnection > 2000 && s.bytesPerConnection < 20000, `${f.version} ${name}: ${s.bytesPerConnection} bytes per connection`);
          assert.equal(s.bytesPerConnection, Math.floor(s.bytesRead / s.connections));
        }
      }
    }
    const f = www[0]!.f;
    assert.throws(
      () => parseSTime(f.stime.replace(/ (\d+) bytes read per connection/, ' 1 bytes read per connection'), 'x'),
      /x: new section reads \d+ bytes in \d+ connections but 1 per connection/,
    );
  });

  it('refuses text that is not s_time output, and inconsistent counts', () => {
    assert.throws(() => parseSTime('connect: Connection refused', 'x'), /x: not s_time output/);
    const f = fixtures[0]!.f;
    assert.throws(() => parseSTime(f.stime.replace(/^(\d+) connections in (\d+) real/m, '1 connections in $2 real'), 'x'), /counts/);
  });

  it('a TLS 1.3 -reuse section that did resume is measured; one that resumed only some connections fails', () => {
    const f = fixtures.find((x) => x.f.proto === '1.3')!.f;
    const [head, tail] = f.stime.split('Now timing with session id reuse');
    const resumed = `${head}Now timing with session id reuse${tail!.replace(/^\*+$/m, (m) => 'r'.repeat(m.length))}`;
    assert.ok('value' in sTimeOutcomes(f, { ...f, stime: resumed }, 'x')[1]!);
    const some = `${head}Now timing with session id reuse${tail!.replace(/^\*(\*+)$/m, (_, rest: string) => `r${rest}`)}`;
    const o = sTimeOutcomes(f, { ...f, stime: some }, 'x')[1]!;
    assert.ok(!('value' in o) && o.status === 'failed' && /did not resume: \d+ of \d+/.test(o.reason));
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
