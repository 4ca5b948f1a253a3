// End to end, quick mode: the command builds what it needs (cached), measures, and writes a results
// file that validates, with every claim for both certificate types and both lines of evidence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HypothesisResult, nameOfMachine } from '../../schema/index.ts';

test('npm run test:mlkem-hypothesis -- --quick runs end to end and writes a valid result', { timeout: 40 * 60_000 }, () => {
  const out = mkdtempSync(join(tmpdir(), 'hypothesis-'));
  const r = spawnSync('bash', ['scripts/test-mlkem-hypothesis.sh', '--quick', '--rounds', '3', '--out', out, '--host-id', 'ci'], { encoding: 'utf8' });
  assert.equal(r.status, 0, `exit ${r.status}\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
  assert.match(r.stdout, /claim\s+cert\s+side\s+CPU ratio/, 'prints the table');
  assert.match(r.stdout, /CONCLUSION: /);
  // the result goes into the folder of this machine's id: the name given plus the hardware's fingerprint
  const machines = readdirSync(out);
  assert.equal(machines.length, 1);
  assert.equal(nameOfMachine(machines[0]!), 'ci', machines[0]);
  const files = readdirSync(join(out, machines[0]!));
  assert.equal(files.length, 1);
  const result = HypothesisResult.parse(JSON.parse(readFileSync(join(out, machines[0]!, files[0]!), 'utf8')));
  assert.equal(result.host.id, machines[0]);
  assert.equal(result.host.name, 'ci');
  assert.equal(result.mode, 'quick');
  assert.equal(result.progress.stoppedBecause === 'fixed-rounds' || result.progress.stoppedBecause === 'all-decided', true);
  for (const id of ['H1', 'H2', 'H3', 'H4a', 'H4b'])
    for (const cert of ['rsa2048', 'ecdsa-p256']) {
      const c = result.claims.find((h) => h.id === id && h.cert === cert);
      assert.ok(c, `${id} ${cert}`);
      assert.notEqual(c.instructions.verdict, 'not-measured', `${id} ${cert}: instruction line`);
    }
  assert.equal(result.claims.find((c) => c.id === 'H4a')!.side, 'client');
  assert.equal(result.claims.find((c) => c.id === 'H4b')!.side, 'server');
  for (const ic of result.instructionCounts) assert.ok(Math.abs(ic.clientInstructions + ic.serverInstructions - ic.totalInstructions) < 1);
  const obs = (id: string) => result.configurations.find((c) => c.id === id)!.observed['ecdsa-p256']!;
  assert.equal(obs('v35-default').negotiatedGroup, 'X25519MLKEM768');
  assert.equal(obs('v35-ecdh').negotiatedGroup, 'X25519');
  assert.equal(obs('v34-default').negotiatedGroup, 'X25519');
  assert.match(String(obs('v35-classic-server').clientKeyShares), /X25519MLKEM768:1216/, 'the default client sends its hybrid share to a classic server');
  assert.equal(obs('v35-classic-server').negotiatedGroup, 'X25519');
  assert.equal(result.blocks.filter((b) => !b.warmup && b.config === 'v35-default').length, 3 * 2);
  assert.ok(result.conclusion.length > 0);
});
