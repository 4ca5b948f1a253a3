// The home chart's index: every journey without its points (see splitJourneys), loaded when a reader asks
// for another measurement or host.
import type { APIRoute } from 'astro';
import { loadOpenSSLSummary } from '../../../lib/data.ts';
import { journeyPayload, splitJourneys } from '../../../lib/model.ts';

export const GET: APIRoute = () => {
  const summary = loadOpenSSLSummary();
  const body = summary ? splitJourneys(journeyPayload(summary)).index : null;
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
};
