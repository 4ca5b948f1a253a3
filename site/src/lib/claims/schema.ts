// The write-up claim format (frontmatter, checked with zod): claims, their tests, studies and series, the build
// refs they name, and the cross-references between them. Pure functions: no file access here.
import { z } from 'zod';
import { CpuFlags, type Library } from '../../../../schema/index.ts';
import { CPU_FLAG_NAMES } from '../../../../schema/machine.ts';
import { OTHER_LIBRARIES, buildLabel } from '../../../../catalogue/index.ts';

const slug = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and "-"');

/**
 * A measured number in a sentence: digits followed by a unit, a percent or a multiplier. Version numbers
 * (3.0.2), algorithm names (X25519, RSA-2048) and sizes written as parameters ("16-byte records") pass.
 */
export const MEASURED_NUMBER = /\d(?:[\d,.]*\d)?\s?(%|percent\b|x\b|×|times\b|µs\b|us\b|ms\b|ns\b|[kKMG]i?B\b|bytes?\b|MB\/s|GB\/s)/;

/** Text a write-up shows as its own words: never a measured number (numbers come from the data). */
export const ownWords = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((s) => !MEASURED_NUMBER.test(s), {
      message: 'must not carry a measured number (digits with a unit, percent or multiplier): the page renders numbers from data',
    });

/** Another library's build in a claim: its slug (catalogue buildSlug), e.g. "aws-lc-5.12.0". */
const OTHER_LIBRARY_IDS = OTHER_LIBRARIES.join('|');
const LIBRARY_REF = new RegExp(`^(${OTHER_LIBRARY_IDS})-([0-9][0-9A-Za-z.-]*)$`);

/**
 * "3.5.7" or "3.5.7+no-ml-kem": a build of summary.json (version, and variant when not the default); another
 * library by its slug, "aws-lc-5.12.0", a variant again after "+": "wolfssl-5.9.4+no-perf-options".
 */
export const BuildRef = z
  .string()
  .regex(
    new RegExp(`^(\\d+\\.\\d+\\.\\d+[a-z]?|(${OTHER_LIBRARY_IDS})-[0-9][0-9A-Za-z.-]*)(\\+[A-Za-z0-9][A-Za-z0-9._-]*)?$`),
    'an OpenSSL release such as 3.5.7, 3.5.7+no-ml-kem for a variant, or another library as aws-lc-5.12.0 (wolfssl-5.9.4+no-perf-options)',
  );

export interface Build {
  library: Library;
  version: string;
  variant: string;
}
export function parseBuild(ref: string): Build {
  const [name, variant] = ref.split('+') as [string, string | undefined];
  const lib = LIBRARY_REF.exec(name);
  return { library: lib ? (lib[1] as Library) : 'openssl', version: lib ? lib[2]! : name, variant: variant ?? 'default' };
}
export const buildName = (b: Build) => buildLabel(b);

export const EXPECTATIONS = ['higher', 'lower', 'better', 'worse', 'same', 'between', 'share', 'magnitude'] as const;

