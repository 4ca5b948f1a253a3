// Parsers for `openssl speed -mr` output, one per output format.
//
// -mr prints results on stdout as "+<tag>:<fields>" lines and progress on stderr ("+DT", "+DTP", "+R<n>").
// What a tag means changed between releases (read from each release's apps/speed.c):
//   mr-1.1.1  1.1.1      F sym | F2 rsa k:bits:sign:verify | F3 dsa | F4 ecdsa k:bits:sign:verify
//                        | F5 ecdh k:bits:ops:secs | F6 eddsa k:bits:name:sign:verify
//   mr-3.0    3.0, 3.1   as 1.1.1, plus F7 sm2 k:bits:name:sign:verify | F8 ffdh k:bits:ops:secs
//   mr-3.2    3.2 - 3.6  F2 rsa gains encrypt and decrypt: k:bits:sign:verify:encrypt:decrypt; and the
//                        generic KEM and signature tables appear: F9 kem k:keygen:encaps:decaps |
//                        F10 signature k:keygen:sign:verify (ML-KEM and ML-DSA join them in 3.5)
//   mr-4.0    4.0        F4 covers every EC signature (EdDSA too), F6 and F7(sm2) gone, F7 ffdh,
//                        F8 kem, F9 signature
// KEM and signature lines carry only an index into a list built at run time from the providers, so
// their names come from the stderr progress lines (+R15 / +R18 name the algorithm), matched in order
// and checked against the rates.

export type SpeedRecord =
  | { kind: 'symmetric'; name: string; bytes: number; bytesPerSecond: number }
  | { kind: 'rsa'; bits: number; sign: number; verify: number; encrypt?: number; decrypt?: number }
  | { kind: 'ecdsa'; bits: number; sign: number; verify: number }
  | { kind: 'ecdh'; bits: number; derive: number }
  | { kind: 'kem'; name: string; keygen: number; encaps: number; decaps: number }
  | { kind: 'signature'; name: string; keygen: number; sign: number; verify: number }
  /** recognised, not measured by this project (DSA, EdDSA, SM2, FFDH) */
  | { kind: 'other'; tag: string; what: string };

type LineKind = 'rsa2' | 'rsa4' | 'ecdsa' | 'ecdh' | 'kem' | 'signature' | 'dsa' | 'eddsa' | 'sm2' | 'ffdh';

export interface SpeedFormat {
  name: string;
  /** stdout tag (without "+" and ":") -> what the line holds; "F" (symmetric) is common to all */
  tags: Record<string, LineKind>;
}

export const FORMATS = {
  'mr-1.1.1': { name: 'mr-1.1.1', tags: { F2: 'rsa2', F3: 'dsa', F4: 'ecdsa', F5: 'ecdh', F6: 'eddsa' } },
  'mr-3.0': { name: 'mr-3.0', tags: { F2: 'rsa2', F3: 'dsa', F4: 'ecdsa', F5: 'ecdh', F6: 'eddsa', F7: 'sm2', F8: 'ffdh' } },
  'mr-3.2': {
    name: 'mr-3.2',
    tags: { F2: 'rsa4', F3: 'dsa', F4: 'ecdsa', F5: 'ecdh', F6: 'eddsa', F7: 'sm2', F8: 'ffdh', F9: 'kem', F10: 'signature' },
  },
  'mr-4.0': { name: 'mr-4.0', tags: { F2: 'rsa4', F3: 'dsa', F4: 'ecdsa', F5: 'ecdh', F7: 'ffdh', F8: 'kem', F9: 'signature' } },
} as const satisfies Record<string, SpeedFormat>;
export type FormatName = keyof typeof FORMATS;

/** Number of fields after the tag, per kind. */
const FIELD_COUNT: Record<LineKind, number> = { rsa2: 4, rsa4: 6, ecdsa: 4, ecdh: 4, kem: 4, signature: 4, dsa: 4, eddsa: 5, sm2: 5, ffdh: 4 };

export class SpeedParseError extends Error {}

function rate(text: string | undefined, where: () => string): number {
  // speed prints %f / %.2f: digits with a decimal point; "inf" or "nan" mean a zero time, i.e. no measurement
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text)) throw new SpeedParseError(`${where()}: "${text ?? ''}" is not a rate`);
  const v = Number(text);
  if (!Number.isFinite(v)) throw new SpeedParseError(`${where()}: "${text}" is not a finite rate`);
  return v;
}

function int(text: string | undefined, where: () => string): number {
  if (text === undefined || !/^\d+$/.test(text)) throw new SpeedParseError(`${where()}: "${text ?? ''}" is not an integer`);
  return Number(text);
}

