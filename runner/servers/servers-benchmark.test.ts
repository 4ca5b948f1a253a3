import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { seriesKey } from '../benchmark.ts';
import { Series } from '../../schema/index.ts';
import { SERVERS } from '../../catalogue/servers.ts';
import { serverInstructionsSpec, serverShapes, serverSpec } from './servers-benchmark.ts';

test('every series label of the servers benchmark fits the run schema, so a run that measured them can be written', () => {
  for (const release of SERVERS)
    for (const s of serverShapes('full'))
      for (const spec of [serverSpec(release, s), serverInstructionsSpec(release, s)]) {
        const r = Series.shape.label.safeParse(spec.label);
        assert.ok(r.success, `${spec.label.length} characters: ${spec.label}`);
      }
});

test("the nginx short-connection write-up names the benchmark's own series keys (CPU time, then instructions)", () => {
  const file = fileURLToPath(new URL('../../site/src/content/writeups/known-issue-nginx-short-connections.md', import.meta.url));
  const keys = [...readFileSync(file, 'utf8').matchAll(/^\s+- key: "([^"]+)"$/gm)].map((m) => m[1]);
  const nginx = SERVERS.find((r) => r.server === 'nginx')!;
  const shape = serverShapes('quick').find((s) => s.workload === 'short' && s.proto === '1.3' && s.cert === 'ecdsa-p256')!;
  assert.deepEqual(keys, [seriesKey(serverSpec(nginx, shape)), seriesKey(serverInstructionsSpec(nginx, shape))]);
});
