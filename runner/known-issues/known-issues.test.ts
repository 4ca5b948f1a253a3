import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { DEFAULT_MATRIX } from '../../catalogue/index.ts';
import { Series, describeIssues } from '../../schema/index.ts';
import { seriesKey } from '../benchmark.ts';
import { causesMatrix } from '../causes/causes.ts';
import { handshakeMatrix, specsOf } from '../handshake/handshake.ts';
import { lockCounts, normaliseName, parseCallgrindCalls, perOperation } from './callgrind-calls.ts';
import { COMPLAINTS, OP_DEFS, OPS, writeupSeries } from './complaints.ts';
import { PLAN, taskSpecs } from './known-issues.ts';
import { parseRunOutput, PROGRAM_OPS, type ProgramOp } from './output.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const versions = existsSync(FIXTURES) ? readdirSync(FIXTURES).sort() : [];
interface Fixture {
  version: string;
  argv: string[];
  exitCode: number;
  stdout: string;
}
const fixture = (v: string, name: string): Fixture => JSON.parse(readFileSync(join(FIXTURES, v, name), 'utf8')) as Fixture;
const arg = (f: Fixture, name: string) => f.argv[f.argv.indexOf(name) + 1]!;
const profile = (v: string, op: string, n: number) =>
  parseCallgrindCalls(gunzipSync(readFileSync(join(FIXTURES, v, `callgrind-${op}-${n}.out.gz`))).toString('utf8'), `${v} ${op} x${n}`);

test('fixtures come from real runs of every version of the default matrix', () => {
  for (const v of DEFAULT_MATRIX) assert.ok(versions.includes(v), `no fixtures of ${v}: node runner/known-issues/capture-fixtures.ts ${v}`);
});

for (const v of versions) {
  test(`${v}: every operation's native output parses, and says what ran`, () => {
    for (const op of PROGRAM_OPS) {
      const f = fixture(v, `${op}.json`);
      const p = parseRunOutput(f.stdout, f.exitCode, { op, count: Number(arg(f, '--count')), deterministic: false }, `${v}/${op}`);
      assert.equal(p.kind, 'run', `${v}/${op}: ${p.kind === 'run' ? '' : p.reason}`);
      if (p.kind !== 'run') continue;
      const o = p.out;
      assert.ok(o.openssl.startsWith(`OpenSSL ${v} `), o.openssl);
      assert.ok(o.cpuNs! > 0, `${v}/${op}: CPU time measured`);
      assert.equal(o.underValgrind, false);
      if (op === 'ca-bundle') assert.equal(o.bundleCertificates, 200);
      if (op.startsWith('aead')) assert.deepEqual([o.recordBytes, o.aadBytes], [16, 13]);
      if (op.startsWith('dtls')) assert.equal(o.cipher, 'PSK-AES128-GCM-SHA256');
      if (op === 'dtls-heap') {
        assert.ok(o.heap!.serverBytesPerConnection > 10_000 && o.heap!.clientBytesPerConnection > 10_000, JSON.stringify(o.heap));
        assert.equal(o.heap!.connections, o.count);
      }
    }
  });

  test(`${v}: an unknown operation is a usage error, not a measurement`, () => {
    const f = fixture(v, 'usage-error.json');
    assert.equal(f.exitCode, 64);
    const p = parseRunOutput(f.stdout, f.exitCode, { op: 'ctx-new', count: 100, deterministic: false }, `${v}/usage`);
    assert.deepEqual(p, { kind: 'failed', reason: 'unknown operation no-such-op' });
  });

  test(`${v}: callgrind files give exact per-call counts from the n / 2n pair, and the runs reported valgrind`, () => {
    for (const [op, n] of [
      ['x509-der', PLAN['x509-der'].callgrind],
      ['ctx-new', PLAN['ctx-new'].callgrind],
    ] as const) {
      for (const count of [n, 2 * n]) {
        const f = fixture(v, `callgrind-${op}-${count}.json`);
        const p = parseRunOutput(f.stdout, f.exitCode, { op, count, deterministic: true }, `${v}/${op} x${count}`);
        assert.ok(p.kind === 'run' && p.out.underValgrind && p.out.cpuNs === undefined, `${v}/${op} x${count} under valgrind, no clock reads`);
      }
      const small = profile(v, op, n);
      const large = profile(v, op, 2 * n);
      const per = perOperation(small, large, n, `${v}/${op}`);
      for (const [k, c] of Object.entries(per))
        assert.ok(Number.isInteger(c), `${v}/${op}: ${k} per call ${c} is not a whole number: the two runs did not differ by exactly n calls`);
      // every lock taken in the measured calls is released in them
      const unlock = (p: typeof small) => p.calls.get('CRYPTO_THREAD_unlock') ?? 0;
      assert.equal((unlock(large) - unlock(small)) / n, per['read-lock'] + per['write-lock'], `${v}/${op}: unlocks per call`);
      // collection is on only around the measured calls: twice the calls, twice the instructions, give or take the loop
      const ratio = large.instructions / small.instructions;
      assert.ok(ratio > 1.9 && ratio < 2.1, `${v}/${op}: instructions ${small.instructions} then ${large.instructions}`);
      assert.equal(per['library-locks'], per['read-lock'] + per['write-lock'] + per['rcu-lock']);
    }
  });
}

