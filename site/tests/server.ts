// A tiny static file server for the browser tests: serves a built site on 127.0.0.1 like a static host
// (directory index.html, 404.html with status 404), no compression, so response sizes are bytes transferred.
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
};

export interface StaticServer {
  origin: string;
  close(): Promise<void>;
}

export function resolveFile(root: string, urlPath: string): string | null {
  const clean = normalize(decodeURIComponent(urlPath.split('?')[0]!)).replace(/^(\.\.[/\\])+/, '');
  const full = resolve(join(root, clean));
  if (!full.startsWith(resolve(root))) return null;
  if (existsSync(full) && statSync(full).isFile()) return full;
  const index = join(full, 'index.html');
  return existsSync(index) ? index : null;
}

export async function serve(root: string): Promise<StaticServer> {
  if (!existsSync(join(root, 'index.html'))) throw new Error(`${root} has no index.html: build the site first (npm run site:build)`);
  const server: Server = createServer((req, res) => {
    const file = resolveFile(root, req.url ?? '/');
    if (!file) {
      const nf = join(root, '404.html');
      res.writeHead(404, { 'content-type': TYPES['.html']! });
      res.end(existsSync(nf) ? readFileSync(nf) : 'not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => server.close(() => ok())) };
}
