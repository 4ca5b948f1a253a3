// Loopback ports for the servers a benchmark starts.
import { connect, createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago (the caller retries if it is taken meanwhile). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

/** Wait until something accepts connections on 127.0.0.1:`port`; false after `ms`. */
export async function listening(port: number, ms = 10_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) return true;
  }
  return false;
}
