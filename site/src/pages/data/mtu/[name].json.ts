// Raw downloads of the QUIC + PQC MTU results (data/mtu/<host>.json), as committed.
import type { APIRoute, GetStaticPaths } from 'astro';
import { listResultFiles, rawDataFile } from '../../../lib/data.ts';

export const getStaticPaths = (() =>
  listResultFiles('mtu').flatMap((f) => {
    const m = /^mtu\/([^/]+)\.json$/.exec(f.path);
    return m ? [{ params: { name: m[1]! }, props: { path: f.path } }] : [];
  })) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(rawDataFile((props as { path: string }).path), { headers: { 'content-type': 'application/json' } });
