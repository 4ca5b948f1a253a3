// What known_issues.c prints (one JSON object per invocation), parsed and checked against what was asked.
import { z } from 'zod';
import { EXIT } from '../handshake/output.ts';

export const PROGRAM_OPS = [
  'pkey-pem',
  'pkey-der',
  'pkey-pem-p256',
  'pkey-der-p256',
  'x509-der',
  'ctx-new',
  'ca-bundle',
  'aead-reinit',
  'aead-new-ctx',
  'dtls-handshake',
  'dtls-heap',
] as const;
export type ProgramOp = (typeof PROGRAM_OPS)[number];

export const RunOutput = z
  .object({
    openssl: z.string().regex(/^OpenSSL \S+/),
    op: z.enum(PROGRAM_OPS),
    per: z.enum(['call', 'record', 'handshake', 'connection']),
    count: z.int().positive(),
    warmup: z.int().nonnegative(),
    deterministicRng: z.boolean(),
    underValgrind: z.boolean(),
    ia32cap: z
      .string()
      .regex(/^([0-9a-f]{8}:){3}[0-9a-f]{8}$/)
      .optional(),
    /** absent in deterministic mode (no clock reads there) */
    cpuNs: z.int().nonnegative().optional(),
    bundleCertificates: z.int().positive().optional(),
    recordBytes: z.int().positive().optional(),
    aadBytes: z.int().nonnegative().optional(),
    cipher: z.string().optional(),
    linkMtu: z.int().positive().optional(),
    heap: z
      .object({ connections: z.int().positive(), clientBytesPerConnection: z.number().nonnegative(), serverBytesPerConnection: z.number().nonnegative() })
      .strict()
      .optional(),
  })
  .strict();
export type RunOutput = z.infer<typeof RunOutput>;

const Unsupported = z.object({ unsupported: z.literal(true), reason: z.string().min(1), openssl: z.string() }).strict();
const Failure = z.object({ error: z.string().min(1), openssl: z.string() }).strict();

export type Parsed = { kind: 'run'; out: RunOutput } | { kind: 'unsupported' | 'failed'; reason: string };

const issues = (e: z.ZodError) =>
  e.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');

/**
 * One invocation's stdout with its exit code, checked against the operation, count and mode that were
 * asked (`where` names the source in errors). Exit code and JSON must agree.
 */
export function parseRunOutput(stdout: string, exitCode: number, expect: { op: ProgramOp; count: number; deterministic: boolean }, where: string): Parsed {
  let json: unknown;
  try {
    json = JSON.parse(stdout.trim());
  } catch (e) {
    throw new Error(`${where}: known_issues output is not JSON (${(e as Error).message}): ${JSON.stringify(stdout.slice(0, 200))}`);
  }
  if (json && typeof json === 'object' && 'unsupported' in json) {
    const u = Unsupported.safeParse(json);
    if (!u.success) throw new Error(`${where}: malformed "unsupported" output: ${issues(u.error)}`);
    if (exitCode !== EXIT.unsupported) throw new Error(`${where}: an "unsupported" output with exit code ${exitCode} (expected ${EXIT.unsupported})`);
    return { kind: 'unsupported', reason: u.data.reason };
  }
  if (json && typeof json === 'object' && 'error' in json) {
    const f = Failure.safeParse(json);
    if (!f.success) throw new Error(`${where}: malformed error output: ${issues(f.error)}`);
    if (exitCode === EXIT.ok) throw new Error(`${where}: an error output with exit code 0`);
    return { kind: 'failed', reason: f.data.error };
  }
  if (exitCode !== EXIT.ok) throw new Error(`${where}: a measurement output with exit code ${exitCode}`);
  const r = RunOutput.safeParse(json);
  if (!r.success) throw new Error(`${where}: unexpected known_issues output: ${issues(r.error)}`);
  const out = r.data;
  if (out.op !== expect.op || out.count !== expect.count) throw new Error(`${where}: ran ${out.op} x${out.count}, asked for ${expect.op} x${expect.count}`);
  if (out.deterministicRng !== expect.deterministic) throw new Error(`${where}: deterministic mode ${out.deterministicRng}, asked for ${expect.deterministic}`);
  if (!expect.deterministic && out.cpuNs === undefined) throw new Error(`${where}: a timed run without cpuNs`);
  if (out.op === 'dtls-heap' && !out.heap) throw new Error(`${where}: dtls-heap output without heap counts`);
  return { kind: 'run', out };
}
