// Write-ups: one Markdown file per cause (site/src/content/writeups/*.md). The frontmatter names the
// versions, the commits and the summary.json series that demonstrate the cause; the layout renders
// those series from data, so a write-up's prose never needs to carry a measured number.
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

const version = z.string().regex(/^\d+\.\d+\.\d+[a-z]?$/, 'an OpenSSL release such as 3.5.7 or 1.1.1w');

const writeups = defineCollection({
  // test builds point this at site/tests/fixtures/writeups; published builds read src/content/writeups only
  loader: glob({ pattern: '**/*.md', base: process.env.OBSERVATORY_WRITEUPS_DIR ?? './src/content/writeups' }),
  schema: z.object({
    title: z.string().min(1).max(200),
    summary: z.string().min(1).max(600),
    versions: z.array(version).min(1),
    commits: z.array(
      z.object({
        id: z.string().regex(/^[0-9a-f]{7,40}$/, 'a git commit id (7 to 40 lowercase hex digits)'),
        note: z.string().min(1).max(300),
        url: z.url().optional(),
      }),
    ),
    /** summary.json series keys whose numbers demonstrate (or refute) the cause */
    series: z
      .array(
        z.object({
          key: z.string().min(1),
          caption: z.string().max(300).optional(),
          /** limit the table to these versions (default: the write-up's versions) */
          versions: z.array(version).optional(),
        }),
      )
      .min(1),
    verdict: z.enum(['confirmed', 'refuted', 'unverified']),
    /** the exact command that reproduces the experiment */
    reproduce: z.string().min(1).max(500),
    /** related pages on this site, e.g. /hypothesis */
    related: z.array(z.object({ href: z.string().regex(/^\/[a-z0-9/#?=&._-]*$/), label: z.string() })).default([]),
    order: z.number().int().default(100),
    /** listed on the home page under "why is 3.5 slower than 3.4 with default settings"; by default when
     * the write-up is about the 3.4 -> 3.5 step (names a 3.5 release and nothing older than 3.4) */
    headline: z.boolean().optional(),
    /** reproductions only: the published study and its claims, attributed, never shown as our results */
    reproduces: z
      .object({
        source: z.string().min(1).max(300),
        claims: z.array(z.object({ claim: z.string().min(1).max(600), configuration: z.string().max(300).optional() })).min(1),
        cannotReproduce: z.string().min(1).max(800),
      })
      .optional(),
  }),
});

// CONTRIBUTING.md at the repository root (how to submit a run), rendered on /contributing when it exists.
const docs = defineCollection({
  loader: glob({ pattern: 'CONTRIBUTING.md', base: '..' }),
  schema: z.looseObject({}),
});

export const collections = { writeups, docs };
