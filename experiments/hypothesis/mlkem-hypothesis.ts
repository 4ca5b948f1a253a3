// `npm run test:mlkem-hypothesis`: is 3.5's handshake slowdown its default key shares, or a regression?
//
// Configurations (TLS 1.3, new handshakes, RSA-2048 and ECDSA P-256 certificates) are measured in
// blocks, every configuration once per round in a rotating order; a claim's ratios come from blocks of
// the same round (paired), so machine drift slower than a round cancels. Two lines of evidence per
// claim: CPU time (sequential: rounds continue until every claim's CPU line is decided or the budget
// ends, sequential.ts), and instruction counts per side under valgrind (deterministic). Steps:
//   1. builds (cached); 2. instruction counts; 3. calibration: handshakes per block so that a block
//   lasts long enough to swamp timer and scheduler noise; 4. a warm-up round, which also times a round
//   and so fixes the schedule of looks; 5. measured rounds with looks (a round the host disturbed is
//   measured again); 6. the result file.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HypothesisResult, type HypothesisMode } from '../../schema/index.ts';
import type { BuildUnderTest } from '../../runner/benchmark.ts';
import { buildMany } from '../../runner/build/build.ts';
import { resolveVersion } from '../../catalogue/index.ts';
import { ensureCerts, handshakeBinary } from '../../runner/handshake/invoke.ts';
import { describeShares } from '../../runner/handshake/output.ts';
import { commandLine } from '../../runner/cli.ts';
import { describeHost, hostId } from '../../runner/host.ts';
import { lockHostForMeasurement } from '../../runner/host-lock.ts';
import { hostEvidence, MAX_REPEATED_ROUNDS, measureUndisturbed, summarizeEvidence } from '../../runner/quiet/evidence.ts';
import type { RoundSnapshot } from '../../runner/quiet/round-watch.ts';
import { harnessInfo, newRunId } from '../../runner/run/identity.ts';
import { roundOrder } from '../../runner/run/tasks.ts';
import { claimKey, claimOutcome, conclusion, decompose, instructionLine, pairedRatios, testableClaims } from './analysis.ts';
import { ALWAYS_MEASURED } from './claims.ts';
import { CERTS, configurations } from './configurations.ts';
import { blockRunner, calibrate, instructionCounts as countEveryConfiguration } from './measure.ts';
import { finalReport, lookTable, minutes } from './report.ts';
import { ALPHA, FIRST_LOOK, SequentialTest, fixedSchedule, lookSchedule, type LookSchedule } from '../../analysis/sequential.ts';
import { EQUIVALENCE_MARGIN, INSTRUCTION_THRESHOLD } from '../../analysis/verdict.ts';

const DEFAULT_BUDGET_MINUTES = 10;
const MODES = {
  /** blocks of about a quarter second of CPU: timer reads (~20 ns) and a scheduler tick (~4 ms) are
   * each below 2% of a block, while a round of 8-10 configurations x 2 certificates stays near 5 s, so
   * a 10-minute budget holds about a hundred rounds */
  sequential: { blockSeconds: 0.25, calibrationHandshakes: 40, instructionHandshakes: 5 },
  quick: { blockSeconds: 0.04, calibrationHandshakes: 10, instructionHandshakes: 4, rounds: 4 },
};
/** the first look: fewer rounds give a t interval with too few degrees of freedom to decide anything */
const MAX_ROUNDS = 1000;

type Block = HypothesisResult['blocks'][number];
type Config = HypothesisResult['configurations'][number];

function log(msg: string) {
  process.stdout.write(`${msg}\n`);
}

const USAGE = `usage: npm run test:mlkem-hypothesis -- [--budget MINUTES | --quick [--rounds N]] [--handshakes N] [--host-id ID] [--out DIR]
  Tests whether OpenSSL 3.5's slower handshakes come from its default key shares (X25519MLKEM768 + X25519).
  default     sequential: measures in rounds until every claim's CPU-time verdict is decided, or the
              budget (default ${DEFAULT_BUDGET_MINUTES} minutes, --budget to change) ends; the error rate stays at 5% per claim
              however many looks it takes (pre-declared looks with alpha spending)
  --quick     a fixed ${MODES.quick.rounds} rounds (--rounds N) of short blocks, for CI: may end undecided
  --handshakes N   handshakes per block instead of the calibrated number
  Writes data/hypothesis/<host>/<runId>.json (--out DIR instead of data/hypothesis).
  Exit 0 when it measured (whatever the verdicts), 1 when a required configuration could not be measured.`;

