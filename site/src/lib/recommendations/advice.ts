// What to do, per machine, computed from summary.json (and the ML-KEM hypothesis result) at build time:
// which OpenSSL to run, what an upgrade gains or costs, what 3.5's default groups cost and the setting that
// removes that cost, how far each series is from the best OpenSSL, what the other libraries would save.
// Every figure is figures.ts's (one summary entry against another of the same run). Pure functions.
import type { DetailedIterations, HypothesisResult, Summary, SummaryEntry } from '../../../../schema/index.ts';
import { LIBRARY_NAMES, LIBRARY_RELEASES, buildLabel, buildSlug, compareReleases, compareVersions } from '../../../../catalogue/index.ts';
import { VERDICT_LABEL, certName } from '../hypothesis.ts';
import { BULK_KEY } from '../reference-keys.ts';
import { MEASURES, figure, keyOf, type Figure, type MeasureId } from './figures.ts';
import { supportOf, type Support } from './support.ts';

export interface SeriesRow {
  series: string;
  support: Support | null;
  /** the newest release of the series the run behind the comparison measured */
  version: string;
  /** handshakes per CPU second with X25519 pinned (the same key exchange on every version) against the best */
  rate: Figure;
  /** bulk AES-GCM against the best bulk figure, where measured */
  bulk: Figure | null;
}

export interface Upgrade {
  from: string;
  to: string;
  /** to against from, library defaults on both sides (what an upgrade without configuration gives), and bulk */
  figures: { measure: MeasureId; figure: Figure }[];
}

export interface GroupsAdvice {
  /** the 3.5 and 3.4 releases compared (one run) */
  v35: string;
  v34: string | null;
  /** 3.5 with library defaults against 3.4 with library defaults, per measure: the slowdown people ask about */
  slowdown: { measure: MeasureId; figure: Figure }[];
  /** 3.5 with library defaults against the same build with X25519 pinned: what the default groups cost */
  defaultsCost: { measure: MeasureId; figure: Figure }[];
  /** 3.5 with X25519 pinned against 3.4 with X25519 pinned: what is left once the groups are set */
  pinnedVs34: { measure: MeasureId; figure: Figure }[];
  /** what 3.5's defaults negotiate (the post-quantum hybrid the setting gives up) and send */
  negotiated: string | null;
  keyShares: string | null;
  /** the groups list to set: the ECDH-only list the hypothesis test measured, else the group pinned in the summary */
  groups: string;
  /** the hypothesis test's claims that 3.5 with those groups costs the same as 3.4, per certificate */
  hypothesis: { runId: string; statement: string; claims: { cert: string; verdict: string; decided: boolean; sentence: string }[] } | null;
}

export interface LibraryAdvice {
  name: string;
  build: string;
  /** what a variant other than the maintainers' default is, in the catalogue's words; null for the default */
  what: string | null;
  /** against the newest OpenSSL of the same run (summary vsOpenSSL), per measure where measured */
  figures: { measure: MeasureId; figure: Figure }[];
}

export interface Recommendations {
  host: string;
  /** the day support status is read on (YYYY-MM-DD) */
  today: string;
  /** the release to run, and why, in words (every number of the reason is a figure) */
  pick: {
    version: string;
    series: string;
    support: Support | null;
    reason: 'fastest-supported' | 'lts-not-slower';
    fastest: SeriesRow;
    lts: SeriesRow | null;
    /** the newest LTS against the fastest supported release (handshakes per CPU second, X25519 pinned); null when they are one */
    ltsVsFastest: Figure | null;
  } | null;
  /** every OpenSSL series against the best OpenSSL of the run */
  best: { version: string; rate: Figure } | null;
  series: SeriesRow[];
  upgrades: Upgrade[];
  groups: GroupsAdvice | null;
  libraries: LibraryAdvice[];
}

const isDefaultOpenSSL = (e: SummaryEntry) => e.library === 'openssl' && e.variant === 'default';
const measured = (e: SummaryEntry | undefined): e is SummaryEntry => e !== undefined && e.status === 'measured' && e.stats !== null;

