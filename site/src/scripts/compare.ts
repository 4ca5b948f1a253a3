// Compare page: a machine, then any two of its builds. Loads only what the pair needs (the host's series catalogue, one file per
// build, the pair file when both measured something in the same run), then filters, sorts, draws the
// largest changes and keeps the whole view in the address.
import { compareCsv, compareJson } from '../lib/compare/download.ts';
import { pairFile, sharesRun, type BuildShard, type CompareBuild, type CompareIndex, type PairShard, type SeriesCatalogue } from '../lib/compare/files.ts';
import { forestRows, forestRuns } from '../lib/compare/forest.ts';
import { forestSvg } from '../lib/compare/forest-chart.ts';
import { compareTablesHtml } from '../lib/compare/html.ts';
import { compareLayout } from '../lib/compare/layout.ts';
import { curatedRows, filterRows, joinRows, type CompareFilter, type CompareRow } from '../lib/compare/rows.ts';
import { buildsOn, neverPairedText, selectPair } from '../lib/compare/selection.ts';
import { runAttrs } from '../lib/runs.ts';

const root = document.querySelector<HTMLElement>('[data-compare-root]');
if (root) void start(root);

const FOREST_ROWS = 15;

async function start(el: HTMLElement): Promise<void> {
  const status = el.querySelector<HTMLElement>('[data-status]')!;
  const index = JSON.parse(el.querySelector('[data-compare-index]')!.textContent!) as CompareIndex;
  const base = el.dataset.src!;
  const cache = new Map<string, Promise<unknown>>();
  const get = <T>(path: string): Promise<T> => {
    if (!cache.has(path))
      cache.set(
        path,
        fetch(`${base}${path}.json`).then((r) => {
          if (!r.ok) throw new Error(`HTTP ${r.status} for ${path}.json`);
          return r.json();
        }),
      );
    return cache.get(path) as Promise<T>;
  };
  // machine ids as readers know them (the page embeds machines.ts machineTexts)
  const machines = JSON.parse(el.dataset.machines ?? '{}') as Record<string, string>;
  const machine = (h: string) => machines[h] ?? h;
  const ids = index.builds.map((b) => b.id);
  const byId = (id: string) => index.builds.find((b) => b.id === id)!;
  const indicative = new Set(index.indicative);
  const q = new URLSearchParams(location.search);
  // the address's pair, else the page's (a build of another machine than A's is not kept: selectPair)
  const first = selectPair(index, { a: q.get('a') ?? el.dataset.a, b: q.get('b') ?? el.dataset.b })!;
  let a = first.a.id;
  let b = first.b.id;
  const filter: CompareFilter = {
    benchmark: q.get('bench') ?? '',
    text: q.get('q') ?? '',
    significantOnly: q.get('sig') === '1',
    sort: q.get('sort') === 'name' ? 'name' : 'change',
  };

  const selM = el.querySelector<HTMLSelectElement>('select[name=m]')!;
  const selA = el.querySelector<HTMLSelectElement>('select[name=a]')!;
  const selB = el.querySelector<HTMLSelectElement>('select[name=b]')!;
  const benchSel = el.querySelector<HTMLSelectElement>('select[name=bench]')!;
  const sortSel = el.querySelector<HTMLSelectElement>('select[name=sort]')!;
  const text = el.querySelector<HTMLInputElement>('input[name=q]')!;
  const sig = el.querySelector<HTMLInputElement>('input[name=sig]')!;
  const name = (x: CompareBuild) => x.label;
  selM.replaceChildren(...index.machines.filter((h) => buildsOn(index, h).length >= 2).map((h) => new Option(machine(h), h)));
  /** Both build lists offer every build of the machine, grouped by library. */
  let offeredHost = '';
  const offer = (host: string) => {
    offeredHost = host;
    const offered = buildsOn(index, host);
    for (const s of [selA, selB])
      s.replaceChildren(
        ...[...new Set(offered.map((x) => x.library))].map((lib) => {
          const g = document.createElement('optgroup');
          g.label = index.libraryNames[lib] ?? lib;
          g.append(...offered.filter((x) => x.library === lib).map((x) => new Option(x.label, x.id)));
          return g;
        }),
      );
    selM.value = host;
  };
  offer(first.host);
  // the default view shows the main questions; a permalink (any parameter) opens every series as it was shared
  const all = el.querySelector<HTMLDetailsElement>('[data-compare-all]')!;
  if (location.search.length > 1) all.open = true;
  text.value = filter.text;
  sig.checked = filter.significantOnly;
  sortSel.value = filter.sort;

  let rows: CompareRow[] = [];
  let shared = false;
  let generation = 0;
  const blobs: string[] = [];

  /** Fetch what the pair needs and join it; then draw. */
  const load = async () => {
    const mine = ++generation;
    const A = byId(a);
    const B = byId(b);
    if (offeredHost !== A.host) offer(A.host);
    selA.value = a;
    selB.value = b;
    status.textContent = `Loading ${name(A)} and ${name(B)}…`;
    try {
      const [catA, catB, shardA, shardB] = await Promise.all([
        get<SeriesCatalogue>(`${A.host}/series`),
        get<SeriesCatalogue>(`${B.host}/series`),
        get<BuildShard>(`${A.host}/${A.slug}`),
        get<BuildShard>(`${B.host}/${B.slug}`),
      ]);
      let pair: PairShard | null = null;
      let reversed = false;
      shared = sharesRun(shardA, shardB);
      if (A.id !== B.id && shared) {
        // pair files are written older build first
        const [first, second] = ids.indexOf(A.id) < ids.indexOf(B.id) ? [A, B] : [B, A];
        reversed = first !== A;
        pair = await get<PairShard>(`${A.host}/${pairFile(first, second)}`);
      }
      if (mine !== generation) return;
      rows = joinRows(catA, shardA, catB, shardB, pair, reversed);
    } catch (e) {
      status.textContent = `Could not load this comparison (${(e as Error).message}).`;
      return;
    }
    const benches = [...new Set(rows.map((r) => r.benchmark))].sort();
    benchSel.replaceChildren(new Option('all', ''), ...benches.map((x) => new Option(x, x)));
    if (!benches.includes(filter.benchmark)) filter.benchmark = '';
    benchSel.value = filter.benchmark;
    draw();
  };

  const draw = () => {
    const A = byId(a);
    const B = byId(b);
    const shown = filterRows(rows, filter);
    const curated = curatedRows(rows, filter);
    const hosts: [string, string] = [A.host, B.host];
    const names: [string, string] = [name(A), name(B)];
    el.querySelector('[data-compare-curated]')!.innerHTML = curated.length ? compareTablesHtml(curated, names, hosts, machine, true, indicative) : '';
    el.querySelector('[data-compare-tables]')!.innerHTML = compareTablesHtml(shown, names, hosts, machine, false, indicative);
    const note = el.querySelector<HTMLElement>('[data-pair-note]')!;
    note.hidden = shared;
    note.replaceChildren(strong('Not compared: '), neverPairedText(A, B));
    if (!curated.length) all.open = true;
    all.querySelector('summary')!.textContent =
      `Every series of this pair (${shown.length === rows.length ? rows.length : `${shown.length} of ${rows.length}`}), with filters and sorting`;
    el.querySelector('[data-pair-title]')!.innerHTML = '';
    el.querySelector('[data-pair-title]')!.append(strong('A: '), `${name(A)} · `, strong('B: '), `${name(B)} · on ${machine(A.host)}`);

    // the changes of the first table only: one host, the timing values of one run
    const layout = compareLayout(curated.length ? curated : shown, hosts);
    const mainRows = layout.parts[0]?.rows ?? [];
    const forest = forestRows(mainRows, FOREST_ROWS);
    const fig = el.querySelector<HTMLElement>('[data-forest-figure]')!;
    fig.hidden = forest.length === 0;
    for (const [k, v] of Object.entries(runAttrs(forest.length ? forestRuns(mainRows, forest, hosts) : [])))
      if (v && forest.length) fig.setAttribute(k, v);
      else fig.removeAttribute(k);
    const holder = el.querySelector<HTMLElement>('[data-forest]')!;
    holder.innerHTML = forest.length
      ? forestSvg(forest, holder.clientWidth || fig.clientWidth || 640, 'Change of B against A, paired by round (log scale)')
      : '';
    el.querySelector('[data-forest-caption]')!.textContent =
      `The ${forest.length} largest paired changes in the first table below; dot: median of the per-round ratios, whisker: its interval; green or red and bold: significant (better or worse), grey: not shown to differ.`;

    const paired = rows.filter((r) => r.relation === 'paired').length;
    const significant = shown.filter((r) => r.significant).length;
    const independent = paired === 0 ? 'no series was measured in the same run, so every value is independent (no ratios)' : `${paired} series paired by round`;
    const apart = layout.apart.length ? `; ${layout.apart.length} measured in different runs, listed apart without a comparison` : '';
    status.textContent = `Showing ${shown.length} of ${rows.length} series (${significant} significant changes); ${independent}${apart}.`;

    const query = new URLSearchParams({ a, b });
    if (filter.benchmark) query.set('bench', filter.benchmark);
    if (filter.text) query.set('q', filter.text);
    if (filter.significantOnly) query.set('sig', '1');
    if (filter.sort !== 'change') query.set('sort', filter.sort);
    const link = `${location.pathname}?${query}`;
    history.replaceState(null, '', link);
    const share = el.querySelector<HTMLAnchorElement>('[data-share]')!;
    share.href = link;
    share.textContent = `${location.origin}${link}`;
    for (const u of blobs.splice(0)) URL.revokeObjectURL(u);
    for (const [kind, body, type] of [
      ['csv', compareCsv(shown, A, B), 'text/csv'],
      ['json', compareJson(shown, A, B), 'application/json'],
    ] as const) {
      const dl = el.querySelector<HTMLAnchorElement>(`[data-download=${kind}]`)!;
      const u = URL.createObjectURL(new Blob([body], { type }));
      blobs.push(u);
      dl.href = u;
      dl.download = `compare-${A.slug}-${B.slug}.${kind}`;
    }
    el.dataset.drawn = `${a} ${b}`;
  };

  selM.addEventListener('change', () => {
    const next = selectPair(index, { host: selM.value })!;
    [a, b] = [next.a.id, next.b.id];
    void load();
  });
  const choose = (side: 'a' | 'b', id: string) => {
    const next = selectPair(index, side === 'a' ? { a: id, b } : { a, b: id });
    if (!next) return;
    // choosing B's build as A (or A's as B) swaps them
    [a, b] = next[side].id === (side === 'a' ? b : a) ? [b, a] : [next.a.id, next.b.id];
    void load();
  };
  selA.addEventListener('change', () => choose('a', selA.value));
  selB.addEventListener('change', () => choose('b', selB.value));
  el.querySelector('[data-swap]')!.addEventListener('click', () => {
    [a, b] = [b, a];
    void load();
  });
  benchSel.addEventListener('change', () => ((filter.benchmark = benchSel.value), draw()));
  sortSel.addEventListener('change', () => ((filter.sort = sortSel.value === 'name' ? 'name' : 'change'), draw()));
  sig.addEventListener('change', () => ((filter.significantOnly = sig.checked), draw()));
  let typing = 0;
  text.addEventListener('input', () => {
    clearTimeout(typing);
    typing = window.setTimeout(() => ((filter.text = text.value.trim()), draw()), 200);
  });
  let lastWidth = el.clientWidth;
  new ResizeObserver(() => {
    if (rows.length && Math.abs(el.clientWidth - lastWidth) > 24) ((lastWidth = el.clientWidth), draw());
  }).observe(el);
  for (const c of el.querySelectorAll<HTMLElement>('[data-controls], [data-share-line]')) c.hidden = false;
  await load();
}

function strong(t: string): HTMLElement {
  return Object.assign(document.createElement('strong'), { textContent: t });
}