async function main(): Promise<number> {
  const cli = commandLine('test:mlkem-hypothesis', USAGE, {
    quick: { type: 'boolean' },
    full: { type: 'boolean' },
    budget: { type: 'string' },
    rounds: { type: 'string' },
    handshakes: { type: 'string' },
    'host-id': { type: 'string' },
    out: { type: 'string' },
    'no-wait': { type: 'boolean' },
  });
  const { values } = cli;
  const usageError: (message: string) => never = cli.fail;
  if (cli.positionals.length) usageError(`takes no arguments, not ${cli.positionals.join(' ')}`);
  if (values.full) usageError('--full is gone: the default run is sequential and stops when every claim is decided (--budget MINUTES sets its time limit)');
  const mode: HypothesisMode = values.quick ? 'quick' : 'sequential';
  if (values.rounds && mode !== 'quick') usageError('--rounds is for --quick; a sequential run chooses its rounds (--budget limits its time)');
  if (values.budget && mode === 'quick') usageError('--budget is for the sequential (default) run; --quick runs a fixed number of rounds');
  const rounds = values.rounds ? Number(values.rounds) : MODES.quick.rounds;
  if (!Number.isInteger(rounds) || rounds < 3) usageError('--rounds must be a whole number >= 3');
  const budgetMinutes = values.budget ? Number(values.budget) : DEFAULT_BUDGET_MINUTES;
  if (!(budgetMinutes > 0 && budgetMinutes <= 24 * 60)) usageError('--budget must be a number of minutes, above 0 and at most a day');
  const fixedHandshakes = values.handshakes ? Number(values.handshakes) : null;
  if (fixedHandshakes !== null && (!Number.isInteger(fixedHandshakes) || fixedHandshakes < 1)) usageError('--handshakes must be a whole number >= 1');
  const settings = MODES[mode];
  const outDir = values.out ?? join('data', 'hypothesis');
  const startedAt = new Date().toISOString();
  const runId = newRunId(mode);
  // measuring holds the host lock exclusively (runner/host-lock.ts); builds take it shared, so check
  // first (--no-wait fails at once), build, then lock for the measurement
  const command = `npm run test:mlkem-hypothesis -- ${process.argv.slice(2).join(' ')}`.trim();
  if (values['no-wait']) (await lockHostForMeasurement(command, true)).release();
  const host = describeHost(hostId(values['host-id']));
  const notes: string[] = [];
  const defs = configurations();

  // ---------------------------------------------------------------- builds (cached); a failed build only loses the configurations that need it
  const wanted = [...new Map(defs.map((d) => [`${d.version}/${d.variant}`, { version: resolveVersion(d.version), variant: d.variant }])).values()];
  log(`ML-KEM hypothesis test (${mode === 'quick' ? `quick: ${rounds} rounds` : `sequential, budget ${budgetMinutes} min`}), TLS 1.3, new handshakes`);
  const { built, failed } = await buildMany(wanted, (v, variant, step) => log(`  build ${v}/${variant}: ${step}`));
  for (const f of failed) notes.push(`build ${f.req.version.version}/${f.req.variant} failed: ${f.error}${f.log ? ` (log ${f.log})` : ''}`);
  const buildOf = new Map<string, BuildUnderTest>(
    built.map((b) => [`${b.req.version.version}/${b.req.variant}`, { record: b.build.record, prefix: b.build.prefix }]),
  );
  await lockHostForMeasurement(command, values['no-wait'] === true, runId); // released by the kernel when the process ends

  const configs: Config[] = [];
  const binaries = new Map<string, string>();
  for (const d of defs) {
    const b = buildOf.get(`${d.version}/${d.variant}`);
    const base = { id: d.id, label: d.label, version: d.version, variant: d.variant, clientGroups: d.clientGroups, serverGroups: d.serverGroups, observed: {} };
    if (!b) {
      configs.push({ ...base, buildId: 'not-built', status: 'failed', reason: `OpenSSL ${d.version}/${d.variant} could not be built` });
      continue;
    }
    try {
      await ensureCerts(b);
      binaries.set(d.id, handshakeBinary(b));
      configs.push({ ...base, buildId: b.record.id, status: 'measured' });
    } catch (e) {
      configs.push({ ...base, buildId: b.record.id, status: 'failed', reason: (e as Error).message.slice(0, 2000) });
    }
  }
  const conf = (id: string) => configs.find((c) => c.id === id)!;
  const def = (id: string) => defs.find((d) => d.id === id)!;
  const measured = () => defs.filter((d) => conf(d.id).status === 'measured');
  const t0 = Date.now();
  const deadline = t0 + budgetMinutes * 60_000;
  const since = (t: number) => (Date.now() - t) / 1000;

  // ---------------------------------------------------------------- instruction counts, per side (deterministic: may run in parallel)
  const instructionCounts = await countEveryConfiguration(measured(), binaries, settings.instructionHandshakes, log, notes, () => since(t0));

  // ---------------------------------------------------------------- calibration: pinning and handshakes per block
  const blocks: Block[] = [];
  const runner = blockRunner(binaries);
  const { handshakesPerBlock, calibration } = await calibrate(
    runner,
    measured().find((x) => x.id === 'v35-default') ?? measured()[0],
    settings,
    fixedHandshakes,
    notes,
  );
  log(`calibration: ${calibration}; ${runner.pin.how}`);

  // ---------------------------------------------------------------- rounds
  const runRound = async (round: number, ids: string[]) => {
    const warmup = round === 0;
    const order = roundOrder(ids, round);
    for (const cert of CERTS)
      for (const id of order) {
        const d = def(id);
        const c = conf(id);
        if (c.status !== 'measured') continue;
        const r = await runner.run(d, cert, handshakesPerBlock[cert]!);
        if (r.kind !== 'run') {
          const reason = 'reason' in r ? r.reason : `unexpected ${r.kind} output`;
          if (r.kind === 'unsupported' || warmup) {
            c.status = r.kind === 'unsupported' ? 'unsupported' : 'failed';
            c.reason = `${cert}: ${reason}`.slice(0, 2000);
          } else notes.push(`round ${round} ${id} ${cert}: ${reason.slice(0, 500)}`);
          continue;
        }
        const o = r.out;
        c.observed[cert] = {
          negotiatedGroup: o.negotiated.group,
          clientKeyShares: describeShares(o.clientHello.keyShares),
          clientHelloBytes: o.clientHello.messageBytes,
          helloRetryRequest: o.negotiated.hrr,
          openssl: o.openssl,
        };
        blocks.push({
          config: id,
          cert,
          round,
          warmup,
          at: new Date().toISOString(),
          handshakes: o.handshakes,
          clientUs: o.clientCpuNs / o.handshakes / 1000,
          serverUs: o.serverCpuNs / o.handshakes / 1000,
        });
      }
  };

  // quiet-host evidence, as a benchmark run records it: a settled window first, then one per round
  // (a quick CI run waits less for the host to settle: its result is a smoke test, not data)
  const evidence = hostEvidence({ exclusive: true, settleSeconds: mode === 'quick' ? 10 : 180 });
  const quietBefore = await evidence.before(log);
  const roundEvidence: RoundSnapshot[] = [];
  // A measured round the host disturbed (runner/quiet/limits.ts, for a round) is dropped before any look sees
  // it and measured again, at most MAX_REPEATED_ROUNDS times in a run; after that a disturbed round stays
  // and the result says the host was not quiet. The decision reads /proc only, never the measured values.
  // The warm-up round decides nothing, and a quick run is a smoke test: neither is measured again.
  const repeated: RoundSnapshot[] = [];
  const measuredRound = async (r: number, ids: string[]) => {
    const dropRound = (disturbed: RoundSnapshot) => {
      for (let i = blocks.length - 1; i >= 0; i--) if (blocks[i]!.round === r) blocks.splice(i, 1);
      log(`round ${r}: disturbed by the host (${disturbed.reasons.join('; ')}): its blocks are dropped and the round is measured again`);
    };
    const maxRepeated = r === 0 || mode === 'quick' ? 0 : MAX_REPEATED_ROUNDS;
    roundEvidence.push(await measureUndisturbed(evidence, r, () => runRound(r, ids), { drop: dropRound, repeated, maxRepeated, log }));
  };

  const warmStart = Date.now();
  await measuredRound(
    0,
    measured().map((d) => d.id),
  );
  let roundSeconds = since(warmStart);
  log(`warm-up round: ${roundSeconds.toFixed(1)} s`);

  const ids = new Set(measured().map((d) => d.id));
  const claims = testableClaims(ids, CERTS);
  const schedule: LookSchedule =
    mode === 'quick'
      ? fixedSchedule(rounds)
      : lookSchedule(Math.min(MAX_ROUNDS, Math.max(FIRST_LOOK, Math.floor((deadline - Date.now()) / 1000 / roundSeconds))), FIRST_LOOK);
  if (mode === 'sequential' && Date.now() + FIRST_LOOK * roundSeconds * 1000 > deadline)
    notes.push(`the budget (${budgetMinutes} min) is shorter than the ${FIRST_LOOK} rounds of the first look; the run takes them anyway`);
  const test = new SequentialTest(schedule, new Map(claims.map(({ claim, cert }) => [claimKey(claim.id, cert), claim.kind])));
  const claimOf = new Map(claims.map((x) => [claimKey(x.claim.id, x.cert), x]));
  const ratiosOf = (key: string) => {
    const { claim, cert } = claimOf.get(key)!;
    return pairedRatios(blocks, claim.numerator, claim.denominator, cert, claim.side);
  };
  const instr = new Map(claims.map(({ claim, cert }) => [claimKey(claim.id, cert), instructionLine(claim, cert, instructionCounts)]));
  log(
    mode === 'quick'
      ? `fixed design: ${rounds} rounds, one look at the end`
      : `schedule (declared before the first measured round): looks after rounds ${schedule.looks.join(', ')}; ${schedule.method}`,
  );

  const roundsStart = Date.now();
  let round = 0;
  let stoppedBecause: HypothesisResult['progress']['stoppedBecause'] = mode === 'quick' ? 'fixed-rounds' : 'last-look';
  for (;;) {
    if (mode === 'sequential' && round >= FIRST_LOOK && Date.now() + roundSeconds * 1000 > deadline) {
      stoppedBecause = 'budget';
      break;
    }
    round++;
    // configurations no undecided claim needs any more leave the rounds (the decomposition's stay)
    const open = new Set(test.undecided().flatMap((k) => [claimOf.get(k)!.claim.numerator, claimOf.get(k)!.claim.denominator]));
    const active = measured()
      .map((d) => d.id)
      .filter((id) => ALWAYS_MEASURED.has(id) || open.has(id));
    const t = Date.now();
    await measuredRound(round, active);
    roundSeconds = since(t);
    const look = test.afterRound(round, ratiosOf, since(roundsStart));
    const next = test.nextLook;
    log(
      `round ${round}: ${roundSeconds.toFixed(1)} s, ${active.length} configurations; ${minutes(since(t0))}${mode === 'sequential' ? ` of ${minutes(budgetMinutes * 60)}` : ''}; ${test.undecided().length} of ${claims.length} claims undecided by CPU time${next ? `; next look after round ${next}` : ''}`,
    );
    if (look) for (const line of lookTable(look, claims, test.lines, instr)) log(line);
    if (look && test.undecided().length === 0) {
      stoppedBecause = 'all-decided';
      break;
    }
    if (test.exhausted) break;
  }
  if (stoppedBecause === 'budget') {
    const look = test.finalLook(round, ratiosOf, since(roundsStart));
    log(`budget reached after round ${round}`);
    if (look) for (const line of lookTable(look, claims, test.lines, instr)) log(line);
  }
  const roundsSeconds = since(roundsStart);

  // ---------------------------------------------------------------- premises: each configuration negotiated what the claims assume
  for (const d of defs) {
    for (const [cert, obs] of Object.entries(conf(d.id).observed)) {
      if (obs.negotiatedGroup !== d.expectGroup)
        notes.push(`${d.id} ${cert} negotiated ${obs.negotiatedGroup}, not ${d.expectGroup}: claims that use it rest on a different key exchange`);
      for (const share of d.expectShares ?? [])
        if (
          !String(obs.clientKeyShares)
            .split(',')
            .some((s) => s.startsWith(`${share}:`))
        )
          notes.push(`${d.id} ${cert}: the client sent no ${share} key share (${obs.clientKeyShares})`);
    }
  }

  // ---------------------------------------------------------------- result
  const lastAlpha = test.looks.at(-1)?.alpha ?? ALPHA;
  // every claim whose configurations were planned, so one that could not be measured says so
  const outcomes = testableClaims(new Set(defs.map((d) => d.id)), CERTS).map(({ claim, cert }) =>
    claimOutcome(claim, cert, test.lines.get(claimKey(claim.id, cert)) ?? null, instructionLine(claim, cert, instructionCounts), blocks),
  );
  const decomposition = CERTS.flatMap((cert) => decompose(blocks, cert, lastAlpha) ?? []);
  const cvs = outcomes
    .map((o) => o.cpu.noiseCv)
    .filter((x): x is number => x !== null)
    .sort((a, b) => a - b);
  const usedBuilds = [...new Map([...buildOf.values()].map((b) => [b.record.id, b.record])).values()];
  const design: HypothesisResult['design'] = {
    protocol: 'TLS 1.3',
    resumption: 'none',
    handshakesPerBlock,
    blockTargetSeconds: settings.blockSeconds,
    calibration: calibration.slice(0, 500),
    pinnedCpu: runner.pin.cpu,
    pinning: runner.pin.how.slice(0, 500),
    warmupRounds: 1,
    equivalenceMargin: EQUIVALENCE_MARGIN,
    instructionThreshold: INSTRUCTION_THRESHOLD,
    alpha: ALPHA,
    stopping:
      mode === 'quick'
        ? `fixed design for CI: ${rounds} rounds, one look at the end; claims may stay undecided`
        : `sequential: rounds continue until every claim's CPU-time line is decided, the last pre-declared look, or the ${budgetMinutes}-minute budget; ${schedule.method}; when the budget ends between looks, one final look spends the alpha left; a round the host disturbed (the quiet-host limits) is dropped before any look and measured again, at most ${MAX_REPEATED_ROUNDS} times per run`,
    looks: schedule.looks,
    alphaPerLook: schedule.alpha,
    budgetSeconds: mode === 'quick' ? null : budgetMinutes * 60,
    ciMethod:
      "geometric mean of per-round paired ratios, t interval on the log ratios at the look's confidence; the gap decomposition: mean of per-round paired differences, t interval at the last look's confidence",
    order:
      'every configuration once per round, for each certificate; the order rotates by one each round; configurations no undecided claim needs leave the rounds',
  };
  const partial = { claims: outcomes, decomposition, configurations: configs, host, design };
  const result = HypothesisResult.parse({
    schemaVersion: 2,
    kind: 'mlkem-hypothesis',
    runId,
    mode,
    startedAt,
    finishedAt: new Date().toISOString(),
    host,
    harness: harnessInfo(),
    quiet: summarizeEvidence(
      { ...evidence.thresholds, maxRepeatedRounds: mode === 'quick' ? 0 : MAX_REPEATED_ROUNDS },
      evidence.exclusive,
      quietBefore,
      roundEvidence,
      Array.from({ length: round }, (_, i) => i + 1),
      repeated,
    ),
    builds: usedBuilds,
    conclusion: conclusion(partial),
    design,
    progress: {
      rounds: round,
      seconds: roundsSeconds,
      totalSeconds: since(t0),
      stoppedBecause,
      looksTaken: test.looks,
      noiseCv: cvs.length ? cvs[cvs.length >> 1]! : null,
    },
    configurations: configs,
    blocks,
    instructionCounts,
    claims: outcomes,
    decomposition,
    notes,
  });
  mkdirSync(join(outDir, host.id), { recursive: true });
  const path = join(outDir, host.id, `${runId}.json`);
  writeFileSync(`${path}.tmp`, JSON.stringify(result, null, 1) + '\n');
  renameSync(`${path}.tmp`, path);

  for (const line of finalReport(result)) log(line);
  log(`\nresults: ${path}`);
  const missing = defs.filter((d) => d.required && conf(d.id).status !== 'measured');
  if (missing.length) {
    console.error(`could not measure ${missing.map((d) => d.id).join(', ')}: ${missing.map((d) => conf(d.id).reason).join('; ')}`);
    return 1;
  }
  return 0;
}

process.exitCode = await main();