/**
 * The entries of one key on a host, of one run (comparisons stay in one run): the run that measured the most
 * supported series of it (the advice chooses among them), then the most OpenSSL releases, then the newest.
 * A run of a few builds (a libraries run) may hold every supported series while an older night holds more
 * releases, all of them past their support.
 */
function oneRun(entries: readonly SummaryEntry[], today: string): SummaryEntry[] {
  const byRun = new Map<string, SummaryEntry[]>();
  for (const e of entries) if (measured(e)) byRun.set(e.runId, [...(byRun.get(e.runId) ?? []), e]);
  const supported = (run: SummaryEntry[]) => new Set(run.filter((e) => supportOf(e.series, today)?.supported).map((e) => e.series)).size;
  return [...byRun.values()].sort((a, b) => supported(b) - supported(a) || b.length - a.length || b[0]!.runId.localeCompare(a[0]!.runId))[0] ?? [];
}

/** The newest release of each series among entries, oldest series first. */
function newestPerSeries(entries: readonly SummaryEntry[]): SummaryEntry[] {
  const m = new Map<string, SummaryEntry>();
  for (const e of entries) if (!m.has(e.series) || compareVersions(e.version, m.get(e.series)!.version) > 0) m.set(e.series, e);
  return [...m.values()].sort((a, b) => compareVersions(a.version, b.version));
}

/** The recommendations of one machine. `hypothesis`: that machine's published ML-KEM test result, if any. */
export function recommendations(
  summary: Summary,
  detailed: DetailedIterations | null,
  host: string,
  today: string,
  hypothesis: HypothesisResult | null = null,
): Recommendations {
  const entries = summary.entries.filter((e) => e.host === host);
  const byKey = (key: string) => entries.filter((e) => e.key === key);
  const fig = (a: SummaryEntry, b: SummaryEntry | undefined | null) => figure(summary, detailed, a, b);

  // every series' newest release against the best one, with X25519 pinned (the same work on every release)
  const rateKey = keyOf('rate', 'X25519');
  const rates = newestPerSeries(oneRun(byKey(rateKey).filter(isDefaultOpenSSL), today));
  const bestRate = [...rates].sort((a, b) => (b.higherIsBetter ? b.stats!.median - a.stats!.median : a.stats!.median - b.stats!.median))[0];
  const bulkRun = newestPerSeries(oneRun(byKey(BULK_KEY).filter(isDefaultOpenSSL), today));
  const bestBulk = [...bulkRun].sort((a, b) => b.stats!.median - a.stats!.median)[0];
  const series: SeriesRow[] = rates.map((e) => {
    const bulk = bulkRun.find((x) => x.series === e.series);
    return {
      series: e.series,
      support: supportOf(e.series, today),
      version: e.version,
      rate: fig(e, e === bestRate ? null : bestRate),
      bulk: bulk ? fig(bulk, bulk === bestBulk ? null : bestBulk) : null,
    };
  });

  // the release to run: the fastest supported one, unless the newest LTS is not decidedly slower than it
  const supported = series.filter((s) => s.support?.supported);
  const fastest = [...supported].sort((a, b) => {
    const va = rates.find((e) => e.version === a.version)!.stats!.median;
    const vb = rates.find((e) => e.version === b.version)!.stats!.median;
    return bestRate!.higherIsBetter ? vb - va : va - vb;
  })[0];
  const lts = supported.filter((s) => s.support?.lts).at(-1) ?? null;
  let pick: Recommendations['pick'] = null;
  if (fastest) {
    const ltsVsFastest =
      lts && lts !== fastest
        ? fig(
            rates.find((e) => e.version === lts.version)!,
            rates.find((e) => e.version === fastest.version),
          )
        : null;
    const ltsSlower = ltsVsFastest?.decided && ltsVsFastest.tone === 'worse';
    const chosen = lts && !ltsSlower ? lts : fastest;
    pick = {
      version: chosen.version,
      series: chosen.series,
      support: chosen.support,
      reason: chosen === fastest ? 'fastest-supported' : 'lts-not-slower',
      fastest,
      lts,
      ltsVsFastest,
    };
  }

  // upgrading to the pick from every older series' newest release, library defaults on both sides
  const upgrades: Upgrade[] = [];
  if (pick) {
    for (const from of series.filter((s) => compareVersions(s.version, pick!.version) < 0)) {
      const figures = (['client', 'server', 'rate', 'bulk'] as const).flatMap((measure) => {
        const key = keyOf(measure, 'default');
        const run = oneRun(byKey(key).filter(isDefaultOpenSSL), today);
        const to = run.find((e) => e.version === pick!.version);
        const was = run.find((e) => e.version === from.version);
        return to && was ? [{ measure, figure: fig(to, was) }] : [];
      });
      if (figures.length) upgrades.push({ from: from.version, to: pick.version, figures });
    }
  }

  return {
    host,
    today,
    pick,
    best: bestRate ? { version: bestRate.version, rate: fig(bestRate, null) } : null,
    series,
    upgrades,
    groups: groupsAdvice(entries, fig, hypothesis),
    libraries: librariesAdvice(entries, fig),
  };
}

