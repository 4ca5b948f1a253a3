// The JSON writer of the C programs (json.c), compiled alone with the system's C compiler: it needs no
// TLS library.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EXIT } from '../exit-codes.ts';

const JSON_C = fileURLToPath(new URL('./json.c', import.meta.url));

describe('json.c', () => {
  const dir = mkdtempSync(join(tmpdir(), 'json-c-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  // one object: {"n": <argv[1] as a double>}
  writeFileSync(
    join(dir, 'main.c'),
    `#include <stdlib.h>
#include "${JSON_C.replace(/json\.c$/, 'json.h')}"
const char PROGRAM_NAME[] = "json-test", PROGRAM_USAGE[] = "";
int main(int argc, char **argv) { (void)argc; jw_open(NULL); jw_num("n", strtod(argv[1], NULL)); jw_close(); return 0; }
`,
  );
  const bin = join(dir, 'json-test');
  execFileSync('cc', ['-O2', '-Wall', join(dir, 'main.c'), JSON_C, '-lm', '-o', bin]);
  const write = (n: string) => spawnSync(bin, [n], { encoding: 'utf8' });

  test('a number is written as the shortest text that reads back as the same double', () => {
    for (const n of ['0.1', '1276.1', '287', '1.7903e-05', '1.2345678901234568e+17', '2.2250738585072014e-308', '-0.30000000000000004']) {
      const r = write(n);
      assert.equal(r.status, EXIT.ok);
      assert.equal(r.stdout, `{"n":${n}}\n`);
    }
  });

  test('NaN and infinity are refused: the program fails and names the key', () => {
    for (const [n, what] of [
      ['nan', 'NaN'],
      ['inf', 'infinite'],
      ['-inf', 'infinite'],
    ] as const) {
      const r = write(n);
      assert.equal(r.status, EXIT.failed, `${n}: exit ${r.status}, stdout ${r.stdout}`);
      assert.equal(r.stderr, `json-test: the JSON number "n" is ${what}, which JSON cannot write\n`);
    }
  });
});
