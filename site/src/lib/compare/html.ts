// The compare page's tables as HTML: the same text in the static page and after every change of selection.
import { INDICATIVE_TEXT, quantity, quantityRange } from '../format.ts';
import { plainWhat } from '../journey-view.ts';
import { runDate, runWords } from '../runs.ts';
import { esc, tag } from '../svg.ts';
import { compareLayout, type ComparePart } from './layout.ts';
import type { CompareRow, Side } from './rows.ts';
import { changeText } from './words.ts';

function sideHtml(s: Side | null, unit: string, method: string, showRun: boolean): string {
  if (!s || s.median === null) {
    const why = !s ? 'not measured' : s.status === 'measured' ? 'not measured' : s.status;
    // an unsupported or failed value names the run that reported it, as a measured one does
    return tag('span', { class: 'muted', title: s?.reason ?? why, ...(s ? { 'data-run': s.run } : {}) }, esc(why));
  }
  const iv = s.low !== null && s.high !== null ? `${quantityRange(s.low, s.high, unit, method)}, ` : '';
  // every measured value names its run (lib/runs.ts: a table of rows of several runs says each row's)
  return (
    tag('span', { class: 'v', 'data-median': s.median, 'data-run': s.run }, esc(quantity(s.median, unit, method))) +
    tag('span', { class: 'sub' }, esc(`${iv}n=${s.n}`)) +
    (showRun ? tag('span', { class: 'sub run' }, esc(runWords(s.run))) : '')
  );
}

/** The label in full, its parenthesised method notes set apart (muted) so the measure reads first. */
function whatHtml(what: string): string {
  return what
    .split(/(\s*\([^)]*\))/)
    .map((part) => (/^\s*\(/.test(part) ? tag('span', { class: 'note' }, esc(part)) : esc(part)))
    .join('');
}

/**
 * The rows of one table. `questions`: compare's default view (curatedRows), where `what` is the question's
 * label and `config` its group, shown as a heading row where it changes; such rows carry data-question, not
 * data-key, so the full list below names each series once.
 */
export function compareRowsHtml(rows: readonly CompareRow[], questions = false): string {
  let group = '';
  return rows
    .map((r) => {
      const heading =
        questions && r.config !== group ? tag('tr', { class: 'group' }, tag('th', { scope: 'colgroup', colspan: 4 }, esc((group = r.config)))) : '';
      const showRun = r.a?.median != null && r.b?.median != null && r.a.run !== r.b.run;
      const c = changeText(r);
      const mark = r.significant ? (r.paired!.verdict === 'higher' ? ' ▲' : ' ▼') : '';
      const changeCls = r.relation === 'paired' ? `num change ${r.significant ? `sig ${r.tone}` : 'ns'}` : 'num change muted';
      const label = questions
        ? tag('th', { scope: 'row' }, tag('span', { class: 'what' }, esc(r.what)))
        : tag(
            'th',
            { scope: 'row' },
            tag('span', { class: 'what' }, whatHtml(r.what)),
            r.config ? tag('span', { class: 'cfg' }, esc(`; ${r.config}`)) : '',
            tag('span', { class: 'sub params' }, esc(`${r.benchmark} · ${r.params || 'no parameters'}`)),
          );
      return (
        heading +
        tag(
          'tr',
          { [questions ? 'data-question' : 'data-key']: r.key, 'data-relation': r.relation },
          label,
          tag('td', { class: 'num', 'data-label': 'A' }, sideHtml(r.a, r.unit, r.method, showRun)),
          tag('td', { class: 'num', 'data-label': 'B' }, sideHtml(r.b, r.unit, r.method, showRun)),
          tag(
            'td',
            { class: changeCls, 'data-label': 'B vs A', 'data-verdict': r.paired?.verdict ?? '', ...(r.paired ? { 'data-ratio': r.paired.ratio } : {}) },
            tag(
              'span',
              { class: 'v' },
              esc(c.main),
              mark ? tag('span', { 'aria-hidden': 'true' }, mark) : '',
              r.significant ? tag('span', { class: 'sr-only' }, ` (significant)`) : '',
            ),
            c.sub ? tag('span', { class: 'sub' }, esc(c.sub)) : '',
          ),
        )
      );
    })
    .join('');
}

const sideWords = (s: Side | null, unit: string, method: string) =>
  !s || s.median === null ? (s && s.status !== 'measured' ? s.status : 'not measured') : `${quantity(s.median, unit, method)} (n=${s.n})`;

/**
 * A run as a table names it: by id and time; in the main questions' view by its time only (the id is in the
 * full list's disclosure); a run of a machine that was not quiet says so.
 */
