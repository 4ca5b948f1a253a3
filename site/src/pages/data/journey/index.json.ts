// The home chart's index: every journey without its points, and where the write-ups sit (see splitJourneys).
import type { APIRoute } from 'astro';
import { loadSummary } from '../../../lib/data.ts';
import { journeyPayload, splitJourneys, writeupRefs } from '../../../lib/model.ts';
import { writeupFields } from '../../../lib/writeup-fields.ts';

export const GET: APIRoute = async () => {
  const summary = loadSummary();
  const body = summary ? splitJourneys(journeyPayload(summary), writeupRefs(summary, await writeupFields())).index : null;
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
};
