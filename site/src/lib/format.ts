// Formatting shared by pages and the client scripts. No numbers are invented here: a missing value
// is always the words "not measured", never 0.
import type { Comparison, CoverageInterval, Method, Run, Stats, Unit } from '../../../schema/index.ts';
import { certName } from '../../../catalogue/words.ts';

export const NOT_MEASURED = 'not measured';

/** Up to 4 significant digits, grouped thousands; exact enough to read, short enough to scan. */
export function num(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NOT_MEASURED;
  const abs = Math.abs(v);
  if (abs >= 1000) return Math.round(v).toLocaleString('en-US');
  if (abs === 0) return '0';
  return Number(v.toPrecision(4)).toLocaleString('en-US', { maximumFractionDigits: 6 });
}

export function withUnit(v: number | null | undefined, unit: string): string {
  const s = num(v);
  return s === NOT_MEASURED ? s : `${s} ${unit}`;
}

/** Coverage as a reader sees it: 0.96875 -> "96.9%". */
export function coverageText(coverage: number): string {
  return `${(Math.floor(coverage * 1000) / 10).toFixed(1)}%`;
}

/** A fraction as a percentage, up to three significant digits: 0.005 -> "0.5%", 0.1 -> "10%" (thresholds, limits). */
export const fractionText = (x: number): string => `${Number((x * 100).toPrecision(3)).toLocaleString('en-US')}%`;

/** A ratio as a multiple with SIG_FIGS digits, trailing zeros kept: 1.00085 -> "1.00×". */
export const ratioText = (ratio: number): string => `${ratio.toPrecision(SIG_FIGS)}×`;

/** A difference with its sign: 1383250 -> "+1,383,250", -18201 -> "−18,201", 0 -> "±0". */
export const signedNum = (d: number): string => `${d > 0 ? '+' : d < 0 ? '−' : '±'}${num(Math.abs(d))}`;

/** A ratio as a signed percentage change: 0.93 -> "−7.0%". */
/** From this ratio on a change reads as a multiple ("179×"), not as "+17,811.4%". */
export const MULTIPLE_FROM = 10;

export function pct(ratio: number): string {
  if (ratio >= MULTIPLE_FROM) return `${sig(ratio)}×`;
  const d = (ratio - 1) * 100;
  const s = Math.abs(d) < 0.05 ? '0.0' : Math.abs(d).toFixed(1);
  return `${d < 0 && s !== '0.0' ? '−' : d > 0 && s !== '0.0' ? '+' : '±'}${s}%`;
}

export const VERDICT_TEXT: Record<Comparison['verdict'], string> = {
  higher: 'higher',
  lower: 'lower',
  'no-difference-shown': 'no difference shown',
  'not-enough-data': 'not enough data',
  'within-threshold': 'unchanged (within threshold)',
};

/** Whether "higher"/"lower" is good news depends on the metric. */
export function verdictTone(c: Comparison, higherIsBetter: boolean): 'better' | 'worse' | 'neutral' {
  if (c.verdict === 'higher') return higherIsBetter ? 'better' : 'worse';
  if (c.verdict === 'lower') return higherIsBetter ? 'worse' : 'better';
  return 'neutral';
}

export function comparisonText(c: Comparison | null): { change: string; interval: string; verdict: string } {
  if (!c) return { change: '—', interval: '—', verdict: 'no comparison' };
  return {
    change: pct(c.ratio),
    interval: c.interval
      ? `${pctRange(c.interval)} (${intervalLabel(c.interval)}, ${PAIRING_TEXT[c.pairing]})`
      : c.pairing === 'deterministic'
        ? 'exact (deterministic)'
        : `no interval (${PAIRING_TEXT[c.pairing]})`,
    verdict: VERDICT_TEXT[c.verdict],
  };
}

