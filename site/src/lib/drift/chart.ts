// The drift control chart as SVG markup, from the view (view.ts) and its words (words.ts).
import { axisScale, tickText } from '../chart-text.ts';
import { num, runWords } from '../format.ts';
import type { DriftMetric } from './shards.ts';
import type { DriftView } from './view.ts';
import { day, driftSentences, markerLetters, markerText } from './words.ts';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** About five round tick values covering [lo, hi]. */
export function ticks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** The control chart as SVG markup: bands and medians per segment, a point per night, a line per step change. */
export function driftSvg(view: DriftView, metric: DriftMetric, label: string): string {
  const W = 760;
  const H = 340;
  const m = { l: 78, r: 16, t: 28, b: 44 };
  const pts = view.points;
  if (!pts.length) return '';
  const t0 = pts[0]!.t;
  const t1 = pts[pts.length - 1]!.t;
  const pad = Math.max((t1 - t0) * 0.02, 2 * 86_400_000);
  const x0 = t0 - pad;
  const x1 = t1 + pad;
  const ys = pts.flatMap((p) => [p.median, ...(p.low !== null ? [p.low] : []), ...(p.high !== null ? [p.high] : [])]);
  for (const s of view.segments) if (s.center !== null && s.halfWidth !== null) ys.push(s.center - s.halfWidth, s.center + s.halfWidth);
  let lo = Math.min(...ys);
  let hi = Math.max(...ys);
  const spread = hi - lo || Math.abs(hi) * 0.01 || 1;
  lo -= spread * 0.08;
  hi += spread * 0.08;
  const X = (t: number) => m.l + ((t - x0) / (x1 - x0)) * (W - m.l - m.r);
  const Y = (v: number) => H - m.b - ((v - lo) / (hi - lo)) * (H - m.t - m.b);
  const f = (v: number) => v.toFixed(1);
  const parts: string[] = [];
  parts.push(`<svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="drift-title drift-desc" class="drift-svg">`);
  parts.push(`<title id="drift-title">${esc(label)}</title>`);
  parts.push(`<desc id="drift-desc">${esc(driftSentences(view, metric).join(' '))}</desc>`);
  // axes and grid
  // ticks are numbers in one scale, the unit (in that scale) is the axis title: "720.7 handshakes/s" on every tick did not fit
  const scale = axisScale(metric.unit, metric.method, Math.max(Math.abs(lo), Math.abs(hi)));
  for (const v of ticks(lo, hi, 6))
    parts.push(
      `<g class="grid"><line x1="${m.l}" x2="${W - m.r}" y1="${f(Y(v))}" y2="${f(Y(v))}"/><text x="${m.l - 6}" y="${f(Y(v) + 4)}" text-anchor="end">${esc(tickText(v, scale))}</text></g>`,
    );
  const days = (t1 - t0) / 86_400_000;
  const dates: number[] = [];
  const d = new Date(t0);
  d.setUTCHours(0, 0, 0, 0);
  if (days > 60) d.setUTCDate(1);
  while (d.getTime() <= x1) {
    if (d.getTime() >= x0) dates.push(d.getTime());
    if (days > 400) d.setUTCMonth(d.getUTCMonth() + 3);
    else if (days > 60) d.setUTCMonth(d.getUTCMonth() + 1);
    else d.setUTCDate(d.getUTCDate() + Math.max(1, Math.ceil(days / 8)));
  }
  for (const t of dates)
    parts.push(`<text class="xtick" x="${f(X(t))}" y="${H - m.b + 16}" text-anchor="middle">${days > 60 ? day(t).slice(0, 7) : day(t).slice(5)}</text>`);
  parts.push(`<text class="ylabel" x="4" y="${m.t - 12}">${esc(scale.suffix)}</text>`);
  parts.push(`<line class="axis" x1="${m.l}" x2="${W - m.r}" y1="${H - m.b}" y2="${H - m.b}"/>`);
  // bands and centers
  for (const s of view.segments) {
    if (s.center === null) continue;
    const a = X(s.from) - 3;
    const b = X(s.to) + 3;
    if (s.halfWidth !== null)
      parts.push(
        `<rect class="band" x="${f(a)}" width="${f(b - a)}" y="${f(Y(s.center + s.halfWidth))}" height="${f(Math.max(1, Y(s.center - s.halfWidth) - Y(s.center + s.halfWidth)))}"/>`,
      );
    parts.push(`<line class="center" x1="${f(a)}" x2="${f(b)}" y1="${f(Y(s.center))}" y2="${f(Y(s.center))}"/>`);
  }
  // step changes
  for (const mk of view.markers) {
    const x = X(mk.t - 12 * 3_600_000);
    parts.push(
      `<g class="change"><title>${esc(`${day(mk.t)}: ${markerText(mk)}`)}</title><line x1="${f(x)}" x2="${f(x)}" y1="${m.t}" y2="${H - m.b}"/><text x="${f(x)}" y="${m.t - 4}" text-anchor="middle">${esc(markerLetters(mk))}</text></g>`,
    );
  }
  // nights
  const out = new Set(view.segments.flatMap((s) => s.outside));
  const whiskers = pts.length <= 400;
  for (const p of pts) {
    const cls = ['pt', p.quiet ? '' : 'notquiet', out.has(p) ? 'out' : ''].filter(Boolean).join(' ');
    const text = `${day(p.t)}: ${num(p.median)} ${metric.unit}${p.low !== null && p.high !== null ? ` [${num(p.low)} – ${num(p.high)}]` : ''}, n=${p.n}, ${runWords(p.runId)}${p.quiet ? '' : ' (not quiet: left out of the band)'}${out.has(p) ? ' (outside the band)' : ''}`;
    const iv =
      whiskers && p.low !== null && p.high !== null ? `<line class="iv" x1="${f(X(p.t))}" x2="${f(X(p.t))}" y1="${f(Y(p.low))}" y2="${f(Y(p.high))}"/>` : '';
    parts.push(`<g class="${cls}"><title>${esc(text)}</title>${iv}<circle cx="${f(X(p.t))}" cy="${f(Y(p.median))}" r="3.5"/></g>`);
  }
  parts.push('</svg>');
  return parts.join('');
}
