// The home chart as SVG text: drawn once at build time (the page works without JavaScript) and again by
// the page's script at the width of its container and for every selection. Values come only from the
// journey files (summary.json): medians with their intervals, or summary.json's paired ratios against
// the baseline in the relative view.
import { scaleLinear, scalePoint } from 'd3';
import { axisScale, pctTick, tickText as scaled } from './chart-text.ts';
import { pct, quantity, quantityRange } from './format.ts';
import { GROUP_LABEL, lineRuns, pointRuns, type GroupMode, type Journey, type JourneyPoint, type Step } from './journey-view.ts';
import { esc, px, tag } from './svg.ts';
import { runAttrs } from './runs.ts';

export type ChartScale = 'absolute' | 'relative';
export type ChartAxis = 'release' | 'date';

export interface JourneyChartInput {
  /** width in CSS pixels: the SVG is drawn at this size so its text stays legible */
  width: number;
  /** one line per group mode, library defaults first */
  lines: Journey[];
  /** x axis in release order */
  versions: string[];
  scale: ChartScale;
  axis: ChartAxis;
  /** version -> first release date of its series (ISO), for the time axis */
  released: Record<string, string>;
  /** the version the relative view is relative to */
  baseline: string;
  steps: Step[];
  /** href of the list entry explaining step n */
  stepHref: (n: number) => string;
  /** mark each point with its summary.json series key (the live chart; the static one saves the bytes) */
  keys?: boolean;
}

const LINE_CLASS: Record<GroupMode, string> = { default: '', X25519: ' alt' };

export function describePoint(j: Journey, p: JourneyPoint): string {
  if (p.median === null) return `${p.version}: ${p.status === 'measured' ? 'not measured' : p.status}${p.reason ? ` (${p.reason})` : ''}`;
  const ci = p.low !== null && p.high !== null ? `interval of the median ${quantityRange(p.low, p.high, j.unit, j.method)}` : 'no interval';
  return `${GROUP_LABEL[j.groups]}, ${p.version}: median ${quantity(p.median, j.unit, j.method)}, ${ci}, n=${p.n}${p.negotiated ? `, negotiated ${p.negotiated}` : ''}`;
}

/** A point's value in the relative view: summary.json's paired ratio against the baseline, or 1 at the baseline. */
export function relativeOf(p: JourneyPoint, baseline: string): { ratio: number; low: number | null; high: number | null } | null {
  if (p.median === null) return null;
  if (p.version === baseline) return { ratio: 1, low: null, high: null };
  if (!p.base || p.base.against !== baseline) return null;
  return { ratio: p.base.ratio, low: p.base.low, high: p.base.high };
}

