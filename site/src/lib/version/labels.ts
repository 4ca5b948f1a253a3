// Row labels split into what a table's rows share (said once above it), what each row adds, and explanations
// several rows repeat (said once, as notes).

/** Index of the last "; " outside parentheses within the first `limit` characters, or -1. */
function lastClauseBreak(text: string, limit: number): number {
  let depth = 0;
  let found = -1;
  for (let i = 0; i < Math.min(limit, text.length); i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ';' && depth === 0 && text[i + 1] === ' ') found = i;
  }
  return found;
}

function commonPrefixLength(texts: readonly string[]): number {
  const first = texts[0] ?? '';
  let n = first.length;
  for (const t of texts) {
    let i = 0;
    while (i < n && i < t.length && t[i] === first[i]) i++;
    n = i;
  }
  return n;
}

/** Depth-0 clauses of a label ("; " outside parentheses). */
export function clauses(label: string): string[] {
  const out: string[] = [];
  let rest = label;
  for (let cut = lastClauseBreak(rest, rest.length); cut > 0; cut = lastClauseBreak(rest, rest.length)) {
    out.unshift(rest.slice(cut + 2));
    rest = rest.slice(0, cut);
  }
  out.unshift(rest);
  return out;
}

/**
 * Split labels into what they share (the measure, said once above the table), what each row adds (its
 * configuration) and explanatory clauses repeated on several rows (said once, as notes). The split falls on
 * clause breaks ("; " outside parentheses), so no label is cut in a word. Null when the labels share no clause.
 */
export function splitLabels(labels: readonly string[]): { head: string; rows: string[]; notes: string[] } | null {
  if (labels.length === 0) return null;
  const limit = labels.length === 1 ? labels[0]!.length : commonPrefixLength(labels) + 1;
  const cut = lastClauseBreak(labels[0]!, limit);
  if (cut <= 0) return null;
  const rests = labels.map((l) => clauses(l.slice(cut + 2)));
  // a trailing clause that several rows repeat word for word is a note about the measure, not about the row
  const counts = new Map<string, number>();
  for (const r of rests) for (const c of r.slice(1)) counts.set(c, (counts.get(c) ?? 0) + 1);
  const notes = [...counts].filter(([, n]) => n > 1).map(([c]) => c);
  return { head: labels[0]!.slice(0, cut), rows: rests.map((r) => [r[0]!, ...r.slice(1).filter((c) => !notes.includes(c))].join('; ')), notes };
}

/**
 * Labels that differ only in a short middle part, e.g. openssl speed's "... on 16-byte buffers (...): bytes per
 * second ..." for each buffer size: the shared words said once (the differing part as "…"), each row its part.
 * Cuts fall on spaces; null unless every row's part is short and the shared words say something.
 */
export function splitAround(labels: readonly string[]): { head: string; rows: string[] } | null {
  if (labels.length < 2 || new Set(labels).size !== labels.length) return null;
  const first = labels[0]!;
  let pre = commonPrefixLength(labels);
  let suf = commonPrefixLength(labels.map((l) => [...l].reverse().join('')));
  suf = Math.min(suf, Math.min(...labels.map((l) => l.length)) - pre);
  pre = first.lastIndexOf(' ', pre);
  const sufStart = suf === 0 ? first.length : first.indexOf(' ', first.length - suf);
  if (pre <= 0 || sufStart < 0) return null;
  suf = first.length - sufStart;
  const rows = labels.map((l) => l.slice(pre + 1, l.length - suf));
  if (rows.some((r) => r.length === 0 || r.length > 40)) return null;
  return { head: suf === 0 ? `${first.slice(0, pre)} …` : `${first.slice(0, pre)} … ${first.slice(sufStart + 1)}`, rows };
}
