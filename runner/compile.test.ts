// Which sources a C program is compiled from: its own .c file and every .c file of runner/c-common.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cCommonSources } from './compile.ts';

const RUNNER = fileURLToPath(new URL('.', import.meta.url));

test('every program gets every .c file of runner/c-common, read from the folder', () => {
  const files = readdirSync(join(RUNNER, 'c-common')).filter((f) => f.endsWith('.c'));
  assert.ok(files.length >= 10);
  assert.deepEqual(
    cCommonSources().map((f) => relative(RUNNER, f)),
    files.sort().map((f) => `c-common/${f}`),
  );
});

test('no module lists c-common sources by hand', () => {
  const modules = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? (e.name === 'fixtures' ? [] : modules(join(dir, e.name))) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
    );
  // a path in a string ('../c-common/json.c', `../c-common/${n}.c`) or in path parts ('c-common', 'json.c')
  const byHand = /['`][^'`\n]*c-common\/[^'`\n]*\.c['`]|'c-common',\s*'[\w-]+\.c'/;
  const listing = modules(RUNNER).filter((f) => byHand.test(readFileSync(f, 'utf8')));
  assert.deepEqual(listing.map((f) => relative(RUNNER, f)), []);
});
