import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Summary, SummaryEntry } from '../../../schema/index.ts';
import { seriesKey } from '../../../runner/benchmark.ts';
import { COMPLAINTS, LOCK_CLASS_OPS, OP_DEFS, lockClassSpec, lockSpec } from '../../../runner/known-issues/complaints.ts';
import { LOCK_CLASSES } from '../../../runner/known-issues/lock-classes.ts';
import { knownIssueRows, lockClassTables } from './known-issues.ts';

const HOST = 'obs-bench';
const VERSIONS = ['1.1.1w', '3.0.22', '3.5.7'];
const summaryOf = (entries: SummaryEntry[]) =>
  ({
    runs: [{ host: HOST, runId: 'r1', startedAt: '2026-01-01T00:00:00Z', quiet: true }],
    entries,
    builds: VERSIONS.map((version) => ({ host: HOST, variant: 'default', version, series: version.slice(0, 3) })),
  }) as unknown as Summary;

function entry(spec: ReturnType<typeof lockSpec>, version: string, value: number | null, observed?: Record<string, string>): SummaryEntry {
  return {
    host: HOST,
    library: 'openssl',
    version,
    series: version.slice(0, 3),
    variant: 'default',
    key: seriesKey(spec),
    benchmark: spec.benchmark,
    metric: spec.metric,
    label: spec.label,
    unit: spec.unit,
    method: spec.method,
    higherIsBetter: false,
    params: spec.params,
    comparability: spec.comparability,
    status: value === null ? 'failed' : 'measured',
    ...(value === null ? { reason: 'valgrind exit 1' } : {}),
    observed,
    runId: 'r1',
    stats: value === null ? null : { n: 1, median: value, mean: value, stdev: 0, min: value, max: value, cv: 0, deterministic: true, interval: null },
    vsPreviousSeries: null,
    vsBaseline: null,
    vsOpenSSL: null,
  } as SummaryEntry;
}

test('no calls-by-class series in the summary: every table says not measured, and no number is made up', () => {
  const tables = lockClassTables(summaryOf([]), HOST, [...LOCK_CLASS_OPS]);
  assert.equal(tables.length, 4, 'full and resumed, lock and atomic calls');
  for (const t of tables) {
    assert.equal(t.measured, false);
    assert.deepEqual(t.rows, []);
    assert.deepEqual(t.total, [null, null, null]);
  }
  assert.deepEqual(
    lockClassTables(null, null, [...LOCK_CLASS_OPS]).map((t) => t.measured),
    [false, false, false, false],
  );
  const rows = knownIssueRows(summaryOf([]));
  for (const r of rows) assert.equal(r.lockClasses.length, r.complaint.id === 'lock-contention' ? 4 : 0, r.complaint.id);
  assert.deepEqual(COMPLAINTS.find((c) => c.id === 'lock-contention')!.lockClassOps, [...LOCK_CLASS_OPS]);
});

test('the classes by version: rows with a call, classes with none listed apart, totals from the kind series, failures say why', () => {
  const full = OP_DEFS['tls13-handshake'];
  const entries: SummaryEntry[] = [];
  for (const cls of LOCK_CLASSES) {
    entries.push(entry(lockClassSpec(full, 'library-locks', cls), '1.1.1w', cls === 'ex-data' ? 34 : cls === 'rng' ? 9 : 0));
    entries.push(
      entry(
        lockClassSpec(full, 'library-locks', cls),
        '3.0.22',
        cls === 'lib-ctx' ? 4476 : cls === 'ex-data' ? 67 : 0,
        cls === 'lib-ctx' ? { callers: 'ossl_lib_ctx_get_data 4476', via: 'ossl_namemap_stored 1281' } : undefined,
      ),
    );
    entries.push(entry(lockClassSpec(full, 'library-locks', cls), '3.5.7', null));
  }
  entries.push(entry(lockSpec(full, 'library-locks'), '1.1.1w', 43), entry(lockSpec(full, 'library-locks'), '3.0.22', 4543));
  const [t] = lockClassTables(summaryOf(entries), HOST, ['tls13-handshake']);
  assert.ok(t && t.measured && t.kind === 'library-locks');
  assert.deepEqual(t.versions, VERSIONS);
  assert.deepEqual(
    t.rows.map((r) => r.cls),
    ['lib-ctx', 'ex-data', 'rng'],
    'in the table order, only classes with a call',
  );
  assert.deepEqual(
    t.rows[0]!.cells.map((c) => c.value),
    [0, 4476, null],
  );
  assert.equal(t.rows[0]!.cells[1]!.via, 'ossl_namemap_stored 1281');
  assert.equal(t.rows[0]!.cells[2]!.missing, 'failed: valgrind exit 1');
  assert.ok(t.zero.includes('refcount') && t.zero.includes('other') && !t.zero.includes('rng'));
  assert.deepEqual(t.total, [43, 4543, null]);
});
