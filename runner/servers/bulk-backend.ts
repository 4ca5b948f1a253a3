// The plain-HTTP backend HAProxy relays the bulk response from (servers.ts), since HAProxy itself can only
// answer with what fits one buffer: `node bulk-backend.ts FILE PORT` answers every request with FILE.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const [file, port] = process.argv.slice(2);
const body = readFileSync(file!);
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
  res.end(body);
});
// HAProxy decides when an idle connection to its backend is closed (a timeout here could race its reuse)
server.keepAliveTimeout = 0;
server.listen(Number(port), '127.0.0.1');
