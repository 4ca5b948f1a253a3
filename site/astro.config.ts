import { fileURLToPath } from 'node:url';
import { defineConfig } from 'astro/config';
import { unified } from '@astrojs/markdown-remark';
import { rehypeRepoLinks } from './src/lib/repo-links.ts';

// Pages read data/ at build time through site/src/lib/data.ts, which finds the repository from here.
process.env.OBSERVATORY_REPO_ROOT ??= fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  output: 'static',
  // GitHub Pages serves a project site under /<repository>/ (set by .github/workflows/site.yml)
  base: process.env.SITE_BASE ?? '/',
  // test builds from fixture data go elsewhere so they never overwrite the real site
  outDir: process.env.OBSERVATORY_OUT_DIR ?? './dist',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  // No external requests of any kind: no fonts, no telemetry-loaded assets, no prefetch of other origins.
  prefetch: false,
  // the compressor drops the space between a line of text and a following link; keep the markup as written
  compressHTML: false,
  devToolbar: { enabled: false },
  markdown: { processor: unified({ rehypePlugins: [rehypeRepoLinks({ repoUrl: process.env.OBSERVATORY_REPO_URL })] }) },
});
