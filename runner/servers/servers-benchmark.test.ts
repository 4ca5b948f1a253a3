import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Series } from '../../schema/base.ts';
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