interface Progress {
  /** +R<n>:<count>:<name>:<seconds> lines of the KEM/signature loops, in order */
  named: { tag: string; count: number; name: string; seconds: number; line: number }[];
  /** +R1 (RSA sign) and +R2 (RSA verify): count:bits:seconds */
  rsa: { tag: 'R1' | 'R2'; count: number; bits: number; seconds: number; text: string }[];
}

/** stderr of -mr: only progress lines are expected; anything else is an error message from speed. */
function parseStderr(stderr: string, where: string): Progress {
  const named: Progress['named'] = [];
  const rsa: Progress['rsa'] = [];
  stderr.split('\n').forEach((raw, i) => {
    const line = raw.trimEnd();
    if (line === '') return;
    const at = () => `${where}: stderr line ${i + 1} ${JSON.stringify(line.slice(0, 200))}`;
    const m = /^\+(DT|DTP|DN|DNP|R\d*):(.*)$/.exec(line);
    if (!m) throw new SpeedParseError(`${at()}: not a progress line; openssl speed reported a problem`);
    const f = m[2]!.split(':');
    // +R15..+R20: count:name:seconds, the only place KEM and signature names appear
    if (/^R(1[5-9]|20)$/.test(m[1]!) && f.length === 3 && !/^\d+$/.test(f[1]!))
      named.push({ tag: m[1]!, count: int(f[0], at), name: f[1]!, seconds: Number(f[2]), line: i + 1 });
    if ((m[1] === 'R1' || m[1] === 'R2') && f.length === 3)
      rsa.push({ tag: m[1], count: int(f[0], at), bits: int(f[1], at), seconds: rate(f[2], at), text: line });
  });
  return { named, rsa };
}

/**
 * RSA sign and verify from speed's progress lines: "+R1:<count>:<bits>:<seconds>" after the sign loop and
 * "+R2:..." after the verify loop (every format here). speed's own rate is count / seconds, with seconds of
 * user CPU read in clock ticks, so these lines hold its figures exactly (speed.test.ts checks every
 * fixture's +F2 line against them); they are what a run reads when it stops speed after the verify loop,
 * before it prints +F2 (runner/speed/README.md, "Time").
 */
export function rsaFromProgress(stderr: string, where: string): Extract<SpeedRecord, { kind: 'rsa' }> {
  const { rsa } = parseStderr(stderr, where);
  const loop = (tag: 'R1' | 'R2', what: string) => {
    const l = rsa.find((x) => x.tag === tag);
    if (!l) throw new SpeedParseError(`${where}: no +${tag} progress line (rsa ${what}): speed ended before it measured ${what}`);
    if (l.seconds <= 0) throw new SpeedParseError(`${where}: stderr ${JSON.stringify(l.text.slice(0, 200))}: no CPU time, so no rate`);
    return { bits: l.bits, rate: l.count / l.seconds };
  };
  const sign = loop('R1', 'sign');
  const verify = loop('R2', 'verify');
  if (sign.bits !== verify.bits) throw new SpeedParseError(`${where}: rsa sign for ${sign.bits} bits but verify for ${verify.bits}`);
  return { kind: 'rsa', bits: sign.bits, sign: sign.rate, verify: verify.rate };
}

/** Ordered distinct names of the first progress tag of a KEM or signature loop. */
function namesFrom(progress: Progress, tag: string): { name: string; count: number; seconds: number }[] {
  return progress.named.filter((n) => n.tag === tag);
}

/** speed's rate = count / exact time; stderr shows time rounded to 0.01 s. Does `value` fit? */
function consistent(value: number, count: number, seconds: number): boolean {
  if (seconds <= 0.005) return true;
  const hi = count / Math.max(seconds - 0.005, 1e-9);
  const lo = count / (seconds + 0.005);
  return value >= lo * 0.999 && value <= hi * 1.001;
}

/**
 * Parse one `openssl speed -mr` invocation. `where` names the version and source for errors
 * ("OpenSSL 3.5.7, fixtures/3.5.7/rsa2048.json"). Every stdout line must be understood.
 */
