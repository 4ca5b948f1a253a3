// The home page's compact table (each version's value and its change against the previous version on the
// chart and the baseline, per line) and the "download this view" files, as text: written into the static
// page at build time and rewritten by the page's script for every selection.
import { axisScale, tickText, type AxisScale } from './chart-text.ts';
import { quantity, quantityRange, toCsv } from './format.ts';
import {
  GROUP_LABEL,
  GROUP_SHORT,
  changeCell,
  pointRuns,
  changeMark,
  configText,
  type ChangeCell,
  type Journey,
  type JourneyPoint,
  type Step,
} from './journey-view.ts';
import { esc, tag } from './svg.ts';
import { runAttrs, runDate } from './runs.ts';

export interface TableInput {
  lines: Journey[];
  versions: string[];
  baseline: string;
  steps: Step[];
  stepHref: (n: number) => string;
}

function changeTd(c: ChangeCell, which: string): string {
  const words: Record<ChangeCell['kind'], string> = { paired: '', 'different-runs': 'different runs', 'not-comparable': 'not comparable', none: '—' };
  if (c.kind !== 'paired') return tag('td', { class: 'num change muted', title: c.detail, 'data-change': which, 'data-kind': c.kind }, esc(words[c.kind]));
  const mark = changeMark(c);
  const cls = `num change ${c.significant ? `sig ${c.tone}` : 'ns'}`;
  const sr = c.significant ? tag('span', { class: 'sr-only' }, esc(` (significant: ${c.verdict})`)) : '';
  return tag(
    'td',
    { class: cls, title: c.detail, 'data-change': which, 'data-kind': c.kind, 'data-verdict': c.verdict ?? '' },
    esc(c.text),
    mark ? tag('span', { 'aria-hidden': 'true' }, ` ${mark}`) : '',
    sr,
  );
}

function valueTd(j: Journey, p: JourneyPoint | undefined, us: AxisScale): string {
  if (!p || p.median === null) {
    const why = !p ? 'not measured' : p.status === 'measured' ? 'not measured' : p.status;
    return tag('td', { class: 'num muted', title: p?.reason ?? why, 'data-groups': j.groups }, esc(why));
  }
  const title = `${quantity(p.median, j.unit, j.method)}${p.low !== null && p.high !== null ? `, interval ${quantityRange(p.low, p.high, j.unit, j.method)}` : ''}, n=${p.n}, run ${p.run ?? '?'}`;
  return tag('td', { class: 'num', 'data-median': p.median, 'data-groups': j.groups, 'data-run': p.run, title }, esc(tickText(p.median, us)));
}

/** The table's rows: versions in chart order; changes against the previous version measured on the same line. */
export function journeyTableHtml(t: TableInput): string {
  const unit = t.lines[0]?.unit ?? '';
  const hib = t.lines[0]?.higherIsBetter ?? true;
  const head1 = tag(
    'tr',
    {},
    tag('th', { scope: 'col', rowspan: 2 }, 'Version'),
    ...t.lines.map((l) => tag('th', { scope: 'colgroup', colspan: 3, class: `group-head g-${l.groups}` }, esc(GROUP_SHORT[l.groups]))),
  );
  const us = axisScale(unit, t.lines[0]?.method, Math.max(0, ...t.lines.flatMap((l) => l.points.map((p) => p.median ?? 0))));
  const head2 = tag(
    'tr',
    {},
    ...t.lines.flatMap(() => [
      tag('th', { scope: 'col', class: 'num', title: `median, ${us.suffix}` }, 'median'),
      tag('th', { scope: 'col', class: 'num' }, 'vs prev.'),
      tag('th', { scope: 'col', class: 'num' }, esc(`vs ${t.baseline}`)),
    ]),
  );
  const rows = t.versions.map((v) => {
    const step = t.steps.find((s) => s.version === v);
    const ref = step ? ` ${tag('a', { href: t.stepHref(step.n), class: 'step-ref', 'aria-label': `step ${step.n}: what changed` }, String(step.n))}` : '';
    const cells = t.lines.flatMap((l) => {
      const shown = l.points.filter((p) => t.versions.includes(p.version));
      const i = shown.findIndex((p) => p.version === v);
      const p = shown[i];
      if (!p) return [valueTd(l, undefined, us), tag('td', { class: 'num muted' }, '—'), tag('td', { class: 'num muted' }, '—')];
      const prev = shown
        .slice(0, i)
        .reverse()
        .find((x) => x.median !== null);
      const base = shown.find((x) => x.version === t.baseline);
      return [
        valueTd(l, p, us),
        changeTd(changeCell(p, prev, 'prev', hib), 'prev'),
        changeTd(
          p.version === t.baseline
            ? { kind: 'none', text: '', significant: false, tone: 'neutral', verdict: null, detail: 'the baseline' }
            : changeCell(p, base, 'base', hib),
          'base',
        ),
      ];
    });
    return tag('tr', { 'data-version': v }, tag('th', { scope: 'row' }, esc(v), ref), ...cells);
  });
  const shownRuns = pointRuns(t.lines, (l) => l.points.filter((p) => t.versions.includes(p.version)));
  const main = tag(
    'table',
    { class: 'steps', 'data-unit': us.suffix, ...runAttrs(shownRuns) },
    tag('caption', {}, esc(`Medians in ${us.suffix}; changes against the previous version on the chart and against ${t.baseline}`)),
    tag('thead', {}, head1, head2),
    tag('tbody', {}, ...rows),
  );
  return main + apartTablesHtml(t.lines);
}

