// The compare page's data, one small file per need (formats in lib/compare/files.ts): a host's series catalogue
// (series.json), one file per build, one per pair of builds measured in the same run.
import type { APIRoute, GetStaticPaths } from 'astro';
import { loadDetailed, loadSummary } from '../../../../lib/data.ts';
import { compareFiles } from '../../../../lib/compare/data.ts';

export const getStaticPaths = (() => {
  const summary = loadSummary();
  if (!summary) return [];
  const f = compareFiles(summary, loadDetailed());
  const split = (id: string) => {
    const i = id.indexOf('/');
    return { host: id.slice(0, i), file: id.slice(i + 1) };
  };
  return [
    ...Object.entries(f.catalogues).map(([host, body]) => ({ params: { host, file: 'series' }, props: { body } })),
    ...Object.entries(f.builds).map(([id, body]) => ({ params: split(id), props: { body } })),
    ...Object.entries(f.pairs).map(([id, body]) => ({ params: split(id), props: { body } })),
  ];
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response(JSON.stringify(props.body), { headers: { 'content-type': 'application/json' } });