export function parseSpeed(format: FormatName, stdout: string, stderr: string, where: string): SpeedRecord[] {
  const fmt: SpeedFormat = FORMATS[format];
  if (!fmt) throw new SpeedParseError(`${where}: unknown speed output format ${String(format)}`);
  const progress = parseStderr(stderr, where);
  const out: SpeedRecord[] = [];
  let sizes: number[] | null = null;
  const kemIdx: number[] = [];
  const sigIdx: number[] = [];
  const lines = stdout.split('\n');
  lines.forEach((raw, i) => {
    const line = raw.trimEnd();
    if (line === '') return;
    const at = () => `${where} (${fmt.name}): stdout line ${i + 1} ${JSON.stringify(line.slice(0, 200))}`;
    const m = /^\+([A-Z]\d*):(.*)$/.exec(line);
    if (!m) throw new SpeedParseError(`${at()}: not a machine-readable result line`);
    const tag = m[1]!;
    const f = m[2]!.split(':');
    if (tag === 'H') {
      if (sizes) throw new SpeedParseError(`${at()}: a second +H header`);
      sizes = f.map((s) => int(s, at));
      if (sizes.length === 0 || sizes.some((s) => s <= 0)) throw new SpeedParseError(`${at()}: bad buffer sizes`);
      return;
    }
    if (tag === 'F') {
      if (!sizes) throw new SpeedParseError(`${at()}: symmetric result before the +H header`);
      if (f.length !== 2 + sizes.length) throw new SpeedParseError(`${at()}: ${f.length - 2} values for ${sizes.length} buffer sizes`);
      int(f[0], at);
      const name = f[1]!;
      if (!name) throw new SpeedParseError(`${at()}: no algorithm name`);
      sizes.forEach((bytes, j) => out.push({ kind: 'symmetric', name, bytes, bytesPerSecond: rate(f[2 + j], at) }));
      return;
    }
    const kind = fmt.tags[tag];
    if (!kind) throw new SpeedParseError(`${at()}: tag +${tag} is not part of format ${fmt.name}`);
    if (f.length !== FIELD_COUNT[kind]) throw new SpeedParseError(`${at()}: +${tag} (${kind}) needs ${FIELD_COUNT[kind]} fields, found ${f.length}`);
    int(f[0], at);
    switch (kind) {
      case 'rsa2':
      case 'rsa4': {
        const r = { kind: 'rsa' as const, bits: int(f[1], at), sign: rate(f[2], at), verify: rate(f[3], at) };
        out.push(kind === 'rsa4' ? { ...r, encrypt: rate(f[4], at), decrypt: rate(f[5], at) } : r);
        checkRsaProgress(r, progress, at);
        break;
      }
      case 'ecdsa':
        out.push({ kind: 'ecdsa', bits: int(f[1], at), sign: rate(f[2], at), verify: rate(f[3], at) });
        break;
      case 'ecdh':
        out.push({ kind: 'ecdh', bits: int(f[1], at), derive: rate(f[2], at) });
        break;
      case 'kem':
        kemIdx.push(out.length);
        out.push({ kind: 'kem', name: '', keygen: rate(f[1], at), encaps: rate(f[2], at), decaps: rate(f[3], at) });
        break;
      case 'signature':
        sigIdx.push(out.length);
        out.push({ kind: 'signature', name: '', keygen: rate(f[1], at), sign: rate(f[2], at), verify: rate(f[3], at) });
        break;
      default:
        out.push({ kind: 'other', tag, what: kind });
    }
  });
  nameByOrder(out, kemIdx, namesFrom(progress, 'R15'), 'KEM', where);
  nameByOrder(out, sigIdx, namesFrom(progress, 'R18'), 'signature', where);
  return out;
}

/** A +F2 line must hold the rates of the +R1/+R2 progress lines of the same key size (where speed printed them). */
function checkRsaProgress(r: { bits: number; sign: number; verify: number }, progress: Progress, at: () => string) {
  for (const [tag, value] of [
    ['R1', r.sign],
    ['R2', r.verify],
  ] as const) {
    const l = progress.rsa.find((x) => x.tag === tag && x.bits === r.bits);
    if (l && !consistent(value, l.count, l.seconds))
      throw new SpeedParseError(`${at()}: ${value}/s differs from the progress lines (${l.text}: ${l.count} in ${l.seconds}s)`);
  }
}

/** Give the i-th KEM/signature line the i-th name from stderr, after checking the keygen rates agree. */
function nameByOrder(out: SpeedRecord[], idx: number[], names: { name: string; count: number; seconds: number }[], what: string, where: string) {
  if (idx.length !== names.length)
    throw new SpeedParseError(`${where}: ${idx.length} ${what} result line(s) on stdout but ${names.length} ${what} keygen progress line(s) on stderr`);
  idx.forEach((k, i) => {
    const rec = out[k] as Extract<SpeedRecord, { kind: 'kem' | 'signature' }>;
    const n = names[i]!;
    if (!consistent(rec.keygen, n.count, n.seconds))
      throw new SpeedParseError(`${where}: ${what} line ${i + 1} (keygen ${rec.keygen}/s) does not match stderr ${n.name} (${n.count} in ${n.seconds}s)`);
    rec.name = n.name;
  });
}