export function journeySvg(c: JourneyChartInput): string {
  const W = Math.round(Math.max(300, Math.min(1000, c.width)));
  const narrow = W < 500;
  const H = narrow ? 290 : 340;
  const unit = c.lines[0]?.unit ?? '';
  const method = c.lines[0]?.method;
  const relative = c.scale === 'relative';

  // y: medians and their intervals, or ratios against the baseline
  type Mark = { line: Journey; p: JourneyPoint; y: number; low: number | null; high: number | null };
  const marks: Mark[] = [];
  for (const line of c.lines)
    for (const p of line.points) {
      if (!c.versions.includes(p.version)) continue;
      if (relative) {
        const r = relativeOf(p, c.baseline);
        if (r) marks.push({ line, p, y: r.ratio, low: r.low, high: r.high });
      } else if (p.median !== null) marks.push({ line, p, y: p.median, low: p.low, high: p.high });
    }
  const tops = marks.map((m) => m.high ?? m.y);
  const bottoms = marks.map((m) => m.low ?? m.y);
  const y = relative
    ? scaleLinear()
        .domain([Math.min(1, ...bottoms) * 0.97, Math.max(1, ...tops) * 1.03])
        .nice()
    : scaleLinear()
        .domain([0, Math.max(0, ...tops) * 1.08 || 1])
        .nice();
  const ticks = y.ticks(narrow ? 5 : 6);
  const us = axisScale(unit, method, Math.max(...ticks.map(Math.abs)));
  const tickText = (t: number) => (relative ? pctTick(t) : scaled(t, us));
  const left = 30 + Math.max(...ticks.map((t) => tickText(t).length)) * 7;
  const m = { top: c.steps.length ? 30 : 14, right: 14, bottom: c.axis === 'date' ? 70 : narrow ? 58 : 50, left };
  y.range([H - m.bottom, m.top]);

  // x: release order, or the release date of each version's series
  let x: (v: string) => number;
  /** where a version's label goes: its position, or on the time axis its series' date */
  let xLabel: (v: string) => number;
  const xTicks: string[] = [];
  if (c.axis === 'date') {
    const dates = c.versions.map((v) => Date.parse(c.released[v] ?? '')).filter((d) => !Number.isNaN(d));
    const lo = Math.min(...dates);
    const hi = Math.max(...dates);
    const pad = Math.max((hi - lo) * 0.04, 60 * 864e5);
    // a linear scale over time; the ticks are the first days of years, as many as fit
    const t = scaleLinear()
      .domain([lo - pad, hi + pad])
      .range([m.left + 8, W - m.right - 8]);
    // versions of one series share its date: spread them a few pixels apart, in release order
    const sameDate = new Map<string, string[]>();
    for (const v of c.versions) sameDate.set(c.released[v] ?? v, [...(sameDate.get(c.released[v] ?? v) ?? []), v]);
    xLabel = (v) => t(Date.parse(c.released[v] ?? ''));
    x = (v) => {
      const group = sameDate.get(c.released[v] ?? v) ?? [v];
      return xLabel(v) + (group.indexOf(v) - (group.length - 1) / 2) * 7;
    };
    const [first, last] = [new Date(lo - pad).getUTCFullYear() + 1, new Date(hi + pad).getUTCFullYear()];
    const step = Math.max(1, Math.ceil((last - first + 1) / (narrow ? 4 : 8)));
    for (let y = first; y <= last; y += step) xTicks.push(`${px(t(Date.UTC(y, 0, 1)))}|${y}`);
  } else {
    const p = scalePoint<string>()
      .domain(c.versions)
      .range([m.left, W - m.right])
      .padding(0.5);
    x = (v) => p(v) ?? m.left;
    xLabel = x;
  }
  const dodge = (g: GroupMode) => (c.lines.length > 1 ? (g === 'default' ? -3.5 : 3.5) : 0);

  const out: string[] = [];
  // grid and y axis
  for (const t of ticks) {
    const ty = px(y(t));
    out.push(tag('line', { class: relative && t === 1 ? 'refline' : 'grid', x1: m.left, x2: W - m.right, y1: ty, y2: ty }));
    out.push(tag('text', { x: m.left - 6, y: ty, dy: '0.32em', 'text-anchor': 'end' }, esc(tickText(t))));
  }
  const yTitle = relative ? `change vs ${c.baseline} (paired ratio)` : `${us.suffix} (median)`;
  out.push(
    tag('text', { class: 'axis-title', transform: `translate(12,${px((H - m.bottom + m.top) / 2)}) rotate(-90)`, 'text-anchor': 'middle' }, esc(yTitle)),
  );
  out.push(tag('line', { class: 'axis', x1: m.left, x2: W - m.right, y1: H - m.bottom, y2: H - m.bottom }));

  // x labels: versions (rotated); on the time axis the release series at its date (its versions share it), and years
  const rot = narrow || c.axis === 'date' ? -55 : -30;
  const seriesOf = new Map(c.lines.flatMap((l) => l.points.map((p) => [p.version, p.series] as const)));
  const labels = c.axis === 'date' ? [...new Map(c.versions.map((v) => [seriesOf.get(v) ?? v, v])).entries()] : c.versions.map((v) => [v, v] as const);
  for (const [text, v] of labels) {
    const vx = px(xLabel(v));
    out.push(
      tag(
        'text',
        { class: 'xlabel', 'data-version': v, transform: `translate(${vx},${H - m.bottom + 10}) rotate(${rot})`, 'text-anchor': 'end', dy: '0.32em' },
        esc(text),
      ),
    );
  }
  for (const t of xTicks) {
    const [tx, year] = t.split('|');
    out.push(tag('line', { class: 'grid year', x1: tx, x2: tx, y1: m.top, y2: H - m.bottom }));
    out.push(tag('text', { class: 'year', x: tx, y: H - 6, 'text-anchor': 'middle' }, esc(year!)));
  }

  // steps studied by a write-up: a numbered mark between the two versions, linking to its entry in the list
  for (const s of c.steps) {
    const sx = px((x(s.from) + x(s.version)) / 2);
    const label = `Step ${s.n}, ${s.from} to ${s.version}, studied in ${s.writeups.length === 1 ? s.writeups[0]!.title : `${s.writeups.length} write-ups listed below the chart`}`;
    out.push(
      tag(
        'a',
        { href: c.stepHref(s.n), class: 'step', 'aria-label': label },
        tag('line', { class: 'step-guide', x1: sx, x2: sx, y1: m.top - 4, y2: H - m.bottom }),
        tag('circle', { cx: sx, cy: 13, r: 10 }),
        tag('text', { x: sx, y: 13, dy: '0.35em', 'text-anchor': 'middle' }, String(s.n)),
        tag('title', {}, esc(label)),
      ),
    );
  }

  // lines, intervals and points, one series at a time
  for (const line of c.lines) {
    const cls = LINE_CLASS[line.groups];
    const dx = dodge(line.groups);
    const mine = marks.filter((mk) => mk.line === line);
    const shown = new Set(mine.map((mk) => mk.p));
    const runs = relative
      ? relativeRuns(
          line.points.filter((p) => c.versions.includes(p.version)),
          shown,
        )
      : lineRuns(line.points.filter((p) => c.versions.includes(p.version)));
    const yOf = new Map(mine.map((mk) => [mk.p, mk.y]));
    for (const run of runs) {
      const d = run.map((p, i) => `${i ? 'L' : 'M'}${px(x(p.version) + dx)},${px(y(yOf.get(p)!))}`).join('');
      out.push(tag('path', { class: `line${cls}`, d }));
    }
    for (const mk of mine) {
      const cx = px(x(mk.p.version) + dx);
      if (mk.low !== null && mk.high !== null) {
        const [y1, y2] = [px(y(mk.low)), px(y(mk.high))];
        out.push(tag('path', { class: `ci${cls}`, d: `M${cx},${y1}V${y2}M${cx - 4},${y1}h8M${cx - 4},${y2}h8` }));
      }
      const label = relative ? describeRatio(line, mk.p, c.baseline) : describePoint(line, mk.p);
      out.push(
        tag(
          'circle',
          {
            class: relative ? `ratio${cls}` : `point${cls}`,
            cx,
            cy: px(y(mk.y)),
            r: 5,
            tabindex: 0,
            role: 'img',
            'data-version': mk.p.version,
            'data-groups': line.groups,
            'data-key': c.keys ? mk.p.key : null,
            ...(relative ? { 'data-ratio': mk.y } : { 'data-median': mk.y }),
          },
          tag('title', {}, esc(label)),
        ),
      );
    }
  }
  // versions no line has a value for say so in words
  // (on the time axis versions of one series share a place: the table says it for each of them)
  for (const v of c.axis === 'date' ? [] : c.versions) {
    if (marks.some((mk) => mk.p.version === v)) continue;
    const ps = c.lines.map((l) => l.points.find((p) => p.version === v));
    const why = relative
      ? ps.some((p) => p?.median !== null && p !== undefined)
        ? 'not compared with the baseline (different runs)'
        : 'not measured'
      : ps.map((p) => (p ? describePoint(c.lines[0]!, p) : `${v}: not measured in this configuration`))[0]!;
    const label = relative ? `${v}: ${why}` : why;
    out.push(
      tag(
        'text',
        { class: 'nm', x: px(x(v)), y: H - m.bottom - 6, 'text-anchor': 'middle', tabindex: 0, role: 'img' },
        tag('title', {}, esc(label)),
        relative ? 'n/c' : 'n/m',
      ),
    );
  }

  const what = c.lines[0]
    ? `${c.lines[0].label}, by ${c.axis === 'date' ? 'release date' : 'version'}${relative ? `, relative to ${c.baseline}` : ''}: ${c.lines.map((l) => GROUP_LABEL[l.groups]).join(' and ')}`
    : 'no data';
  const shown = pointRuns(c.lines, (l) => l.points.filter((p) => c.versions.includes(p.version)));
  return tag('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'group', 'aria-label': what, 'data-width': W, ...runAttrs(shown) }, ...out);
}

function describeRatio(j: Journey, p: JourneyPoint, baseline: string): string {
  if (p.version === baseline) return `${GROUP_LABEL[j.groups]}, ${p.version}: the baseline`;
  const b = p.base!;
  const iv = b.low !== null && b.high !== null ? `, interval ${pct(b.low)} to ${pct(b.high)}` : '';
  return `${GROUP_LABEL[j.groups]}, ${p.version}: ${pct(b.ratio)} vs ${baseline}${iv} (${b.deterministic ? 'exact count' : 'paired by round'}: ${b.verdict.replace(/-/g, ' ')})`;
}

/** Relative view: consecutive versions that both have a ratio and the same comparability segment. */
function relativeRuns(points: JourneyPoint[], shown: ReadonlySet<JourneyPoint>): JourneyPoint[][] {
  const runs: JourneyPoint[][] = [];
  let cur: JourneyPoint[] = [];
  for (const p of points) {
    const prev = cur[cur.length - 1];
    if (!shown.has(p)) {
      if (cur.length > 1) runs.push(cur);
      cur = [];
    } else if (prev && prev.segment !== null && prev.segment === p.segment) cur.push(p);
    else {
      if (cur.length > 1) runs.push(cur);
      cur = [p];
    }
  }
  if (cur.length > 1) runs.push(cur);
  return runs;
}
