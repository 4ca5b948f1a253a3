// What handshake.c prints (one JSON object per invocation), parsed and checked.
import { z } from 'zod';
import { EXIT } from '../exit-codes.ts';
import { LIBRARY_VERSION_PATTERN } from '../library-id.ts';

const Share = z.object({ group: z.string(), id: z.int().nonnegative(), bytes: z.int().nonnegative() }).strict();
const Percentiles = z.object({ what: z.string(), p50: z.int().nonnegative(), p90: z.int().nonnegative(), p99: z.int().nonnegative() }).strict();
/**
 * What the client verified (handshake.c check_verification), from its first full handshake; every later
 * full handshake saw the same. `chain`: the server's leaf and intermediate up to the root CA, the
 * client's only trust anchor, and the leaf's name. `none`: the control that verifies nothing.
 */
export const Verification = z.discriminatedUnion('mode', [
  z
    .object({
      mode: z.literal('chain'),
      hostname: z.string().min(1),
      /** issuer links verified up to the anchor: 2 = leaf -> intermediate -> root */
      depth: z.int().nonnegative(),
      /** certificates verified against their issuer (verify callbacks with ok, the trust anchor left out) */
      certsChecked: z.int().nonnegative(),
      callbacks: z.int().nonnegative(),
      /** the library also called back for the trust anchor (OpenSSL, AWS-LC, BoringSSL; wolfSSL does not) */
      anchorCallback: z.boolean(),
      /** certificates the server sent, leaf included (absent where the library's API cannot say) */
      certsSent: z.int().nonnegative().optional(),
      /** the verified chain, root included (absent where the library's API cannot say) */
      verifiedChain: z.int().nonnegative().optional(),
    })
    .strict(),
  z.object({ mode: z.literal('none') }).strict(),
]);
export type Verification = z.infer<typeof Verification>;

/** How a series records its verification (observed.peerVerification), and the words of the control. */
export const NO_VERIFICATION_WORDS = 'none (control)';
export const verificationWords = (v: Verification) => (v.mode === 'chain' ? `chain of depth ${v.depth} to a root CA, hostname checked` : NO_VERIFICATION_WORDS);

const Common = {
  /** the library and its version (c-common/library.c), whatever the library */
  openssl: z.string().regex(LIBRARY_VERSION_PATTERN),
  deterministicRng: z.boolean(),
  /** --deterministic on a library whose RNG cannot be fixed at run time: why (the clock is still frozen) */
  rngNotFixed: z.string().min(1).optional(),
  underValgrind: z.boolean(),
  ia32cap: z
    .string()
    .regex(/^([0-9a-f]{8}:){3}[0-9a-f]{8}$/)
    .optional(),
  /** --cpu: the CPU the measuring thread was pinned to */
  cpu: z.int().nonnegative().optional(),
  /** --count-side: instructions were collected for this side's calls only */
  countSide: z.enum(['client', 'server']).optional(),
};

export const HandshakeRunOutput = z
  .object({
    ...Common,
    mode: z.enum(['handshake', 'ctx-per-conn', 'memory']),
    proto: z.enum(['1.2', '1.3']),
    cert: z.string(),
    clientGroups: z.string(),
    serverGroups: z.string(),
    resume: z.enum(['none', 'ticket', 'session-id']),
    threads: z.int().positive(),
    handshakes: z.int().positive(),
    verification: Verification,
    /** wolfSSL, TLS 1.3 tickets: a new resumption chain, opened by an unmeasured full handshake, every this many resumptions */
    ticketChainLimit: z.int().positive().optional(),
    clientCpuNs: z.int().nonnegative(),
    serverCpuNs: z.int().nonnegative(),
    wallNs: z.int().nonnegative().optional(),
    clientBytes: z.number().positive(),
    serverBytes: z.number().positive(),
    timer: z.object({ sides: z.string(), readsPerHandshake: z.number().nonnegative(), readNs: z.number().nonnegative() }).strict().optional(),
    latencyNs: Percentiles.optional(),
    negotiated: z.object({ protocol: z.enum(['TLSv1.2', 'TLSv1.3']), cipher: z.string(), group: z.string(), resumed: z.boolean(), hrr: z.boolean() }).strict(),
    clientHello: z
      .object({
        messageBytes: z.int().positive(),
        recordBytes: z.int().positive(),
        count: z.int().min(1).max(2),
        keyShares: z.array(Share),
      })
      .strict(),
    serverKeyShare: Share.optional(),
    heap: z.object({ connections: z.int().positive(), clientBytesPerConnection: z.number(), serverBytesPerConnection: z.number() }).strict().optional(),
  })
  .strict();
export type HandshakeRunOutput = z.infer<typeof HandshakeRunOutput>;

export const CtxNewOutput = z
  .object({
    ...Common,
    mode: z.literal('ctx-new'),
    count: z.int().positive(),
    ctxNewCpuNs: z.int().nonnegative(),
    ctxFreeCpuNs: z.int().nonnegative(),
    ctxNewLatencyNs: Percentiles.optional(),
  })
  .strict();
