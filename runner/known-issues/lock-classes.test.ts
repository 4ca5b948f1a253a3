// Lock and atomic calls by class of their immediate caller: the callgrind parser's caller attribution on
// small synthetic files and on real output of every default-matrix version (fixtures/<version>/: the
// TLS 1.3 full and resumed handshakes, trimmed, with the counts read from the untrimmed files at capture
// time; and the untrimmed ctx-new and x509-der files).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { DEFAULT_MATRIX } from '../../catalogue/index.ts';
import { seriesKey } from '../benchmark.ts';
import { parseHandshakeOutput } from '../handshake/output.ts';
import {
  lockCallers,
  lockCounts,
  namedCounts,
  parseCallgrindCalls,
  perOperation,
  perOperationByClass,
  trimCallgrind,
  type CallProfile,
  type ClassCounts,
} from './callgrind-calls.ts';
import { COMPLAINTS, LOCK_CLASS_OPS, LOCK_KINDS, lockClassSpec, lockSpec, OP_DEFS, TLS13_PINNED, TLS13_PINNED_RESUMED } from './complaints.ts';
import { callgrindSpecs, PLAN, taskSpecs } from './known-issues.ts';
import { CLASSED_KINDS, classOf, HELPER_CLASSES, LOCK_CLASS_DEFS, LOCK_CLASSES } from './lock-classes.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const versions = existsSync(FIXTURES) ? readdirSync(FIXTURES).sort() : [];
const gz = (v: string, name: string) => gunzipSync(readFileSync(join(FIXTURES, v, name))).toString('utf8');
const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);

// ------------------------------------------------------------------ synthetic

/** A callgrind file with compressed names, two callers of the read lock, a helper and a name defined in a cfn= line first. */
const synthetic = (reps: number) =>
  [
    '# callgrind format',
    'version: 1',
    'creator: callgrind-3.22.0',
    'positions: line',
    'events: Ir',
    'part: 1',
    'fl=(1) crypto/core_namemap.c',
    'fn=(1) ossl_namemap_name2num',
    '10 5',
    'cfn=(2) CRYPTO_THREAD_read_lock',
    `calls=${2 * reps + 1} 0`,
    '11 40',
    'cfn=(3) ossl_lib_ctx_get_data',
    `calls=${reps} 0`,
    '12 90',
    'fn=(3)',
    '20 3',
    'cfn=(2)',
    `calls=${3 * reps} 0`,
    '21 60',
    'fn=(4) inner_evp_generic_fetch.constprop.0',
    'cfn=(3)',
    `calls=${2 * reps} 0`,
    '30 90',
    'cfn=(5) CRYPTO_atomic_load',
    `calls=${reps} 0`,
    '31 4',
    'fn=(6) EVP_MD_up_ref',
    'cfn=(7) CRYPTO_THREAD_write_lock',
    `calls=${reps} 0`,
    '40 9',
    'fn=(8) some_new_function',
    'cfn=(9) ossl_rcu_read_lock',
    `calls=${reps + 2} 0`,
    '50 9',
    'cfn=(10) free',
    'calls=7 0',
    '51 9',
    `totals: ${1000 * reps}`,
    '',
  ].join('\n');

const synth = (reps: number) => parseCallgrindCalls(synthetic(reps), `synthetic x${reps}`);

