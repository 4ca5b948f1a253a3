// Programs a benchmark starts must not outlive it: a server left listening, or a measurement still
// running after its run was killed, would share the host with the next measurement (the host lock is
// released the moment the run dies).
//
// Two guards:
//  - every guarded program is started through `setpriv --pdeathsig KILL` (util-linux): the kernel sends
//    it SIGKILL when the node process that started it dies, however it dies (SIGKILL included);
//  - on SIGTERM, SIGINT and SIGHUP node kills its guarded programs (a server with its whole process
//    group) before it dies of the same signal, so the exit status stays what the signal says.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

const live = new Map<ChildProcess, { group: boolean }>();
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
let installed = false;

/** The command line that starts `cmd` under the parent-death guard. */
export function guarded(cmd: string, args: string[]): [string, string[]] {
  return ['setpriv', ['--pdeathsig', 'KILL', '--', cmd, ...args]];
}

function killChild(child: ChildProcess, group: boolean): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(group ? -child.pid : child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export function killGuarded(): void {
  for (const [child, { group }] of live) killChild(child, group);
}

function onSignal(signal: NodeJS.Signals): void {
  killGuarded();
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  installed = false;
  process.kill(process.pid, signal); // no listener any more: node dies of it as it would have
}

/** Keep track of a started program until it exits; `group`: it leads its own process group, kill that. */
export function track<T extends ChildProcess>(child: T, group = false): T {
  live.set(child, { group });
  child.once('exit', () => live.delete(child));
  child.once('error', () => live.delete(child));
  if (!installed) {
    for (const s of SIGNALS) process.on(s, onSignal);
    process.on('exit', killGuarded);
    installed = true;
  }
  return child;
}

/**
 * Start a server: its own process group (a terminal's ^C reaches node, which then kills the group),
 * killed with node whatever kills node. The caller kills it with `stopGroup` when done.
 */
export function spawnServer(cmd: string, args: string[], options: SpawnOptions): ChildProcess {
  const [file, argv] = guarded(cmd, args);
  return track(spawn(file, argv, { ...options, detached: true }), true);
}

export function stopGroup(child: ChildProcess): void {
  killChild(child, true);
}