export function bytes(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${(n / 1024 ** 3).toFixed(1)} GiB`;
  if (n >= 1024 * 1024) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

export function date(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export const CI_LONG = 'distribution-free interval of the median, with its exact coverage';

// ------------------------------------------------------------------ human units (issue 13)
// Every value on a page goes through quantity(): three significant figures, a unit a reader knows
// (µs, ms, KiB, MB/s, GB/s), never a bare "us" or a ten-digit byte rate.

/** Significant figures used everywhere a measured value is shown. */
export const SIG_FIGS = 3;

/** A coefficient of variation above this marks a row as noisy (a warning beside its CV). */
export const NOISY_CV = 0.1;
/** A row whose coefficient of variation exceeds NOISY_CV: its median is likely to move between runs. */
export const isNoisy = (s: { cv: number | null } | null | undefined): boolean => s != null && s.cv !== null && s.cv > NOISY_CV;

/** v to SIG_FIGS significant figures, thousands grouped: 292.6 -> "293", 0.51234 -> "0.512", 12345 -> "12,300". */
export function sig(v: number, digits = SIG_FIGS): string {
  if (!Number.isFinite(v)) return NOT_MEASURED;
  if (v === 0) return '0';
  const r = Number(v.toPrecision(digits));
  return (Object.is(r, -0) ? 0 : r).toLocaleString('en-US', { maximumFractionDigits: 12 });
}

interface Scale {
  factor: number;
  suffix: string;
}
const scaleFor = (scales: Scale[], magnitude: number): Scale =>
  scales.find((_, i) => i === scales.length - 1 || magnitude < scales[i + 1]!.factor) ?? scales[0]!;
const SCALES: Record<string, Scale[]> = {
  'bytes/s': [
    { factor: 1, suffix: 'B/s' },
    { factor: 1e3, suffix: 'kB/s' },
    { factor: 1e6, suffix: 'MB/s' },
    { factor: 1e9, suffix: 'GB/s' },
  ],
  time: [
    { factor: 1, suffix: 'µs' },
    { factor: 1e3, suffix: 'ms' },
    { factor: 1e6, suffix: 's' },
  ],
  heap: [
    { factor: 1, suffix: 'B' },
    { factor: 1024, suffix: 'KiB' },
    { factor: 1024 ** 2, suffix: 'MiB' },
  ],
};
const countScales = (word: string): Scale[] => [
  { factor: 1, suffix: word },
  { factor: 1e6, suffix: `M ${word}` },
  { factor: 1e9, suffix: `G ${word}` },
];
const RATE_WORD: Partial<Record<Unit, string>> = { 'ops/s': 'ops/s', 'handshakes/s': 'handshakes/s', 'connections/s': 'connections/s' };

/** How values of a unit (and method) are scaled for reading; bytes on the wire stay exact (the MTU limits are exact). */
function scalesOf(unit: Unit | string, method?: Method | string): Scale[] {
  if (unit === 'bytes/s') return SCALES['bytes/s']!;
  if (unit === 'us/op' || unit === 'us/handshake') return SCALES.time!;
  if (unit === 'bytes') return method === 'wire-bytes' ? [{ factor: 1, suffix: 'B' }] : SCALES.heap!;
  if (unit === 'instructions') return countScales('instructions');
  if (unit === 'count') return [{ factor: 1, suffix: '' }];
  return countScales(RATE_WORD[unit as Unit] ?? unit);
}

/** Exact integers stay exact where the unit is counted, not timed (bytes on the wire, counts). */
const exactUnit = (unit: string, method?: string) => (unit === 'bytes' && method === 'wire-bytes') || unit === 'count';

function formatIn(v: number, s: Scale, exact: boolean): string {
  const x = v / s.factor;
  return exact && s.factor === 1 ? Math.round(x).toLocaleString('en-US') : sig(x);
}

/** A measured value in human units: 1553605663 bytes/s -> "1.55 GB/s", 292.6 us/handshake -> "293 µs". */
export function quantity(v: number | null | undefined, unit: Unit | string, method?: Method | string): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NOT_MEASURED;
  const s = scaleFor(scalesOf(unit, method), Math.abs(v));
  const text = formatIn(v, s, exactUnit(unit, method));
  return s.suffix ? `${text} ${s.suffix}` : text;
}

/** Two values in the scale of the larger, the unit once: "287–305 µs", "0.98–1.23 GB/s". */
export function quantityRange(low: number, high: number, unit: Unit | string, method?: Method | string): string {
  const s = scaleFor(scalesOf(unit, method), Math.max(Math.abs(low), Math.abs(high)));
  const exact = exactUnit(unit, method);
  return `${formatIn(low, s, exact)}–${formatIn(high, s, exact)}${s.suffix ? ` ${s.suffix}` : ''}`;
}

/** What an interval is, in words: "96.9% interval" or "range, covers 75.0%". Never "95% CI" unless it is one. */
export function intervalLabel(iv: Pick<CoverageInterval, 'coverage' | 'kind'>): string {
  return iv.kind === 'range' ? `range, covers ${coverageText(iv.coverage)}` : `${coverageText(iv.coverage)} interval`;
}

/** How a comparison was made, in words. Values of different runs are never compared by the summary. */
export const PAIRING_TEXT: Record<Comparison['pairing'], string> = {
  'paired-rounds': 'paired by round',
  deterministic: 'exact counts',
};
/** The label of a comparison between values of two different runs (no pairing possible). */
export const INDEPENDENT_TEXT = 'independent: different runs';

/** Said of a value, a run or a machine whose run was not quiet (only a local build, npm start, has such runs). */
export const INDICATIVE_TEXT = 'not quiet: indicative';

/** A ratio interval as changes: "+4.9% to +8.7%". */
export function pctRange(iv: Pick<CoverageInterval, 'low' | 'high'>): string {
  if (iv.high >= MULTIPLE_FROM) return `${sig(iv.low)}× to ${sig(iv.high)}×`;
  return `${pct(iv.low)} to ${pct(iv.high)}`;
}

/** Short verdict words for dense tables; the methodology page's glossary defines each. */
export const VERDICT_SHORT: Record<Comparison['verdict'], string> = {
  higher: 'higher',
  lower: 'lower',
  'no-difference-shown': 'no difference shown',
  'not-enough-data': 'not enough data',
  'within-threshold': 'unchanged',
};

/** What each verdict word means (the glossary on the methodology page; tables link to it). */
export const VERDICT_GLOSSARY: { verdict: Comparison['verdict']; words: string; meaning: string }[] = [
  {
    verdict: 'higher',
    words: 'higher',
    meaning:
      'the whole interval of the ratio lies above no change: the value went up. Whether that is better or worse depends on the metric and is written beside it (a higher rate is better, a higher time or size is worse).',
  },
  { verdict: 'lower', words: 'lower', meaning: 'the whole interval of the ratio lies below no change: the value went down.' },
  {
    verdict: 'no-difference-shown',
    words: 'no difference shown',
    meaning: 'the interval of the ratio includes no change: the data cannot tell the two apart, whatever the medians say. It does not prove they are equal.',
  },
  {
    verdict: 'not-enough-data',
    words: 'not enough data',
    meaning:
      'too few paired rounds for an interval that covers the required probability, so no verdict is given; the change shown is the median of the per-round ratios.',
  },
  {
    verdict: 'within-threshold',
    words: 'unchanged',
    meaning: 'a deterministic count (instructions, bytes, heap) that moved less than the stated practical threshold; deterministic counts carry no interval.',
  },
];

/** "higher (worse)", "lower (better)"; other verdicts as they are. */
export function verdictWords(c: Comparison, higherIsBetter: boolean, short = true): string {
  const words = (short ? VERDICT_SHORT : VERDICT_TEXT)[c.verdict];
  const tone = verdictTone(c, higherIsBetter);
  return tone === 'neutral' ? words : `${words} (${tone})`;
}

/** A verdict that says the value changed (higher or lower). */
export const significant = (c: Comparison | null | undefined): boolean => c?.verdict === 'higher' || c?.verdict === 'lower';

/** CV as a percentage, "—" when it has none. */
export function cvText(cv: number | null | undefined): string {
  return cv === null || cv === undefined ? '—' : `${(cv * 100).toFixed(1)}%`;
}

/** An interval of a median in the value's units with its coverage: "287–305 µs (range, covers 93.7%)". */
export function intervalText(stats: Stats | null, unit: Unit | string, method?: Method | string, withLabel = true): string {
  if (!stats) return NOT_MEASURED;
  if (stats.deterministic) return 'exact (deterministic)';
  const iv = stats.interval;
  if (!iv) return `no interval (n=${stats.n})`;
  const range = quantityRange(iv.low, iv.high, unit, method);
  return withLabel ? `${range} (${intervalLabel(iv)})` : range;
}

const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i;
/** Values for CSV cells: plain, unformatted numbers (full precision), empty for missing. */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
  // a spreadsheet runs a cell starting =, +, -, @, tab or CR as a formula (OWASP "CSV injection"): text
  // gets a leading quote; a number (or the text of one, e.g. "-3.5") is left as it is
  if (typeof v !== 'number' && /^[=+\-@\t\r]/.test(s) && !NUMBER.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [columns.map(csvCell).join(','), ...rows.map((r) => r.map(csvCell).join(','))].join('\r\n') + '\r\n';
}

/** "20261123T075524Z-quick-2b60" -> "2026-11-23 07:55 UTC" (the run's start), or the id itself. */
export function runDate(runId: string): string {
  const m = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z/.exec(runId);
  return m ? date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`) : runId;
}

