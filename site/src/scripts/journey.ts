// Home page chart: draws the selected journey with d3 and keeps its table, caption and URL in step.
// Every value drawn comes from /data/journey/ (precomputed from summary.json at build time): index.json
// first, then the file of the journey shown, so the page stays small however much was measured.
import { axisBottom, axisLeft, line as d3line, scaleLinear, scalePoint, select } from 'd3';
import { GROUP_LABEL, GROUP_MODES, expandIndex, findJourney, groupsAvailable, lineRuns, mixedRunsNote, optionsFor, type GroupMode, type Journey, type JourneyIndex, type Selection } from '../lib/journey-view.ts';
import { num } from '../lib/format.ts';

const root = document.querySelector<HTMLElement>('[data-journey-root]');
if (root) void start(root);

async function start(el: HTMLElement): Promise<void> {
  const status = el.querySelector<HTMLElement>('[data-status]')!;
  const base = el.dataset.src!;
  const getJson = async <T,>(name: string): Promise<T> => {
    const res = await fetch(`${base}${name}.json`);
    if (!res.ok) throw new Error(`HTTP ${res.status} for ${name}.json`);
    return (await res.json()) as T;
  };
  const files = new Map<string, Promise<Journey[]>>();
  const fileOf = (name: string) => {
    if (!files.has(name)) files.set(name, getJson<Journey[]>(name));
    return files.get(name)!;
  };
  let payload: { hosts: string[]; versions: Record<string, string[]>; defaults: JourneyIndex['defaults']; journeys: ReturnType<typeof expandIndex> };
  try {
    const ix = await getJson<JourneyIndex>('index');
    payload = { hosts: ix.hosts, versions: ix.versions, defaults: ix.defaults, journeys: expandIndex(ix) };
  } catch (e) {
    status.textContent = `Could not load the chart data (${(e as Error).message}); the table below shows the default view.`;
    return;
  }
  const d = payload.defaults;
  if (!d) return;
  const q = new URLSearchParams(location.search);
  const groupsParam = q.get('groups');
  const sel: Selection = {
    host: q.get('host') ?? d.host,
    metric: q.get('metric') ?? d.metric,
    config: q.get('config') ?? d.config,
    groups: (GROUP_MODES as readonly string[]).includes(groupsParam ?? '') ? (groupsParam as GroupMode) : 'default',
  };
  if (!payload.hosts.includes(sel.host)) sel.host = d.host;

  const hostSel = el.querySelector<HTMLSelectElement>('select[name=host]')!;
  const metricSel = el.querySelector<HTMLSelectElement>('select[name=metric]')!;
  const configSel = el.querySelector<HTMLSelectElement>('select[name=config]')!;
  const buttons = [...el.querySelectorAll<HTMLButtonElement>('button[data-groups]')];

  const fill = (s: HTMLSelectElement, opts: [string, string][], value: string) => {
    s.replaceChildren(...opts.map(([v, label]) => new Option(label, v, false, v === value)));
    if (!opts.some(([v]) => v === value) && opts[0]) s.value = opts[0][0];
    return s.value;
  };

  let generation = 0;
  const render = async (push: boolean) => {
    const mine = ++generation;
    sel.host = fill(hostSel, payload.hosts.map((h) => [h, h]), sel.host);
    const { metrics } = optionsFor(payload.journeys, sel);
    sel.metric = fill(metricSel, metrics, sel.metric);
    const { configs } = optionsFor(payload.journeys, sel);
    sel.config = fill(configSel, configs.map((c) => [c, c]), sel.config);
    const avail = groupsAvailable(payload.journeys, sel);
    if (!avail.includes(sel.groups) && avail[0]) sel.groups = avail[0];
    for (const b of buttons) {
      const g = b.dataset.groups as GroupMode;
      b.setAttribute('aria-pressed', String(g === sel.groups));
      b.disabled = !avail.includes(g);
      b.title = b.disabled ? 'not measured for this configuration' : '';
    }
    const meta = findJourney(payload.journeys, sel);
    if (!meta) return;
    let j: Journey | undefined;
    let present = new Set<string>();
    try {
      const inFile = await fileOf(meta.file);
      j = findJourney(inFile, sel);
      // the x axis: versions measured in this configuration (either group mode), in release order
      present = new Set(inFile.flatMap((x) => x.points.map((p) => p.version)));
    } catch (e) {
      status.textContent = `Could not load this series (${(e as Error).message}).`;
      return;
    }
    if (!j || mine !== generation) return; // a newer selection was made meanwhile
    Object.assign(el.dataset, sel); // what is drawn, for tests and for anyone inspecting the page
    draw(el, j, (payload.versions[sel.host] ?? []).filter((v) => present.has(v)));
    if (push) {
      const p = new URLSearchParams({ host: sel.host, metric: sel.metric, config: sel.config, groups: sel.groups });
      history.replaceState(null, '', `${location.pathname}?${p}`);
    }
    status.textContent = `Showing ${j.label}, ${GROUP_LABEL[j.groups]}.`;
  };

  hostSel.addEventListener('change', () => ((sel.host = hostSel.value), void render(true)));
  metricSel.addEventListener('change', () => ((sel.metric = metricSel.value), void render(true)));
  configSel.addEventListener('change', () => ((sel.config = configSel.value), void render(true)));
  for (const b of buttons) b.addEventListener('click', () => ((sel.groups = b.dataset.groups as GroupMode), void render(true)));
  let lastWidth = el.clientWidth;
  new ResizeObserver(() => {
    if (Math.abs(el.clientWidth - lastWidth) > 24) ((lastWidth = el.clientWidth), void render(false));
  }).observe(el);
  el.querySelector('.controls')?.removeAttribute('hidden');
  await render(false);
}

