// Starting a real server (nginx, HAProxy) built by server-build.ts on loopback: one worker, one thread,
// TLS with the observatory's certificate chain (runner/certs.ts: the leaf and its intermediate CA sent, the
// client trusts the root), serving one small static response, and for the bulk workload a large one at /bulk.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerName } from '../../catalogue/servers.ts';
import { spawnServer, stopGroup } from '../child-guard.ts';
import { certFiles, type Cert } from '../certs.ts';
import { freePort, listening } from '../net.ts';

/** The body every server answers with. */
export const RESPONSE_BODY = 'observatory\n';

/** The size of the bulk workload's response body, at BULK_PATH. */
export const BULK_BYTES = 4 << 20;
export const BULK_PATH = '/bulk';

/** The bulk body: one line repeated, the same bytes at every start. */
export function bulkBody(): Buffer {
  return Buffer.alloc(BULK_BYTES, 'observatory bulk response body\n');
}

const BULK_BACKEND = fileURLToPath(new URL('./bulk-backend.ts', import.meta.url));

export interface RunningServer {
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The configuration file of one server in `dir` for `port`, its chain and key. With `bulk`, BULK_PATH answers
 * BULK_BYTES: nginx serves it as a file of www/; HAProxy relays it from the plain-HTTP backend on port
 * `bulk.backendPort` (its own answers must fit one buffer, tune.bufsize, 16 KiB). Without it the configuration
 * is the one the short and resumed workloads always had.
 */
export function serverConfig(server: ServerName, dir: string, port: number, cert: Cert, bulk?: { backendPort?: number }): { file: string; text: string } {
  const files = certFiles(cert);
  if (server === 'nginx') {
    mkdirSync(join(dir, 'www'), { recursive: true });
    writeFileSync(join(dir, 'www', 'index.html'), RESPONSE_BODY);
    if (bulk) writeFileSync(join(dir, 'www', BULK_PATH.slice(1)), bulkBody());
    const text = `daemon off;
master_process off;
worker_processes 1;
error_log ${join(dir, 'error.log')} warn;
pid ${join(dir, 'nginx.pid')};
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${join(dir, 'tmp')};
  proxy_temp_path ${join(dir, 'tmp')};
  fastcgi_temp_path ${join(dir, 'tmp')};
  uwsgi_temp_path ${join(dir, 'tmp')};
  scgi_temp_path ${join(dir, 'tmp')};
  server {
    listen 127.0.0.1:${port} ssl;
    ssl_certificate ${join(dir, 'chain.pem')};
    ssl_certificate_key ${files.key};
    ssl_session_cache shared:tls:1m;
    location / { root ${join(dir, 'www')}; }
  }
}
`;
    // nginx sends the certificate file's certificates in order: the leaf, then its intermediate CA
    writeFileSync(join(dir, 'chain.pem'), readFileSync(files.chain, 'utf8') + readFileSync(files.intermediate, 'utf8'));
    return { file: join(dir, 'nginx.conf'), text };
  }
  // HAProxy reads the leaf, the chain and the key from one file
  const pem = join(dir, 'server.pem');
  writeFileSync(pem, readFileSync(files.chain, 'utf8') + readFileSync(files.intermediate, 'utf8') + readFileSync(files.key, 'utf8'));
  const small = `http-request return status 200 content-type text/plain string "${RESPONSE_BODY.trim()}"`;
  // bulk: every other path still gets the small answer; the backend's idle connections are reused, so a
  // client connection costs HAProxy no new backend connection
  if (bulk && bulk.backendPort === undefined) throw new Error('HAProxy serves the bulk body only from a backend: its port is missing');
  const relay = bulk
    ? `  ${small} unless { path ${BULK_PATH} }
  default_backend bulk
backend bulk
  http-reuse always
  server plain 127.0.0.1:${bulk.backendPort}
`
    : `  ${small}
`;
  const text = `global
  nbthread 1
defaults
  mode http
  timeout connect 5s
  timeout client 30s
  timeout server 30s
frontend tls
  bind 127.0.0.1:${port} ssl crt ${pem}
${relay}`;
  return { file: join(dir, 'haproxy.cfg'), text };
}

export interface StartOptions {
  /** pinned to this CPU (taskset execs the server: same pid) */
  cpu?: number;
  /** a command the server runs under, e.g. valgrind and its options (it must exec the server in its own pid) */
  under?: string[];
  /** how long to wait for it to accept connections (a server under valgrind starts slowly) */
  startMs?: number;
  /** serve BULK_PATH; HAProxy's plain-HTTP backend runs pinned to `backendCpu` (the client's: never the server's) */
  bulk?: { backendCpu: number };
}

/** HAProxy's bulk backend (bulk-backend.ts) on a free port, pinned to `cpu`, serving the bulk body from `dir`. */
async function startBackend(dir: string, cpu: number): Promise<{ port: number; process: ChildProcess }> {
  const file = join(dir, 'bulk.bin');
  writeFileSync(file, bulkBody());
  let last = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = spawnServer('/usr/bin/taskset', ['-c', String(cpu), process.execPath, BULK_BACKEND, file, String(port)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr!.on('data', (d: Buffer) => (last += d.toString()));
    if (await listening(port)) return { port, process: child };
    await stopGroup(child);
  }
  throw new Error(`the bulk backend did not start: ${last.slice(-800)}`);
}

/** Start a server in `dir` and wait until it accepts connections. */
export async function startServer(server: ServerName, binary: string, dir: string, cert: Cert, opts: StartOptions = {}): Promise<RunningServer> {
  const backend = opts.bulk && server === 'haproxy' ? await startBackend(dir, opts.bulk.backendCpu) : undefined;
  const stopBackend = async () => {
    if (backend) await stopGroup(backend.process);
  };
  let last = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    mkdirSync(join(dir, 'tmp'), { recursive: true });
    const config = serverConfig(server, dir, port, cert, opts.bulk ? { ...(backend ? { backendPort: backend.port } : {}) } : undefined);
    writeFileSync(config.file, config.text);
    const args = server === 'nginx' ? ['-p', dir, '-c', config.file] : ['-db', '-f', config.file];
    const [command, ...rest] = [...(opts.cpu === undefined ? [] : ['/usr/bin/taskset', '-c', String(opts.cpu)]), ...(opts.under ?? []), binary, ...args];
    const child = spawnServer(command!, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d: Buffer) => (last += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (last += d.toString()));
    if (await listening(port, opts.startMs)) return { port, process: child, stop: async () => (await stopGroup(child), await stopBackend()) };
    await stopGroup(child);
  }
  await stopBackend();
  throw new Error(`${server} did not start: ${last.slice(-800)}`);
}
