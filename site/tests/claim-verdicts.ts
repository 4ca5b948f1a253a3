// `node site/tests/claim-verdicts.ts [--detail] [writeups-dir]`: every write-up's claims evaluated against the
// committed data (data/summary.json, detailed-iterations.json and the run files behind it; OBSERVATORY_DATA_DIR
// for other data), one line per claim: "<write-up>/<claim id>: <verdict> — <reason>". With --detail, each
// comparison's verdict under its claim. For reviewing what a change to the verdict rules does to the published
// verdicts: diff the output before and after.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseFrontmatter } from '@astrojs/markdown-remark';
import { evaluateClaims, type ClaimResult } from '../src/lib/claims/evaluate.ts';
import { resultText } from '../src/lib/claims/words.ts';
import { loadClaimData } from '../src/lib/data.ts';
import { WriteupFrontmatter } from '../src/lib/writeups.ts';

export function claimVerdicts(detail = false, dir: URL = new URL('../src/content/writeups/', import.meta.url)): string[] {
  const data = loadClaimData();
  const lines: string[] = [];
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith('.md'))
    .sort()) {
    const w = WriteupFrontmatter.parse(parseFrontmatter(readFileSync(new URL(f, dir), 'utf8')).frontmatter);
    for (const r of evaluateClaims(w, data) as ClaimResult[]) {
      lines.push(`${f.replace(/\.md$/, '')}/${r.claim.id}: ${r.verdict} — ${r.reason}`);
      if (!detail) continue;
      for (const h of r.hosts)
        for (const c of h.comparisons)
          lines.push(`    ${h.host} ${c.label}${c.test.role === 'supports' ? ' [supports]' : ''}: ${c.verdict} ${resultText(c)} (${c.reason})`);
    }
  }
  return lines;
}

if (import.meta.main) {
  const dir = process.argv.slice(2).find((a) => !a.startsWith('--'));
  console.log(claimVerdicts(process.argv.includes('--detail'), dir ? pathToFileURL(`${resolve(dir)}/`) : undefined).join('\n'));
}
