// `npm run test:mlkem-hypothesis`: is 3.5's handshake slowdown its default key shares, or a regression?
//
// Configurations (TLS 1.3, new handshakes, RSA-2048 and ECDSA P-256 certificates), measured in blocks
// of N handshakes, every configuration once per round in a rotating order; ratios come from blocks of
// the same round (paired), so machine drift slower than one round cancels. Instruction counts of every
// configuration are a second, deterministic line of evidence.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HypothesisResult, type HypothesisOutcome, type RunMode } from '../../schema/index.ts';
import type { BuildUnderTest } from '../../runner/benchmark.ts';
import { buildMany, findCached } from '../../runner/build.ts';
import { resolveVersion } from '../../runner/catalogue.ts';
import { baseConfig, countInstructions, ensureCerts, handshakeBinary, runHandshake, type Cert, type HandshakeConfig } from '../../runner/handshake/handshake.ts';
import { describeShares } from '../../runner/handshake/output.ts';
import { describeHost, hostId } from '../../runner/host.ts';
import { lockHostForMeasurement } from '../../runner/host-lock.ts';
import { harnessInfo, newRunId, roundOrder } from '../../runner/run.ts';
import { median } from '../stats.ts';
import { EQUIVALENCE_MARGIN, decide, sideRatio } from './verdict.ts';

const ECDH_ONLY = 'X25519:P-256:P-384';
const CERTS: Cert[] = ['rsa2048', 'ecdsa-p256'];
const MODES: Record<RunMode, { rounds: number; handshakes: number; instructionHandshakes: number }> = {
  quick: { rounds: 4, handshakes: 40, instructionHandshakes: 4 },
  full: { rounds: 30, handshakes: 300, instructionHandshakes: 20 },
};

interface ConfigDef {
  id: string;
  label: string;
  version: string;
  variant: string;
  clientGroups: string;
  serverGroups: string;
  /** the group the premise of the hypotheses needs this configuration to negotiate */
  expectGroup: string;
  /** shares the client must send (checked on the ClientHello) */
  expectShares?: string[];
  required: boolean;
}

function configurations(): ConfigDef[] {
  const v35 = resolveVersion('3.5').version;
  const v34 = resolveVersion('3.4').version;
  const defs: ConfigDef[] = [
    { id: 'v35-default', label: `${v35}, library defaults on both sides`, version: v35, variant: 'default', clientGroups: 'default', serverGroups: 'default', expectGroup: 'X25519MLKEM768', expectShares: ['X25519MLKEM768', 'X25519'], required: true },
    { id: 'v35-ecdh', label: `${v35}, ECDH-only groups (${ECDH_ONLY}) on both sides`, version: v35, variant: 'default', clientGroups: ECDH_ONLY, serverGroups: ECDH_ONLY, expectGroup: 'X25519', required: true },
    { id: 'v35-no-ml-kem', label: `${v35} built no-ml-kem, library defaults`, version: v35, variant: 'no-ml-kem', clientGroups: 'default', serverGroups: 'default', expectGroup: 'X25519', required: false },
    { id: 'v34-default', label: `${v34}, library defaults (the baseline)`, version: v34, variant: 'default', clientGroups: 'default', serverGroups: 'default', expectGroup: 'X25519', required: true },
    { id: 'v35-classic-server', label: `${v35} client with defaults, server allowing only ${ECDH_ONLY}`, version: v35, variant: 'default', clientGroups: 'default', serverGroups: ECDH_ONLY, expectGroup: 'X25519', expectShares: ['X25519MLKEM768', 'X25519'], required: false },
  ];
  // newer series where already built: defaults vs ECDH-only on the same build
  for (const series of ['3.6', '4.0']) {
    const v = resolveVersion(series).version;
    if (!findCached(v, 'default')) continue;
    const tag = `v${series.replace('.', '')}`;
    defs.push(
      { id: `${tag}-default`, label: `${v}, library defaults on both sides`, version: v, variant: 'default', clientGroups: 'default', serverGroups: 'default', expectGroup: 'X25519MLKEM768', required: false },
      { id: `${tag}-ecdh`, label: `${v}, ECDH-only groups on both sides`, version: v, variant: 'default', clientGroups: ECDH_ONLY, serverGroups: ECDH_ONLY, expectGroup: 'X25519', required: false },
    );
  }
  return defs;
}

