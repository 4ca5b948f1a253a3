// Write-ups: one Markdown file per cause (site/src/content/writeups/*.md). The frontmatter names the
// versions, the summary.json series the page charts, and the claims those series test; the layout
// computes each claim's verdict from the data, so a write-up's prose never carries a measured number.
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { WriteupFrontmatter } from './lib/writeups.ts';

const writeups = defineCollection({
  // test builds point this at site/tests/fixtures/writeups; published builds read src/content/writeups only
  loader: glob({ pattern: '**/*.md', base: process.env.OBSERVATORY_WRITEUPS_DIR ?? './src/content/writeups' }),
  // the format, its claims and how their verdicts are computed: site/src/lib/writeups.ts and claims/
  schema: WriteupFrontmatter,
});

// CONTRIBUTING.md at the repository root (how to submit a run), rendered on /contributing when it exists.
const docs = defineCollection({
  loader: glob({ pattern: 'CONTRIBUTING.md', base: '..' }),
  schema: z.looseObject({}),
});

export const collections = { writeups, docs };
