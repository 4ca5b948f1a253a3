// Raw downloads of the ML-KEM hypothesis results (data/hypothesis/<host>/<runId>.json), as committed.
import type { APIRoute, GetStaticPaths } from 'astro';
import { listResultFiles, rawDataFile } from '../../../../lib/data.ts';

export const getStaticPaths = (() =>
  listResultFiles('hypothesis').flatMap((f) => {
    const m = /^hypothesis\/([^/]+)\/([^/]+)\.json$/.exec(f.path);
    return m ? [{ params: { host: m[1]!, run: m[2]! }, props: { path: f.path } }] : [];
  })) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(rawDataFile((props as { path: string }).path), { headers: { 'content-type': 'application/json' } });
