import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { EXIT } from './exit-codes.ts';

test('the TS exit codes are the ones c-common/exit_codes.h defines', () => {
  const header = readFileSync(new URL('./c-common/exit_codes.h', import.meta.url), 'utf8');
  const defined = Object.fromEntries([...header.matchAll(/^#define EXIT_([A-Z]+) (\d+)/gm)].map((m) => [m[1]!.toLowerCase(), Number(m[2])]));
  assert.deepEqual(defined, { ...EXIT });
});
