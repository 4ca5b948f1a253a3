// Compare page: two builds (any host, any version) side by side; the selection lives in the URL.
import type { ComparePayload, CompareRow } from '../lib/model.ts';
import { num, pct } from '../lib/format.ts';

const root = document.querySelector<HTMLElement>('[data-compare-root]');
if (root) void start(root);

async function start(el: HTMLElement): Promise<void> {
  const status = el.querySelector<HTMLElement>('[data-status]')!;
  let data: ComparePayload;
  try {
    const res = await fetch(el.dataset.src!);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    data = (await res.json()) as ComparePayload;
  } catch (e) {
    status.textContent = `Could not load the comparison data (${(e as Error).message}).`;
    return;
  }
  const ids = data.builds.map((b) => b.id);
  const defaults = data.builds.filter((b) => b.variant === 'default');
  const q = new URLSearchParams(location.search);
  const pick = (v: string | null, fallback: string | undefined) => (v && ids.includes(v) ? v : fallback ?? ids[0]!);
  // without a selection: the step the site is about, newest 3.4 against newest 3.5, else the two newest builds
  const newestOf = (series: string) => [...defaults].reverse().find((x) => x.version.startsWith(`${series}.`))?.id;
  const [fa, fb] = newestOf('3.4') && newestOf('3.5') ? [newestOf('3.4'), newestOf('3.5')] : [defaults[defaults.length - 2]?.id, defaults[defaults.length - 1]?.id];
  let a = pick(q.get('a'), fa);
  let b = pick(q.get('b'), fb);
  const selA = el.querySelector<HTMLSelectElement>('select[name=a]')!;
  const selB = el.querySelector<HTMLSelectElement>('select[name=b]')!;
  for (const s of [selA, selB]) s.replaceChildren(...data.builds.map((x) => new Option(`${x.version}${x.variant === 'default' ? '' : ` (${x.variant})`} on ${x.host}`, x.id)));
  const link = el.querySelector<HTMLAnchorElement>('[data-share]')!;
  const render = (push: boolean) => {
    selA.value = a;
    selB.value = b;
    const query = `?${new URLSearchParams({ a, b })}`;
    if (push) history.replaceState(null, '', `${location.pathname}${query}`);
    link.href = `${location.pathname}${query}`;
    link.textContent = `${location.origin}${location.pathname}${query}`;
    fill(el, data, a, b);
    status.textContent = `Comparing ${a} with ${b}.`;
  };
  selA.addEventListener('change', () => ((a = selA.value), render(true)));
  selB.addEventListener('change', () => ((b = selB.value), render(true)));
  el.querySelector('[data-controls]')?.removeAttribute('hidden');
  render(false);
}

function cellText(r: CompareRow | undefined): { text: string; median: number | null } {
  if (!r) return { text: 'not measured', median: null };
  if (r.median === null) return { text: r.status === 'measured' ? 'not measured' : r.status, median: null };
  const ci = r.low !== null && r.high !== null ? `[${num(r.low)} – ${num(r.high)}]` : '[no interval]';
  return { text: `${num(r.median)} ${ci} n=${r.n}`, median: r.median };
}

const VERDICT: Record<string, string> = {
  higher: 'higher',
  lower: 'lower',
  'no-difference-shown': 'no difference shown',
  'not-enough-data': 'not enough data',
};

/** B vs A from a comparison measured in the same run, if summary.json has one (either direction). */
function paired(a: CompareRow, b: CompareRow, aRef: string[], bRef: string[]): string | null {
  const direct = b.cmp.find((c) => aRef.includes(c[0]));
  if (direct) {
    const [, r, lo, hi, v] = direct;
    return `${pct(r)} [${lo !== null && hi !== null ? `${pct(lo)} … ${pct(hi)}` : 'no interval'}] ${VERDICT[v] ?? v} (paired, same run)`;
  }
  const reverse = a.cmp.find((c) => bRef.includes(c[0]));
  if (reverse) {
    const [, r, lo, hi, v] = reverse;
    const flipped = v === 'higher' ? 'lower' : v === 'lower' ? 'higher' : v;
    return `${pct(1 / r)} [${lo !== null && hi !== null ? `${pct(1 / hi)} … ${pct(1 / lo)}` : 'no interval'}] ${VERDICT[flipped] ?? flipped} (paired, same run)`;
  }
  return null;
}

function fill(el: HTMLElement, data: ComparePayload, a: string, b: string): void {
  const rowsA = new Map((data.rows[a] ?? []).map((r) => [r.key, r]));
  const rowsB = new Map((data.rows[b] ?? []).map((r) => [r.key, r]));
  const build = (id: string) => data.builds.find((x) => x.id === id)!;
  const refs = (id: string) => {
    const x = build(id);
    return x.variant === 'default' ? [x.version] : [`${x.version}+${x.variant}`];
  };
  const sameHost = build(a).host === build(b).host;
  const keys = [...new Set([...rowsA.keys(), ...rowsB.keys()])].sort();
  const td = (text: string, cls = '') => Object.assign(document.createElement('td'), { textContent: text, className: cls });
  el.querySelector('[data-head-a]')!.textContent = a;
  el.querySelector('[data-head-b]')!.textContent = b;
  el.querySelector('tbody')!.replaceChildren(
    ...keys.map((k) => {
      const ra = rowsA.get(k);
      const rb = rowsB.get(k);
      const any = (ra ?? rb)!;
      const tr = document.createElement('tr');
      tr.dataset.key = k;
      const th = Object.assign(document.createElement('th'), { scope: 'row' });
      th.append(any.label, document.createElement('br'), Object.assign(document.createElement('code'), { textContent: any.params, className: 'muted' }));
      const ca = cellText(ra);
      const cb = cellText(rb);
      let ratio = '—';
      if (ra && rb && ca.median !== null && cb.median !== null) {
        const pair = sameHost ? paired(ra, rb, refs(a), refs(b)) : null;
        if (ra.segment === null || ra.segment !== rb.segment) ratio = 'not comparable (measurement method differs)';
        else if (pair) ratio = pair;
        else if (ca.median !== 0) ratio = `${pct(cb.median / ca.median)} (ratio of medians, no interval)`;
      }
      tr.append(th, td(`${any.unit} · ${any.method}`), td(ca.text, 'num'), td(cb.text, 'num'), td(ratio, 'num'));
      return tr;
    }),
  );
}