test('each call is attributed to the fn= block it sits in (its immediate caller), summed over call sites', () => {
  const p = synth(3);
  assert.deepEqual(
    [...p.edges.get('CRYPTO_THREAD_read_lock')!],
    [
      ['ossl_namemap_name2num', 7],
      ['ossl_lib_ctx_get_data', 9],
    ],
  );
  assert.deepEqual(
    [...p.edges.get('ossl_lib_ctx_get_data')!],
    [
      ['ossl_namemap_name2num', 3],
      ['inner_evp_generic_fetch.constprop.0', 6],
    ],
  );
  assert.equal(p.calls.get('CRYPTO_THREAD_read_lock'), 16, 'calls per function are the sum over callers');
  const callers = lockCallers(p);
  assert.deepEqual(Object.fromEntries(callers['library-locks']), {
    ossl_namemap_name2num: 7,
    ossl_lib_ctx_get_data: 9,
    EVP_MD_up_ref: 3,
    some_new_function: 5,
  });
  assert.deepEqual(Object.fromEntries(callers.atomic), { 'inner_evp_generic_fetch.constprop.0': 3 });
  // a cfn= line belongs to its block: a calls= line after a new fn= line needs its own cfn= line
  assert.throws(
    () => parseCallgrindCalls('# callgrind format\nevents: Ir\nfn=(1) a\ncfn=(2) b\ncalls=1 0\n1 1\nfn=(3) c\ncalls=1 0\n1 1\ntotals: 1\n', 'stale cfn'),
    /without a cfn/,
  );
});

test('per operation by class: the n / 2n difference, each caller in one class, helpers named by their own callers', () => {
  const by = perOperationByClass(synth(3), synth(6), 3, 'synthetic');
  assert.deepEqual(
    Object.fromEntries(Object.entries(by.counts['library-locks']).filter(([, c]) => c)),
    { namemap: 2, 'lib-ctx': 3, refcount: 1, other: 1 },
    'read locks: 2 per op from the name map, 3 from ossl_lib_ctx_get_data; the write lock of EVP_MD_up_ref; the RCU lock of an unknown caller',
  );
  assert.deepEqual(Object.fromEntries(Object.entries(by.counts.atomic).filter(([, c]) => c)), { 'method-store': 1 }, 'a GCC clone is classed by its name');
  const totals = perOperation(synth(3), synth(6), 3, 'synthetic');
  for (const k of CLASSED_KINDS) assert.equal(sum(by.counts[k]), totals[k], `${k}: the classes sum to the total`);
  assert.deepEqual(by.callers['library-locks'].other, [['some_new_function', 1]]);
  assert.deepEqual(by.via['library-locks']['lib-ctx'], [
    ['inner_evp_generic_fetch.constprop.0', 2],
    ['ossl_namemap_name2num', 1],
  ]);
  assert.equal(by.via['library-locks'].namemap, undefined, 'only helper classes name their callers');
  assert.throws(() => perOperationByClass(synth(6), synth(3), 3, 'swapped'), /fell/);
  assert.throws(() => perOperationByClass(synth(3), synth(6), 0, 'n'), /positive/);
});

test('the class table: every caller seen in real output has its class, the first match wins, other takes the rest', () => {
  const cases: Record<string, string> = {
    ossl_method_store_cache_get: 'method-store',
    ossl_method_lock_store: 'method-store',
    'inner_evp_generic_fetch.constprop.0': 'method-store',
    provider_activate_fallbacks: 'method-store',
    ossl_provider_doall_activated: 'method-store',
    reserve_evp_method_store: 'method-store',
    ossl_property_name: 'property',
    ossl_property_value_str: 'property',
    ossl_namemap_name2num_n: 'namemap',
    ossl_namemap_doall_names: 'namemap',
    ossl_lib_ctx_get_data: 'lib-ctx',
    ossl_ht_get: 'hashtable',
    CRYPTO_free_ex_data: 'ex-data',
    ossl_crypto_new_ex_data_ex: 'ex-data',
    CRYPTO_new_ex_data: 'ex-data',
    SSL_has_matching_session_id: 'session',
    ssl_generate_session_id: 'session',
    SSL_get1_session: 'session',
    X509_STORE_lock: 'x509',
    ossl_x509_store_read_lock: 'x509',
    ossl_x509v3_cache_extensions: 'x509',
    x509v3_cache_extensions: 'x509',
    OSSL_DECODER_CTX_new_for_pkey: 'decoder',
    evp_keymgmt_util_clear_operation_cache: 'pkey',
    ENGINE_pkey_asn1_find_str: 'engine',
    OBJ_NAME_get: 'objects',
    OBJ_ln2nid: 'objects',
    RAND_get_rand_method: 'rng',
    ossl_err_get_state_int: 'err',
    OPENSSL_init_crypto: 'init',
    // reference counts first, whatever the object
    EVP_MD_up_ref: 'refcount',
    X509_free: 'refcount',
    SSL_SESSION_up_ref: 'refcount',
    ossl_provider_free: 'refcount',
    something_else: 'other',
  };
  for (const [caller, cls] of Object.entries(cases)) assert.equal(classOf(caller), cls, caller);
  assert.equal(LOCK_CLASSES.at(-1), 'other');
  assert.equal(new Set(LOCK_CLASSES).size, LOCK_CLASSES.length);
  assert.ok(LOCK_CLASS_DEFS.at(-1)!.callers.test(''), 'other matches every name');
  assert.deepEqual(HELPER_CLASSES, ['lib-ctx', 'hashtable', 'init']);
});

