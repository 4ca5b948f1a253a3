// Rehype plugin: Markdown rendered on the site (CONTRIBUTING.md, write-ups) may link to files of the
// repository by relative path ("docs/runners.md"). Those are not pages of the site: point them at the
// repository when OBSERVATORY_REPO_URL is set (e.g. https://github.com/owner/name), else show the path as code.
interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

export function isRepoRelative(href: string): boolean {
  return !/^([a-z][a-z0-9+.-]*:|\/|#|\?)/i.test(href);
}

export function rehypeRepoLinks(options: { repoUrl?: string | undefined; ref?: string } = {}) {
  const base = options.repoUrl?.replace(/\/$/, '');
  const ref = options.ref ?? 'main';
  const visit = (node: HastNode) => {
    for (const [i, child] of (node.children ?? []).entries()) {
      const href = child.tagName === 'a' ? child.properties?.href : undefined;
      if (typeof href === 'string' && isRepoRelative(href)) {
        const path = href.replace(/^\.\//, '');
        if (base) child.properties = { ...child.properties, href: `${base}/blob/${ref}/${path}` };
        else
          node.children![i] = {
            type: 'element',
            tagName: 'span',
            properties: { title: `${path} in the repository` },
            children: [
              ...(child.children ?? []),
              { type: 'text', value: ' (' },
              { type: 'element', tagName: 'code', properties: {}, children: [{ type: 'text', value: path.split('#')[0]! }] },
              { type: 'text', value: ' in the repository)' },
            ],
          };
      }
      visit(node.children![i]!);
    }
  };
  return () => (tree: HastNode) => visit(tree);
}
