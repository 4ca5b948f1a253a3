// Home page: the static chart, table and causes list are already in the page (built from summary.json).
// This script redraws them at the container's width and for every selection (lines, scale, axis, other
// measurements and hosts), keeps the selection in the address, and makes "download this view" files.
// Data: the default view's journey file (named in the page), and /data/journey/index.json (every other
// measurement) only when a reader asks for another, so the page stays small however much was measured.
import { journeySvg, type ChartAxis, type ChartScale } from '../lib/journey-chart.ts';
import { causesHtml, journeyCsv, journeyJson, journeyTableHtml, legendHtml } from '../lib/journey-table.ts';
import {
  GROUP_LABEL,
  GROUP_MODES,
  configChoices,
  configText,
  expandIndex,
  familyOf,
  measureChoices,
  measureId,
  mixedRunsNote,
  stepsFor,
  type GroupMode,
  type Journey,
  type JourneyIndex,
  type JourneyInit,
  type JourneyMeta,
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
  const init = JSON.parse(el.querySelector('[data-journey-init]')!.textContent!) as JourneyInit;
  const base = el.dataset.src!;
  const writeupBase = el.dataset.writeups!;
  const d = el.dataset;
  const defaults = { host: d.host!, metric: d.metric!, config: d.config! };
  // machine ids as readers know them (the page embeds machines.ts machineTexts)
  const machines = JSON.parse(d.machines ?? '{}') as Record<string, string>;
  const machine = (h: string) => machines[h] ?? h;
  const getJson = async <T>(name: string): Promise<T> => {
    const res = await fetch(`${base}${name}.json`);
    if (!res.ok) throw new Error(`HTTP ${res.status} for ${name}.json`);
    return (await res.json()) as T;
  };
  const files = new Map<string, Promise<Journey[]>>();
  const fileOf = (name: string) => {
    if (!files.has(name)) files.set(name, getJson<Journey[]>(name));
    return files.get(name)!;
  };
  let indexLoad: Promise<{ ix: JourneyIndex; metas: JourneyMeta[] }> | null = null;
  const loadIndex = () => (indexLoad ??= getJson<JourneyIndex>('index').then((ix) => ({ ix, metas: expandIndex(ix) })));

  const q = new URLSearchParams(location.search);
  const st: State = {
    host: q.get('host') ?? defaults.host,
    metric: q.get('metric') ?? defaults.metric,
    config: q.get('config') ?? defaults.config,
    groups: parseGroups(q.get('groups')) ?? parseGroups(d.groups!) ?? ['default'],
    scale: q.get('scale') === 'relative' ? 'relative' : 'absolute',
    axis: q.get('axis') === 'date' ? 'date' : 'release',
  };
  const isDefault = () => st.host === defaults.host && st.metric === defaults.metric && st.config === defaults.config;

  const more = el.querySelector<HTMLDetailsElement>('[data-more]')!;
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
  /** The other-measurement controls, once the index is loaded (they sit in a closed <details> until asked for). */
  const fillSelects = (metas: JourneyMeta[], ix: JourneyIndex, current: JourneyMeta) => {
    fill(
      hostSel,
      ix.hosts.map((h) => [h, machine(h)]),
      current.host,
    );
    fill(measureSel, measureChoices(metas, current.host), measureId(current));
    fill(configSel, configChoices(metas, current.host, measureId(current)), current.config);
  };
  const blobs: string[] = [];

  let generation = 0;
  const render = async (push: boolean) => {
    const mine = ++generation;
    let file = init.file;
    let versionsOfHost = init.versions;
    try {
      if (!isDefault() || more.open) {
        const { ix, metas } = await loadIndex();
        // the closest measurement to what was asked for: same host and metric, else the host, else the default
        const meta =
          metas.find((m) => m.host === st.host && m.metric === st.metric && m.config === st.config) ??
          metas.find((m) => m.host === st.host && m.metric === st.metric) ??
          metas.find((m) => m.host === st.host) ??
          metas.find((m) => m.host === defaults.host && m.metric === defaults.metric && m.config === defaults.config)!;
        Object.assign(st, { host: meta.host, metric: meta.metric, config: meta.config });
        file = meta.file;
        versionsOfHost = ix.versions[st.host] ?? [];
        fillSelects(metas, ix, meta);
      }
    } catch (e) {
      status.textContent = `Could not load the list of measurements (${(e as Error).message}).`;
      return;
    }
    let inFile: Journey[];
    try {
      inFile = (await fileOf(file)).filter((j) => j.host === st.host && j.metric === st.metric && j.config === st.config);
    } catch (e) {
      status.textContent = `Could not load this series (${(e as Error).message}).`;
      return;
    }
    if (mine !== generation || !inFile.length) return; // a newer selection was made meanwhile
    const available = GROUP_MODES.filter((g) => inFile.some((j) => j.groups === g));
    st.groups = st.groups.filter((g) => available.includes(g));
    if (!st.groups.length) st.groups = [...available];
    const lines = GROUP_MODES.filter((g) => st.groups.includes(g)).map((g) => inFile.find((j) => j.groups === g)!);
    // the x axis: versions measured in this configuration (either group mode), in release order
    const present = new Set(inFile.flatMap((j) => j.points.map((p) => p.version)));
    const versions = versionsOfHost.filter((v) => present.has(v));
    const axisPoints = versions.map((v) => ({ version: v, series: inFile.flatMap((j) => j.points).find((p) => p.version === v)!.series }));
    const steps = stepsFor(axisPoints, familyOf(init.benchmark, inFile[0]!.method), init.writeups);
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
    plot.innerHTML = journeySvg({
      width: plot.clientWidth || 640,
      lines,
      versions,
      scale: st.scale,
      axis: st.axis,
      released: init.released,
      baseline,
      steps,
      stepHref,
      keys: true,
    });
    el.querySelector<HTMLElement>('.table-scroll')!.innerHTML = journeyTableHtml({ lines, versions, baseline, steps, stepHref });
    el.querySelector('[data-causes]')!.innerHTML = causesHtml(steps, (id) => `${writeupBase}${id}`);
    el.querySelector<HTMLElement>('[data-causes-section]')!.hidden = steps.length === 0;
    el.querySelector('[data-legend]')!.innerHTML = legendHtml(lines);
    const j0 = lines[0]!;
    el.querySelector<HTMLElement>('[data-caption]')!.textContent =
      `${j0.label}. ${configText(j0.config)}; machine ${machine(j0.host)}. ` +
      (st.scale === 'relative'
        ? `Points: summary.json's paired ratio against ${baseline} (same run only; n/c = not compared, measured in another run); bars: its interval. `
        : 'Points: medians; bars: interval of the median; n/m = not measured. ') +
      (st.axis === 'date' ? "Horizontal position: the first release date of each version's series. " : '') +
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

    Object.assign(el.dataset, {
      host: st.host,
      metric: st.metric,
      config: st.config,
      groups: st.groups.join(' '),
      scale: st.scale,
      axis: st.axis,
      drawn: String(mine),
    });
    if (push) {
      const p = new URLSearchParams({ host: st.host, metric: st.metric, config: st.config, groups: st.groups.join(','), scale: st.scale, axis: st.axis });
      history.replaceState(null, '', `${location.pathname}?${p}`);
    }
    status.textContent = push ? `Showing ${j0.label}, ${lines.map((l) => GROUP_LABEL[l.groups]).join(' and ')}.` : '';
  };

  more.addEventListener('toggle', () => {
    if (more.open && !indexLoad) void render(false);
  });
  hostSel.addEventListener('change', () => ((st.host = hostSel.value), void render(true)));
  measureSel.addEventListener('change', () => {
    void loadIndex().then(({ metas }) => {
      st.metric = measureSel.value.split('\u0000')[0]!;
      st.config = configChoices(metas, st.host, measureSel.value)[0]?.[0] ?? st.config;
      void render(true);
    });
  });
  configSel.addEventListener('change', () => ((st.config = configSel.value), void render(true)));
  for (const b of lineButtons)
    b.addEventListener('click', () => {
      const g = b.dataset.groups as GroupMode;
      // one line at least: turning off the last one shows the other instead
      st.groups = st.groups.includes(g) ? st.groups.filter((x) => x !== g) : [...st.groups, g];
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