test('trimming keeps every call into the lock functions and into their callers, and nothing else', () => {
  const text = synthetic(3);
  const trimmed = trimCallgrind(text, 'synthetic');
  assert.ok(trimmed.startsWith('# callgrind format\n# trimmed'));
  const t = parseCallgrindCalls(trimmed, 'trimmed');
  assert.equal(t.calls.get('free'), undefined, 'free is not a lock function nor a caller of one');
  assert.equal(t.instructions, 3000);
  assert.deepEqual(lockCounts(t.calls), lockCounts(synth(3).calls));
  assert.deepEqual(t.edges.get('ossl_lib_ctx_get_data'), synth(3).edges.get('ossl_lib_ctx_get_data'), 'calls into a lock caller are kept');
  // a name first defined on a dropped line is written where the trimmed file first uses it
  assert.match(trimmed, /^cfn=\(2\) CRYPTO_THREAD_read_lock$/m);
});

test('named counts: the first three, most first, with how many more, within 200 characters', () => {
  assert.equal(
    namedCounts([
      ['a', 5],
      ['b', 2],
      ['c', 1],
      ['d', 1],
    ]),
    'a 5, b 2, c 1 (+1 more)',
  );
  assert.equal(namedCounts([['a', 0.5]]), 'a 0.50');
  assert.ok(
    namedCounts([
      [`${'x'.repeat(150)}`, 1],
      [`${'y'.repeat(150)}`, 1],
    ]).length <= 200,
  );
});

// ------------------------------------------------------------------ real output

interface Captured {
  version: string;
  op: string;
  n: number;
  perOperation: ReturnType<typeof perOperation>;
  byClass: ClassCounts;
}
const profile = (v: string, name: string): CallProfile => parseCallgrindCalls(gz(v, name), `${v} ${name}`);

test('lock-class fixtures come from real runs of every version of the default matrix', () => {
  for (const v of DEFAULT_MATRIX)
    for (const op of LOCK_CLASS_OPS)
      assert.ok(existsSync(join(FIXTURES, v, `lock-classes-${op}.json`)), `${v}: node runner/known-issues/capture-fixtures.ts --only lock-classes ${v}`);
});

