import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clauseBefore, gist, gistShortens, noteWords, runDate, runWords, windowsWords } from './format.ts';

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
