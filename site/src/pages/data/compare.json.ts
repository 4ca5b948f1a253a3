// The compare page's data: one compact table per host and build.
import type { APIRoute } from 'astro';
import { loadSummary } from '../../lib/data.ts';
import { comparePayload } from '../../lib/model.ts';

export const GET: APIRoute = () => {
  const summary = loadSummary();
  const body = summary ? comparePayload(summary) : { builds: [], rows: {} };
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
};
