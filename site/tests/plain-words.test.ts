// Plain words (issue 28, point 3): no series key, run id or 40-hex hash in the text a reader sees outside a
// <details> disclosure, on any page of site/dist as built (no browser). The patterns are in plain-words.ts.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { REPO } from './browser.ts';
import { pages, readerText, violations } from './plain-words.ts';

const DIST = join(REPO, 'site', 'dist');

test('readerText drops disclosures, scripts and attributes, keeps visible text', () => {
  const html = `<p title="20261126T133121Z-full-819f">Seen <b>text</b></p><details><summary>Where</summary><details>x</details>handshake/handshake-cpu-us[side=server]</details><script>"${'a'.repeat(40)}"</script><svg><text>aead/aes-128-gcm-seal-cpu</text></svg>`;
  assert.equal(readerText(html).trim(), 'Seen text aead/aes-128-gcm-seal-cpu');
  assert.deepEqual(violations(html), ['series key: aead/aes-128-gcm-seal-cpu']);
  assert.deepEqual(violations('<td>run 20261126T133121Z-full-819f at 0123456789abcdef0123456789abcdef01234567</td>'), [
    'run id: 20261126T133121Z-full-819f',
    '40-hex hash: 0123456789abcdef0123456789abcdef01234567',
  ]);
  assert.deepEqual(violations('<td>1,500 handshakes/s, handshake/s</td>'), []);
  // the runner's spelling of parameters: in prose a finding, in a command fine
  assert.deepEqual(violations('<th>TLS 1.3 rsa2048 groups default, new</th><code>npm run bisect -- handshake-instructions:client:ecdsa-p256:default</code>'), [
    'certificate id: rsa2048',
    "groups in the runner's words: groups default",
  ]);
  assert.deepEqual(
    violations('<th>TLS 1.3 RSA-2048, default groups, full handshake</th><td>openssl speed rsa2048: sign operations; loading certificate mldsa65.crt</td>'),
    [],
  );
});

test('no page shows a series key, run id or hash outside a disclosure', () => {
  if (!existsSync(join(DIST, 'index.html'))) throw new Error(`${DIST} has no built site: run \`npm run site:build\` first`);
  const found = new Map<string, string[]>();
  let total = 0;
  for (const file of pages(DIST)) {
    const v = violations(readFileSync(file, 'utf8'));
    total += v.length;
    if (v.length) found.set(relative(DIST, file), [...new Set(v)].slice(0, 3));
  }
  const report = [...found].map(([f, v]) => `${f}: ${v.join(' | ')}`).join('\n');
  assert.equal(total, 0, `${total} raw internals on ${found.size} pages:\n${report}`);
});