test('3.x creates an SSL_CTX with more library lock calls, and with atomic calls, where 1.1.1w has none', () => {
  const perCtx = (v: string) =>
    perOperation(profile(v, 'ctx-new', PLAN['ctx-new'].callgrind), profile(v, 'ctx-new', 2 * PLAN['ctx-new'].callgrind), PLAN['ctx-new'].callgrind, v);
  const old = perCtx('1.1.1w');
  assert.equal(old.atomic, 0);
  assert.equal(old['rcu-lock'], 0);
  for (const v of versions.filter((x) => !x.startsWith('1.1.1'))) {
    const c = perCtx(v);
    assert.ok(c['library-locks'] > old['library-locks'], `${v}: ${c['library-locks']} library lock calls per SSL_CTX_new, 1.1.1w ${old['library-locks']}`);
    assert.ok(c.atomic > 0, `${v}: atomic calls per SSL_CTX_new`);
  }
});

test('names are normalised: glibc symbol versions, internal aliases and recursion levels', () => {
  assert.equal(normaliseName('pthread_rwlock_wrlock@@GLIBC_2.34'), 'pthread_rwlock_wrlock');
  assert.equal(normaliseName('___pthread_mutex_lock'), 'pthread_mutex_lock');
  assert.equal(normaliseName("ossl_namemap_name2num'2"), 'ossl_namemap_name2num');
  assert.equal(normaliseName('__libc_malloc'), '__libc_malloc');
  const counts = lockCounts(
    new Map([
      ['CRYPTO_THREAD_read_lock', 3],
      ['CRYPTO_THREAD_write_lock', 2],
      ['ossl_rcu_read_lock', 4],
      ['ossl_rcu_write_lock', 1],
      ['CRYPTO_atomic_add', 5],
      ['CRYPTO_atomic_load_int', 1],
      ['ossl_rcu_uptr_deref', 2],
      ['pthread_rwlock_rdlock', 3],
      ['pthread_mutex_trylock', 1],
      ['pthread_rwlock_unlock', 5],
      ['CRYPTO_THREAD_unlock', 5],
    ]),
  );
  assert.deepEqual(counts, { 'library-locks': 10, 'read-lock': 3, 'write-lock': 2, 'rcu-lock': 5, atomic: 8, 'pthread-lock': 4 });
});

test('the callgrind parser refuses what it cannot trust', () => {
  const good = gunzipSync(readFileSync(join(FIXTURES, '1.1.1w', `callgrind-x509-der-${PLAN['x509-der'].callgrind}.out.gz`))).toString('utf8');
  assert.throws(() => parseCallgrindCalls('{"not":"callgrind"}', 'json'), /not a callgrind output file/);
  assert.throws(() => parseCallgrindCalls(good.replace(/^events: Ir$/m, 'events: Ir Dr'), 'events'), /events: Ir/);
  assert.throws(() => parseCallgrindCalls(good.replace('part: 1', 'part: 1\npart: 2'), 'parts'), /2 parts/);
  assert.throws(() => parseCallgrindCalls(good.replace(/^totals:.*$/m, '').replace(/^summary:.*$/m, ''), 'totals'), /totals/);
  assert.throws(() => parseCallgrindCalls('# callgrind format\nevents: Ir\ncfn=(7)\ncalls=1 2\n', 'unnamed'), /used before it was named/);
  assert.throws(() => parseCallgrindCalls('# callgrind format\nevents: Ir\nfn=(1) main\ncalls=1 2\n', 'no cfn'), /without a cfn/);
  // uncompressed names are accepted too
  const plain = parseCallgrindCalls('# callgrind format\nevents: Ir\nfn=main\ncfn=CRYPTO_THREAD_write_lock\ncalls=2 10\n5 7\ntotals: 12\n', 'plain');
  assert.equal(plain.calls.get('CRYPTO_THREAD_write_lock'), 2);
  assert.equal(plain.instructions, 12);
  const p = parseCallgrindCalls(good, 'good');
  assert.throws(() => perOperation(profile('1.1.1w', 'x509-der', 2 * PLAN['x509-der'].callgrind), p, 10, 'swapped'), /fell/);
});

