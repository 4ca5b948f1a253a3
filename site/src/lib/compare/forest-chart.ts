// A forest chart of the largest paired changes (B against A), as SVG text for the static page and the
// compare script: one row per series, its label above a point at the paired ratio with the interval as
// a whisker, on a log scale with the no-change line marked.
import { scaleLinear } from 'd3';
import { pctTick } from '../chart-text.ts';
import { pct } from '../format.ts';
import type { ForestRow } from './forest.ts';
import { esc, px, tag } from '../svg.ts';

export function forestSvg(rows: readonly ForestRow[], width: number, title: string): string {
  const W = Math.round(Math.max(300, Math.min(1000, width)));
  const maxChars = Math.floor((W - 18) / 6.6);
  // labels wrap to two lines where the width is short (phones); a longer label ends with an ellipsis
  const lines = rows.map((r) => wrap(r.label, maxChars, 2));
  const lineH = 15;
  const rowTop = (i: number) => lines.slice(0, i).reduce((a, l) => a + l.length * lineH + 24, 0);
  // room on both sides for the value written beside each whisker
  const m = { top: 40, right: 64, bottom: 10, left: 10, plot: 62 };
  const H = m.top + rowTop(rows.length) + m.bottom;
  const values = rows.flatMap((r) => [r.ratio, r.low ?? r.ratio, r.high ?? r.ratio]);
  const lo = Math.min(1, ...values);
  const hi = Math.max(1, ...values);
  // log scale: equal distances for equal ratios (halving and doubling look alike); ticks at round percents
  const xl = scaleLinear()
    .domain([Math.log(lo / 1.03), Math.log(hi * 1.03)])
    .range([m.plot, W - m.right]);
  const x = (r: number) => xl(Math.log(r));
  const ticks = scaleLinear()
    .domain([lo / 1.03, hi * 1.03])
    .ticks(W < 500 ? 4 : 7)
    .filter((t) => t > 0)
    .filter((t, i, all) => i === 0 || Math.abs(x(t) - x(all[i - 1]!)) > 48);
  const out: string[] = [];
  for (const t of ticks) {
    const tx = px(x(t));
    out.push(tag('line', { class: 'grid', x1: tx, x2: tx, y1: m.top - 6, y2: H - m.bottom }));
    out.push(tag('text', { x: tx, y: m.top - 10, 'text-anchor': 'middle' }, esc(pctTick(t))));
  }
  out.push(tag('text', { class: 'axis-title', x: m.left, y: 12 }, esc(title)));
  const one = px(x(1));
  out.push(tag('line', { class: 'refline', x1: one, x2: one, y1: m.top - 6, y2: H - m.bottom }));
  rows.forEach((r, i) => {
    const y0 = m.top + rowTop(i);
    const cy = y0 + lines[i]!.length * lineH + 10;
    const cx = px(x(r.ratio));
    const whisker =
      r.low !== null && r.high !== null
        ? tag('path', { class: 'ci', d: `M${px(x(r.low))},${cy}H${px(x(r.high))}M${px(x(r.low))},${cy - 4}v8M${px(x(r.high))},${cy - 4}v8` })
        : '';
    out.push(
      tag(
        'g',
        {
          class: `frow ${r.significant ? `sig ${r.tone}` : 'ns'}`,
          tabindex: 0,
          role: 'img',
          'aria-label': `${r.label}: ${r.detail}`,
          'data-key': r.key,
          'data-ratio': r.ratio,
        },
        ...lines[i]!.map((l, k) => tag('text', { class: 'flabel', x: m.left, y: y0 + 11 + k * lineH }, esc(l))),
        whisker,
        tag('circle', { cx, cy, r: 5 }),
        // the value beside the whisker's outer end, on the side away from no change
        tag(
          'text',
          {
            class: 'fvalue',
            x: px(r.ratio >= 1 ? x(r.high ?? r.ratio) + 8 : x(r.low ?? r.ratio) - 8),
            y: cy,
            dy: '0.32em',
            'text-anchor': r.ratio >= 1 ? 'start' : 'end',
          },
          esc(pct(r.ratio)),
        ),
        tag('title', {}, esc(`${r.label}: ${r.detail}`)),
      ),
    );
  });
  return tag('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'group', 'aria-label': title }, ...out);
}

/** Up to `max` lines of at most `width` characters, broken at spaces; the last line ends with … when cut. */
function wrap(text: string, width: number, max: number): string[] {
  const words = text.split(' ');
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!cur || (cur + ' ' + w).length <= width) cur = cur ? `${cur} ${w}` : w;
    else {
      out.push(cur);
      cur = w;
      if (out.length === max - 1) {
        const rest = words.slice(i).join(' ');
        out.push(rest.length > width ? `${rest.slice(0, width - 1)}…` : rest);
        return out;
      }
    }
  }
  if (cur) out.push(cur.length > width ? `${cur.slice(0, width - 1)}…` : cur);
  return out;
}
