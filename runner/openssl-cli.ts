// `npm run openssl -- <command>`: list, fetch, build, path and clean builds of OpenSSL and the other TLS libraries.
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_MATRIX,
  LIBRARY_NAMES,
  LIBRARY_RELEASES,
  OTHER_LIBRARIES,
  otherLibraryBuilds,
  SERIES,
  VERSIONS,
  VARIANTS,
  allReleases,
  buildLabel,
  isDefective,
  libraryOf,
  resolveBuildSpec,
  compareReleases,
  validateCatalogue,
  type CatalogueVersion,
} from '../catalogue/index.ts';
import { buildMany, type BuildRequest } from './build/build.ts';
import { buildsDir, cleanStaleTemps, findCached, listCached, releaseName } from './build/cache.ts';
import { acquireHostLock, lockDir } from './host-lock.ts';
import { cacheRoot, obtainSource } from './sources.ts';
import { commandLine, usageError } from './cli.ts';
import { SERVERS, SERVER_NAMES } from '../catalogue/servers.ts';
import { buildServer } from './servers/server-build.ts';

const HELP: Record<string, string> = {
  '': `usage: npm run openssl -- <command> [options]

commands:
  list                 the catalogue: series, versions, sources, support status and what is built
  fetch <v>...         download and verify sources (no build)
  build [<v>...]       build versions or series (default: the default matrix)
  servers [<v>...]     build nginx and HAProxy against builds (default: the default matrix and AWS-LC)
  path <v>             print the install prefix of a cached build
  clean [--all]        remove interrupted builds and logs (--all: every build and download)

<v> is an OpenSSL version (3.5.7, 1.1.1w) or series (3.5 = its newest obtainable patch without a known
measurement-affecting defect), or another library: ${OTHER_LIBRARIES.join(', ')} (its catalogued release),
aws-lc@5.12.0; a variant may follow a colon (3.5:no-ml-kem, wolfssl:no-perf-options). Cache: ${cacheRoot()} (set OBSERVATORY_CACHE to move it).
Each command takes --help.`,
  list: 'usage: npm run openssl -- list [--json]\n  Shows every catalogued version, its sources and pinned hashes, and which variants are built.',
  fetch:
    'usage: npm run openssl -- fetch <v>... | --all [--kind crate|debian-orig|upstream-tarball]\n  Fetches and verifies sources without building (--all: every catalogued version).',
  build: `usage: npm run openssl -- build [<v>[:<variant>]...] [--variant <name>]... [--other-libraries]
  Builds the given versions (default: ${DEFAULT_MATRIX.join(' ')}) with the common options.
  --other-libraries: also every variant of every other library's catalogued release (${OTHER_LIBRARIES.join(', ')}), no default matrix.
  --variant may repeat and applies to every <v> without its own ":variant"; OpenSSL variants: ${Object.entries(VARIANTS)
    .map(([k, v]) => `${k} (${v.what})`)
    .join('; ')}. Other libraries' variants: npm run openssl -- list.
  A failed version never stops the others; failures are listed at the end with their logs.
  Building holds the host lock shared: builds run beside each other, and wait while a measurement runs.`,
  servers: `usage: npm run openssl -- servers [<v>[:<variant>]...]
  Builds (or takes from the cache) the library builds, then nginx and HAProxy (catalogue/servers.ts, pinned
  archives) against each, statically linked (runner/servers/server-build.ts); a server that cannot use a
  library, or does not build against it, is named with why. Default: ${[...DEFAULT_MATRIX, 'aws-lc'].join(' ')}.`,
  path: 'usage: npm run openssl -- path <v>[:<variant>] [--variant <name>]\n  Prints the install prefix (include/, lib/, and bin/openssl for OpenSSL) of a cached build; exits 1 if not built.',
  clean:
    'usage: npm run openssl -- clean [--all]\n  Removes interrupted build directories, temporary files of killed processes and logs of failed builds\n  (never those of a build still running); --all removes the whole cache.',
};

/** A failure that is not a usage error (the catalogue, the host lock): exit status 2, as before commandLine. */
function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(2);
}

/** The usage error of the command being run (exit 64); set once the command is known. */
let usage: (message: string) => never = (message) => usageError('openssl', HELP['']!, message);

/**
 * Build specs ("3.5", "3.5.7:no-ml-kem", "aws-lc", "wolfssl:no-perf-options") into requests; a spec
 * without its own ":variant" is built in every --variant given (default: the default variant).
 */
function buildRequests(specs: string[], variants: string[] | undefined): BuildRequest[] {
  try {
    return specs.flatMap((spec) => (spec.includes(':') || !variants?.length ? [spec] : variants.map((variant) => `${spec}:${variant}`)).map(resolveBuildSpec));
  } catch (e) {
    usage((e as Error).message);
  }
}