/** 3.5's default groups: the slowdown against 3.4, what the groups cost, what is left with the setting. */
function groupsAdvice(
  entries: readonly SummaryEntry[],
  fig: (a: SummaryEntry, b: SummaryEntry | undefined | null) => Figure,
  hypothesis: HypothesisResult | null,
): GroupsAdvice | null {
  const openssl = entries.filter(isDefaultOpenSSL);
  const inSeries = (series: string, key: string) =>
    openssl.filter((e) => e.series === series && e.key === key && measured(e)).sort((a, b) => compareVersions(b.version, a.version));
  const v35 = inSeries('3.5', keyOf('client', 'default'))[0];
  if (!v35) return null;
  // 3.4 from the run that measured 3.5, so the two are paired
  const v34 = inSeries('3.4', keyOf('client', 'default')).find((e) => e.runId === v35.runId) ?? null;
  const at = (version: string | undefined, key: string) => (version === undefined ? undefined : openssl.find((e) => e.version === version && e.key === key));
  const rows = (a: (m: MeasureId) => SummaryEntry | undefined, b: (m: MeasureId) => SummaryEntry | undefined) =>
    MEASURES.flatMap(({ id }) => {
      const ea = a(id);
      return ea ? [{ measure: id as MeasureId, figure: fig(ea, b(id)) }] : [];
    });
  const ecdh = hypothesis ? sameCostClaims(hypothesis) : null;
  const pinned = at(v35.version, keyOf('client', 'X25519'));
  return {
    v35: v35.version,
    v34: v34?.version ?? null,
    slowdown: v34
      ? rows(
          (m) => at(v35.version, keyOf(m, 'default')),
          (m) => at(v34.version, keyOf(m, 'default')),
        )
      : [],
    defaultsCost: rows(
      (m) => at(v35.version, keyOf(m, 'default')),
      (m) => at(v35.version, keyOf(m, 'X25519')),
    ),
    pinnedVs34: v34
      ? rows(
          (m) => at(v35.version, keyOf(m, 'X25519')),
          (m) => at(v34.version, keyOf(m, 'X25519')),
        )
      : [],
    negotiated: v35.observed?.negotiatedGroup === undefined ? null : String(v35.observed.negotiatedGroup),
    keyShares: v35.observed?.clientKeyShares === undefined ? null : String(v35.observed.clientKeyShares),
    groups: ecdh?.groups ?? String(pinned?.params.clientGroups ?? 'X25519'),
    hypothesis: ecdh ? { runId: hypothesis!.runId, statement: ecdh.statement, claims: ecdh.claims } : null,
  };
}

/**
 * The hypothesis test's claims that 3.5 with ECDH-only groups on both sides costs the same as 3.4 with its
 * defaults (one per certificate), and that groups list.
 */
export function sameCostClaims(
  r: HypothesisResult,
): { groups: string; statement: string; claims: { cert: string; verdict: string; decided: boolean; sentence: string }[] } | null {
  const config = (id: string) => r.configurations.find((c) => c.id === id);
  const claims = r.claims.filter((c) => {
    const n = config(c.numerator);
    const d = config(c.denominator);
    return (
      c.kind === 'same' &&
      c.side === 'both' &&
      n &&
      d &&
      n.clientGroups !== 'default' &&
      n.clientGroups === n.serverGroups &&
      d.clientGroups === 'default' &&
      n.version.startsWith('3.5.') &&
      d.version.startsWith('3.4.')
    );
  });
  if (!claims.length) return null;
  return {
    groups: config(claims[0]!.numerator)!.clientGroups,
    statement: claims[0]!.statement,
    claims: claims.map((c) => ({
      cert: certName(c.cert),
      verdict: VERDICT_LABEL[c.verdict],
      decided: c.verdict === 'supported' || c.verdict === 'refuted',
      sentence: c.sentence,
    })),
  };
}

