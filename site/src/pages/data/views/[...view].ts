// "Download this view": each table view as CSV and as JSON (see src/lib/views/: all.ts lists them, format.ts writes them).
import type { APIRoute, GetStaticPaths } from 'astro';
import { allViews } from '../../../lib/views/all.ts';
import { viewCsv, viewJson, type View } from '../../../lib/views/format.ts';

export const getStaticPaths = (() =>
  allViews().flatMap((v) => [
    { params: { view: `${v.id}.csv` }, props: { v, format: 'csv' as const } },
    { params: { view: `${v.id}.json` }, props: { v, format: 'json' as const } },
  ])) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => {
  const { v, format } = props as { v: View; format: 'csv' | 'json' };
  return format === 'csv'
    ? new Response(viewCsv(v), { headers: { 'content-type': 'text/csv; charset=utf-8' } })
    : new Response(viewJson(v), { headers: { 'content-type': 'application/json' } });
};
