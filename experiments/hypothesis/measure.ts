// How the hypothesis test measures its configurations: instruction counts per side under valgrind
// (deterministic, so two at a time), and blocks of handshakes timed in CPU time on one pinned CPU, the
// handshakes per block calibrated so that a block lasts about `blockSeconds` of CPU.
import { availableParallelism } from 'node:os';
import type { HypothesisResult } from '../../schema/index.ts';
import { inParallel } from '../../runner/deterministic.ts';
import { pinnableCpu } from '../../runner/host.ts';
import { baseConfig, type HandshakeConfig } from '../../runner/handshake/config.ts';
import { countInstructions, runHandshake } from '../../runner/handshake/invoke.ts';
import type { Cert } from '../../runner/certs.ts';
import { CERTS, type ConfigDef } from './configurations.ts';
import { minutes } from './report.ts';

const MIN_HANDSHAKES = 20;
const MAX_HANDSHAKES = 20_000;

type Log = (msg: string) => void;

export const configOf = (d: ConfigDef, cert: Cert): HandshakeConfig => baseConfig({ cert, clientGroups: d.clientGroups, serverGroups: d.serverGroups });

/** Instruction counts of every configuration with every certificate, client and server apart; what could not be counted is a note. */
export async function instructionCounts(
  defs: readonly ConfigDef[],
  binaries: ReadonlyMap<string, string>,
  handshakes: number,
  log: Log,
  notes: string[],
  elapsedSeconds: () => number,
): Promise<HypothesisResult['instructionCounts']> {
  const jobs = defs.flatMap((d) => CERTS.map((cert) => ({ d, cert })));
  log(`instruction counts: ${jobs.length} configurations x 2 sides under valgrind, ${handshakes} handshakes each...`);
  type Count = Awaited<ReturnType<typeof countInstructions>>;
  const results: { d: ConfigDef; cert: Cert; client: Count; server: Count }[] = new Array(jobs.length);
  let done = 0;
  await inParallel(
    jobs.map((job, i) => ({ ...job, i })),
    Math.max(1, Math.min(2, availableParallelism())),
    async ({ d, cert, i }) => {
      const client = await countInstructions(binaries.get(d.id)!, configOf(d, cert), handshakes, 'client');
      const server = await countInstructions(binaries.get(d.id)!, configOf(d, cert), handshakes, 'server');
      results[i] = { d, cert, client, server };
      done++;
      if (done % 4 === 0 || done === jobs.length) log(`  ${done}/${jobs.length} (${minutes(elapsedSeconds())})`);
    },
  );
  const counts: HypothesisResult['instructionCounts'] = [];
  for (const { d, cert, client, server } of results) {
    if (client.kind !== 'measured' || server.kind !== 'measured') {
      const r = client.kind !== 'measured' ? client : server;
      notes.push(`instruction count ${d.id} ${cert}: ${'reason' in r ? r.reason.slice(0, 300) : 'failed'}`);
      continue;
    }
    counts.push({
      config: d.id,
      cert,
      handshakes: client.out.handshakes,
      clientInstructions: client.instructionsPerHandshake,
      serverInstructions: server.instructionsPerHandshake,
      totalInstructions: client.instructionsPerHandshake + server.instructionsPerHandshake,
    });
    const hiddenList = client.hiddenFeatures ?? []; // not known (no capability vector, e.g. arm64): no note
    const hidden = `under valgrind the library did not use ${hiddenList.join(', ')}: instruction counts follow a different code path than native runs`;
    if (hiddenList.length && !notes.includes(hidden)) notes.push(hidden);
  }
  return counts;
}

/** Runs blocks of handshakes on the last CPU this process may use; unpinned from the first block whose pinning fails. */
export function blockRunner(binaries: ReadonlyMap<string, string>) {
  const cpu = pinnableCpu();
  const pin = {
    cpu,
    how:
      cpu === null
        ? 'not pinned: the allowed CPUs are not readable here'
        : `measuring thread pinned to CPU ${cpu} (the last this process may use), sched_setaffinity`,
  };
  const run = (d: ConfigDef, cert: Cert, handshakes: number) =>
    runHandshake(binaries.get(d.id)!, configOf(d, cert), handshakes, 600_000, pin.cpu === null ? {} : { cpu: pin.cpu }).catch(
      (e: Error) => ({ kind: 'failed', reason: e.message, openssl: 'unknown' }) as const,
    );
  return { pin, run };
}
export type BlockRunner = ReturnType<typeof blockRunner>;

/**
 * Handshakes per block for each certificate: `blockSeconds` of CPU over the CPU per handshake of
 * `probe` (the most expensive configuration) from `calibrationHandshakes` handshakes, or `fixed`.
 */
export async function calibrate(
  blocks: BlockRunner,
  probe: ConfigDef | undefined,
  settings: { blockSeconds: number; calibrationHandshakes: number },
  fixed: number | null,
  notes: string[],
): Promise<{ handshakesPerBlock: Record<string, number>; calibration: string }> {
  const handshakesPerBlock: Record<string, number> = {};
  const text: string[] = [];
  for (const cert of CERTS) {
    if (!probe) break;
    let r = await blocks.run(probe, cert, settings.calibrationHandshakes);
    if (r.kind === 'failed' && blocks.pin.cpu !== null && /pinning to CPU/.test(r.reason)) {
      blocks.pin.how = `not pinned: ${r.reason.slice(0, 300)}`;
      blocks.pin.cpu = null;
      r = await blocks.run(probe, cert, settings.calibrationHandshakes);
    }
    if (r.kind !== 'run') {
      handshakesPerBlock[cert] = fixed ?? 100;
      notes.push(
        `calibration ${probe.id} ${cert} failed (${'reason' in r ? r.reason.slice(0, 300) : r.kind}): ${handshakesPerBlock[cert]} handshakes per block`,
      );
      continue;
    }
    const usPerHandshake = (r.out.clientCpuNs + r.out.serverCpuNs) / r.out.handshakes / 1000;
    handshakesPerBlock[cert] = fixed ?? Math.min(MAX_HANDSHAKES, Math.max(MIN_HANDSHAKES, Math.ceil((settings.blockSeconds * 1e6) / usPerHandshake)));
    text.push(`${cert}: ${probe.id} ${usPerHandshake.toFixed(0)} µs per handshake -> ${handshakesPerBlock[cert]}`);
  }
  const calibration = fixed
    ? `--handshakes ${fixed}: no calibration`
    : `handshakes per block = ${settings.blockSeconds} s of CPU / the CPU per handshake of the most expensive configuration, from ${settings.calibrationHandshakes} handshakes (${text.join('; ')})`;
  return { handshakesPerBlock, calibration };
}