const runInTable = (run: string, questions: boolean, indicative: ReadonlySet<string>) =>
  `${questions ? `the run of ${runDate(run)}` : `run ${run} (${runDate(run)})`}${indicative.has(run) ? ` (${INDICATIVE_TEXT})` : ''}`;

/** One row of values from different runs, in words: each value with its run, no pair, no ratio. */
function apartHtml(
  r: CompareRow,
  names: readonly [string, string],
  hosts: readonly [string, string],
  questions: boolean,
  indicative: ReadonlySet<string>,
): string {
  const why = hosts[0] !== hosts[1] ? 'different hosts' : 'different runs';
  return tag(
    'li',
    { [questions ? 'data-question' : 'data-key']: r.key, 'data-relation': r.relation },
    questions
      ? tag('span', { class: 'what' }, esc(`${r.config}: ${r.what}`))
      : [
          tag('span', { class: 'what' }, esc(plainWhat(r.what))),
          r.config ? esc(`; ${r.config}`) : '',
          tag('span', { class: 'muted' }, esc(` (${r.params || 'no parameters'})`)),
        ].join(''),
    ': ',
    esc(`${names[0]}: ${sideWords(r.a, r.unit, r.method)}, measured in ${runInTable(r.a!.run, questions, indicative)} only; `),
    esc(`${names[1]}: ${sideWords(r.b, r.unit, r.method)}, in ${runInTable(r.b!.run, questions, indicative)}; `),
    tag('strong', {}, esc(`not compared: ${why}`)),
    '.',
  );
}

/**
 * The tables of a comparison (names: A's and B's as the headers say them), then the rows of values from
 * different runs listed apart: the same HTML in the static page and after every change of selection.
 * `machine` puts a host id into words (the page's machine descriptions); the id itself where it has none.
 * `indicative`: runs of a machine that was not quiet (CompareIndex.indicative), said so wherever a run is named.
 */
export function compareTablesHtml(
  rows: readonly CompareRow[],
  names: readonly [string, string],
  hosts: readonly [string, string],
  machine: (host: string) => string = (h) => h,
  questions = false,
  indicative: ReadonlySet<string> = new Set(),
): string {
  const { parts, apart, neither } = compareLayout(rows, hosts);
  const head = tag(
    'thead',
    {},
    tag(
      'tr',
      {},
      tag('th', { scope: 'col' }, 'Series'),
      tag('th', { scope: 'col', class: 'num' }, esc(`A: ${names[0]}`)),
      tag('th', { scope: 'col', class: 'num' }, esc(`B: ${names[1]}`)),
      tag('th', { scope: 'col', class: 'num' }, 'B vs A'),
    ),
  );
  const caption = (p: ComparePart, i: number) =>
    p.run === null
      ? `Deterministic counts on ${machine(p.host)}`
      : `${i === 0 ? 'Measured' : 'Timing values measured'} in ${runInTable(p.run, questions, indicative)} on ${machine(p.host)}${i === 0 && parts.length > 1 ? '; the tables below hold the timing values of other runs' : ''}`;
  const tables = parts.map((p, i) =>
    tag(
      'div',
      {
        class: 'table-scroll cmp-scroll',
        tabindex: 0,
        role: 'region',
        'aria-label': i === 0 ? 'Comparison of A and B' : `Comparison of A and B, run ${p.run}`,
      },
      tag(
        'table',
        { class: 'cmp', ...p.attrs, ...(i > 0 ? { 'data-apart': p.run ?? p.host } : {}) },
        tag('caption', { class: 'muted' }, esc(caption(p, i))),
        head,
        tag('tbody', {}, compareRowsHtml(p.rows, questions)),
      ),
    ),
  );
  const apartList = apart.length
    ? tag(
        'section',
        { class: 'cmp-apart', 'data-compare-apart': '' },
        tag('h2', {}, 'Measured in different runs: not compared'),
        tag(
          'p',
          { class: 'muted' },
          esc(
            `The same machine measuring the same build hours apart moves by more than a run's intervals, so these values are not put side by side and no ratio is given.`,
          ),
        ),
        tag('ul', {}, apart.map((r) => apartHtml(r, names, hosts, questions, indicative)).join('')),
      )
    : '';
  const neitherNote = neither.length
    ? tag(
        'p',
        { class: 'muted', 'data-compare-neither': '' },
        esc(`Measured in neither build: ${neither.map((r) => `${plainWhat(r.what)}${r.config ? `; ${r.config}` : ''}`).join(' · ')}.`),
      )
    : '';
  return tables.join('') + apartList + neitherNote;
}
