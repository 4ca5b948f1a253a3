// Drift page shards: the runs of one host in one year (date, id, mode, quiet, file) and the step changes
// between consecutive runs. See site/src/lib/drift/shards.ts.
import type { APIRoute, GetStaticPaths } from 'astro';
import { loadDrift } from '../../../../../lib/data.ts';

export const getStaticPaths = (() =>
  loadDrift().runs.map((shard) => ({ params: { host: shard.host, year: String(shard.year) }, props: { shard } }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response(JSON.stringify(props.shard), { headers: { 'content-type': 'application/json' } });