for (const v of versions) {
  test(`${v}: TLS 1.3 full and resumed handshakes, by class, from the trimmed real files, as read from the untrimmed ones`, () => {
    for (const op of LOCK_CLASS_OPS) {
      const cfg = op === 'tls13-resumed-handshake' ? TLS13_PINNED_RESUMED : TLS13_PINNED;
      assert.deepEqual(OP_DEFS[op].handshake, cfg);
      const n = PLAN[op].callgrind;
      for (const count of [n, 2 * n]) {
        const f = JSON.parse(readFileSync(join(FIXTURES, v, `callgrind-${op}-${count}.json`), 'utf8')) as { exitCode: number; stdout: string; argv: string[] };
        const p = parseHandshakeOutput(f.stdout, f.exitCode, `${v} ${op} x${count}`);
        assert.ok(p.kind === 'run', `${v} ${op} x${count} ran`);
        if (p.kind !== 'run') continue;
        assert.ok(p.out.underValgrind && p.out.deterministicRng, 'under valgrind, fixed-seed RNG');
        assert.equal(p.out.handshakes, count);
        assert.equal(p.out.negotiated.resumed, cfg.resume !== 'none', 'resumed as asked');
        assert.equal(p.out.negotiated.protocol, 'TLSv1.3');
        assert.ok(p.out.openssl.startsWith(`OpenSSL ${v} `), p.out.openssl);
        assert.equal(f.argv[f.argv.indexOf('--resume') + 1], cfg.resume);
      }
      const captured = JSON.parse(readFileSync(join(FIXTURES, v, `lock-classes-${op}.json`), 'utf8')) as Captured;
      assert.deepEqual([captured.version, captured.op, captured.n], [v, op, n]);
      const small = profile(v, `callgrind-${op}-${n}.trimmed.out.gz`);
      const large = profile(v, `callgrind-${op}-${2 * n}.trimmed.out.gz`);
      const per = perOperation(small, large, n, `${v} ${op}`);
      const by = perOperationByClass(small, large, n, `${v} ${op}`);
      assert.deepEqual(per, captured.perOperation, `${v} ${op}: counts by kind from the trimmed files`);
      assert.deepEqual(JSON.parse(JSON.stringify(by)), captured.byClass, `${v} ${op}: counts by class from the trimmed files`);
      for (const k of CLASSED_KINDS) {
        assert.equal(sum(by.counts[k]), per[k], `${v} ${op}: ${k} classes sum to the total`);
        for (const [c, x] of Object.entries(by.counts[k]))
          assert.ok(Number.isInteger(x) && x >= 0, `${v} ${op}: ${k}/${c} = ${x}, not a whole count per handshake`);
      }
      // every caller seen has a class: nothing falls to "other" in the versions measured so far
      assert.deepEqual(
        [by.counts['library-locks'].other, by.counts.atomic.other],
        [0, 0],
        `${v} ${op}: other callers ${JSON.stringify([by.callers['library-locks'].other, by.callers.atomic.other])}`,
      );
      // every lock taken in a handshake is released in it
      const unlock = (p: CallProfile) => p.calls.get('CRYPTO_THREAD_unlock') ?? 0;
      assert.equal((unlock(large) - unlock(small)) / n, per['read-lock'] + per['write-lock'], `${v} ${op}: unlocks per handshake`);
    }
  });

  test(`${v}: the untrimmed ctx-new and x509-der files: classes sum to the totals, and trimming changes no count`, () => {
    for (const op of ['ctx-new', 'x509-der'] as const) {
      const n = PLAN[op].callgrind;
      const texts = [n, 2 * n].map((c) => gz(v, `callgrind-${op}-${c}.out.gz`));
      const [small, large] = texts.map((t, i) => parseCallgrindCalls(t, `${v} ${op} #${i}`)) as [CallProfile, CallProfile];
      const [ts, tl] = texts.map((t, i) => parseCallgrindCalls(trimCallgrind(t, `${v} ${op} #${i}`), `${v} ${op} trimmed #${i}`)) as [CallProfile, CallProfile];
      const by = perOperationByClass(small, large, n, `${v} ${op}`);
      const per = perOperation(small, large, n, `${v} ${op}`);
      for (const k of CLASSED_KINDS) assert.equal(sum(by.counts[k]), per[k], `${v} ${op}: ${k}`);
      assert.deepEqual(perOperationByClass(ts, tl, n, 'trimmed'), by);
      assert.deepEqual(lockCounts(tl.calls), lockCounts(large.calls));
    }
  });
}

