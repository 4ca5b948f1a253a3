// Drift page shards: the nightly medians of one headline metric of one build on one host in one year.
import type { APIRoute, GetStaticPaths } from 'astro';
import { loadDrift } from '../../../../../../lib/data.ts';

export const getStaticPaths = (() =>
  loadDrift().values.map((shard) => ({
    params: { host: shard.host, year: String(shard.year), metric: shard.metric, build: shard.build },
    props: { shard },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response(JSON.stringify(props.shard), { headers: { 'content-type': 'application/json' } });
