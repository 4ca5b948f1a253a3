// The simulation's phases (generate, aggregate, push, final, site); their state and timing: state.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { encodeRunFile, readRunFile, runFilePath, type Run, type RunRecord } from '../../schema/index.ts';
import { derive, writeDerived } from '../../scripts/aggregate/derived-files.ts';
import { readTimeseries, recordOf, serializeTimeseries } from '../../analysis/history.ts';
import { REPO, SIM_RUN_FILE_QUALITY, SYNTHETIC, type SimOptions, loadTemplate, synthesizeRun } from './synthetic-runs.ts';
import { git, gitSize, largestCommitted, largestFile, treeBytes } from './scratch-repo.ts';
import { identity, saveState, statePath, timed, type State } from './state.ts';

// ---------------------------------------------------------------- phases

/** Writes one night's run file of every host under `data`; returns them with their stored and JSON sizes. */
function writeNight(template: Parameters<typeof synthesizeRun>[0], night: number, o: SimOptions, data: string) {
  const written: { run: Run; rel: string; bytes: number }[] = [];
  let runBytes = 0;
  let runJsonBytes = 0;
  for (let h = 0; h < o.hosts; h++) {
    const run = synthesizeRun(template, h, night, o);
    const rel = runFilePath(run);
    const bytes = encodeRunFile(run, SIM_RUN_FILE_QUALITY);
    mkdirSync(dirname(join(data, rel)), { recursive: true });
    writeFileSync(join(data, rel), bytes);
    written.push({ run, rel, bytes: bytes.length });
    runBytes += bytes.length;
    runJsonBytes += JSON.stringify(run).length + 1;
  }
  return { written, runBytes, runJsonBytes };
}

/** Generates and commits nights until `nights - 1` (the last night is the aggregate phase's). */
export function generate(o: SimOptions, upTo = o.nights - 1): State {
  const repo = join(o.out, 'repo');
  const data = join(repo, 'data');
  let state: State;
  if (existsSync(statePath(o.out))) {
    state = JSON.parse(readFileSync(statePath(o.out), 'utf8')) as State;
    const { nights: had, hosts, rounds, seriesEveryMonths, scale, start } = state.options;
    const { nights: want, ...same } = identity(o);
    if (JSON.stringify({ hosts, rounds, seriesEveryMonths, scale, start }) !== JSON.stringify(same) || had > want)
      throw new Error(`${o.out} holds a simulation with other options (${JSON.stringify(state.options)}): use another --out`);
    if (had < want) {
      // nights do not depend on how many follow, so a finished shorter simulation is the start of a longer one
      if (!state.aggregate) throw new Error(`${o.out} holds a ${had}-night simulation that is not finished: finish it (--nights ${had}) before extending it`);
      writeFileSync(join(o.out, `state-${had}-nights.json`), JSON.stringify(state, null, 1) + '\n');
      o.log(`extending the ${had}-night simulation to ${want} nights (its measurements kept in state-${had}-nights.json)`);
      state.options = identity(o);
      delete state.aggregate;
      delete state.final;
      delete state.site;
      saveState(o.out, state);
    }
    // a night generated but not committed is made again; git, not the state file, says what was committed
    git(repo, 'reset', '-q', '--hard');
    git(repo, 'clean', '-qfdx');
    const committed = Number(git(repo, 'rev-list', '--count', 'HEAD').trim()) - 1;
    if (committed === o.nights && !state.aggregate) {
      // the measured last night was committed but its measurement not saved: measure it again
      git(repo, 'reset', '-q', '--hard', 'HEAD~1');
      state.nightsDone = o.nights - 1;
    } else state.nightsDone = committed;
    state.nights = state.nights.filter((n) => n.night <= state.nightsDone);
  } else {
    mkdirSync(data, { recursive: true });
    git(repo, 'init', '-q');
    git(repo, 'config', 'gc.auto', '0');
    writeFileSync(join(repo, 'README'), `${SYNTHETIC}\n`);
    // what the project commits and what it does not
    writeFileSync(join(repo, '.gitignore'), readFileSync(join(REPO, '.gitignore')));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'simulated repository');
    state = { options: identity(o), nightsDone: 0, nights: [], checkpoints: [] };
    saveState(o.out, state);
  }
  const template = loadTemplate(o.scale);
  const { files } = readTimeseries(data);
  const records: RunRecord[] = [];
  const keySets = new Map<string, string[]>();
  for (const f of files.values()) {
    records.push(...f.runs);
    for (const [id, keys] of Object.entries(f.keySets)) keySets.set(id, keys);
  }
  if (records.length !== state.nightsDone * o.hosts)
    throw new Error(`${o.out}: ${records.length} runs recorded for ${state.nightsDone} nights of ${o.hosts} hosts`);
  const recent = new Map<string, Run>(); // the runs of the last nights: the summary's usual runs
  for (let night = state.nightsDone; night < upTo; night++) {
    const t0 = performance.now();
    const before = gitSize(repo).loose;
    const { written, runBytes, runJsonBytes } = writeNight(template, night, o, data);
    for (const { run, rel, bytes } of written) {
      records.push(recordOf(run, rel, bytes, keySets));
      recent.set(rel, run);
    }
    records.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const d = derive(records, keySets, (p) => recent.get(p) ?? readRunFile(join(data, p), p));
    writeDerived(data, d);
    const keep = new Set(d.selected.map((r) => r.path));
    for (const p of recent.keys()) if (!keep.has(p)) recent.delete(p);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', `night ${night + 1}`);
    const seconds = (performance.now() - t0) / 1000;
    state.nights.push({ night: night + 1, runBytes, runJsonBytes, looseGrowth: gitSize(repo).loose - before, seconds: Math.round(seconds * 10) / 10 });
    state.nightsDone = night + 1;
    if (state.nightsDone % o.checkpointEvery === 0) {
      const size = gitSize(repo);
      const largest = largestCommitted(repo);
      state.checkpoints.push({ night: state.nightsDone, gitBytes: size.loose + size.pack, largest });
      o.log(`night ${state.nightsDone}: largest file ${largest.path} (${(largest.bytes / 2 ** 20).toFixed(1)} MiB)`);
    }
    saveState(o.out, state);
    if (state.nightsDone % 10 === 0 || state.nightsDone === upTo)
      o.log(`night ${state.nightsDone}/${o.nights}: ${seconds.toFixed(1)} s, ${(runBytes / o.hosts / 1024).toFixed(0)} KiB per run`);
  }
  return state;
}

