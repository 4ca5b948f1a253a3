// Raw downloads of the derived files, byte for byte as committed (only those that exist).
import type { APIRoute, GetStaticPaths } from 'astro';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir, loadDetailed, loadSummary, rawDataFile } from '../../lib/data.ts';

export const getStaticPaths = (() => {
  loadSummary(); // validate before publishing
  loadDetailed();
  return ['summary', 'detailed-iterations'].filter((f) => existsSync(join(dataDir(), `${f}.json`))).map((file) => ({ params: { file } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ params }) =>
  new Response(rawDataFile(`${params.file}.json`), { headers: { 'content-type': 'application/json' } });