test('the output parser refuses a run that is not what was asked', () => {
  const f = fixture(versions[0]!, 'x509-der.json');
  const count = Number(arg(f, '--count'));
  const ask = { op: 'x509-der' as ProgramOp, count, deterministic: false };
  assert.throws(() => parseRunOutput(f.stdout, f.exitCode, { ...ask, op: 'ctx-new' }, 'op'), /ran x509-der/);
  assert.throws(() => parseRunOutput(f.stdout, f.exitCode, { ...ask, count: count + 1 }, 'count'), /asked for x509-der/);
  assert.throws(() => parseRunOutput(f.stdout, f.exitCode, { ...ask, deterministic: true }, 'mode'), /deterministic mode/);
  assert.throws(() => parseRunOutput(f.stdout, 1, ask, 'exit'), /exit code 1/);
  assert.throws(() => parseRunOutput('Segmentation fault', 139, ask, 'text'), /not JSON/);
  assert.throws(() => parseRunOutput(f.stdout.replace('"cpuNs"', '"cpuMs"'), 0, ask, 'field'), /unexpected known_issues output/);
  const u = JSON.stringify({ unsupported: true, reason: 'DTLS 1.2 only: no', openssl: 'OpenSSL 9.9.9 x' });
  assert.throws(() => parseRunOutput(u, 0, ask, 'unsupported with exit 0'), /exit code 0/);
  assert.deepEqual(parseRunOutput(u, 2, ask, 'unsupported'), { kind: 'unsupported', reason: 'DTLS 1.2 only: no' });
});

test('the P-256 key decodes are the RSA ones with another key: same encodings, same repetitions, key ecdsa-p256', () => {
  for (const [rsa, p256] of [
    ['pkey-pem', 'pkey-pem-p256'],
    ['pkey-der', 'pkey-der-p256'],
  ] as const) {
    const { key: k1, ...a } = OP_DEFS[rsa].params;
    const { key: k2, ...b } = OP_DEFS[p256].params;
    assert.deepEqual([k1, k2], ['rsa2048', 'ecdsa-p256']);
    assert.deepEqual(b, a, `${p256}: parameters besides the key`);
    assert.deepEqual(PLAN[p256], PLAN[rsa], `${p256}: repetitions`);
  }
  assert.deepEqual(COMPLAINTS.find((c) => c.id === 'pkey-decode')!.ops, ['pkey-pem', 'pkey-der', 'pkey-pem-p256', 'pkey-der-p256']);
  // the program names what it ran: a P-256 output is not taken for the RSA operation
  const f = fixture(versions[0]!, 'pkey-pem-p256.json');
  assert.throws(
    () => parseRunOutput(f.stdout, f.exitCode, { op: 'pkey-pem', count: Number(arg(f, '--count')), deterministic: false }, 'key'),
    /ran pkey-pem-p256/,
  );
});

test('series keys are unique, and none is measured by the handshake or causes benchmarks in the same mode', () => {
  const all = Object.values(taskSpecs()).flat().map(seriesKey);
  assert.equal(new Set(all).size, all.length, 'duplicate series keys');
  for (const mode of ['quick', 'full'] as const) {
    const theirs = new Set([...handshakeMatrix(mode), ...causesMatrix(mode)].flatMap(specsOf).map(seriesKey));
    assert.deepEqual(
      all.filter((k) => theirs.has(k)),
      [],
      `${mode}: series measured twice in one round`,
    );
  }
});

test('every complaint draws on series that a benchmark of the default set emits', () => {
  const emitted = new Set([...Object.values(taskSpecs()).flat().map(seriesKey), ...handshakeMatrix('quick').flatMap(specsOf).map(seriesKey)]);
  for (const c of COMPLAINTS) {
    assert.ok(emitted.has(c.statusKey), `${c.id}: status series ${c.statusKey} is not emitted`);
    for (const s of writeupSeries(c)) assert.ok(emitted.has(s.key), `${c.id}: write-up series ${s.key} is not emitted`);
  }
  assert.deepEqual(Object.keys(PLAN).sort(), [...OPS, 'dtls-heap'].sort());
});

test("each complaint's write-up exists and names exactly the complaint's series", () => {
  const dir = fileURLToPath(new URL('../../site/src/content/writeups/', import.meta.url));
  for (const c of COMPLAINTS) {
    const file = join(dir, `${c.writeup}.md`);
    assert.ok(existsSync(file), `${c.id}: no write-up ${file}`);
    const keys = [...readFileSync(file, 'utf8').matchAll(/^\s+- key: "([^"]+)"$/gm)].map((m) => m[1]);
    assert.deepEqual(
      keys,
      writeupSeries(c).map((s) => s.key),
      `${c.writeup}.md series`,
    );
    assert.ok(keys.includes(c.statusKey), `${c.writeup}.md shows the status series`);
  }
});

test('every series the benchmark emits is a valid run-file series (labels, units, methods, parameters)', () => {
  for (const [task, specs] of Object.entries(taskSpecs()))
    for (const spec of specs) {
      const r = Series.safeParse({
        ...spec,
        key: seriesKey(spec),
        buildId: 'b-111w',
        status: 'measured',
        iterations: [{ round: 1, value: 1, at: '2026-01-01T00:00:00Z', warmup: false }],
      });
      assert.ok(r.success, `${task} ${seriesKey(spec)}: ${r.success ? '' : describeIssues(r.error)}`);
    }
});
