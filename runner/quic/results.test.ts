// The committed results file(s): valid against the schema, and the issue's "Done when": the 3.5+
// default ClientHello needs more than one QUIC Initial, 3.4's fits in one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MtuResults, describeIssues } from '../../schema/index.ts';

const DIR = join(import.meta.dirname, '..', '..', 'data', 'mtu');
const files = existsSync(DIR) ? readdirSync(DIR).filter((f) => f.endsWith('.json')) : [];
const series = (v: string) => v.split('.').slice(0, 2).join('.');

test('a results file is committed', () => assert.ok(files.length > 0, `no data/mtu/*.json: run npm run mtu`));

for (const f of files) {
  test(`data/mtu/${f}: valid, and the 3.5+ default ClientHello exceeds one Initial while 3.4's fits`, () => {
    const parsed = MtuResults.safeParse(JSON.parse(readFileSync(join(DIR, f), 'utf8')));
    assert.ok(parsed.success, parsed.success ? '' : describeIssues(parsed.error));
    const r = parsed.data;
    const defaults = r.clientHellos.filter((e) => e.config.id === 'default' && e.status === 'measured');
    const at1200 = (v: string) => defaults.find((e) => e.version === v)?.plans?.find((p) => p.maxDatagramBytes === 1200);
    const v34 = defaults.find((e) => series(e.version) === '3.4');
    assert.ok(v34, 'no measured 3.4 default ClientHello');
    assert.equal(at1200(v34.version)!.packets, 1);
    const pq = defaults.filter((e) => ['3.5', '3.6', '4.0'].includes(series(e.version)));
    assert.ok(pq.length > 0, 'no measured 3.5+ default ClientHello');
    for (const e of pq) {
      assert.ok(at1200(e.version)!.packets > 1, `${e.version}`);
      // measured, not assumed: the hybrid share is in the ClientHello the library wrote
      assert.ok(
        e.tcp!.keyShares.some((k) => k.group === 'X25519MLKEM768' && k.bytes === 1216),
        e.version,
      );
      if (e.measuredFirstFlight) assert.equal(e.measuredFirstFlight.datagrams, at1200(e.version)!.packets, `${e.version}: real datagrams vs model`);
    }
    // every entry that is not measured says why
    for (const e of [...r.clientHellos, ...r.serverFlights, ...r.helloRetries, ...r.quicHandshakes])
      if (e.status !== 'measured') assert.ok(e.reason, `${e.version} ${e.config.id}: ${e.status} without a reason`);
  });
}
