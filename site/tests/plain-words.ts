// What a reader sees of a built page, and the raw internals it must not show (issue 28, point 3): series
// keys (benchmark/metric[param=value,...]), run ids and 40-hex hashes belong inside a
// <details> disclosure ("Where these figures come from"), attributes, scripts or styles; parameter values
// in the runner's spelling ("rsa2048", "groups default") only in commands.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './browser.ts';
import { CERTS } from '../../runner/certs.ts';

/** Every `benchmark/metric` of the data's series keys, longest first, so a unit such as `handshake/s` is not read as a key. */
function keyHeads(): string[] {
  const summary = JSON.parse(readFileSync(join(REPO, 'data', 'summary.json'), 'utf8')) as { entries: { benchmark: string; metric: string }[] };
  return [...new Set(summary.entries.map((e) => `${e.benchmark}/${e.metric}`))].sort((a, b) => b.length - a.length);
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const PATTERNS: { name: string; re: RegExp }[] = [
  { name: 'series key', re: new RegExp(`(?<![\\w/-])(?:${keyHeads().map(esc).join('|')})(?![\\w-])(?:\\[[^\\]\\s]*=[^\\]]*\\])?`, 'g') },
  { name: 'parameters of a key', re: /\[[a-zA-Z]+=[^\]\s]*(?:,[a-zA-Z]+=[^\]\s]*)*\]/g },
  { name: 'run id', re: /\b\d{8}T\d{6}Z-[a-z]+-[0-9a-f]{4}\b/g },
  { name: '40-hex hash', re: /\b[0-9a-f]{40}\b/g },
];
/** Parameter values as the runner spells them, which prose names otherwise (catalogue/words.ts); commands in <code> may spell them. */
export const PROSE_PATTERNS: { name: string; re: RegExp }[] = [
  // not in a command ("openssl speed rsa2048") or a file name ("mldsa65.crt")
  { name: 'certificate id', re: new RegExp(`(?<![\\w:/-])(?<!openssl speed )(?:${CERTS.map(esc).join('|')})(?![\\w-])(?!\\.(?:crt|key)\\b)`, 'g') },
  { name: "groups in the runner's words", re: /\bgroups default\b/g },
];

/** Visible text of a page: without <details> (nested ones too), scripts, styles, tags and attribute values. */
export function readerText(html: string): string {
  let s = html.replace(/<!--[\s\S]*?-->/g, ' ').replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, ' ');
  let out = '';
  let depth = 0;
  const tag = /<(\/?)details\b[^>]*>/gi;
  let at = 0;
  for (let m = tag.exec(s); m; m = tag.exec(s)) {
    if (depth === 0) out += s.slice(at, m.index);
    depth = Math.max(0, depth + (m[1] ? -1 : 1));
    at = m.index + m[0].length;
  }
  if (depth === 0) out += s.slice(at);
  s = out.replace(/<[^>]*>/g, ' ');
  return s
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

export function pages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? (d.name === 'data' || d.name === '_astro' ? [] : pages(join(dir, d.name))) : d.name.endsWith('.html') ? [join(dir, d.name)] : [],
  );
}

export function violations(html: string): string[] {
  const text = readerText(html);
  const prose = readerText(html.replace(/<(code|pre)\b[\s\S]*?<\/\1\s*>/gi, ' '));
  const found = (t: string, patterns: typeof PATTERNS) => patterns.flatMap(({ name, re }) => [...t.matchAll(re)].map((m) => `${name}: ${m[0].slice(0, 80)}`));
  return [...found(text, PATTERNS), ...found(prose, PROSE_PATTERNS)];
}
