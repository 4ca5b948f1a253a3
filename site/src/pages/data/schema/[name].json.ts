// JSON Schema exports of data/schema/*.json, for people who validate with other tools.
import type { APIRoute, GetStaticPaths } from 'astro';
import { rawDataFile, schemaExports } from '../../../lib/data.ts';

export const getStaticPaths = (() => schemaExports().map((name) => ({ params: { name } }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ params }) =>
  new Response(rawDataFile(`schema/${params.name}.json`), { headers: { 'content-type': 'application/json' } });
