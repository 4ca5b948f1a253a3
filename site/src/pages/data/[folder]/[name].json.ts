// Raw downloads of the hypothesis and MTU results files (data/hypothesis/*.json, data/mtu/*.json).
import type { APIRoute, GetStaticPaths } from 'astro';
import { listResultFiles, rawDataFile } from '../../../lib/data.ts';

export const RESULT_FOLDERS = ['hypothesis', 'mtu'] as const;

export const getStaticPaths = (() =>
  RESULT_FOLDERS.flatMap((folder) =>
    listResultFiles(folder).map((f) => ({ params: { folder, name: f.path.slice(folder.length + 1, -'.json'.length) }, props: { path: f.path } })),
  )) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(rawDataFile((props as { path: string }).path), { headers: { 'content-type': 'application/json' } });