function describe(j: Journey, p: Journey['points'][number]): string {
  if (p.median === null) return `${p.version}: ${p.status === 'measured' ? 'not measured' : p.status}${p.reason ? ` (${p.reason})` : ''}`;
  const ci = p.low !== null && p.high !== null ? `95% CI ${num(p.low)} to ${num(p.high)}` : 'no interval';
  return `${p.version}: median ${num(p.median)} ${j.unit}, ${ci}, n=${p.n}${p.negotiated ? `, negotiated ${p.negotiated}` : ''}`;
}

function draw(el: HTMLElement, j: Journey, versions: string[]): void {
  // drawn at the container's own width so text stays readable on a phone
  const W = Math.max(300, Math.min(960, el.clientWidth || 760));
  const H = W < 500 ? 300 : 380;
  const tops = j.points.map((p) => p.high ?? p.median ?? 0);
  const y = scaleLinear().domain([0, Math.max(...tops, 0) * 1.08 || 1]).nice();
  // room on the left for the longest tick label plus the rotated axis title
  const tickChars = Math.max(...y.ticks(6).map((t) => num(t).length));
  const m = { top: 16, right: 12, bottom: 64, left: 34 + tickChars * 7.2 };
  y.range([H - m.bottom, m.top]);
  const byVersion = new Map(j.points.map((p) => [p.version, p]));
  const x = scalePoint<string>().domain(versions).range([m.left, W - m.right]).padding(0.5);

  const svg = select(el).select<SVGSVGElement>('svg');
  svg.attr('viewBox', `0 0 ${W} ${H}`).attr('role', 'group').attr('aria-label', `${j.label}, ${j.unit}, by version; ${GROUP_LABEL[j.groups]}`);
  svg.selectAll('*').remove();
  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${H - m.bottom})`).call(axisBottom(x))
    .selectAll('text').attr('transform', `rotate(${W < 500 ? -60 : -35})`).attr('text-anchor', 'end').attr('dx', '-0.4em').attr('dy', '0.6em');
  svg.append('g').attr('class', 'axis').attr('transform', `translate(${m.left},0)`).call(axisLeft(y).ticks(6).tickFormat((v) => num(Number(v))));
  svg.append('text').attr('transform', `translate(14,${(H - m.bottom + m.top) / 2}) rotate(-90)`).attr('text-anchor', 'middle')
    .text(`${j.unit} (median; bars: 95% CI)`);

  const path = d3line<Journey['points'][number]>().x((p) => x(p.version)!).y((p) => y(p.median!));
  for (const run of lineRuns(j.points)) svg.append('path').attr('class', 'line').attr('d', path(run));

  for (const v of versions) {
    const p = byVersion.get(v);
    const cx = x(v)!;
    if (!p || p.median === null) {
      const label = p ? describe(j, p) : `${v}: not measured in this configuration`;
      svg.append('text').attr('class', 'nm').attr('x', cx).attr('y', H - m.bottom - 6).attr('text-anchor', 'middle')
        .attr('tabindex', 0).attr('role', 'img').attr('aria-label', label).text('n/m').append('title').text(label);
      continue;
    }
    const g = svg.append('g').attr('class', 'pt');
    if (p.low !== null && p.high !== null) {
      g.append('line').attr('class', 'ci').attr('x1', cx).attr('x2', cx).attr('y1', y(p.low)).attr('y2', y(p.high));
      for (const b of [p.low, p.high]) g.append('line').attr('class', 'ci').attr('x1', cx - 5).attr('x2', cx + 5).attr('y1', y(b)).attr('y2', y(b));
    }
    g.append('circle').attr('class', 'point').attr('cx', cx).attr('cy', y(p.median)).attr('r', 5.5)
      .attr('tabindex', 0).attr('role', 'img').attr('aria-label', describe(j, p))
      .attr('data-version', p.version).attr('data-median', p.median).attr('data-key', p.key)
      .append('title').text(describe(j, p));
  }
  const cap = el.querySelector<HTMLElement>('[data-caption]')!;
  cap.textContent = `${j.label} (${j.unit}; method: ${j.method}; ${j.higherIsBetter ? 'higher is better' : 'lower is better'}). ` +
    `Configuration: ${j.config}; key exchange: ${GROUP_LABEL[j.groups]}. Host: ${j.host}. ` +
    `Versions without this configuration are left out; lines join only versions whose values are comparable; n/m = not measured.` +
    mixedRunsNote(j.points);
  fillTable(el, j, versions);
}

function fillTable(el: HTMLElement, j: Journey, versions: string[]): void {
  const tbody = el.querySelector('tbody')!;
  el.querySelector<HTMLElement>('[data-table-caption]')!.textContent = `${j.label} by version, ${GROUP_LABEL[j.groups]}, ${j.config} (${j.unit})`;
  const td = (text: string, cls = 'num') => Object.assign(document.createElement('td'), { textContent: text, className: cls });
  tbody.replaceChildren(
    ...versions.map((v) => {
      const p = j.points.find((x) => x.version === v);
      const tr = document.createElement('tr');
      tr.dataset.version = v;
      const th = Object.assign(document.createElement('th'), { textContent: v, scope: 'row' });
      tr.append(th);
      if (!p || p.median === null) {
        const cell = td(p ? `${p.status === 'measured' ? 'not measured' : p.status}${p.reason ? `: ${p.reason}` : ''}` : 'not measured', '');
        cell.colSpan = 5;
        tr.append(cell);
      } else {
        const m = td(num(p.median));
        m.dataset.median = String(p.median);
        tr.append(m, td(p.low !== null && p.high !== null ? `${num(p.low)} – ${num(p.high)}` : 'no interval'), td(String(p.n)), td(p.negotiated ?? '—', ''), td(p.run ?? '—', ''));
      }
      return tr;
    }),
  );
}