const HYPOTHESES: { id: string; kind: HypothesisOutcome['kind']; numerator: string; denominator: string; statement: string }[] = [
  { id: 'H1', kind: 'slower', numerator: 'v35-default', denominator: 'v35-ecdh', statement: 'On the same 3.5 build, library defaults cost more CPU per handshake than ECDH-only groups' },
  { id: 'H2', kind: 'equivalent', numerator: 'v35-ecdh', denominator: 'v34-default', statement: '3.5 with ECDH-only groups costs the same as 3.4 with its defaults (no regression outside key exchange)' },
  { id: 'H3', kind: 'equivalent', numerator: 'v35-no-ml-kem', denominator: 'v35-ecdh', statement: '3.5 built without ML-KEM, defaults, costs the same as 3.5 with ECDH-only groups' },
  { id: 'H4', kind: 'client-only', numerator: 'v35-classic-server', denominator: 'v35-ecdh', statement: 'Against a server that allows only classic groups, the 3.5 default client still pays for its unused ML-KEM share; the server does not' },
  { id: 'H1b', kind: 'slower', numerator: 'v36-default', denominator: 'v36-ecdh', statement: 'The same holds on 3.6: defaults cost more than ECDH-only groups' },
  { id: 'H1c', kind: 'slower', numerator: 'v40-default', denominator: 'v40-ecdh', statement: 'The same holds on 4.0: defaults cost more than ECDH-only groups' },
];

type Block = HypothesisResult['blocks'][number];