/** The versions other runs measured, a table per run: medians only, never compared with the chart's run. */
export function apartTablesHtml(lines: readonly Journey[]): string {
  const runs = [...new Set(lines.flatMap((l) => (l.apart ?? []).map((a) => a.run)))];
  return runs
    .map((run) => {
      const of = (l: Journey) => l.apart?.find((a) => a.run === run)?.points ?? [];
      const versions = [...new Set(lines.flatMap((l) => of(l).map((p) => p.version)))];
      const us = axisScale(lines[0]?.unit ?? '', lines[0]?.method, Math.max(0, ...lines.flatMap((l) => of(l).map((p) => p.median ?? 0))));
      const head = tag(
        'tr',
        {},
        tag('th', { scope: 'col' }, 'Version'),
        ...lines.map((l) => tag('th', { scope: 'col', class: 'num' }, esc(GROUP_SHORT[l.groups]))),
      );
      const body = versions.map((v) =>
        tag(
          'tr',
          { 'data-version': v },
          tag('th', { scope: 'row' }, esc(v)),
          ...lines.map((l) =>
            valueTd(
              l,
              of(l).find((p) => p.version === v),
              us,
            ),
          ),
        ),
      );
      const caption = `Measured in another run (${runDate(run)}): medians in ${us.suffix}, not compared with the chart and table above`;
      return tag(
        'table',
        { class: 'steps apart', 'data-apart': run, ...runAttrs(pointRuns(lines, of)) },
        tag('caption', {}, esc(caption)),
        tag('thead', {}, head),
        tag('tbody', {}, ...body),
      );
    })
    .join('');
}

// ------------------------------------------------------------------ download this view

/** Every point of the lines shown (other runs' too), one row each, with the comparisons summary.json made in its run. */
export function journeyCsv(lines: Journey[], versions: string[]): string {
  const head = [
    'host',
    'measure',
    'unit',
    'configuration',
    'key exchange',
    'version',
    'status',
    'median',
    'interval low',
    'interval high',
    'n',
    'run',
    'series key',
    'vs previous: against',
    'vs previous: ratio',
    'vs previous: verdict',
    'vs baseline: against',
    'vs baseline: ratio',
    'vs baseline: verdict',
  ];
  const rows = lines.flatMap((l) =>
    [...l.points, ...(l.apart ?? []).flatMap((a) => a.points)]
      .filter((p) => versions.includes(p.version))
      .map((p) => [
        l.host,
        l.label,
        l.unit,
        configText(l.config),
        GROUP_SHORT[l.groups],
        p.version,
        p.status,
        p.median,
        p.low,
        p.high,
        p.n,
        p.run,
        p.key,
        p.prev?.against ?? null,
        p.prev?.ratio ?? null,
        p.prev?.verdict ?? null,
        p.base?.against ?? null,
        p.base?.ratio ?? null,
        p.base?.verdict ?? null,
      ]),
  );
  return toCsv(head, rows);
}

/** The lines shown, as JSON (points limited to the versions on the chart). */
export function journeyJson(lines: Journey[], versions: string[]): string {
  return (
    JSON.stringify(
      lines.map((l) => ({ ...l, configuration: configText(l.config), points: l.points.filter((p) => versions.includes(p.version)) })),
      null,
      1,
    ) + '\n'
  );
}

/** The numbered steps of the chart with the write-ups that study them (the chart's marks link here). */
export function causesHtml(steps: Step[], writeupHref: (id: string) => string): string {
  return steps
    .map((s) =>
      tag(
        'li',
        { id: `cause-${s.n}`, 'data-step': s.n },
        tag('span', { class: 'step-n', 'aria-hidden': 'true' }, String(s.n)),
        tag('span', { class: 'step-span' }, esc(`${s.from} → ${s.version}`)),
        ' ',
        s.writeups.map((w) => tag('a', { href: writeupHref(w.id) }, esc(w.title))).join(tag('span', { class: 'sep', 'aria-hidden': 'true' }, ' · ')),
      ),
    )
    .join('');
}

/** The chart's legend: one swatch per line drawn, styled as the line (solid or dashed) and its points. */
export function legendHtml(lines: Journey[]): string {
  return lines
    .map((l) => {
      const alt = l.groups === 'X25519' ? ' alt' : '';
      const swatch = `<svg aria-hidden="true" width="34" height="12" viewBox="0 0 34 12"><path class="swatch-line${alt}" d="M1,6H33"/><circle class="swatch-dot${alt}" cx="17" cy="6" r="4.5"/></svg>`;
      return tag('li', { class: `g-${l.groups}` }, swatch, esc(GROUP_LABEL[l.groups]));
    })
    .join('');
}
