// Benchmark 'gcm-mask': is the AES-GCM difference between 3.0 and 3.1+ the AVX-512 code path?
// 3.1+ sources carry crypto/modes/asm/aes-gcm-avx512.pl (AES-GCM with AVX-512, VAES and VPCLMULQDQ);
// 3.0.x sources do not. The aead program (runner/aead/aead.c, tag per record) runs AES-256-GCM on each
// build twice per round, back to back: with the CPU features the library detects, and with
// OPENSSL_ia32cap hiding AVX-512F, VAES and VPCLMULQDQ. The handshake program reports the capability
// vector the library actually used under each setting, so a mask that did not take is caught.
import type { RunMode } from '../../schema/index.ts';
import { AEAD_PLAN, aeadArgs, aeadBinary, aeadRates, parseAeadOutput } from '../aead/aead.ts';
import { type Benchmark, type BuildUnderTest, type Outcome, type SeriesSpec } from '../benchmark.ts';
import { runGuarded, stderrTail } from '../child-guard.ts';
import { handshakeBinary } from '../handshake/invoke.ts';
import { cpuFeatures } from '../handshake/output.ts';

/** "~word1:~word2": word 2 is CPUID.7 EBX (low half) and ECX (high half): AVX512F = bit 16, VAES = 32+9, VPCLMULQDQ = 32+10. */
export const AVX512_MASK = '~0x0:~0x60000010000';
export const MASKED = ['AVX-512F', 'VAES', 'VPCLMULQDQ'];
const CIPHER = 'aes-256-gcm';
const AAD_BYTES = 13;

export type Mask = 'none' | 'avx512';

const MASK_TEXT: Record<Mask, string> = { none: 'CPU features as detected', avx512: 'AVX-512F, VAES and VPCLMULQDQ hidden with OPENSSL_ia32cap' };

/** Per thread-CPU second (the primary figure) or per wall-clock second, as the aead benchmark measures. */
export function maskSpec(mask: Mask, bytes: number, clock: 'cpu' | 'wall' = 'cpu'): SeriesSpec {
  const records = `${CIPHER} seal of ${bytes}-byte records (fresh IV, ${AAD_BYTES} B AAD, tag per record)`;
  return {
    benchmark: 'aead',
    metric: clock === 'cpu' ? `${CIPHER}-seal-cpu` : `${CIPHER}-seal`,
    label:
      clock === 'cpu'
        ? `${records}, bytes of payload per second of the measuring thread's CPU time, ${MASK_TEXT[mask]}`
        : `${records}, bytes/s over wall-clock time, ${MASK_TEXT[mask]}`,
    unit: 'bytes/s',
    method: clock === 'cpu' ? 'cpu-time-thread' : 'wall-clock-throughput',
    higherIsBetter: true,
    params: { algorithm: CIPHER, operation: 'seal', bytes, aadBytes: AAD_BYTES, cpuMask: mask },
    comparability: { acrossVersions: true },
  };
}

const run = (bin: string, args: string[], env: Record<string, string>) => runGuarded(bin, args, { timeoutMs: 120_000, env });

/** The features the library itself reports under an environment (from the handshake program's ia32cap). */
async function featuresUnder(hsBinary: string, env: Record<string, string>): Promise<string[]> {
  const r = await run(hsBinary, ['run', '--mode', 'ctx-new', '--count', '1'], env);
  const cap = /"ia32cap":"([0-9a-f:]+)"/.exec(r.stdout)?.[1];
  if (!cap) throw new Error(`no ia32cap in the handshake program's output: ${r.stderr.slice(0, 300)}`);
  return cpuFeatures(cap);
}

/** The variables a masked run sets on purpose (programEnv removes any other OPENSSL_ variable). */
export function envFor(mask: Mask): Record<string, string> {
  return mask === 'avx512' ? { OPENSSL_ia32cap: AVX512_MASK } : {};
}

export async function measureMasked(aeadBin: string, hsBin: string, version: string, mode: RunMode): Promise<Outcome[]> {
  const plan = AEAD_PLAN[mode];
  const { sizes } = plan;
  const out: Outcome[] = [];
  const native = await featuresUnder(hsBin, envFor('none'));
  for (const mask of ['none', 'avx512'] as const) {
    const specs = sizes.flatMap((b) => [maskSpec(mask, b, 'cpu'), maskSpec(mask, b, 'wall')]);
    const seen = mask === 'none' ? native : await featuresUnder(hsBin, envFor(mask));
    if (mask === 'avx512') {
      if (!MASKED.some((f) => native.includes(f))) {
        out.push(...specs.map((spec) => ({ spec, status: 'unsupported' as const, reason: `this CPU has none of ${MASKED.join(', ')}: nothing to hide` })));
        continue;
      }
      const left = MASKED.filter((f) => seen.includes(f));
      if (left.length) throw new Error(`OPENSSL_ia32cap=${AVX512_MASK} left ${left.join(', ')} visible to OpenSSL ${version}`);
    }
    const r = await run(aeadBin, aeadArgs(CIPHER, plan), envFor(mask));
    const where = `aead ${CIPHER} on ${version} (mask ${mask})`;
    if (r.code !== 0) {
      out.push(...specs.map((spec) => ({ spec, status: 'failed' as const, reason: `${where} exited with ${r.code}: ${stderrTail(r.stderr)}` })));
      continue;
    }
    const parsed = parseAeadOutput(r.stdout, { build: { library: 'openssl', version }, cipher: CIPHER, sizes }, where);
    const observed = { cpuFeaturesUsed: seen.join(',') || 'none' };
    for (const res of parsed.results) {
      const { cpu, wall } = aeadRates(res);
      out.push({ spec: maskSpec(mask, res.bytes, 'cpu'), value: cpu, observed }, { spec: maskSpec(mask, res.bytes, 'wall'), value: wall, observed });
    }
  }
  return out;
}

export function createGcmMaskBenchmark(): Benchmark {
  const binsFor = (b: BuildUnderTest) => [aeadBinary(b), handshakeBinary(b)] as const;
  return {
    id: 'gcm-mask',
    libraries: ['openssl'], // needs OPENSSL_ia32cap, OpenSSL's CPU-feature mask
    description: 'AES-256-GCM seal (the aead program) with the detected CPU features and with AVX-512F/VAES/VPCLMULQDQ hidden via OPENSSL_ia32cap',
    async prepare(build) {
      binsFor(build);
    },
    tasks: (build, mode) => [
      {
        id: CIPHER,
        run: () => measureMasked(...binsFor(build), build.record.version, mode),
        produces: (['none', 'avx512'] as const).flatMap((mask) => AEAD_PLAN[mode].sizes.flatMap((b) => [maskSpec(mask, b, 'cpu'), maskSpec(mask, b, 'wall')])),
      },
    ],
  };
}

export const gcmMaskBenchmark = createGcmMaskBenchmark();
