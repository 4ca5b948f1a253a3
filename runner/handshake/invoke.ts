// Running runner/handshake/handshake.c: the program compiled against a build, one run of a configuration
// checked for the verification every library must do, and its instructions counted under callgrind.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildUnderTest } from '../benchmark.ts';
import { CERT_HOSTNAME, certDir, ensureCerts as ensureSharedCerts } from '../certs.ts';
import { runGuarded, stderrTail, type ProgramResult } from '../child-guard.ts';
import { compileAgainst, type Linkable } from '../compile.ts';
import { annotate, type Profile, type ProfileKind } from '../causes/callgrind.ts';
import { describeConfig, type HandshakeConfig } from './config.ts';
import { hiddenFeatures, parseHandshakeOutput, type HandshakeRunOutput, type ParsedOutput } from './output.ts';

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));
export const HANDSHAKE_SOURCE = here('./handshake.c');

export function handshakeBinary(build: Linkable): string {
  return compileAgainst(build, HANDSHAKE_SOURCE, 'handshake');
}

/** Make the missing shared certificates (runner/certs.ts) with handshake.c's gen-certs. */
export const ensureCerts = (build: BuildUnderTest): Promise<void> => ensureSharedCerts(build, handshakeBinary);

/** The program's arguments for `count` handshakes of a configuration. */
export function configArgs(cfg: HandshakeConfig, count: number): string[] {
  const args = ['run', '--cert-dir', certDir(), '--cert', cfg.cert, '--proto', cfg.proto, '--client-groups', cfg.clientGroups];
  args.push('--server-groups', cfg.serverGroups, '--resume', cfg.resume, '--count', String(count), '--threads', String(cfg.threads));
  args.push('--mode', cfg.mode, ...(cfg.cipher ? ['--cipher', cfg.cipher] : []), ...(cfg.verify === 'none' ? ['--verify', 'none'] : []));
  return args;
}

/** Run a harness program (programEnv: no library tuning variables); never throws (exit -1: killed or not started). */
export function exec(cmd: string, args: string[], timeoutMs: number): Promise<ProgramResult> {
  return runGuarded(cmd, args, { timeoutMs });
}

/**
 * Run one configuration once (the function the hypothesis test and the MTU analysis call). A crash or
 * unreadable output becomes 'failed' with what the process said; the result names the library it ran.
 */
export async function runHandshake(
  binary: string,
  cfg: HandshakeConfig,
  count: number,
  timeoutMs = 600_000,
  opts: { cpu?: number } = {},
): Promise<ParsedOutput> {
  const r = await exec(binary, [...configArgs(cfg, count), ...(opts.cpu === undefined ? [] : ['--cpu', String(opts.cpu)])], timeoutMs);
  const where = `handshake ${describeConfig(cfg)}`;
  if (r.code === -1 || !r.stdout.trim()) return { kind: 'failed', reason: `${where}: exit ${r.code}: ${stderrTail(r.stderr)}`, openssl: 'unknown' };
  return checkVerification(cfg, parseHandshakeOutput(r.stdout, r.code, where), where);
}

/** The chain every verifying client must have checked: leaf and intermediate against their issuers, up to the root. */
export const CHAIN_DEPTH = 2;

/**
 * A run whose client verified other than asked is a failure, whatever it measured: every library must
 * report the same verification (depth CHAIN_DEPTH, CHAIN_DEPTH certificates checked, the hostname), or
 * nothing at all in the control.
 */
export function checkVerification(cfg: HandshakeConfig, parsed: ParsedOutput, where: string): ParsedOutput {
  if (parsed.kind !== 'run') return parsed;
  const v = parsed.out.verification;
  const asked = cfg.verify ?? 'chain';
  const wrong =
    v.mode !== asked
      ? `asked the client to verify ${asked}, it reports ${v.mode}`
      : v.mode === 'chain' && (v.depth !== CHAIN_DEPTH || v.certsChecked !== CHAIN_DEPTH || v.hostname !== CERT_HOSTNAME)
        ? `the client verified to depth ${v.depth} (${v.certsChecked} certificates checked, hostname ${v.hostname}), not the chain of depth ${CHAIN_DEPTH} to ${CERT_HOSTNAME}`
        : null;
  return wrong ? { kind: 'failed', reason: `${where}: ${wrong}`, openssl: parsed.out.openssl } : parsed;
}

