// "Download this view" of the home page as it opens, as JSON (the page's script makes the file of any other view).
import type { APIRoute } from 'astro';
import { loadOpenSSLSummary } from '../../../lib/data.ts';
import { homeView } from '../../../lib/home.ts';
import { journeyJson } from '../../../lib/journey-table.ts';
import { journeyPayload } from '../../../lib/model.ts';

export const GET: APIRoute = () => {
  const summary = loadOpenSSLSummary();
  const view = summary ? homeView(journeyPayload(summary), [], summary.statistics.baselineVersion) : null;
  return new Response(view ? journeyJson(view.lines, view.versions) : 'null\n', { headers: { 'content-type': 'application/json' } });
};
