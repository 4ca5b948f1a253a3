// The pure parts of loading a server: CPU time from /proc/<pid>/stat, and who limited a window's rate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { boundBy, statCpuSeconds } from './server-load.ts';

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
