import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  clauseBefore,
  gist,
  gistShortens,
  intervalLabel,
  noteWords,
  pct,
  pctRange,
  quantity,
  quantityRange,
  runDate,
  runWords,
  sig,
  toCsv,
  verdictWords,
  windowsWords,
} from './format.ts';

test('a label cut at its first clause keeps its parentheses whole', () => {
  assert.equal(
    clauseBefore('seal of 1024-byte records (CLOCK_THREAD_CPUTIME_ID; median of several windows); more'),
    'seal of 1024-byte records (CLOCK_THREAD_CPUTIME_ID; median of several windows)',
  );
  assert.equal(clauseBefore('no clause at all'), 'no clause at all');
});

test('a recorded note for readers: its first line and sentence, no local paths, never cut inside a word', () => {
  const linker =
    'CPU capabilities of 5.9.4/default unknown: compiling cpucaps against wolfSSL 5.9.4 failed:\nIn file included from /root/.cache/x/include/wolfssl/openssl/compat_types.h:29,\n/work/main/runner/cpucaps/cpucaps.c:13: undefined';
  assert.equal(gist(linker), 'CPU capabilities of 5.9.4/default unknown: compiling cpucaps against wolfSSL 5.9.4 failed:');
  assert.ok(gistShortens(linker));
  assert.equal(gist('built in /tmp/build-123/x and /work/main/y. Second sentence.'), 'built in … and ….');
  const long = `${'abcdefgh '.repeat(30)}end`;
  const g = gist(long, 50);
  assert.ok(g.length <= 52 && g.endsWith(' …'), g);
  assert.ok(long.startsWith(g.slice(0, -2)) && long[g.length - 2] === ' ', `cut inside a word: ${g}`);
  assert.equal(gistShortens('Short.'), false);
});

test('a run in words: its mode and start, not its id', () => {
  assert.equal(runWords('20261126T133121Z-full-819f'), 'full run of 2026-11-26 13:31 UTC');
  assert.equal(runWords('20261123T054811Z-sequential-d9b5'), 'sequential run of 2026-11-23 05:48 UTC');
});

test("a run note's task and build in words: the task path as words, the build by its name; an id the run lacks stays", () => {
  const note =
    'round 0: handshake/timing/tls1.3/rsa2048/default/ticket/t1/handshake on build d8eb39f8f7758c5f failed on the first attempt (server handshake failed); the second attempt succeeded';
  const names = (id: string) => (id === 'd8eb39f8f7758c5f' ? 'wolfSSL 5.9.4' : null);
  assert.equal(
    noteWords(note, names),
    'round 0: the handshake task (timing, TLS 1.3, RSA-2048, default groups, resumed with a ticket, 1 thread, handshake) on wolfSSL 5.9.4 failed on the first attempt (server handshake failed); the second attempt succeeded',
  );
  assert.equal(noteWords(note.replace('d8eb39f8f7758c5f', '0123456789abcdef'), names), note.replace('d8eb39f8f7758c5f', '0123456789abcdef'));
});

test("a run's timed windows: each choice with its length, or its mode's own for a run from before the choice", () => {
  const windows = [
    { benchmark: 'handshake', window: 'short' as const, size: 300, unit: 'new handshakes per window', basis: 'b' },
    { benchmark: 's-time', window: 'long' as const, size: 3, unit: 'seconds per section (new, reuse)', basis: 'b' },
  ];
  assert.equal(
    windowsWords({ mode: 'full', plan: { windows } as never }),
    'handshake short (300 new handshakes per window); s-time long (3 seconds per section (new, reuse))',
  );
  assert.equal(windowsWords({ mode: 'quick', plan: {} as never }), "quick mode's own");
});

test('a run note names another run by its date, not its id', () => {
  const none = () => null;
  assert.equal(
    noteWords('52 timed task(s) that 20261127T162517Z-full-5d03 left out were planned first', none),
    `52 timed task(s) that the ${runWords('20261127T162517Z-full-5d03')} left out were planned first`,
  );
  assert.equal(
    noteWords('recorded in the quiet run 20261127T162517Z-full-5d03 for the same builds', none),
    `recorded in the quiet run of ${runDate('20261127T162517Z-full-5d03')} for the same builds`,
  );
});

