// Drift page: draws the selected host, metric, build and range from the shards (site/src/lib/drift/
// does the work, as it did for the first chart at build time); the selection lives in the URL.
import { driftSvg } from '../lib/drift/chart.ts';
import { RANGES, resolveSelection, shardsFor, type DriftSelection } from '../lib/drift/selection.ts';
import type { DriftIndex, DriftRunsShard, DriftValuesShard } from '../lib/drift/shards.ts';
import { driftView } from '../lib/drift/view.ts';
import { driftSentences, recentRows } from '../lib/drift/words.ts';
import { num, runWords } from '../lib/format.ts';

type ClientIndex = DriftIndex & { repo: string | null; published: string[] };

const root = document.querySelector<HTMLElement>('[data-drift-root]');
if (root) start(root);

function start(el: HTMLElement): void {
  const index = JSON.parse(document.getElementById('drift-index')!.textContent!) as ClientIndex;
  const base = el.dataset.base!;
  const runsBase = el.dataset.runsBase!;
  const published = new Set(index.published);
  const status = el.querySelector<HTMLElement>('[data-status]')!;
  const select = (name: string) => el.querySelector<HTMLSelectElement>(`select[name=${name}]`)!;
  const cache = new Map<string, Promise<unknown>>();
  const get = <T>(path: string): Promise<T> => {
    if (!cache.has(path))
      cache.set(
        path,
        fetch(`${base}/${path}`).then((r) => {
          if (!r.ok) throw new Error(`HTTP ${r.status} for ${path}`);
          return r.json();
        }),
      );
    return cache.get(path) as Promise<T>;
  };
  const q = new URLSearchParams(location.search);
  let sel = resolveSelection(index, {
    host: q.get('host') ?? undefined,
    metric: q.get('metric') ?? undefined,
    build: q.get('build') ?? undefined,
    range: q.get('range') ?? undefined,
  })!;
  let drawn = 0;

  const fill = () => {
    const host = index.hosts.find((h) => h.id === sel.host)!;
    select('host').replaceChildren(...index.hosts.map((h) => new Option(`${h.machine} (${h.runs} run${h.runs === 1 ? '' : 's'})`, h.id)));
    select('metric').replaceChildren(...host.series.map(([m]) => new Option(index.metrics[m]!.title, index.metrics[m]!.id)));
    const m = index.metrics.findIndex((x) => x.id === sel.metric);
    const avail = host.series.find(([i]) => i === m)![1];
    select('build').replaceChildren(...avail.map(([b, , n]) => new Option(`${host.builds[b]!.name} (${n} night${n === 1 ? '' : 's'})`, host.builds[b]!.slug)));
    select('range').replaceChildren(...RANGES.map((r) => new Option(r.label, r.id)));
    for (const k of ['host', 'metric', 'build', 'range'] as const) select(k).value = sel[k];
  };

  const draw = async (push: boolean) => {
    const ticket = ++drawn;
    fill();
    const s = shardsFor(index, sel);
    status.textContent = 'Loading…';
    let runShards: DriftRunsShard[];
    let valueShards: DriftValuesShard[];
    try {
      [runShards, valueShards] = await Promise.all([
        Promise.all(s.runYears.map((y) => get<DriftRunsShard>(`${encodeURIComponent(sel.host)}/${y}/runs.json`))),
        Promise.all(s.valueYears.map((y) => get<DriftValuesShard>(`${encodeURIComponent(sel.host)}/${y}/${sel.metric}/${sel.build}.json`))),
      ]);
    } catch (e) {
      status.textContent = `Could not load the data (${(e as Error).message}).`;
      return;
    }
    if (ticket !== drawn) return; // a newer selection is on its way
    const view = driftView(runShards, valueShards, s.build.name, s.since);
    const label = `${s.metric.title}: OpenSSL ${s.build.name} on ${s.host.machine}, nightly medians`;
    el.querySelector('[data-chart]')!.innerHTML = driftSvg(view, s.metric, label);
    el.querySelector('[data-caption]')!.textContent = label;
    el.querySelector('[data-facts]')!.replaceChildren(
      ...driftSentences(view, s.metric).map((t) => Object.assign(document.createElement('li'), { textContent: t })),
    );
    el.querySelector('[data-rows]')!.replaceChildren(
      ...recentRows(view).map((r) => {
        const tr = document.createElement('tr');
        const cell = (text: string, cls = '', tag: 'td' | 'th' = 'td') => {
          const c = document.createElement(tag);
          c.textContent = text;
          if (cls) c.className = cls;
          if (tag === 'th') c.scope = 'row';
          tr.append(c);
          return c;
        };
        cell(r.date, '', 'th');
        cell(`${num(r.median)} ${s.metric.unit}`, 'num');
        cell(r.low !== null && r.high !== null ? `${num(r.low)} – ${num(r.high)}` : s.metric.deterministic ? 'deterministic' : '—', 'num');
        cell(String(r.n), 'num');
        cell(r.quiet ? 'yes' : 'no (not in the band)');
        cell(r.changed || '—');
        const file = cell('');
        const href = published.has(r.runId)
          ? `${runsBase}/${encodeURIComponent(sel.host)}/${encodeURIComponent(r.runId)}.json.br`
          : index.repo
            ? `${index.repo}/raw/main/data/${r.path}`
            : null;
        if (href) file.append(Object.assign(document.createElement('a'), { href, textContent: runWords(r.runId) }));
        else {
          // as the server-rendered table: the run in words, its path in a disclosure
          const path = Object.assign(document.createElement('details'), { className: 'run-id' });
          path.append(
            Object.assign(document.createElement('summary'), { textContent: 'Path' }),
            Object.assign(document.createElement('code'), { textContent: `data/${r.path}` }),
          );
          file.append(`${runWords(r.runId)}, in the repository`, path);
        }
        return tr;
      }),
    );
    status.textContent = `Shown: ${label}, ${RANGES.find((r) => r.id === sel.range)!.label}.`;
    if (push) history.replaceState(null, '', `${location.pathname}?${new URLSearchParams({ ...sel })}`);
  };

  for (const k of ['host', 'metric', 'build', 'range'] as const)
    select(k).addEventListener('change', () => {
      const asked: Partial<DriftSelection> = { ...sel, [k]: select(k).value };
      sel = resolveSelection(index, asked)!;
      void draw(true);
    });
  el.querySelector<HTMLElement>('[data-controls]')!.hidden = false;
  const asked = q.has('host') || q.has('metric') || q.has('build') || q.has('range');
  if (asked) void draw(false);
  else fill();
}
