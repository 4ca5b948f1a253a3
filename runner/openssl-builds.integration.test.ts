// Real builds (from the cache when warm): the oldest and newest catalogued series, and the no-ml-kem
// variant of the newest 3.5 against its default build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { appEnv, buildMany } from './build/build.ts';
import { damage, installedHashes } from './build/cache.ts';
import { programEnv } from './child-guard.ts';
import { readFileSync } from 'node:fs';
import { provenanceProblems } from '../checks/provenance.ts';
import { resolveVersion } from '../catalogue/index.ts';

const wanted = [
  { version: resolveVersion('1.1.1w'), variant: 'default' },
  { version: resolveVersion('4.0'), variant: 'default' },
  { version: resolveVersion('3.5'), variant: 'default' },
  { version: resolveVersion('3.5'), variant: 'no-ml-kem' },
];
const { built, failed } = await buildMany(wanted, (v, variant, step) => {
  if (step === 'make') console.log(`# building OpenSSL ${v} (${variant}) for the tests`);
});

const openssl = (version: string, variant: string, args: string[]) => {
  const b = built.find((x) => x.req.version.version === version && x.req.variant === variant);
  assert.ok(b, `OpenSSL ${version}/${variant} did not build: ${failed.map((f) => `${f.error} ${f.log ?? ''}`).join('; ')}`);
  return execFileSync(join(b.build.prefix, 'bin', 'openssl'), args, { encoding: 'utf8', env: programEnv(appEnv(b.build.prefix)) });
};

test('every build reports the catalogued version', () => {
  assert.deepEqual(failed, []);
  for (const { req, build } of built) {
    assert.match(openssl(req.version.version, req.variant, ['version']), new RegExp(`^OpenSSL ${req.version.version.replace(/\./g, '\\.')} `));
    assert.equal(build.record.versionString.split(' ')[1], req.version.version);
  }
});

test('the no-ml-kem variant of the newest 3.5 lacks ML-KEM and the default build has it', () => {
  const v = resolveVersion('3.5').version;
  const withKem = openssl(v, 'default', ['list', '-kem-algorithms']);
  const without = openssl(v, 'no-ml-kem', ['list', '-kem-algorithms']);
  assert.match(withKem, /ML-KEM-768/);
  assert.match(withKem, /X25519MLKEM768/);
  assert.doesNotMatch(without, /ML-KEM|MLKEM/);
});

test('build.json records the sha256 of the installed app and libraries, and they match; the record passes the provenance checks', () => {
  for (const { build } of built) {
    const recorded = JSON.parse(readFileSync(join(build.dir, 'build.json'), 'utf8')).installed as Record<string, string>;
    for (const f of ['bin/openssl', 'lib/libcrypto.a', 'lib/libssl.a']) assert.match(recorded[f] ?? '', /^[0-9a-f]{64}$/, `${build.dir}: ${f}`);
    assert.deepEqual(recorded, installedHashes(build.prefix));
    assert.equal(damage({ ...build, installed: recorded }), null);
    assert.deepEqual(provenanceProblems(build.record, process.arch), [], `${build.dir}: what a real build records is what the validator expects`);
  }
});