/**
 * A run as readers see it: "full run of 2026-11-23 00:34 UTC". Its id stays in links (href) and in the
 * "Where these figures come from" disclosures, never in the text (site/tests/plain-words.test.ts).
 */
export function runWords(runId: string): string {
  const mode = /^\d{8}T\d{6}Z-([a-z]+)-/.exec(runId)?.[1];
  return `${mode ? `${mode} run` : 'run'} of ${runDate(runId)}`;
}

/**
 * The length of a run's timed windows where it was a choice (runner/windows.ts): "handshake short (300 new
 * handshakes per window)"; a run from before the choice measured with its mode's own.
 */
export function windowsWords(run: Pick<Run, 'mode' | 'plan'>): string {
  const w = run.plan.windows ?? [];
  if (!w.length) return `${run.mode} mode's own`;
  return w.map((x) => `${x.benchmark} ${x.window} (${x.size} ${x.unit})`).join('; ');
}

/** Text up to the first `sep` outside parentheses, so "x (a; b); c" gives "x (a; b)" and never loses a closing parenthesis. */
export function clauseBefore(text: string, sep = ';'): string {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if (c === sep && depth === 0) return text.slice(0, i).trim();
  }
  return text.trim();
}

/** Machine-local paths in recorded text (a build directory, a temp file): they mean nothing to a reader. */
const LOCAL_PATH = /(?:\/(?:work|tmp|home|root|var\/tmp|run\/user)\/|~\/)[^\s'"`,;:)]*/g;

/**
 * A recorded note or a library's error for readers: its first sentence, local paths replaced by "…", at most
 * `max` characters and cut only between words. The full text goes behind a disclosure.
 */
export function gist(text: string, max = 160): string {
  const clean = (text.trim().split('\n')[0] ?? '')
    .replace(LOCAL_PATH, (m) => `…${/[.]$/.test(m) ? '.' : ''}`)
    .replace(/\s+/g, ' ')
    .trim();
  const end = /[.!?](?=\s+[A-Z(]|$)/.exec(clean);
  const first = end ? clean.slice(0, end.index + 1) : clean;
  if (first.length <= max) return first;
  const cut = first.slice(0, max + 1).replace(/\s+\S*$/, '');
  return `${(cut || first.slice(0, max)).replace(/[\s,;:]+$/, '')} …`;
}

const TASK_WORDS: Record<string, string> = {
  'tls1.3': 'TLS 1.3',
  'tls1.2': 'TLS 1.2',
  t1: '1 thread',
  t2: '2 threads',
  t4: '4 threads',
  none: 'full handshake',
  ticket: 'resumed with a ticket',
  'session-id': 'resumed by session ID',
  default: 'default groups',
};

/**
 * A run note in a reader's words (the runner writes "<benchmark>/<task path> on build <id>"): the task's
 * path as words in parentheses, the build by its name (`buildName`, null for an id the run does not have),
 * another run by its date.
 */
export function noteWords(note: string, buildName: (id: string) => string | null): string {
  // a run by its date: "the quiet run <id>" -> "the quiet run of <date>", "<id> left out" -> "the full run of <date> left out"
  const runs = note.replace(/(\brun )?\b(\d{8}T\d{6}Z-[a-z]+-[0-9a-f]{4})\b/g, (_m, run: string | undefined, id: string) =>
    run ? `run of ${runDate(id)}` : `the ${runWords(id)}`,
  );
  return runs.replace(
    /\b([a-z][a-z-]*)\/([A-Za-z0-9.:_-]+(?:\/[A-Za-z0-9.:_-]+)*) on build ([0-9a-f]{16})\b/g,
    (m, bench: string, task: string, id: string) => {
      const name = buildName(id);
      return name
        ? `the ${bench} task (${task
            .split('/')
            .map((t) => TASK_WORDS[t] ?? certName(t))
            .join(', ')}) on ${name}`
        : m;
    },
  );
}

/** Whether gist() left something out, so the full text needs a disclosure. */
export const gistShortens = (text: string, max = 160): boolean => gist(text, max) !== text.replace(/\s+/g, ' ').trim();
