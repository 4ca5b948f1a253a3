// A local build (npm start: aggregate --local-host) opens on the machine that just ran, beside the committed
// machines, and says its figures are indicative where its run was not quiet (issue 28 point 7).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DetailedIterations, Summary, type Host } from '../../../schema/index.ts';
import { compareFiles } from './compare/data.ts';
import { rankHosts } from './hosts.ts';
import { machineLabel, machineTexts } from './machines.ts';
import { pickHost } from './known-issues.ts';

const dir = new URL('../../tests/fixtures/data/', import.meta.url);
const fixture = Summary.parse(JSON.parse(readFileSync(new URL('summary.json', dir), 'utf8')));
const detailed = DetailedIterations.parse(JSON.parse(readFileSync(new URL('detailed-iterations.json', dir), 'utf8')));
const ME = 'newcomer.cpu-abc123';
const PROJECT = 'obs-devbox-2c.amd-epyc-a00213';

/** The fixture's host as a project machine, and a newcomer's machine with a not-quiet run of its own. */
function localSummary(local: boolean): Summary {
  const mine = fixture.runs.map((r) => ({
    ...r,
    runId: `${r.runId}-me`,
    host: ME,
    quiet: false,
    quietReasons: ['round 1: other processes used 85% of a CPU'],
    ...(local ? { local: true as const } : {}),
  }));
  const host: Host = { ...fixture.hosts[0]!, id: ME };
  return {
    ...fixture,
    hosts: [...fixture.hosts.map((h) => ({ ...h, id: PROJECT })), host],
    runs: [...fixture.runs.map((r) => ({ ...r, host: PROJECT })), ...mine],
    entries: [...fixture.entries.map((e) => ({ ...e, host: PROJECT })), ...fixture.entries.map((e) => ({ ...e, host: ME, runId: `${e.runId}-me` }))],
  };
}

test('the local machine ranks first, before the project machines; in the committed summary it does not rank at all', () => {
  const local = localSummary(true);
  assert.deepEqual(rankHosts([PROJECT, ME], local.runs), [ME, PROJECT]);
  // without the local mark the newcomer is a contributed machine: it never opens a view (issue 30)
  assert.deepEqual(rankHosts([PROJECT, ME], localSummary(false).runs), [PROJECT]);
  // the default views follow: compare, known issues
  const files = compareFiles(local, detailed);
  assert.equal(files.index.machines[0], ME);
  assert.deepEqual(files.index.defaults, { a: `${ME}/3.4.1`, b: `${ME}/3.5.7` });
  assert.deepEqual(
    files.index.indicative.sort(),
    local.runs
      .filter((r) => r.host === ME)
      .map((r) => r.runId)
      .sort(),
  );
  assert.equal(pickHost(local), ME);
  assert.equal(pickHost(localSummary(false)), PROJECT);
});

test('the local machine is named as this computer, "not quiet: indicative" where its run was not', () => {
  const local = localSummary(true);
  assert.match(machineLabel(ME, local.hosts, null, local.runs).text, /\(this computer, not quiet: indicative\)$/);
  assert.doesNotMatch(machineLabel(PROJECT, local.hosts, null, local.runs).text, /this computer|indicative/);
  const quiet = local.runs.map((r) => ({ ...r, quiet: true }));
  assert.match(machineLabel(ME, local.hosts, null, quiet).text, /\(this computer\)$/);
  assert.match(machineTexts(local.hosts, local.runs)[ME]!, /not quiet: indicative/);
  // the committed site: no local run, the description alone
  const committed = localSummary(false);
  assert.equal(machineLabel(ME, committed.hosts, null, committed.runs).text, machineLabel(ME, committed.hosts).text);
  assert.doesNotMatch(machineLabel(ME, committed.hosts, null, committed.runs).text, /this computer/);
});