function resolveAll(specs: string[]): CatalogueVersion[] {
  try {
    return specs.map((spec) => resolveBuildSpec(spec).version);
  } catch (e) {
    usage((e as Error).message);
  }
}

const fmtTime = (s: number) => (s < 90 ? `${s.toFixed(0)}s` : `${(s / 60).toFixed(1)}min`);

async function main(): Promise<void> {
  const [command = '', ...rest] = process.argv.slice(2);
  if (command === '--help' || command === '-h' || command === 'help' || command === '') {
    console.log(HELP['']);
    return;
  }
  if (!(command in HELP)) usage(command.startsWith('-') ? `unknown option ${command}: the command comes first` : `unknown command "${command}"`);
  const cli = commandLine(
    `openssl ${command}`,
    HELP[command]!,
    {
      json: { type: 'boolean' },
      all: { type: 'boolean' },
      variant: { type: 'string', multiple: true },
      kind: { type: 'string' },
      'other-libraries': { type: 'boolean' },
    },
    rest,
  );
  const { values, positionals } = cli;
  usage = cli.fail;
  const problems = validateCatalogue();
  if (problems.length) fail(`the catalogue is inconsistent:\n  ${problems.join('\n  ')}`);

  switch (command) {
    case 'list': {
      const cached = listCached();
      if (values.json) {
        console.log(
          JSON.stringify(
            { series: SERIES, versions: VERSIONS, libraries: LIBRARY_RELEASES, defaultMatrix: DEFAULT_MATRIX, cached: cached.map((c) => c.record) },
            null,
            2,
          ),
        );
        return;
      }
      for (const s of SERIES) {
        console.log(`\n${s.series}  released ${s.released}  ${s.support.toUpperCase()}  end of life ${s.endOfLife ?? 'not announced'}`);
        for (const v of VERSIONS.filter((x) => x.series === s.series)) {
          const built = Object.keys(VARIANTS).filter((variant) => cached.some((c) => c.record.version === v.version && c.record.variant === variant));
          const flags = [
            DEFAULT_MATRIX.includes(v.version) ? 'default matrix' : '',
            v.studiedBy ? `studied by ${v.studiedBy.join(', ')}` : '',
            ...isDefective(v.version).map((d) => `known defect ${d}`),
          ].filter(Boolean);
          console.log(`  ${v.version.padEnd(8)} built: ${(built.join(', ') || '-').padEnd(20)} ${flags.join('; ')}`);
          for (const src of v.sources) console.log(`           ${src.kind.padEnd(16)} ${src.ref}  sha256 ${src.sha256}`);
        }
      }
      // the other libraries, by name (build them as: aws-lc, wolfssl:no-perf-options, aws-lc@<version>)
      for (const r of [...LIBRARY_RELEASES].sort(compareReleases)) {
        console.log(`\n${LIBRARY_NAMES[r.library]} ${r.version}  series ${r.series}  ${r.recipe}  (spec: ${r.library} or ${r.library}@${r.version})`);
        for (const src of r.sources) console.log(`  ${src.kind.padEnd(16)} ${src.package} ${src.ref}  sha256 ${src.sha256}  tree ${src.root}`);
        for (const [variant, { options, what }] of Object.entries(r.variants)) {
          const built = cached.some((c) => c.record.library === r.library && c.record.version === r.version && c.record.variant === variant);
          console.log(`  ${variant.padEnd(16)} built: ${built ? 'yes' : 'no '}  ${what}`);
          console.log(`  ${''.padEnd(16)} options: ${options.join(' ') || "(the recipe's common options only)"}`);
        }
      }
      return;
    }
    case 'fetch': {
      if (!positionals.length && !values.all) usage('fetch needs at least one version, or --all');
      const kind = values.kind as CatalogueVersion['sources'][number]['kind'] | undefined;
      let failed = 0;
      for (const v of values.all ? allReleases() : resolveAll(positionals)) {
        const name = releaseName(v);
        try {
          const { source, path } = await obtainSource(v, kind, (m) => console.log(`${name}: ${m}`));
          console.log(`${name}: ${source.kind} ${path} sha256 ok`);
        } catch (e) {
          failed++;
          console.error(`${name}: ${(e as Error).message}`);
        }
      }
      process.exit(failed ? 1 : 0);
    }
    case 'build': {
      const others = values['other-libraries'] === true;
      const reqs = [...buildRequests(positionals.length || others ? positionals : DEFAULT_MATRIX, values.variant), ...(others ? otherLibraryBuilds() : [])];
      const started = Date.now();
      const since = new Map<string, number>();
      const { built, failed } = await buildMany(reqs, (version, variant, step) => {
        const id = `${version}/${variant}`;
        if (!since.has(id)) since.set(id, Date.now());
        console.log(
          `[${fmtTime((Date.now() - started) / 1000).padStart(6)}] ${id.padEnd(20)} ${step} (${fmtTime((Date.now() - since.get(id)!) / 1000)} on this build)`,
        );
      });
      console.log('');
      for (const b of built)
        console.log(
          `ok     ${`${releaseName(b.req.version)}/${b.req.variant}`.padEnd(20)} ${b.cached ? 'cached' : `built in ${fmtTime(b.build.record.buildSeconds)}`}  ${b.build.record.versionString}`,
        );
      for (const f of failed)
        console.log(`FAILED ${`${releaseName(f.req.version)}/${f.req.variant}`.padEnd(20)} ${f.error}${f.log ? `\n       log: ${f.log}` : ''}`);
      console.log(`\n${built.length} ready, ${failed.length} failed, ${fmtTime((Date.now() - started) / 1000)} in all`);
      process.exit(failed.length ? 1 : 0);
    }
    case 'servers': {
      const reqs = buildRequests(positionals.length ? positionals : [...DEFAULT_MATRIX, 'aws-lc'], values.variant);
      const { built, failed } = await buildMany(reqs, () => {});
      for (const f of failed) console.log(`FAILED ${`${releaseName(f.req.version)}/${f.req.variant}`.padEnd(22)} the library itself: ${f.error}`);
      let bad = failed.length;
      for (const b of built)
        for (const release of SERVERS) {
          const r = await buildServer(release, b.build, (m) => console.log(`       ${m}`));
          const label = `${`${releaseName(b.req.version)}/${b.req.variant}`.padEnd(22)} ${SERVER_NAMES[release.server]} ${release.version}`;
          if (r.ok) console.log(`ok     ${label} ${r.cached ? 'cached' : `built in ${fmtTime(r.record.seconds)}`}`);
          else (bad++, console.log(`NO     ${label}: ${r.reason.split('\n')[0]}`));
        }
      process.exit(bad ? 1 : 0);
    }
    case 'path': {
      const [spec] = positionals;
      if (!spec) usage('path needs a version');
      if ((values.variant?.length ?? 0) > 1) usage('path takes one --variant');
      const { version: v, variant } = buildRequests([spec], values.variant)[0]!;
      const hit = findCached(v, variant);
      if (!hit) {
        const again = `${libraryOf(v) === 'openssl' ? v.version : v.library}${variant === 'default' ? '' : `:${variant}`}`;
        console.error(`${buildLabel({ ...v, variant })} is not built: npm run openssl -- build ${again}`);
        process.exit(1);
      }
      console.log(hit.prefix);
      return;
    }
    case 'clean': {
      if (values.all) {
        // nothing may build or measure from the cache meanwhile; the lock file itself stays (deleting it
        // would let a second holder lock a new file while the first still holds the old one)
        try {
          await acquireHostLock({ mode: 'exclusive', command: 'npm run openssl -- clean --all', wait: false });
        } catch (e) {
          fail((e as Error).message);
        }
        for (const name of existsSync(cacheRoot()) ? readdirSync(cacheRoot()) : [])
          if (join(cacheRoot(), name) !== lockDir()) rmSync(join(cacheRoot(), name), { recursive: true, force: true });
        console.log(`emptied ${cacheRoot()}`);
        return;
      }
      // temporary directories of builds that are still running belong to them: only dead processes' go
      const stale = cleanStaleTemps();
      for (const path of stale) console.log(`removed ${path} (left by a process that no longer runs)`);
      let removed = 0;
      const running = existsSync(buildsDir()) ? readdirSync(buildsDir()).filter((n) => /\.tmp-\d+$/.test(n)) : [];
      if (existsSync(buildsDir()))
        for (const name of readdirSync(buildsDir())) {
          const dir = join(buildsDir(), name);
          const complete = existsSync(join(dir, 'build.json'));
          if (name === 'logs' || complete || running.includes(name) || !statSync(dir).isDirectory()) continue;
          rmSync(dir, { recursive: true, force: true });
          removed++;
          console.log(`removed interrupted build ${dir}`);
        }
      const logs = join(buildsDir(), 'logs');
      if (existsSync(logs))
        for (const log of readdirSync(logs))
          // a builder's log is <entry>.tmp-<pid>.log while it runs
          if (!running.includes(log.replace(/\.log$/, ''))) rmSync(join(logs, log), { force: true });
      console.log(
        `${removed + stale.length} interrupted build(s) and temporary file(s) removed; logs of failed builds removed${running.length ? `; ${running.length} build(s) still running were left alone` : ''}`,
      );
      return;
    }
  }
}

await main();