/** Each other library against the newest OpenSSL of its run (the OpenSSL build summary's vsOpenSSL names), X25519 pinned. */
function librariesAdvice(entries: readonly SummaryEntry[], fig: (a: SummaryEntry, b: SummaryEntry | undefined | null) => Figure): LibraryAdvice[] {
  const others = newestBuilds(entries.filter((e) => e.library !== 'openssl'));
  return others.flatMap((b): LibraryAdvice[] => {
    const figures = (['client', 'server', 'bulk'] as const).flatMap((measure) => {
      const key = keyOf(measure, 'X25519');
      const a = entries.find((e) => e.key === key && e.library === b.library && e.version === b.version && e.variant === b.variant);
      if (!a) return [];
      const against = a.vsOpenSSL?.against;
      const ref =
        against === undefined ? undefined : entries.find((e) => e.key === key && e.library === 'openssl' && buildSlug(e) === against && e.runId === a.runId);
      return [{ measure: measure as MeasureId, figure: fig(a, ref) }];
    });
    const what =
      b.variant === 'default' ? null : (LIBRARY_RELEASES.find((r) => r.library === b.library && r.version === b.version)?.variants[b.variant]?.what ?? null);
    return figures.length ? [{ name: buildLabel(b), build: buildSlug(b), what, figures }] : [];
  });
}

/** Every other library's builds on a host (each library and variant once), in the catalogue's library order. */
function newestBuilds(entries: readonly SummaryEntry[]): { library: SummaryEntry['library']; version: string; variant: string }[] {
  const seen = new Map<string, { library: SummaryEntry['library']; version: string; variant: string }>();
  for (const e of entries) {
    const id = `${e.library}\u0000${e.variant}`;
    const cur = seen.get(id);
    if (!cur || compareReleases(e, cur) > 0) seen.set(id, { library: e.library, version: e.version, variant: e.variant });
  }
  const order = Object.keys(LIBRARY_NAMES);
  return [...seen.values()].sort(
    (a, b) =>
      order.indexOf(a.library) - order.indexOf(b.library) || (a.variant === 'default' ? -1 : b.variant === 'default' ? 1 : a.variant.localeCompare(b.variant)),
  );
}

/** The upgrade the home page names: from the newest older long-term-support series (the usual path), else the newest older series. */
export function mainUpgrade(r: Recommendations): Upgrade | null {
  const lts = r.upgrades.filter((u) => r.series.find((s) => s.version === u.from)?.support?.lts);
  return lts.at(-1) ?? r.upgrades.at(-1) ?? null;
}

/** "X25519MLKEM768:1216,X25519:32" (group:bytes as the harness records key shares) -> ["X25519MLKEM768", "X25519"]. */
export const keyShareNames = (shares: string | null): string[] =>
  shares
    ? shares
        .split(',')
        .map((s) => s.split(':')[0]!)
        .filter(Boolean)
    : [];

/** Every figure of a machine's recommendations, once each (what the page prints and its test checks). */
export function allFigures(r: Recommendations): Figure[] {
  const out = new Set<Figure>();
  if (r.best) out.add(r.best.rate);
  if (r.pick?.ltsVsFastest) out.add(r.pick.ltsVsFastest);
  for (const s of r.series) [s.rate, s.bulk].forEach((f) => f && out.add(f));
  for (const u of r.upgrades) u.figures.forEach((x) => out.add(x.figure));
  if (r.groups) for (const list of [r.groups.slowdown, r.groups.defaultsCost, r.groups.pinnedVs34]) list.forEach((x) => out.add(x.figure));
  for (const l of r.libraries) l.figures.forEach((x) => out.add(x.figure));
  return [...out];
}