export type InstructionResult =
  | {
      kind: 'measured';
      instructionsPerHandshake: number;
      totalInstructions: number;
      out: HandshakeRunOutput;
      /** null: not known (no capability vector) */ hiddenFeatures: string[] | null;
      /** the per-function profiles asked for (instructions over every measured handshake) */
      profiles: Partial<Record<ProfileKind, Profile>>;
    }
  | { kind: 'unsupported' | 'failed'; reason: string };

/**
 * Why handshake.c cannot count instructions for this configuration, or null when it can: one thread, in
 * handshake mode or with a new client context per connection (both count the whole loop); one side
 * alone only in handshake mode.
 */
export function notCountable(cfg: HandshakeConfig, side?: 'client' | 'server'): string | null {
  if (cfg.threads === 1 && (cfg.mode === 'handshake' || (cfg.mode === 'ctx-per-conn' && !side))) return null;
  return `instruction counts are for one thread in handshake mode (or ctx-per-conn, both sides), not ${cfg.threads} thread(s) in ${cfg.mode} mode${side ? ` counting the ${side}` : ''}`;
}

/**
 * Instructions per handshake (client + server): the same invocation under callgrind with collection
 * only around the measured handshakes and handshake.c's fixed-seed RNG, so the count is reproducible.
 * With `side`, only that side's SSL calls are collected (handshake.c --count-side); `profiles` asks for
 * callgrind_annotate's per-function costs of the same run.
 */
export async function countInstructions(
  binary: string,
  cfg: HandshakeConfig,
  count: number,
  side?: 'client' | 'server',
  profiles: readonly ProfileKind[] = [],
): Promise<InstructionResult> {
  const why = notCountable(cfg, side);
  if (why) throw new Error(why);
  const dir = mkdtempSync(join(tmpdir(), 'hs-callgrind-'));
  try {
    const outFile = join(dir, 'callgrind.out');
    const args = [
      '--tool=callgrind',
      '--collect-atstart=no',
      `--callgrind-out-file=${outFile}`,
      binary,
      ...configArgs(cfg, count),
      '--deterministic',
      ...(side ? ['--count-side', side] : []),
    ];
    const r = await exec('valgrind', args, 1_200_000);
    if (/ENOENT|failed to execute valgrind/.test(r.stderr) && !r.stdout.trim())
      return { kind: 'failed', reason: 'valgrind is not installed (apt-get install valgrind)' };
    if (!r.stdout.trim()) return { kind: 'failed', reason: `valgrind exit ${r.code}: ${r.stderr.trim().slice(-1500)}` };
    const where = `callgrind ${describeConfig(cfg)}`;
    const parsed = checkVerification(cfg, parseHandshakeOutput(r.stdout, r.code, where), where);
    if (parsed.kind === 'unsupported' || parsed.kind === 'failed') return { kind: parsed.kind, reason: parsed.reason };
    if (parsed.kind !== 'run' || !parsed.out.underValgrind || !(parsed.out.deterministicRng || parsed.out.rngNotFixed))
      return { kind: 'failed', reason: 'the program did not report running under valgrind with the fixed-seed RNG (or why the library has none)' };
    if (parsed.out.countSide !== side)
      return { kind: 'failed', reason: `asked to count ${side ?? 'both sides'}, the program counted ${parsed.out.countSide ?? 'both sides'}` };
    const totals = /^totals:\s+(\d+)/m.exec(readFileSync(outFile, 'utf8'));
    if (!totals) return { kind: 'failed', reason: `no "totals:" line in ${outFile}` };
    const total = Number(totals[1]);
    const annotated: Partial<Record<ProfileKind, Profile>> = {};
    try {
      for (const kind of profiles) annotated[kind] = await annotate(outFile, kind);
    } catch (e) {
      return { kind: 'failed', reason: (e as Error).message };
    }
    const native = await exec(binary, ['run', '--mode', 'ctx-new', '--count', '1'], 60_000);
    const nativeCap = /"ia32cap":"([0-9a-f:]+)"/.exec(native.stdout)?.[1];
    return {
      kind: 'measured',
      instructionsPerHandshake: total / parsed.out.handshakes,
      totalInstructions: total,
      out: parsed.out,
      hiddenFeatures: hiddenFeatures(nativeCap, parsed.out.ia32cap),
      profiles: annotated,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** SSL_CTX_new timed alone (handshake.c --mode ctx-new). */
export async function execCtxNew(binary: string, count: number): Promise<ParsedOutput> {
  const r = await exec(binary, ['run', '--mode', 'ctx-new', '--count', String(count)], 600_000);
  return parseHandshakeOutput(r.stdout, r.code, 'handshake ctx-new');
}