const NODE = join(REPO, 'node_modules/.bin/node');

/**
 * The last night through the real `npm run aggregate` (its own process, timed), as bench.yml would run it;
 * its output is compared with what the in-process derivation of the generate phase makes.
 */
export function aggregatePhase(o: SimOptions): State {
  const state = generate(o);
  if (state.aggregate) return state;
  const repo = join(o.out, 'repo');
  const data = join(repo, 'data');
  const night = o.nights - 1;
  const template = loadTemplate(o.scale);
  const before = gitSize(repo).loose;
  const { written, runBytes, runJsonBytes } = writeNight(template, night, o, data);
  const runs = new Map<string, Run>(written.map(({ rel, run }) => [rel, run]));
  const load = loadavg();
  const t = timed(NODE, [join(REPO, 'scripts/aggregate.ts'), data]);
  if (t.status !== 0) throw new Error(`the aggregation failed:\n${t.stdout}\n${t.stderr}`);
  // the same night derived in this process from seeded records must give the same files
  const { files } = readTimeseries(data);
  const keySets = new Map<string, string[]>();
  const records: RunRecord[] = [];
  for (const f of files.values()) {
    records.push(...f.runs.filter((r) => !runs.has(r.path)));
    for (const [id, keys] of Object.entries(f.keySets)) keySets.set(id, keys);
  }
  for (const [rel, run] of runs) records.push(recordOf(run, rel, statSync(join(data, rel)).size, keySets));
  records.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const d = derive(records, keySets, (p) => runs.get(p) ?? readRunFile(join(data, p), p));
  const expected = [...d.files, ...[...d.timeseries].map(([rel, f]) => [rel, serializeTimeseries(f)] as const)];
  const same = expected.every(([rel, text]) => readFileSync(join(data, rel), 'utf8') === text);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', `night ${o.nights} (npm run aggregate)`);
  state.nights.push({ night: o.nights, runBytes, runJsonBytes, looseGrowth: gitSize(repo).loose - before, seconds: t.wall });
  state.nightsDone = o.nights;
  state.aggregate = {
    command: "node scripts/aggregate.ts <repo>/data (the nightly case: the index of every earlier run in data/timeseries/, this night's runs new)",
    output: t.stdout.trim(),
    wallSeconds: t.wall,
    cpuSeconds: Math.round((t.user + t.sys) * 100) / 100,
    maxRssBytes: t.maxRssBytes,
    loadAverageBefore: load,
    sameAsInProcessDerivation: same,
  };
  saveState(o.out, state);
  o.log(
    `aggregation: ${t.wall} s wall, ${(t.user + t.sys).toFixed(1)} s CPU, ${(t.maxRssBytes / 2 ** 20).toFixed(0)} MiB peak; same as the in-process derivation: ${same}`,
  );
  return state;
}

