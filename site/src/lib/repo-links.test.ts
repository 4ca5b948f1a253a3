import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isRepoRelative, rehypeRepoLinks } from './repo-links.ts';

const link = (href: string) => ({
  type: 'root',
  children: [{ type: 'element', tagName: 'a', properties: { href }, children: [{ type: 'text', value: 'x' }] }],
});

test('only links relative to the repository are rewritten', () => {
  assert.ok(isRepoRelative('docs/runners.md#self-hosted'));
  assert.ok(isRepoRelative('./README.md'));
  for (const h of ['/hypothesis', 'https://example.org', '#top', 'mailto:a@b', '?a=1']) assert.ok(!isRepoRelative(h), h);
});

test('with a repository URL, relative links point at the file on main', () => {
  const tree = link('docs/runners.md#x');
  rehypeRepoLinks({ repoUrl: 'https://github.com/o/r/' })()(tree as never);
  assert.equal((tree.children[0]!.properties as { href: string }).href, 'https://github.com/o/r/blob/main/docs/runners.md#x');
});

test('without one, the link becomes text naming the path, so the site has no broken link', () => {
  const tree = link('./docs/runners.md');
  rehypeRepoLinks()()(tree as never);
  const n = tree.children[0] as unknown as { tagName: string; children: { tagName?: string; children?: { value: string }[] }[] };
  assert.equal(n.tagName, 'span');
  assert.equal(n.children.find((c) => c.tagName === 'code')!.children![0]!.value, 'docs/runners.md');
});
