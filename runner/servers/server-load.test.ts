// The pure parts of loading a server: CPU time from /proc/<pid>/stat, who limited a window's rate, the bulk
// response's check and configuration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boundBy, checkBulkResponse, connectionCounts, statCpuSeconds, workloadPath } from './server-load.ts';
import { certFiles } from '../certs.ts';
import { BULK_BYTES, bulkBody, serverConfig } from './servers.ts';

test('statCpuSeconds: utime + stime and cutime + cstime, whatever the command name holds', () => {
  // fields 14-17 = 250 50 1000 200 ticks; a command name with a space and a parenthesis
  const line = '4242 (nginx: w (x)) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 1000 200 20 0 1 0 12345 1000000 100 18446744073709551615';
  assert.deepEqual(statCpuSeconds(line), { own: 3, children: 12 });
  // this process's own line reads, and its CPU is what Node says to the tick
  const own = statCpuSeconds(readFileSync('/proc/self/stat', 'utf8')).own;
  const usage = process.cpuUsage();
  assert.ok(Math.abs(own - (usage.user + usage.system) / 1e6) < 0.05, `${own} s from /proc vs ${(usage.user + usage.system) / 1e6} s from Node`);
  assert.throws(() => statCpuSeconds('not a stat line'), /not a \/proc\/<pid>\/stat line/);
});

test('boundBy: a saturated server with a client to spare is server-bound; a saturated client, or two idle sides, are not', () => {
  assert.equal(boundBy({ wallSeconds: 10, serverCpuSeconds: 9.6, clientCpuSeconds: 4 }).by, 'server');
  // the client used its whole CPU: the rate is the client's, whatever the server did
  assert.equal(boundBy({ wallSeconds: 10, serverCpuSeconds: 9.6, clientCpuSeconds: 9.5 }).by, 'client');
  assert.equal(boundBy({ wallSeconds: 10, serverCpuSeconds: 3, clientCpuSeconds: 9.9 }).by, 'client');
  // both waited (round trips, a slow start): neither rate says anything about the server's capacity
  const idle = boundBy({ wallSeconds: 10, serverCpuSeconds: 5, clientCpuSeconds: 4 });
  assert.deepEqual(idle, { by: 'neither', serverBusy: 0.5, clientBusy: 0.4 });
  // the threshold itself counts as saturated
  assert.equal(boundBy({ wallSeconds: 10, serverCpuSeconds: 9, clientCpuSeconds: 1 }).by, 'server');
});

test('checkBulkResponse: a 200 with exactly the bulk body passes; a short, long or altered body does not', () => {
  const head = 'HTTP/1.1 200 OK\r\nServer: nginx/1.26.3\r\nContent-Length: 4194304\r\n\r\n';
  const body = bulkBody().toString('latin1');
  assert.equal(body.length, BULK_BYTES);
  checkBulkResponse(head + body, 'x');
  // an HTTP/1.0 response ends with the connection: a cut one still makes s_client exit 0
  assert.throws(() => checkBulkResponse(head + body.slice(0, -1), 'x'), /x: read 4194303 body bytes, not the 4194304-byte bulk body/);
  assert.throws(() => checkBulkResponse(head + body + 'x', 'x'), /read 4194305 body bytes/);
  assert.throws(() => checkBulkResponse(head + 'X' + body.slice(1), 'x'), /read 4194304 body bytes, not the/);
  assert.throws(() => checkBulkResponse('HTTP/1.1 502 Bad Gateway\r\n\r\n', 'x'), /x: not a 200 response/);
  assert.deepEqual([workloadPath('bulk'), workloadPath('resumed'), connectionCounts('bulk'), connectionCounts('short')], ['/bulk', '/', [2, 8], [10, 40]]);
});

// serverConfig copies the certificates into the server's files: they must have been generated (any integration run does)
const noCerts = Object.values(certFiles('ecdsa-p256')).some((f) => !existsSync(f)) && 'the certificates are not generated';
test('serverConfig: the bulk body only when asked; HAProxy relays /bulk from its backend and answers the rest itself', { skip: noCerts }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bulk-config-'));
  try {
    const plain = serverConfig('haproxy', dir, 4433, 'ecdsa-p256');
    assert.doesNotMatch(plain.text, /backend|unless/);
    const bulk = serverConfig('haproxy', dir, 4433, 'ecdsa-p256', { backendPort: 8080 });
    assert.match(bulk.text, /string "observatory" unless \{ path \/bulk \}\n  default_backend bulk\n/);
    assert.match(bulk.text, /server plain 127\.0\.0\.1:8080\n/);
    assert.throws(() => serverConfig('haproxy', dir, 4433, 'ecdsa-p256', {}), /its port is missing/);
    serverConfig('nginx', dir, 4433, 'ecdsa-p256');
    assert.throws(() => statSync(join(dir, 'www', 'bulk')));
    serverConfig('nginx', dir, 4433, 'ecdsa-p256', {});
    assert.equal(statSync(join(dir, 'www', 'bulk')).size, BULK_BYTES);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