function log(msg: string) {
  process.stdout.write(`${msg}\n`);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      full: { type: 'boolean' },
      rounds: { type: 'string' },
      handshakes: { type: 'string' },
      'host-id': { type: 'string' },
      out: { type: 'string' },
      'no-wait': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    log(`usage: npm run test:mlkem-hypothesis -- [--quick | --full] [--rounds N] [--handshakes N] [--host-id ID] [--out DIR] [--no-wait]
  Tests whether OpenSSL 3.5's slower handshakes come from its default key shares (X25519MLKEM768 + X25519).
  --quick (default: ${MODES.quick.rounds} rounds of ${MODES.quick.handshakes} handshakes) for CI; --full (${MODES.full.rounds} x ${MODES.full.handshakes}) for publication.
  Writes data/hypothesis/<host>/<runId>.json. Exit 0 when it measured (whatever the verdicts), 1 when it could not.`);
    return 0;
  }
  // measuring: hold the host lock for the whole test (runner/host-lock.ts); --no-wait fails if it is taken
  const lock = await lockHostForMeasurement(`npm run test:mlkem-hypothesis -- ${process.argv.slice(2).join(' ')}`.trim(), values['no-wait'] === true);
  const mode: RunMode = values.full ? 'full' : 'quick';
  const rounds = values.rounds ? Number(values.rounds) : MODES[mode].rounds;
  const handshakes = values.handshakes ? Number(values.handshakes) : MODES[mode].handshakes;
  if (!Number.isInteger(rounds) || rounds < 2 || !Number.isInteger(handshakes) || handshakes < 1) {
    console.error('error: --rounds must be a whole number >= 2 and --handshakes >= 1');
    return 2;
  }
  const outDir = values.out ?? join('data', 'hypothesis');
  const startedAt = new Date().toISOString();
  const runId = newRunId(mode);
  lock.setRunId(runId);
  const host = describeHost(hostId(values['host-id']));
  const notes: string[] = [];
  const defs = configurations();

  // builds (cached); a failed build only loses the configurations that need it
  const wanted = [...new Map(defs.map((d) => [`${d.version}/${d.variant}`, { version: resolveVersion(d.version), variant: d.variant }])).values()];
  log(`ML-KEM hypothesis test (${mode}): ${rounds} rounds x ${handshakes} handshakes per block, TLS 1.3, new handshakes`);
  const { built, failed } = await buildMany(wanted, (v, variant, step) => log(`  build ${v}/${variant}: ${step}`));
  for (const f of failed) notes.push(`build ${f.req.version.version}/${f.req.variant} failed: ${f.error}${f.log ? ` (log ${f.log})` : ''}`);
  const buildOf = new Map<string, BuildUnderTest>(built.map((b) => [`${b.req.version.version}/${b.req.variant}`, { record: b.build.record, prefix: b.build.prefix }]));

  const configs: HypothesisResult['configurations'] = [];
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

  const cfgOf = (d: ConfigDef, cert: Cert): HandshakeConfig => baseConfig({ cert, clientGroups: d.clientGroups, serverGroups: d.serverGroups });
  const blocks: Block[] = [];
  const active = () => defs.filter((d) => configs.find((c) => c.id === d.id)!.status === 'measured');
  const started = Date.now();
  for (let round = 0; round <= rounds; round++) {
    const warmup = round === 0;
    const order = roundOrder(
      active().map((d) => d.id),
      round,
    );
    for (const cert of CERTS)
      for (const id of order) {
        const d = defs.find((x) => x.id === id)!;
        const conf = configs.find((c) => c.id === id)!;
        if (conf.status !== 'measured') continue;
        const r = await runHandshake(binaries.get(id)!, cfgOf(d, cert), handshakes).catch(
          (e: Error) => ({ kind: 'failed', reason: e.message, openssl: 'unknown' }) as const,
        );
        if (r.kind !== 'run') {
          const reason = 'reason' in r ? r.reason : `unexpected ${r.kind} output`;
          if (r.kind === 'unsupported' || round === 0) {
            conf.status = r.kind === 'unsupported' ? 'unsupported' : 'failed';
            conf.reason = `${cert}: ${reason}`.slice(0, 2000);
          } else notes.push(`round ${round} ${id} ${cert}: ${reason.slice(0, 500)}`);
          continue;
        }
        const o = r.out;
        conf.observed[cert] = {
          negotiatedGroup: o.negotiated.group,
          clientKeyShares: describeShares(o.clientHello.keyShares),
          clientHelloBytes: o.clientHello.messageBytes,
          helloRetryRequest: o.negotiated.hrr,
          openssl: o.openssl,
        };
        blocks.push({ config: id, cert, round, warmup, at: new Date().toISOString(), handshakes: o.handshakes, clientUs: o.clientCpuNs / o.handshakes / 1000, serverUs: o.serverCpuNs / o.handshakes / 1000 });
      }
    log(`  ${warmup ? 'warm-up' : `round ${round}/${rounds}`} done (${((Date.now() - started) / 1000).toFixed(0)}s)`);
  }

  // premises: each configuration negotiated what the hypotheses assume
  for (const d of defs) {
    const conf = configs.find((c) => c.id === d.id)!;
    for (const [cert, obs] of Object.entries(conf.observed)) {
      if (obs.negotiatedGroup !== d.expectGroup) notes.push(`${d.id} ${cert} negotiated ${obs.negotiatedGroup}, not ${d.expectGroup}: hypotheses that use it rest on a different key exchange`);
      for (const share of d.expectShares ?? [])
        if (!String(obs.clientKeyShares).split(',').some((s) => s.startsWith(`${share}:`))) notes.push(`${d.id} ${cert}: the client sent no ${share} key share (${obs.clientKeyShares})`);
    }
  }

  log('  instruction counts (valgrind, fixed-seed RNG)...');
  const instructionCounts: HypothesisResult['instructionCounts'] = [];
  for (const d of active())
    for (const cert of CERTS) {
      const r = await countInstructions(binaries.get(d.id)!, cfgOf(d, cert), MODES[mode].instructionHandshakes);
      if (r.kind !== 'measured') {
        notes.push(`instruction count ${d.id} ${cert}: ${r.reason.slice(0, 300)}`);
        continue;
      }
      instructionCounts.push({ config: d.id, cert, handshakes: r.out.handshakes, clientInstructions: null, serverInstructions: null, totalInstructions: r.instructionsPerHandshake });
      const hidden = `under valgrind the library did not use ${r.hiddenFeatures.join(', ')}: instruction counts follow a different code path than native runs`;
      if (r.hiddenFeatures.length && !notes.includes(hidden)) notes.push(hidden);
    }

  const measuredBlocks = blocks.filter((b) => !b.warmup);
  const paired = (num: string, den: string, cert: string, side: 'client' | 'server' | 'both') => {
    const pick = (b: Block) => (side === 'client' ? b.clientUs : side === 'server' ? b.serverUs : b.clientUs + b.serverUs);
    const numerator: number[] = [];
    const denominator: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const a = measuredBlocks.find((b) => b.config === num && b.cert === cert && b.round === round);
      const z = measuredBlocks.find((b) => b.config === den && b.cert === cert && b.round === round);
      if (a && z) {
        numerator.push(pick(a));
        denominator.push(pick(z));
      }
    }
    return sideRatio({ numerator, denominator });
  };
  const instr = (id: string, cert: string) => instructionCounts.find((i) => i.config === id && i.cert === cert)?.totalInstructions;

  const hypotheses: HypothesisOutcome[] = [];
  for (const h of HYPOTHESES) {
    if (!defs.some((d) => d.id === h.numerator) || !defs.some((d) => d.id === h.denominator)) continue; // 3.6/4.0 not built
    for (const cert of CERTS) {
      const sides = (['client', 'server', 'both'] as const).map((side) => {
        const r = paired(h.numerator, h.denominator, cert, side);
        const ni = instr(h.numerator, cert);
        const di = instr(h.denominator, cert);
        return { side, ratio: r.ratio, ci95: r.ci95, pairs: r.pairs, instructionRatio: side === 'both' && ni && di ? ni / di : null };
      });
      const { verdict, why } = decide(h.kind, sides);
      hypotheses.push({ id: h.id, cert, statement: h.statement, kind: h.kind, numerator: h.numerator, denominator: h.denominator, sides, verdict, why });
    }
  }

  const med = (id: string, cert: string, side: 'client' | 'both') => {
    const v = measuredBlocks.filter((b) => b.config === id && b.cert === cert).map((b) => (side === 'client' ? b.clientUs : b.clientUs + b.serverUs));
    return v.length ? median(v) : null;
  };
  const decomposition: HypothesisResult['decomposition'] = [];
  for (const cert of CERTS) {
    const [dflt, ecdh, classic, v34] = ['v35-default', 'v35-ecdh', 'v35-classic-server', 'v34-default'].map((id) => med(id, cert, 'both'));
    if (dflt == null || v34 == null) continue;
    decomposition.push({
      cert,
      baseline: 'v34-default',
      defaults: 'v35-default',
      totalUs: dflt - v34,
      unusedShareUs: classic != null && ecdh != null ? classic - ecdh : null,
      negotiatedHybridUs: classic != null ? dflt - classic : null,
      otherUs: ecdh != null ? ecdh - v34 : null,
    });
  }

  const usedBuilds = [...new Map([...buildOf.values()].map((b) => [b.record.id, b.record])).values()];
  const result = HypothesisResult.parse({
    schemaVersion: 1,
    kind: 'mlkem-hypothesis',
    runId,
    mode,
    startedAt,
    finishedAt: new Date().toISOString(),
    host,
    harness: harnessInfo(),
    builds: usedBuilds,
    design: {
      protocol: 'TLS 1.3',
      resumption: 'none',
      handshakesPerBlock: handshakes,
      rounds,
      warmupRounds: 1,
      equivalenceMargin: EQUIVALENCE_MARGIN,
      ciMethod: 'geometric mean of per-round paired ratios, 95% t interval on the log ratios',
      order: 'every configuration once per round, for each certificate; the configuration order rotates by one each round',
    },
    configurations: configs,
    blocks,
    instructionCounts,
    hypotheses,
    decomposition,
    notes,
  });
  mkdirSync(join(outDir, host.id), { recursive: true });
  const path = join(outDir, host.id, `${runId}.json`);
  writeFileSync(`${path}.tmp`, JSON.stringify(result, null, 1) + '\n');
  renameSync(`${path}.tmp`, path);

  printTable(result);
  log(`\nresults: ${path}`);
  const missing = defs.filter((d) => d.required && configs.find((c) => c.id === d.id)!.status !== 'measured');
  if (missing.length) {
    console.error(`could not measure ${missing.map((d) => d.id).join(', ')}: ${missing.map((d) => configs.find((c) => c.id === d.id)!.reason).join('; ')}`);
    return 1;
  }
  return 0;
}

