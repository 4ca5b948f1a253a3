// "Download this view" of the home page as it opens (the page's script makes the file of any other view).
import type { APIRoute } from 'astro';
import { loadOpenSSLSummary } from '../../../lib/data.ts';
import { homeView } from '../../../lib/home.ts';
import { journeyCsv } from '../../../lib/journey-table.ts';
import { journeyPayload } from '../../../lib/model.ts';

export const GET: APIRoute = () => {
  const summary = loadOpenSSLSummary();
  const view = summary ? homeView(journeyPayload(summary), [], summary.statistics.baselineVersion) : null;
  const body = view ? journeyCsv(view.lines, view.versions) : 'not measured yet: data/summary.json has no handshake results\n';
  return new Response(body, { headers: { 'content-type': 'text/csv; charset=utf-8' } });
};
