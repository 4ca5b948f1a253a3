// The home chart's index: every journey without its points (see splitJourneys).
import type { APIRoute } from 'astro';
import { loadSummary } from '../../../lib/data.ts';
import { journeyPayload, splitJourneys } from '../../../lib/model.ts';

export const GET: APIRoute = () => {
  const summary = loadSummary();
  const body = summary ? splitJourneys(journeyPayload(summary)).index : null;
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
};
