// Downloads have a time limit and a size cap (a local HTTP server plays the slow or endless mirror), and
// scripts/setup-machine.sh installs what every kind of source in the catalogue needs.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { LIBRARY_RELEASES, VERSIONS, type SourceRef } from '../catalogue/index.ts';
import { RECIPES } from './recipes.ts';
import { fetchUrl, SOURCE_TOOLS, SourceError } from './sources.ts';

const dir = mkdtempSync(join(tmpdir(), 'fetch-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A server whose routes misbehave as mirrors do; `slow` sends a byte a second and never finishes. */
async function mirror(): Promise<{ url: (path: string) => string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/ok') return res.end(Buffer.alloc(1000, 7));
    if (req.url === '/declared-huge') {
      res.writeHead(200, { 'content-length': String(10_000_000) });
      return res.end(Buffer.alloc(10));
    }
    if (req.url === '/endless') {
      res.writeHead(200); // chunked, no length: only counting the bytes can stop it
      const timer = setInterval(() => res.write(Buffer.alloc(64 * 1024)), 1);
      return res.on('close', () => clearInterval(timer));
    }
    if (req.url === '/slow') {
      res.writeHead(200);
      const timer = setInterval(() => res.write('x'), 200);
      return res.on('close', () => clearInterval(timer));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  after(() => server.close());
  const port = (server.address() as { port: number }).port;
  return { url: (p) => `http://127.0.0.1:${port}${p}`, server };
}

const ref = (url: string): SourceRef => ({ kind: 'upstream-tarball', package: 'openssl', ref: url, file: 'x.tar.gz', sha256: '0'.repeat(64), root: 'x' });
const limits = { timeoutMs: 1500, maxBytes: 100_000 };

test('a download within the limits is written whole', async () => {
  const m = await mirror();
  const dest = join(dir, 'ok');
  await fetchUrl(ref(m.url('/ok')), dest, limits);
  assert.deepEqual(readFileSync(dest), Buffer.alloc(1000, 7));
});

test('a download that does not finish in time is stopped, and nothing is left behind', async () => {
  const m = await mirror();
  const dest = join(dir, 'slow');
  const started = Date.now();
  await assert.rejects(
    fetchUrl(ref(m.url('/slow')), dest, limits),
    (e: Error) => e instanceof SourceError && /not finished within 1\.5 s \(\d+ bytes received\); stopped/.test(e.message),
  );
  assert.ok(Date.now() - started < 5000);
  assert.ok(!existsSync(dest));
});

test('a download larger than any OpenSSL archive is refused, by its header or by counting', async () => {
  const m = await mirror();
  await assert.rejects(fetchUrl(ref(m.url('/declared-huge')), join(dir, 'h'), limits), /announces 10000000 bytes, more than the 100000/);
  await assert.rejects(fetchUrl(ref(m.url('/endless')), join(dir, 'e'), limits), /more than 100000 bytes, more than an OpenSSL archive can be; stopped/);
  assert.ok(!existsSync(join(dir, 'e')));
  await assert.rejects(fetchUrl(ref(m.url('/missing')), join(dir, 'm'), limits), /HTTP 404/);
});

test('setup-machine.sh installs the tools of every kind of source the catalogue uses', () => {
  const script = readFileSync(new URL('../scripts/setup-machine.sh', import.meta.url), 'utf8');
  // package:command words ("g++:c++" too, which a \b-bounded pattern would miss)
  const pairs = script.split(/[\s;]+/).filter((w) => /^[a-z0-9.+-]+:[a-z0-9.+-]+$/.test(w));
  const kinds = new Set(VERSIONS.flatMap((v) => v.sources.map((s) => s.kind)));
  assert.deepEqual([...kinds].sort(), ['crate', 'debian-orig', 'upstream-tarball']);
  for (const kind of kinds)
    for (const tool of SOURCE_TOOLS[kind]) {
      const installed = pairs.includes(`${tool.debianPackage}:${tool.command}`) || script.includes(`need+=(${tool.debianPackage})`);
      assert.ok(installed, `${kind} sources need ${tool.command} (Debian package ${tool.debianPackage}); setup-machine.sh does not install it`);
    }
  // and every build recipe's tools (cmake and g++ for AWS-LC and BoringSSL, autotools for wolfSSL)
  const recipes = new Set(LIBRARY_RELEASES.map((r) => r.recipe));
  assert.deepEqual([...recipes].sort(), ['autotools', 'cmake']);
  for (const recipe of recipes)
    for (const tool of RECIPES[recipe].tools)
      assert.ok(
        pairs.includes(`${tool.debianPackage}:${tool.command}`),
        `${recipe} builds need ${tool.command} (Debian package ${tool.debianPackage}); setup-machine.sh does not install it`,
      );
  // ensure-deps.sh (before npm test and npm start) notices any of them missing
  const ensure = readFileSync(new URL('../scripts/ensure-deps.sh', import.meta.url), 'utf8');
  const checked = /for t in ([^;]+); do/.exec(ensure)?.[1]?.split(/\s+/) ?? [];
  for (const recipe of recipes)
    for (const tool of RECIPES[recipe].tools) assert.ok(checked.includes(tool.command), `ensure-deps.sh does not check for ${tool.command}`);
});
