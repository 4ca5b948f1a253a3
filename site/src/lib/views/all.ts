// Every view the site offers for download, served from /data/views/ by pages/data/views/[...view].ts;
// the version index, run plans and metrics views are built here, the rest by their own modules.
import { MtuResults as MtuSchema } from '../../../../schema/index.ts';
import { metricNote } from '../../../../runner/handshake/series.ts';
import { loadOpenSSLSummary, loadResults, loadRunIndex, loadRuns } from '../data.ts';
import { windowsWords } from '../format.ts';
import { entriesOf, versionPages, versionSlug } from '../model.ts';
import { headlines } from '../version/headlines.ts';
import { versionRows } from '../versions-list.ts';
import { entryView, versionViewId } from './entries.ts';
import type { View } from './format.ts';
import { buildsView, hostsView } from './methodology.ts';
import { mtuViews } from './mtu.ts';
import { quietOf, resultFilesView, runsView } from './runs.ts';

export function allViews(): View[] {
  const summary = loadOpenSSLSummary();
  const runs = loadRuns();
  const views: View[] = [runsView(loadRunIndex()), resultFilesView()];
  if (summary) {
    const pages = versionPages(summary);
    const list = versionRows(summary, pages);
    views.push({
      id: 'versions/index',
      title: 'Every build with results',
      columns: [
        'version',
        'variant',
        'slug',
        'released',
        'seriesSupport',
        'seriesEndOfLife',
        'headlineHost',
        'headlineKey',
        'headlineMedian',
        'headlineUnit',
        'vsPreviousSeries',
        'vsPreviousRatio',
        'vsPreviousVerdict',
        'hosts',
        'measuredSeries',
      ],
      rows: list.rows.map(({ page: p, released, series, headline: h }) => [
        p.version,
        p.variant,
        p.slug,
        released,
        series?.support ?? null,
        series?.endOfLife ?? null,
        h ? list.host : null,
        h?.entry.key ?? null,
        h?.entry.stats?.median ?? null,
        h?.entry.unit ?? null,
        h?.entry.vsPreviousSeries?.against ?? null,
        h?.entry.vsPreviousSeries?.ratio ?? null,
        h?.entry.vsPreviousSeries?.verdict ?? null,
        p.hosts.join(' '),
        summary.entries.filter((e) => versionSlug(e.version, e.variant) === p.slug && e.status === 'measured').length,
      ]),
    });
    for (const p of pages)
      for (const host of p.hosts) {
        const entries = entriesOf(summary, host, p.version, p.variant);
        views.push(entryView(versionViewId(host, p.slug, 'all'), `Every entry of ${p.slug} on ${host}`, entries));
        views.push(
          entryView(
            versionViewId(host, p.slug, 'headline'),
            `Headline figures of ${p.slug} on ${host}`,
            headlines(entries).rows.map((r) => r.entry),
          ),
        );
      }
  }
  const hosts = summary?.hosts.length ? summary.hosts : [...new Map(runs.map((r) => [r.run.host.id, r.run.host])).values()];
  views.push(hostsView(hosts));
  views.push({
    id: 'methodology/run-plans',
    title: 'How each run was taken',
    columns: ['runId', 'mode', 'benchmarks', 'rounds', 'warmupRounds', 'timedWindows', 'quiet', 'notQuietReasons', 'harnessCommit', 'harnessDirty'],
    rows: runs.map((r) => {
      const q = quietOf(r, summary?.runs ?? []);
      return [
        r.runId,
        r.run.mode,
        r.run.plan.benchmarks.join(' '),
        r.run.plan.rounds,
        r.run.plan.warmupRounds,
        windowsWords(r.run),
        q.quiet,
        q.reasons.join('; '),
        r.run.harness.gitCommit,
        r.run.harness.gitDirty,
      ];
    }),
  });
  if (summary)
    views.push({
      id: 'methodology/metrics',
      title: 'What each metric measures',
      columns: ['benchmark', 'metric', 'labels', 'note', 'unit', 'method', 'comparableAcrossVersions', 'reason'],
      rows: [...new Map(summary.entries.map((e) => [`${e.benchmark}/${e.metric}`, e])).values()].map((e) => {
        const labels = [
          ...new Set(summary.entries.filter((x) => x.benchmark === e.benchmark && x.metric === e.metric).map((x) => x.label.split(';')[0]!.trim())),
        ];
        return [
          e.benchmark,
          e.metric,
          labels.join(' | '),
          metricNote(e.benchmark, e.metric),
          e.unit,
          e.method,
          e.comparability.acrossVersions,
          e.comparability.reason ?? null,
        ];
      }),
    });
  views.push(buildsView(summary?.builds.length ? summary.builds : runs.flatMap((r) => r.run.builds.map((b) => ({ ...b, host: r.host })))));
  for (const f of loadResults('mtu', MtuSchema)) views.push(...mtuViews(f.result));
  return views;
}
