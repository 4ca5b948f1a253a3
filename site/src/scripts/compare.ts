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
  let a = pick(q.get('a'), defaults[defaults.length - 2]?.id);
  let b = pick(q.get('b'), defaults[defaults.length - 1]?.id);
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
  const [, , , , , st, median, low, high, n] = r;
  if (median === null) return { text: st === 'measured' ? 'not measured' : st, median: null };
  const ci = low !== null && high !== null ? `[${num(low)} – ${num(high)}]` : '[no interval]';
  return { text: `${num(median)} ${ci} n=${n}`, median };
}

function fill(el: HTMLElement, data: ComparePayload, a: string, b: string): void {
  const rowsA = new Map((data.rows[a] ?? []).map((r) => [r[0], r]));
  const rowsB = new Map((data.rows[b] ?? []).map((r) => [r[0], r]));
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
      th.append(any[1], document.createElement('br'), Object.assign(document.createElement('code'), { textContent: k, className: 'muted' }));
      const ca = cellText(ra);
      const cb = cellText(rb);
      let ratio = '—';
      if (ca.median !== null && cb.median !== null && ca.median !== 0) {
        const comparable = ra![10] !== null && ra![10] === rb![10];
        ratio = comparable ? `${pct(cb.median / ca.median)} (B/A medians)` : 'not comparable (measurement method differs)';
      }
      tr.append(th, td(`${any[2]} · ${any[3]}`), td(ca.text, 'num'), td(cb.text, 'num'), td(ratio, 'num'));
      return tr;
    }),
  );
}