test('real facts: 1.1.1w makes no atomic calls and 3.0.22 the most lock calls per handshake; a resumed handshake takes fewer than a full one', () => {
  const read = (v: string, op: string) => JSON.parse(readFileSync(join(FIXTURES, v, `lock-classes-${op}.json`), 'utf8')) as Captured;
  for (const op of LOCK_CLASS_OPS) {
    assert.equal(read('1.1.1w', op).perOperation.atomic, 0);
    const most = Math.max(...versions.map((v) => read(v, op).perOperation['library-locks']));
    assert.equal(read('3.0.22', op).perOperation['library-locks'], most);
    // 3.0's library context data lookups, gone from 3.1 on
    assert.ok(read('3.0.22', op).byClass.counts['library-locks']['lib-ctx'] > 0);
    for (const v of versions.filter((x) => x !== '3.0.22')) assert.equal(read(v, op).byClass.counts['library-locks']['lib-ctx'], 0, v);
  }
  for (const v of versions) {
    const full = read(v, 'tls13-handshake').perOperation['library-locks'];
    const resumed = read(v, 'tls13-resumed-handshake').perOperation['library-locks'];
    assert.ok(resumed < full, `${v}: resumed ${resumed}, full ${full}`);
    assert.ok(read(v, 'tls13-resumed-handshake').byClass.counts['library-locks'].session > 0, `${v}: the resumed handshake looks its session up`);
  }
});

test('series: one per operation, kind and class, beside the unchanged kind series; labels say what callgrind cannot count', () => {
  for (const op of LOCK_CLASS_OPS) {
    const specs = callgrindSpecs(op);
    assert.deepEqual(
      specs.slice(0, LOCK_KINDS.length).map(seriesKey),
      LOCK_KINDS.map((k) => seriesKey(lockSpec(OP_DEFS[op], k))),
      'no instructions (the handshake benchmark counts them): the kind series first',
    );
    const classed = specs.filter((s) => s.metric === 'lock-calls-by-class');
    assert.equal(classed.length, CLASSED_KINDS.length * LOCK_CLASSES.length);
    for (const s of classed) {
      assert.match(s.label, /inline atomics/);
      assert.equal(s.method, 'call-count');
    }
  }
  // the existing key of the status series is what history has
  assert.equal(
    COMPLAINTS.find((c) => c.id === 'lock-contention')!.statusKey,
    'known-issues/lock-calls-per-op[cert=ecdsa-p256,group=X25519,lock=library-locks,op=tls13-handshake,proto=1.3]',
  );
  assert.equal(
    seriesKey(lockClassSpec(OP_DEFS['tls13-resumed-handshake'], 'atomic', 'hashtable')),
    'known-issues/lock-calls-by-class[cert=ecdsa-p256,class=hashtable,group=X25519,lock=atomic,op=tls13-resumed-handshake,proto=1.3,resume=ticket]',
  );
  assert.deepEqual(taskSpecs()['calls/tls13-resumed-handshake']!.map(seriesKey), callgrindSpecs('tls13-resumed-handshake').map(seriesKey));
  assert.equal(taskSpecs()['cpu/tls13-resumed-handshake'], undefined, "its CPU time is the handshake benchmark's");
});

test('every calls-by-class series the page reads (Complaint.lockClassOps) is emitted by the benchmark', () => {
  const emitted = new Set(Object.values(taskSpecs()).flat().map(seriesKey));
  const withClasses = COMPLAINTS.filter((c) => c.lockClassOps);
  assert.deepEqual(
    withClasses.map((c) => c.id),
    ['lock-contention'],
  );
  for (const c of withClasses)
    for (const op of c.lockClassOps!)
      for (const k of CLASSED_KINDS) {
        assert.ok(emitted.has(seriesKey(lockSpec(OP_DEFS[op], k))), `${op} ${k} total`);
        for (const cls of LOCK_CLASSES) assert.ok(emitted.has(seriesKey(lockClassSpec(OP_DEFS[op], k, cls))), `${op} ${k} ${cls}`);
      }
});