export const ClaimTest = z
  .object({
    /** one series (compared across `builds`, exactly two) or two series (compared on each of `builds`); ids or keys of the write-up's `series` */
    series: z.union([z.string().min(1), z.tuple([z.string().min(1), z.string().min(1)])]),
    builds: z.array(BuildRef).min(1).max(20),
    /**
     * the first against the second: higher/lower value, better/worse for the metric, the same within the
     * threshold, a change between range[0] and range[1] (`between`), or the first as a share of the second
     * between range[0] and range[1] (`share`, e.g. one function's instructions within a whole handshake), or
     * the size a study quotes (`magnitude`: `value` within `tolerance`, study claims only)
     */
    expect: z.enum(EXPECTATIONS),
    /** practical threshold as a fraction (0.05 = 5%): a difference smaller than this does not count */
    threshold: z.number().positive().max(100).optional(),
    /** for `between`: the claimed relative change, e.g. [0.035, 0.0625] for +3.5% to +6.25%; for `share`: fractions, e.g. [0.1, 1] */
    range: z.tuple([z.number().gt(-1), z.number().gt(-1)]).optional(),
    /**
     * for `magnitude`: the ratio of the first to the second as the study quotes it, e.g. 5 for "five times
     * the second", 0.2 for "five times faster" on a cost, 1.53 for "+53%"
     */
    value: z.number().positive().optional(),
    /**
     * for `magnitude`: how far from `value` still counts as the quoted size, the same fraction both ways in
     * ratio: 0.25 accepts value / 1.25 to value × 1.25
     */
    tolerance: z.number().positive().max(10).optional(),
    /**
     * `decides` (the default): the claim's verdict comes from it; `supports`: shown beside the verdict as
     * supporting evidence, e.g. instruction counts under a claim about time, which CPU time decides
     */
    role: z.enum(['decides', 'supports']).default('decides'),
    /** the two figures are measured differently on purpose (e.g. openssl speed's loop change): compare them anyway */
    acrossMethodChange: z.boolean().default(false),
  })
  .superRefine((t, ctx) => {
    const pair = Array.isArray(t.series);
    if (!pair && t.builds.length !== 2)
      ctx.addIssue({ code: 'custom', path: ['builds'], message: 'one series compares exactly two builds (the first against the second)' });
    if (t.expect === 'magnitude') {
      if (t.value === undefined || t.tolerance === undefined)
        ctx.addIssue({ code: 'custom', path: ['value'], message: '`magnitude` needs value (the quoted ratio of the first to the second) and tolerance' });
      else if (t.value / (1 + t.tolerance) <= 1 && t.value * (1 + t.tolerance) >= 1)
        ctx.addIssue({
          code: 'custom',
          path: ['tolerance'],
          message: 'the band around a quoted magnitude must not reach 1 (no change): test "the same" with `same`',
        });
      if (t.threshold !== undefined || t.range)
        ctx.addIssue({ code: 'custom', path: ['expect'], message: '`magnitude` takes value and tolerance, not a threshold or a range' });
      return;
    }
    if (t.value !== undefined || t.tolerance !== undefined)
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'value and tolerance belong to `magnitude` only' });
    if (t.expect === 'between' || t.expect === 'share') {
      if (!t.range) ctx.addIssue({ code: 'custom', path: ['range'], message: `\`${t.expect}\` needs range: [low, high]` });
      else if (t.range[0] >= t.range[1]) ctx.addIssue({ code: 'custom', path: ['range'], message: 'range must be [low, high] with low < high' });
      else if (t.expect === 'share' && t.range[0] < 0)
        ctx.addIssue({ code: 'custom', path: ['range'], message: 'a share is a fraction: range must not be negative' });
      if (t.threshold !== undefined) ctx.addIssue({ code: 'custom', path: ['threshold'], message: `\`${t.expect}\` takes a range, not a threshold` });
    } else {
      if (t.threshold === undefined) ctx.addIssue({ code: 'custom', path: ['threshold'], message: 'give a practical threshold, e.g. 0.05 for 5%' });
      if (t.range) ctx.addIssue({ code: 'custom', path: ['range'], message: 'range belongs to `between` and `share` only' });
    }
  });
export type ClaimTest = z.infer<typeof ClaimTest>;

export const CPU_FLAGS = CpuFlags.keyof().options;
export type CpuFlag = (typeof CPU_FLAGS)[number];

/** A CPU flag as readers know it (schema/machine.ts CPU_FLAG_NAMES, the one list). */
export const flagName = (f: CpuFlag): string => CPU_FLAG_NAMES[f];