function printTable(r: HypothesisResult) {
  const pct = (x: number | null) => (x == null ? '     -' : `${x >= 1 ? '+' : ''}${((x - 1) * 100).toFixed(1)}%`.padStart(7));
  const ci = (c: { low: number; high: number } | null) => (c ? `[${pct(c.low).trim()}, ${pct(c.high).trim()}]` : '[no interval]');
  log('\nconfiguration                    cert         negotiated        client shares');
  for (const c of r.configurations)
    for (const [cert, o] of Object.entries(c.observed)) log(`${c.id.padEnd(32)} ${cert.padEnd(12)} ${String(o.negotiatedGroup).padEnd(17)} ${o.clientKeyShares}`);
  for (const c of r.configurations.filter((x) => x.status !== 'measured')) log(`${c.id.padEnd(32)} ${c.status}: ${c.reason}`);
  log('\nhyp  cert        side    CPU ratio  95% CI              instr.   verdict');
  for (const h of r.hypotheses) {
    for (const s of h.sides) log(`${h.id.padEnd(4)} ${h.cert.padEnd(11)} ${s.side.padEnd(7)} ${pct(s.ratio)}    ${ci(s.ci95).padEnd(19)} ${pct(s.instructionRatio)}`);
    log(`     -> ${h.verdict.toUpperCase()}: ${h.statement}. ${h.why}`);
  }
  log('\n3.5 vs 3.4 gap (client + server CPU per handshake, medians, microseconds)');
  for (const d of r.decomposition)
    log(`  ${d.cert}: total ${d.totalUs.toFixed(1)} = unused ML-KEM share ${d.unusedShareUs?.toFixed(1) ?? '-'} + negotiated hybrid ${d.negotiatedHybridUs?.toFixed(1) ?? '-'} + other ${d.otherUs?.toFixed(1) ?? '-'}`);
  for (const n of r.notes) log(`note: ${n}`);
}

process.exitCode = await main();
