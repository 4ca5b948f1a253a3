// What years of nightly runs do to the repository, the aggregation and the site: generates N SYNTHETIC
// nightly full runs for H hosts into a scratch git repository (never into data/), commits every night
// as bench.yml would (the run files plus the derived files), and measures repository growth, the largest
// file, the aggregation's time and memory, the site build and what each page transfers.
//
//   node tools/simulate-year.ts --out DIR [--nights 365] [--hosts 4] [--phases generate,aggregate,site]
//        [--rounds 6] [--series-every-months 6] [--scale 1] [--results FILE]
//
// Every run is shaped like the archived real full run (its series, parameters, iteration counts and
// timestamps; data/archive/contaminated/), with the speed, aead and s-time series of the archived quick
// run of the same matrix, 3.5's no-ml-kem variant, --rounds measured rounds and one new release series
// every --series-every-months. Values move like a real machine's: a per-host level, slow drift, steps at
// kernel, microcode and compiler changes, noise per iteration; deterministic counts change only with the
// compiler. Hosts and runs say SYNTHETIC in their note and notes. Resumable: run it again with the same
// --out and it continues after the last committed night; with a larger --nights it extends a finished
// simulation (3 years continue 1 year's nights). --scale < 1 keeps that share of the series
// (tests). The machine may be shared while it runs: the times it reports are those of this machine then.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { commandLine, openingComment } from '../runner/cli.ts';
import { REPO, type SimOptions } from './simulation/synthetic-runs.ts';
import { finalPhase, generate, sitePhase } from './simulation/phases.ts';
import { machine } from './simulation/state.ts';

async function main(): Promise<void> {
  const cli = commandLine('simulate-year', openingComment(import.meta.url), {
    out: { type: 'string' },
    nights: { type: 'string', default: '365' },
    hosts: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '6' },
    'series-every-months': { type: 'string', default: '6' },
    scale: { type: 'string', default: '1' },
    start: { type: 'string', default: '2027-01-01T00:00:00.000Z' },
    'checkpoint-every': { type: 'string', default: '30' },
    'push-every': { type: 'string', default: '7' },
    phases: { type: 'string', default: 'generate,aggregate,pushes,repack,site' },
    results: { type: 'string' },
  });
  const { values } = cli;
  if (!values.out) return cli.fail('--out DIR is required');
  const out = values.out;
  if (relative(join(REPO, 'data'), out).split('/')[0] !== '..') cli.fail('--out must not be inside data/');
  const o: SimOptions = {
    out,
    nights: Number(values.nights),
    hosts: Number(values.hosts),
    rounds: Number(values.rounds),
    seriesEveryMonths: Number(values['series-every-months']),
    scale: Number(values.scale),
    start: values.start,
    checkpointEvery: Number(values['checkpoint-every']),
    pushEvery: Number(values['push-every']),
    log: (l) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${l}`),
  };
  mkdirSync(out, { recursive: true });
  const phases = values.phases.split(',');
  const startedAt = new Date().toISOString();
  const machineBefore = machine();
  // each phase runs the ones before it that are not done yet; a finished phase is not run again
  let state = phases.includes('aggregate') || phases.includes('pushes') || phases.includes('repack') ? finalPhase(o, phases.includes('repack')) : generate(o);
  if (phases.includes('site')) state = await sitePhase(o);
  const result = { startedAt, finishedAt: new Date().toISOString(), machineBefore, machineAfter: machine(), ...state };
  if (values.results) writeFileSync(values.results, JSON.stringify(result, null, 1) + '\n');
  console.log(JSON.stringify({ ...result, nights: `${state.nights.length} nights (see state.json)` }, null, 1));
}

if (import.meta.main) await main();