test('human units: three significant figures and a unit a reader knows', () => {
  assert.equal(quantity(1553605663, 'bytes/s'), '1.55 GB/s');
  assert.equal(quantity(24_500_000, 'bytes/s'), '24.5 MB/s');
  assert.equal(quantity(292.59963, 'us/handshake'), '293 µs');
  assert.equal(quantity(1370.4, 'us/handshake'), '1.37 ms');
  assert.equal(quantity(0.51234, 'us/op'), '0.512 µs');
  assert.equal(quantity(41234, 'bytes', 'heap-bytes'), '40.3 KiB');
  assert.equal(quantity(1573, 'bytes', 'wire-bytes'), '1,573 B', 'bytes on the wire stay exact');
  assert.equal(quantity(7_052_113, 'instructions'), '7.05 M instructions');
  assert.equal(quantity(12345, 'ops/s'), '12,300 ops/s');
  assert.equal(quantity(null, 'ops/s'), 'not measured');
  assert.equal(quantityRange(287.05, 305.34, 'us/handshake'), '287–305 µs');
  assert.equal(quantityRange(980e6, 1.23e9, 'bytes/s'), '0.98–1.23 GB/s', 'both ends in the scale of the larger');
  assert.equal(sig(-0.0001, 1), '-0.0001');
});

test('interval labels state their coverage and never claim 95% below it', () => {
  assert.equal(intervalLabel({ kind: 'range', coverage: 0.75 }), 'range, covers 75.0%');
  assert.equal(intervalLabel({ kind: 'range', coverage: 0.9375 }), 'range, covers 93.7%');
  assert.equal(intervalLabel({ kind: 'order-statistic', coverage: 0.96875 }), '96.8% interval');
  assert.equal(pctRange({ low: 0.96, high: 1.02 }), '−4.0% to +2.0%');
  const c = { against: '3.4.1', ratio: 1.2, pairing: 'paired-rounds' as const, pairs: 6, interval: null, verdict: 'higher' as const };
  assert.equal(verdictWords(c, false), 'higher (worse)');
  assert.equal(verdictWords({ ...c, verdict: 'within-threshold' }, false), 'unchanged');
});

test('CSV formula injection: a text cell starting =, +, -, @, tab or CR is neutralised with a quote; numbers stay numbers', () => {
  const cells = ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1)', '\tx', '\rx'];
  const out = toCsv(
    ['c'],
    cells.map((c) => [c]),
  )
    .split('\r\n')
    .slice(1, -1);
  assert.deepEqual(out, ['"\'=HYPERLINK(""http://x"",""y"")"', "'+1+1", "'-2+3", "'@SUM(A1)", "'\tx", '"\'\rx"']);
  // a negative number is a number (as a number or as the text of one); text that merely starts with "-" is not
  assert.equal(toCsv(['n'], [[-3.5], ['-3.5'], ['-1e-3'], ['- 3']]), "n\r\n-3.5\r\n-3.5\r\n-1e-3\r\n'- 3\r\n");
});

test('CSV quotes what needs quoting and keeps numbers at full precision', () => {
  assert.equal(
    toCsv(
      ['a', 'b'],
      [
        [1.23456789, 'x, "y"'],
        [null, true],
      ],
    ),
    'a,b\r\n1.23456789,"x, ""y"""\r\n,true\r\n',
  );
});

test('changes of ten times or more read as multiples, smaller ones as percentages', () => {
  assert.equal(pct(1.2346), '+23.5%');
  assert.equal(pct(0.5), '−50.0%');
  assert.equal(pct(179.11368786753366), '179×');
  assert.equal(pctRange({ low: 124.3, high: 199.5 }), '124× to 200×');
  assert.equal(pctRange({ low: 1.5, high: 2 }), '+50.0% to +100.0%');
});