/**
 * Repository growth as a remote sees it: for every pushEvery-th night (and the last), the thin pack that
 * pushing that night's commit sends to a repository holding the night before (new objects, deltified
 * against what the remote has). The first night, which carries the whole base, is reported apart.
 */
export function pushPhase(o: SimOptions): State {
  const state = aggregatePhase(o);
  const repo = join(o.out, 'repo');
  const commits = git(repo, 'rev-list', '--reverse', 'HEAD').trim().split('\n'); // [base, night 1, night 2, ...]
  state.pushes ??= [];
  const done = new Set(state.pushes.map((p) => p.night));
  const wanted = [1, ...Array.from({ length: o.nights }, (_, i) => i + 1).filter((n) => n > 1 && (n % o.pushEvery === 0 || n === o.nights))];
  for (const night of wanted) {
    if (done.has(night)) continue;
    const r = spawnSync('sh', ['-c', `printf '%s\\n^%s\\n' ${commits[night]} ${commits[night - 1]} | git pack-objects --revs --thin --stdout -q | wc -c`], {
      cwd: repo,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`git pack-objects failed: ${r.stderr}`);
    state.pushes.push({ night, bytes: Number(r.stdout.trim()) });
    saveState(o.out, state);
  }
  state.pushes.sort((a, b) => a.night - b.night);
  saveState(o.out, state);
  o.log(`pushes measured: ${state.pushes.length}`);
  return state;
}

/** Sizes of what is committed, and, after a full repack (git gc's settings), the repository a clone fetches. */
export function finalPhase(o: SimOptions, repack: boolean): State {
  const state = pushPhase(o);
  if (state.final && (!repack || state.final.packBytes !== undefined)) return state;
  const repo = join(o.out, 'repo');
  const data = join(repo, 'data');
  const runs = state.nights.map((n) => n.runBytes / o.hosts);
  const derivedFiles = ['summary.json', 'detailed-iterations.json'].map((f) => ({ path: `data/${f}`, bytes: statSync(join(data, f)).size }));
  const ts = readdirSync(join(data, 'timeseries'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .map((f) => statSync(join(data, 'timeseries', f)).size);
  const folders = { maxFilesInAFolder: 0, folder: '' };
  const walk = (d: string) => {
    const names = readdirSync(d);
    if (names.length > folders.maxFilesInAFolder) Object.assign(folders, { maxFilesInAFolder: names.length, folder: relative(repo, d) });
    for (const n of names) if (statSync(join(d, n)).isDirectory()) walk(join(d, n));
  };
  walk(data);
  const nightly = state
    .pushes!.filter((p) => p.night > 1)
    .map((p) => p.bytes / o.hosts)
    .sort((a, b) => a - b);
  const final: Record<string, unknown> = {
    pushBytesPerNightPerHost: {
      nights: nightly.length,
      median: Math.round(nightly[nightly.length >> 1]!),
      mean: Math.round(nightly.reduce((a, b) => a + b, 0) / nightly.length),
      max: Math.round(nightly[nightly.length - 1]!),
      firstNightAllHosts: state.pushes!.find((p) => p.night === 1)?.bytes,
    },
    runFileBytes: { mean: Math.round(runs.reduce((a, b) => a + b, 0) / runs.length), first: Math.round(runs[0]!), last: Math.round(runs.at(-1)!) },
    runJsonBytesLast: Math.round(state.nights.at(-1)!.runJsonBytes / o.hosts),
    largestCommittedFile: largestCommitted(repo),
    derivedFiles,
    timeseriesFileBytesMax: Math.max(...ts),
    workingTree: treeBytes(data),
    ...folders,
  };
  if (repack) {
    const t = timed('git', ['-C', repo, 'repack', '-a', '-d', '-q']); // git gc's own settings
    git(repo, 'prune-packed');
    const size = gitSize(repo);
    // packed bytes by what they are: run files, summary, time series, the rest
    const byKind: Record<string, number> = {};
    const objects = execFileSync('sh', ['-c', "git rev-list --objects --all | git cat-file --batch-check='%(objecttype) %(objectsize:disk) %(rest)'"], {
      cwd: repo,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    for (const line of objects.trim().split('\n')) {
      const [type, bytes, path = ''] = line.split(' ');
      const kind =
        type !== 'blob'
          ? 'commits and trees'
          : path.startsWith('data/runs/')
            ? 'run files'
            : path.startsWith('data/timeseries/')
              ? 'time series'
              : path === 'data/summary.json'
                ? 'summary.json'
                : 'other';
      byKind[kind] = (byKind[kind] ?? 0) + Number(bytes);
    }
    Object.assign(final, {
      packBytes: size.pack,
      packBytesByKind: byKind,
      packBytesPerNightPerHost: Math.round(size.pack / (o.nights * o.hosts)),
      repackWallSeconds: t.wall,
    });
  }
  state.final = final;
  saveState(o.out, state);
  return state;
}

/** The version page and the per-host benchmark page with the most HTML (those nearest their budget), as paths. */
function largestPages(dist: string): string[] {
  const root = join(dist, 'versions');
  if (!existsSync(root)) return [];
  const pages: { path: string; depth: number; bytes: number }[] = [];
  const walk = (dir: string, parts: string[]) => {
    for (const name of readdirSync(dir, { withFileTypes: true })) {
      if (!name.isDirectory()) continue;
      const here = [...parts, name.name];
      const index = join(dir, name.name, 'index.html');
      if (existsSync(index)) pages.push({ path: `/versions/${here.join('/')}/`, depth: here.length, bytes: statSync(index).size });
      if (here.length < 3) walk(join(dir, name.name), here);
    }
  };
  walk(root, []);
  const biggest = (depth: number) => pages.filter((p) => p.depth === depth).sort((a, b) => b.bytes - a.bytes)[0]?.path;
  return [biggest(1), biggest(3)].filter((p): p is string => p !== undefined);
}

/** Builds the site from the simulated data (timed) and measures what is deployed and what pages transfer. */
export async function sitePhase(o: SimOptions): Promise<State> {
  const state = JSON.parse(readFileSync(statePath(o.out), 'utf8')) as State;
  if (state.site) return state;
  const data = join(o.out, 'repo/data');
  const dist = join(o.out, 'dist');
  rmSync(dist, { recursive: true, force: true });
  const load = loadavg();
  // astro's own launcher would run under whatever `node` is first on PATH (Debian's 20 here, which Astro refuses)
  const t = timed(NODE, [join(REPO, 'node_modules/astro/bin/astro.mjs'), 'build', '--root', join(REPO, 'site'), '--silent'], {
    ...process.env,
    OBSERVATORY_DATA_DIR: data,
    OBSERVATORY_OUT_DIR: dist,
    ASTRO_TELEMETRY_DISABLED: '1',
  });
  if (t.status !== 0) throw new Error(`the site build failed:\n${t.stdout.slice(-4000)}\n${t.stderr.slice(-4000)}`);
  const tree = treeBytes(dist);
  const { serve } = await import('../../site/tests/server.ts');
  const { launch, transferSize } = await import('../../site/tests/browser.ts');
  const server = await serve(dist);
  const browser = await launch();
  const page = await browser.newPage();
  const pages: Record<string, number> = {};
  for (const p of ['/', '/compare/', '/runs/', '/drift/', '/methodology/', '/versions/', ...largestPages(dist)]) {
    if (!existsSync(join(dist, p, 'index.html'))) continue;
    pages[p] = (await transferSize(page, server.origin + p)).total;
  }
  await browser.close();
  await server.close();
  state.site = {
    buildWallSeconds: t.wall,
    buildCpuSeconds: Math.round((t.user + t.sys) * 100) / 100,
    buildMaxRssBytes: t.maxRssBytes,
    loadAverageBefore: load,
    deployedBytes: tree.bytes,
    deployedFiles: tree.files,
    largestDeployedFile: largestFile(dist),
    pageTransferBytes: pages,
  };
  saveState(o.out, state);
  return state;
}
