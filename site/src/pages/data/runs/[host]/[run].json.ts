// Every run file, validated, served as committed.
import type { APIRoute, GetStaticPaths } from 'astro';
import { loadRuns, rawDataFile } from '../../../../lib/data.ts';

export const getStaticPaths = (() =>
  loadRuns().map((r) => ({ params: { host: r.host, run: r.runId }, props: { path: r.path } }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(rawDataFile((props as { path: string }).path), { headers: { 'content-type': 'application/json' } });
