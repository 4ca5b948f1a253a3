// Views of a QUIC + PQC MTU results file (schema/mtu.ts) for the MTU page. Every number comes from the file.
import type { ClientHelloEntry, MtuResults } from '../../../schema/index.ts';
import { compareVersions } from '../../../catalogue/index.ts';

export function assumption(r: MtuResults, name: string): number | null {
  const a = r.model.assumptions.find((x) => x.name === name);
  return a && typeof a.value === 'number' ? a.value : null;
}

export function versionsOf(r: MtuResults): string[] {
  return [...new Set(r.clientHellos.map((c) => c.version))].sort(compareVersions);
}

/** The ClientHello the model carries: QUIC's when this version's QUIC client produced one, else TCP's. */
export function helloBytes(c: ClientHelloEntry): { bytes: number; via: 'quic' | 'tcp' } | null {
  if (c.status !== 'measured') return null;
  if (c.quic && c.quicStatus === 'measured') return { bytes: c.quic.messageBytes, via: 'quic' };
  if (c.tcp) return { bytes: c.tcp.messageBytes, via: 'tcp' };
  return null;
}

export function planAt<T extends { maxDatagramBytes: number }>(plans: readonly T[] | undefined, size: number): T | undefined {
  return plans?.find((p) => p.maxDatagramBytes === size);
}

export function sharesText(shares: readonly { group: string; bytes: number }[] | undefined): string {
  return shares && shares.length ? shares.map((s) => `${s.group} (${s.bytes})`).join(' + ') : '—';
}

/** The newest version whose library-default ClientHello was measured (the by-group chart shows it). */
export function newestMeasured(r: MtuResults): string | null {
  const vs = versionsOf(r).filter((v) => r.clientHellos.some((c) => c.version === v && c.status === 'measured' && c.config.id !== 'default'));
  return vs[vs.length - 1] ?? null;
}