export type CtxNewOutput = z.infer<typeof CtxNewOutput>;

const Unsupported = z.object({ unsupported: z.literal(true), reason: z.string().min(1), openssl: z.string() }).strict();
const Failure = z.object({ error: z.string().min(1), openssl: z.string() }).strict();

export type ParsedOutput =
  | { kind: 'run'; out: HandshakeRunOutput }
  | { kind: 'ctx-new'; out: CtxNewOutput }
  | { kind: 'unsupported'; reason: string; openssl: string }
  | { kind: 'failed'; reason: string; openssl: string };

/** Exit codes of handshake.c (c-common/exit_codes.h). */
export { EXIT };

function issues(e: z.ZodError): string {
  return e.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

/**
 * Parse one invocation's stdout together with its exit code; `where` names the source in errors. The
 * exit code and the JSON must agree (an "unsupported" object with exit 0 is an error, not a result).
 */
export function parseHandshakeOutput(stdout: string, exitCode: number, where: string): ParsedOutput {
  const line = stdout.trim();
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (e) {
    throw new Error(`${where}: handshake output is not JSON (${(e as Error).message}): ${JSON.stringify(line.slice(0, 200))}`);
  }
  const expectExit = (code: number, what: string) => {
    if (exitCode !== code) throw new Error(`${where}: ${what} output with exit code ${exitCode} (expected ${code})`);
  };
  if (json && typeof json === 'object' && 'unsupported' in json) {
    const u = Unsupported.safeParse(json);
    if (!u.success) throw new Error(`${where}: malformed "unsupported" output: ${issues(u.error)}`);
    expectExit(EXIT.unsupported, 'an "unsupported"');
    return { kind: 'unsupported', reason: u.data.reason, openssl: u.data.openssl };
  }
  if (json && typeof json === 'object' && 'error' in json) {
    const f = Failure.safeParse(json);
    if (!f.success) throw new Error(`${where}: malformed error output: ${issues(f.error)}`);
    if (exitCode === EXIT.ok) throw new Error(`${where}: an error output with exit code 0`);
    return { kind: 'failed', reason: f.data.error, openssl: f.data.openssl };
  }
  expectExit(EXIT.ok, 'a measurement');
  if (json && typeof json === 'object' && (json as { mode?: unknown }).mode === 'ctx-new') {
    const c = CtxNewOutput.safeParse(json);
    if (!c.success) throw new Error(`${where}: unexpected ctx-new output: ${issues(c.error)}`);
    return { kind: 'ctx-new', out: c.data };
  }
  const r = HandshakeRunOutput.safeParse(json);
  if (!r.success) throw new Error(`${where}: unexpected handshake output: ${issues(r.error)}`);
  return { kind: 'run', out: r.data };
}

/** "X25519MLKEM768:1216,X25519:32": the key shares a ClientHello carried. */
export function describeShares(shares: { group: string; bytes: number }[]): string {
  return shares.length ? shares.map((s) => `${s.group}:${s.bytes}`).join(',') : 'none';
}

// OPENSSL_ia32cap_P: word 1 = CPUID.1:ECX, word 2 = CPUID.7:EBX, word 3 = CPUID.7:ECX (x86-64).
const CAP_BITS: [string, number, number][] = [
  ['AES-NI', 1, 25],
  ['PCLMULQDQ', 1, 1],
  ['AVX2', 2, 5],
  ['BMI2', 2, 8],
  ['ADX', 2, 19],
  ['SHA-NI', 2, 29],
  ['AVX-512F', 2, 16],
  ['VAES', 3, 9],
  ['VPCLMULQDQ', 3, 10],
];

/** CPU features the library saw (from its ia32cap vector), by name. */
export function cpuFeatures(ia32cap: string): string[] {
  const words = ia32cap.split(':').map((w) => parseInt(w, 16));
  return CAP_BITS.filter(([, w, bit]) => ((words[w] ?? 0) >>> bit) & 1).map(([name]) => name);
}

/** Features the library used natively but not under valgrind: what an instruction count does not exercise. */
export function hiddenByValgrind(nativeCap: string, valgrindCap: string): string[] {
  const under = new Set(cpuFeatures(valgrindCap));
  return cpuFeatures(nativeCap).filter((f) => !under.has(f));
}

/**
 * The features valgrind hid, or null when either run printed no capability vector (BoringSSL and wolfSSL
 * export none): nothing could be compared, which is not "nothing hidden".
 */
export function hiddenFeatures(nativeCap: string | undefined, valgrindCap: string | undefined): string[] | null {
  return nativeCap && valgrindCap ? hiddenByValgrind(nativeCap, valgrindCap) : null;
}

/** observed.hiddenFeatures: the hidden features, 'none', or 'unknown'. */
export const hiddenFeaturesText = (hidden: string[] | null): string => (hidden === null ? 'unknown' : hidden.join(',') || 'none');
