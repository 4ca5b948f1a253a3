// What the hypothesis page shows of a results file (schema/hypothesis.ts), precomputed at build time.
import type { HypothesisResult } from '../../../schema/index.ts';

export const VERDICT_LABEL: Record<string, string> = {
  supported: 'supported',
  refuted: 'refuted',
  'not-shown': 'not shown',
  'not-measured': 'not measured',
};

/** Per host, the result to publish: the newest full-mode run, else the newest quick one (labelled as such). */
export function pickPublished<T extends { result: HypothesisResult }>(files: readonly T[]): T[] {
  const byHost = new Map<string, T>();
  const rank = (f: T) => [f.result.mode === 'full' ? 1 : 0, Date.parse(f.result.finishedAt)] as const;
  for (const f of files) {
    const cur = byHost.get(f.result.host.id);
    if (!cur) byHost.set(f.result.host.id, f);
    else {
      const [a, b] = [rank(f), rank(cur)];
      if (a[0] > b[0] || (a[0] === b[0] && a[1] > b[1])) byHost.set(f.result.host.id, f);
    }
  }
  return [...byHost.values()].sort((a, b) => a.result.host.id.localeCompare(b.result.host.id));
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export interface ConfigCost {
  config: string;
  cert: string;
  clientUs: number | null;
  serverUs: number | null;
  blocks: number;
}

/** Median client and server CPU per handshake of each configuration and certificate, over measured (non-warm-up) blocks. */
export function configCosts(r: HypothesisResult): ConfigCost[] {
  const out: ConfigCost[] = [];
  const certs = [...new Set(r.blocks.map((b) => b.cert))].sort();
  for (const c of r.configurations) {
    for (const cert of certs) {
      const blocks = r.blocks.filter((b) => b.config === c.id && b.cert === cert && !b.warmup);
      out.push({ config: c.id, cert, clientUs: median(blocks.map((b) => b.clientUs)), serverUs: median(blocks.map((b) => b.serverUs)), blocks: blocks.length });
    }
  }
  return out;
}

export interface ForestRow {
  id: string;
  label: string;
  ratio: number;
  low: number;
  high: number;
  verdict: string;
}

/** One row per hypothesis, certificate and side that has a ratio with an interval. */
export function forestRows(r: HypothesisResult): ForestRow[] {
  return r.hypotheses.flatMap((h) =>
    h.sides
      .filter((s) => s.ratio !== null && s.ci95 !== null)
      .map((s) => ({ id: `${h.id}-${h.cert}-${s.side}`, label: `${h.id} ${h.cert} ${s.side}`, ratio: s.ratio!, low: s.ci95!.low, high: s.ci95!.high, verdict: h.verdict })),
  );
}
