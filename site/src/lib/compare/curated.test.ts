import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRowsHtml } from './html.ts';
import { curatedRows, type CompareRow } from './rows.ts';
import { BULK_KEY, CURATED, handshakeKey } from '../reference-keys.ts';

const side = { status: 'measured', median: 1, low: null, high: null, n: 6, segment: 'all', run: 'r1', reason: null };
const row = (key: string, significant: boolean): CompareRow => ({
  key,
  benchmark: key.split('/')[0]!,
  what: 'raw label',
  config: 'raw config',
  params: 'k=v',
  unit: 'us/handshake',
  method: 'cpu-time-client',
  higherIsBetter: false,
  a: side,
  b: side,
  relation: 'paired',
  significant,
  tone: significant ? 'worse' : 'neutral',
  paired: {
    ratio: significant ? 1.5 : 1.01,
    low: null,
    high: null,
    coverage: null,
    verdict: significant ? 'higher' : 'no-difference-shown',
    pairs: 6,
    deterministic: false,
  },
});
const none = { benchmark: '', text: '', significantOnly: false, sort: 'change' } as const;

test("compare's main questions: CURATED order whatever the sort, each relabelled with its question and group, other series left out", () => {
  const server = handshakeKey('cpu-per-handshake', 'server', 'default');
  const client = handshakeKey('cpu-per-handshake', 'client', 'default');
  const rows = [row(BULK_KEY, true), row(server, false), row('handshake/other[x=1]', true), row(client, true)];
  const out = curatedRows(rows, none);
  assert.deepEqual(
    out.map((r) => r.key),
    [client, server, BULK_KEY],
  );
  const q = CURATED.find((c) => c.key === client)!;
  assert.deepEqual([out[0]!.what, out[0]!.config], [q.label, q.group]);
  // the filter's conditions apply
  assert.deepEqual(
    curatedRows(rows, { ...none, significantOnly: true }).map((r) => r.key),
    [client, BULK_KEY],
  );
  assert.deepEqual(
    curatedRows(rows, { ...none, benchmark: 'aead' }).map((r) => r.key),
    [BULK_KEY],
  );
});

test('question rows: a heading row per group, the label alone, data-question instead of data-key', () => {
  const rows = curatedRows(
    [
      row(handshakeKey('cpu-per-handshake', 'client', 'default'), true),
      row(handshakeKey('cpu-per-handshake', 'server', 'default'), false),
      row(BULK_KEY, false),
    ],
    none,
  );
  const html = compareRowsHtml(rows, true);
  assert.equal((html.match(/<tr class="group">/g) ?? []).length, 2);
  assert.doesNotMatch(html, /data-key=/);
  assert.equal((html.match(/data-question=/g) ?? []).length, 3);
  assert.doesNotMatch(html, /k=v/, 'no raw parameters in the question view');
  assert.match(compareRowsHtml(rows), /data-key=/);
});
