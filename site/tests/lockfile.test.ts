// npm ci refuses a lock that lacks an entry for any optional dependency, even one for another platform.
// This registry serves only some platforms' binaries, so `npm install` can silently drop such entries
// (it happened with @astrojs/compiler-binding-*; commit 116acce added them back by hand, without a
// download address or hash: npm never fetches them on a platform they do not match).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

test('every optional dependency in package-lock.json has its own entry, so `npm ci` accepts the lock', () => {
  const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
    packages: Record<string, { optionalDependencies?: Record<string, string> }>;
  };
  const missing: string[] = [];
  for (const [path, pkg] of Object.entries(lock.packages)) {
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) {
      // resolved like node does: nested first, then each parent node_modules up to the root
      const parts = path.split('node_modules/').filter(Boolean);
      const candidates = parts.map((_, i) =>
        `node_modules/${[...parts.slice(0, parts.length - i), ''].join('node_modules/')}node_modules/${dep}`.replace(
          /\/node_modules\/node_modules\//g,
          '/node_modules/',
        ),
      );
      candidates.push(`node_modules/${dep}`);
      if (!candidates.some((c) => c in lock.packages)) missing.push(`${dep} (optional dependency of ${path || 'the root'})`);
    }
  }
  assert.deepEqual(missing, [], 'add lock entries for these (version, os/cpu, "optional": true), as commit 116acce did');
});
