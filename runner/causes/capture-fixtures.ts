// Capture real callgrind_annotate output for the parser's fixtures (gzipped: the lines carry long paths):
//   node runner/causes/capture-fixtures.ts 1.1.1w 3.0.22 3.4.1
// Writes runner/causes/fixtures/<version>/tls1.3-p256.txt.gz from the TLS 1.3 ECDSA P-256 handshake.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { requireBuilds } from '../build/cache.ts';
import { baseConfig, pin } from '../handshake/config.ts';
import { configArgs, ensureCerts, handshakeBinary } from '../handshake/invoke.ts';

const versions = process.argv.slice(2);
if (!versions.length) throw new Error('usage: node runner/causes/capture-fixtures.ts VERSION...');
for (const build of requireBuilds(versions)) {
  const v = build.record.version;
  await ensureCerts(build);
  const bin = handshakeBinary(build);
  const dir = mkdtempSync(join(tmpdir(), 'fn-fixture-'));
  try {
    const out = join(dir, 'callgrind.out');
    const cfg = baseConfig(pin('1.3', 'ecdsa-p256', 'P-256'));
    execFileSync('valgrind', ['--tool=callgrind', '--collect-atstart=no', `--callgrind-out-file=${out}`, bin, ...configArgs(cfg, 5), '--deterministic'], {
      stdio: 'ignore',
    });
    const text = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', '--auto=no', out], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const dest = fileURLToPath(new URL(`./fixtures/${v}/`, import.meta.url));
    mkdirSync(dest, { recursive: true });
    writeFileSync(join(dest, 'tls1.3-p256.txt.gz'), gzipSync(text));
    console.log(`${v}: ${text.split('\n').length} lines -> ${dest}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
