// Home page: the static chart, table and causes list are already in the page (built from summary.json).
// This script redraws them at the container's width and for every selection (lines, scale, axis, other
// measurements and hosts), keeps the selection in the address, and makes "download this view" files.
// Data: /data/journey/index.json (every journey without its points), then the one file of the shown
// configuration (both group modes), so the page stays small however much was measured.
import { journeySvg, type ChartAxis, type ChartScale } from '../lib/journey-chart.ts';
import { causesHtml, journeyCsv, journeyJson, journeyTableHtml, legendHtml } from '../lib/journey-table.ts';
import {
  GROUP_LABEL, GROUP_MODES, configChoices, configText, expandIndex, familyOf, measureChoices, measureId, mixedRunsNote, stepsFor,
  type GroupMode, type Journey, type JourneyIndex, type JourneyMeta,
} from '../lib/journey-view.ts';

const root = document.querySelector<HTMLElement>('[data-journey-root]');
if (root) void start(root);

interface State {
  host: string;
  metric: string;
  config: string;
  groups: GroupMode[];
  scale: ChartScale;
  axis: ChartAxis;
}

async function start(el: HTMLElement): Promise<void> {
  const status = el.querySelector<HTMLElement>('[data-status]')!;
  const base = el.dataset.src!;
  const writeupBase = el.dataset.writeups!;
  const getJson = async <T,>(name: string): Promise<T> => {
    const res = await fetch(`${base}${name}.json`);
    if (!res.ok) throw new Error(`HTTP ${res.status} for ${name}.json`);
    return (await res.json()) as T;
  };
  let ix: JourneyIndex;
  let metas: JourneyMeta[];
  try {
    ix = await getJson<JourneyIndex>('index');
    metas = expandIndex(ix);
  } catch (e) {
    status.textContent = `Could not load the chart data (${(e as Error).message}); the chart and table show the default view.`;
    return;
  }
  const files = new Map<string, Promise<Journey[]>>();
  const fileOf = (name: string) => {
    if (!files.has(name)) files.set(name, getJson<Journey[]>(name));
    return files.get(name)!;
  };

  const q = new URLSearchParams(location.search);
  const d = el.dataset;
  const st: State = {
    host: q.get('host') ?? d.host!,
    metric: q.get('metric') ?? d.metric!,
    config: q.get('config') ?? d.config!,
    groups: parseGroups(q.get('groups')) ?? parseGroups(d.groups!) ?? ['default'],
    scale: q.get('scale') === 'relative' ? 'relative' : 'absolute',
    axis: q.get('axis') === 'date' ? 'date' : 'release',
  };
  if (!ix.hosts.includes(st.host)) st.host = d.host!;

  const hostSel = el.querySelector<HTMLSelectElement>('select[name=host]')!;
  const measureSel = el.querySelector<HTMLSelectElement>('select[name=metric]')!;
  const configSel = el.querySelector<HTMLSelectElement>('select[name=config]')!;
  const lineButtons = [...el.querySelectorAll<HTMLButtonElement>('button[data-groups]')];
  const scaleButtons = [...el.querySelectorAll<HTMLButtonElement>('button[data-scale]')];
  const axisButtons = [...el.querySelectorAll<HTMLButtonElement>('button[data-axis]')];
  const fill = (s: HTMLSelectElement, opts: [string, string][], value: string) => {
    s.replaceChildren(...opts.map(([v, label]) => new Option(label, v, false, v === value)));
    if (!opts.some(([v]) => v === value) && opts[0]) s.value = opts[0][0];
    return s.value;
  };
  const blobs: string[] = [];

  let generation = 0;
  const render = async (push: boolean) => {
    const mine = ++generation;
    st.host = fill(hostSel, ix.hosts.map((h) => [h, h]), st.host);
    const current = metas.find((m) => m.host === st.host && m.metric === st.metric && m.config === st.config) ?? metas.find((m) => m.host === st.host && m.metric === st.metric) ?? metas.find((m) => m.host === st.host);
    if (!current) return;
    const measure = fill(measureSel, measureChoices(metas, st.host), measureId(current));
    st.metric = measure.split('\u0000')[0]!;
    st.config = fill(configSel, configChoices(metas, st.host, measure), current.metric === st.metric && measureId(current) === measure ? current.config : st.config);
    const available = GROUP_MODES.filter((g) => metas.some((m) => m.host === st.host && m.metric === st.metric && m.config === st.config && m.groups === g));
    st.groups = st.groups.filter((g) => available.includes(g));
    if (!st.groups.length) st.groups = [...available];
    const meta = metas.find((m) => m.host === st.host && m.metric === st.metric && m.config === st.config && m.groups === st.groups[0]);
    if (!meta) return;
    let inFile: Journey[];
    try {
      inFile = await fileOf(meta.file);
    } catch (e) {
      status.textContent = `Could not load this series (${(e as Error).message}).`;
      return;
    }
    if (mine !== generation) return; // a newer selection was made meanwhile
    const lines = GROUP_MODES.filter((g) => st.groups.includes(g)).map((g) => inFile.find((j) => j.groups === g)).filter((j): j is Journey => j !== undefined);
    // the x axis: versions measured in this configuration (either group mode), in release order
    const present = new Set(inFile.flatMap((j) => j.points.map((p) => p.version)));
    const versions = (ix.versions[st.host] ?? []).filter((v) => present.has(v));
    const axisPoints = versions.map((v) => ({ version: v, series: inFile.flatMap((j) => j.points).find((p) => p.version === v)!.series }));
    const steps = stepsFor(axisPoints, familyOf(ix.benchmark, meta.method), ix.writeups);
    const stepHref = (n: number) => `#cause-${n}`;
    const baseline = d.baseline!;

    for (const b of lineButtons) {
      const g = b.dataset.groups as GroupMode;
      b.setAttribute('aria-pressed', String(st.groups.includes(g)));
      b.disabled = !available.includes(g);
      b.title = b.disabled ? 'not measured in this configuration' : '';
    }
    for (const b of scaleButtons) b.setAttribute('aria-pressed', String(b.dataset.scale === st.scale));
    for (const b of axisButtons) b.setAttribute('aria-pressed', String(b.dataset.axis === st.axis));

    const plot = el.querySelector<HTMLElement>('[data-plot]')!;
    plot.innerHTML = journeySvg({ width: plot.clientWidth || 640, lines, versions, scale: st.scale, axis: st.axis, released: ix.released, baseline, steps, stepHref });
    const scroll = el.querySelector<HTMLElement>('.table-scroll')!;
    scroll.querySelector('table')!.outerHTML = journeyTableHtml({ lines, versions, baseline, steps, stepHref });
    el.querySelector('[data-causes]')!.innerHTML = causesHtml(steps, (id) => `${writeupBase}${id}`);
    el.querySelector<HTMLElement>('[data-causes-section]')!.hidden = steps.length === 0;
    el.querySelector('[data-legend]')!.innerHTML = legendHtml(lines);
    const j0 = lines[0]!;
    el.querySelector<HTMLElement>('[data-caption]')!.textContent =
      `${j0.label}. ${configText(j0.config)}; host ${j0.host}. ` +
      (st.scale === 'relative'
        ? `Points: summary.json's paired ratio against ${baseline} (same run only; n/c = not compared, measured in another run); bars: its interval. `
        : 'Points: medians; bars: interval of the median; n/m = not measured. ') +
      (st.axis === 'date' ? 'Horizontal position: the first release date of each version\'s series. ' : '') +
      (steps.length ? 'A numbered mark is a step a write-up studies.' : '') +
      mixedRunsNote(lines.flatMap((l) => l.points));

    // download this view
    for (const u of blobs.splice(0)) URL.revokeObjectURL(u);
    const link = (kind: 'csv' | 'json', text: string, type: string) => {
      const a = el.querySelector<HTMLAnchorElement>(`[data-download=${kind}]`)!;
      const u = URL.createObjectURL(new Blob([text], { type }));
      blobs.push(u);
      a.href = u;
      a.download = `journey-${st.host}-${st.metric.replace(/[^a-z0-9]+/gi, '-')}.${kind}`;
    };
    link('csv', journeyCsv(lines, versions), 'text/csv');
    link('json', journeyJson(lines, versions), 'application/json');

    Object.assign(el.dataset, { host: st.host, metric: st.metric, config: st.config, groups: st.groups.join(' '), scale: st.scale, axis: st.axis, drawn: String(mine) });
    if (push) {
      const p = new URLSearchParams({ host: st.host, metric: st.metric, config: st.config, groups: st.groups.join(','), scale: st.scale, axis: st.axis });
      history.replaceState(null, '', `${location.pathname}?${p}`);
    }
    status.textContent = push ? `Showing ${j0.label}, ${lines.map((l) => GROUP_LABEL[l.groups]).join(' and ')}.` : '';
  };

  hostSel.addEventListener('change', () => ((st.host = hostSel.value), void render(true)));
  measureSel.addEventListener('change', () => {
    const [metric] = measureSel.value.split('\u0000');
    st.metric = metric!;
    st.config = configChoices(metas, st.host, measureSel.value)[0]?.[0] ?? st.config;
    void render(true);
  });
  configSel.addEventListener('change', () => ((st.config = configSel.value), void render(true)));
  for (const b of lineButtons)
    b.addEventListener('click', () => {
      const g = b.dataset.groups as GroupMode;
      const on = st.groups.includes(g);
      // one line at least: turning off the last one shows the other instead
      st.groups = on ? st.groups.filter((x) => x !== g) : [...st.groups, g];
      if (!st.groups.length) st.groups = GROUP_MODES.filter((x) => x !== g);
      void render(true);
    });
  for (const b of scaleButtons) b.addEventListener('click', () => ((st.scale = b.dataset.scale as ChartScale), void render(true)));
  for (const b of axisButtons) b.addEventListener('click', () => ((st.axis = b.dataset.axis as ChartAxis), void render(true)));
  let lastWidth = el.clientWidth;
  new ResizeObserver(() => {
    if (Math.abs(el.clientWidth - lastWidth) > 24) ((lastWidth = el.clientWidth), void render(false));
  }).observe(el);
  for (const c of el.querySelectorAll<HTMLElement>('[data-controls], [data-more]')) c.hidden = false;
  await render(false);
}

function parseGroups(s: string | null): GroupMode[] | null {
  if (!s) return null;
  const g = s.split(/[ ,]+/).filter((x): x is GroupMode => (GROUP_MODES as readonly string[]).includes(x));
  return g.length ? g : null;
}
