// The run files behind the current summary, byte for byte as stored (compact JSON, brotli; `brotli -dc`
// reads them). Older runs are not copied into every deploy: the runs and drift pages link them in the repository.
import type { APIRoute, GetStaticPaths } from 'astro';
import { loadRuns, rawDataBytes } from '../../../../lib/data.ts';

export const getStaticPaths = (() => loadRuns().map((r) => ({ params: { host: r.host, run: r.runId }, props: { path: r.path } }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(new Uint8Array(rawDataBytes((props as { path: string }).path)), { headers: { 'content-type': 'application/octet-stream' } });