export const Claim = z
  .object({
    id: slug,
    /** the claim in one sentence, without measured numbers */
    text: ownWords(400),
    /** "ours", or the id of a study in the write-up's `studies` */
    by: z.string().default('ours'),
    /** the study's own words (numbers included: they are theirs, shown as a quotation) */
    quote: z.string().min(1).max(800).optional(),
    tests: z.array(ClaimTest).max(40).default([]),
    /** why our data cannot test this claim; such a claim has no tests */
    unverified: ownWords(600).optional(),
    /** the result depends on a CPU feature: where the host has it (or its record does not say), the verdict is host-specific */
    hostSpecific: z.object({ flags: z.array(z.enum(CPU_FLAGS)).min(1), why: ownWords(400) }).optional(),
    /**
     * the experiment tests the claim only on a CPU with every one of these features (e.g. hiding AVX-512 changes
     * nothing where there is none to hide): a machine whose record says it lacks one gets "cannot be tested on
     * this machine", naming the feature, instead of a verdict
     */
    requires: z.object({ flags: z.array(z.enum(CPU_FLAGS)).min(1), why: ownWords(400) }).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.unverified && c.tests.length) ctx.addIssue({ code: 'custom', path: ['unverified'], message: 'an unverified claim has no tests' });
    if (!c.unverified && !c.tests.length)
      ctx.addIssue({ code: 'custom', path: ['tests'], message: 'a claim needs tests, or `unverified` saying why our data cannot test it' });
    if (c.by !== 'ours' && !c.quote) ctx.addIssue({ code: 'custom', path: ['quote'], message: "a study's claim quotes the study's own words" });
    if (c.by === 'ours' && c.quote) ctx.addIssue({ code: 'custom', path: ['quote'], message: 'only a study is quoted' });
    c.tests.forEach((t, j) => {
      // a size is tested on the study's terms: reproduced, or smaller or larger than reported
      if (c.by === 'ours' && t.expect === 'magnitude')
        ctx.addIssue({
          code: 'custom',
          path: ['tests', j, 'expect'],
          message: '`magnitude` tests the size a study quotes; our own claims state a direction or a range',
        });
      if (c.by !== 'ours' && t.expect === 'between')
        ctx.addIssue({
          code: 'custom',
          path: ['tests', j, 'expect'],
          message: "a study's quoted size is tested with `magnitude` (value and tolerance), which says whether it was smaller or larger than reported",
        });
    });
    if (c.tests.length && c.tests.every((t) => t.role === 'supports'))
      ctx.addIssue({ code: 'custom', path: ['tests'], message: 'at least one test must decide the claim (role: decides)' });
  });
export type Claim = z.infer<typeof Claim>;

export const Study = z.object({
  id: slug,
  /** the public title of the study or article */
  title: z.string().min(1).max(300),
  /** how claims refer to it, e.g. "the firewall vendor's slides" */
  short: ownWords(80),
  /** who published it, and where or when */
  by: z.string().min(1).max(300),
  url: z.url().optional(),
  /** their setup, in words (their figures stay theirs) */
  setup: z.string().min(1).max(800),
  /** what our harness cannot reproduce (reproductions only) */
  cannotReproduce: ownWords(1000).optional(),
});
export type Study = z.infer<typeof Study>;

/** A series of summary.json that a write-up charts, and its claims may test. */
export const WriteupSeries = z.object({
  key: z.string().min(1),
  /** short name for claims to refer to (default: the key) */
  id: slug.optional(),
  /** short public label used in claims' comparisons, e.g. "default groups" */
  label: ownWords(80).optional(),
  caption: ownWords(300).optional(),
  /** limit the chart to these versions (default: the write-up's versions) */
  versions: z.array(z.string().regex(/^\d+\.\d+\.\d+[a-z]?$/)).optional(),
});
export type WriteupSeries = z.infer<typeof WriteupSeries>;

/** Check the references between a write-up's claims, studies and series; returns messages (empty when fine). */
export function crossCheck(w: { claims: Claim[]; studies: Study[]; series: WriteupSeries[] }): { path: (string | number)[]; message: string }[] {
  const out: { path: (string | number)[]; message: string }[] = [];
  const studies = new Set(w.studies.map((s) => s.id));
  const refs = new Set(w.series.flatMap((s) => [s.key, ...(s.id ? [s.id] : [])]));
  const seen = new Set<string>();
  w.series.forEach((s, i) => {
    if (s.id && seen.has(s.id)) out.push({ path: ['series', i, 'id'], message: `series id ${s.id} is used twice` });
    if (s.id) seen.add(s.id);
  });
  const ids = new Set<string>();
  w.claims.forEach((c, i) => {
    if (ids.has(c.id)) out.push({ path: ['claims', i, 'id'], message: `claim id ${c.id} is used twice` });
    ids.add(c.id);
    if (c.by !== 'ours' && !studies.has(c.by)) out.push({ path: ['claims', i, 'by'], message: `"${c.by}" is neither "ours" nor a study id of this write-up` });
    c.tests.forEach((t, j) => {
      for (const s of Array.isArray(t.series) ? t.series : [t.series])
        if (!refs.has(s))
          out.push({
            path: ['claims', i, 'tests', j, 'series'],
            message: `"${s}" is not a series of this write-up (give it in \`series\` so the page charts it)`,
          });
    });
  });
  return out;
}
