// The points of one host, metric and configuration, both group modes (see splitJourneys).
import type { APIRoute, GetStaticPaths } from 'astro';
import { loadOpenSSLSummary } from '../../../lib/data.ts';
import { journeyPayload, splitJourneys } from '../../../lib/model.ts';

export const getStaticPaths = (() => {
  const summary = loadOpenSSLSummary();
  if (!summary) return [];
  return Object.entries(splitJourneys(journeyPayload(summary)).files).map(([file, journeys]) => ({ params: { file }, props: { journeys } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response(JSON.stringify(props.journeys), { headers: { 'content-type': 'application/json' } });
