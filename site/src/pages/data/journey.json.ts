// The home chart's data: only what the chart draws, precomputed so the page stays small.
import type { APIRoute } from 'astro';
import { loadSummary } from '../../lib/data.ts';
import { journeyPayload } from '../../lib/model.ts';

export const GET: APIRoute = () => {
  const summary = loadSummary();
  const body = summary ? journeyPayload(summary) : { benchmark: 'handshake', hosts: [], versions: {}, journeys: [], defaults: null };
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
};
