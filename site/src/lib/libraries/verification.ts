// What verifying the server's chain costs each library (the handshake minus its no-verification control),
// and the page's sentence on the verification every library was measured with.
import type { Entry } from '../model.ts';
import { NO_VERIFICATION_WORDS } from '../../../../runner/handshake/output.ts';
import type { LibrariesHostView, LibraryColumn } from './view.ts';
import { configText, metricWords, paramOf as p } from './words.ts';

/** One figure's verification cost on every column: the chain's value minus the control's, both from one run. */
export interface VerificationCost {
  /** the configuration of the pair in words ("TLS 1.3, ECDSA P-256 certificate, groups X25519, full handshake") */
  label: string;
  metric: string;
  unit: string;
  cells: ({ chain: Entry; control: Entry; cost: number } | { missing: string })[];
}

/** The series whose control (verify=none) gives a verification cost: every library's instructions and client CPU. */
const COSTED = (e: Entry) =>
  e.benchmark === 'handshake' && (e.metric === 'instructions-per-handshake' || (e.metric === 'cpu-per-handshake' && p(e, 'side') === 'client'));

/**
 * Chain minus control per column, both from the run of the control's entry (the two figures of one
 * difference never come from two runs); a column without both says why.
 */
export function costsOfVerification(
  entries: readonly Entry[],
  columns: readonly LibraryColumn[],
  cellOf: (c: LibraryColumn, key: string) => Entry | null,
): VerificationCost[] {
  const inRun = (c: LibraryColumn, key: string, runId: string) =>
    entries.find((e) => e.key === key && e.runId === runId && e.library === c.library && e.version === c.version && e.variant === c.variant) ?? null;
  const controls = [...new Map(entries.filter((e) => COSTED(e) && p(e, 'verify') === 'none').map((e) => [e.key, e])).values()].sort((a, b) =>
    a.key.localeCompare(b.key),
  );
  return controls.map((ctl) => {
    const { verify: _, ...params } = ctl.params;
    const chainKey = entries.find(
      (e) => e.benchmark === ctl.benchmark && e.metric === ctl.metric && p(e, 'verify') === undefined && sameParams(e.params, params),
    )?.key;
    return {
      label: `${metricWords(ctl.metric)}: ${configText(params)}`,
      metric: ctl.metric,
      unit: ctl.unit,
      cells: columns.map((c) => {
        const control = cellOf(c, ctl.key);
        if (!control || control.status !== 'measured' || !control.stats)
          return { missing: control ? `the control is ${control.status}` : 'no control measured' };
        const chain = chainKey ? inRun(c, chainKey, control.runId) : null;
        if (!chain || chain.status !== 'measured' || !chain.stats) return { missing: `no chain figure in run ${control.runId}` };
        return { chain, control, cost: chain.stats.median - control.stats.median };
      }),
    };
  });
}

const sameParams = (a: Entry['params'], b: Entry['params']) => {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && String(a[k]) === String(b[k]));
};

/** The page's sentence on certificate verification, from what the measured handshakes recorded (observed.peerVerification). */
export function verificationText(views: readonly LibrariesHostView[]): string {
  const seen = [...new Set(views.flatMap((v) => v.peerVerification))].filter((v) => v !== NO_VERIFICATION_WORDS);
  const same = 'The harness sets the same certificate verification on every library:';
  const chain =
    'the server sends its certificate and the intermediate CA that issued it, and the client, trusting only the root CA, verifies both and the server’s name, as a client of a public server does; the server asks for no client certificate.';
  if (seen.length === 0) return `${same} ${chain} Rows marked as the no-verification control are the same handshake with a client that verifies nothing.`;
  if (seen.length > 1)
    return `The handshakes shown recorded different certificate verification (${seen.join('; ')}); compare only rows that recorded the same.`;
  return seen[0]!.startsWith('chain')
    ? `${same} ${chain} Every handshake shown recorded it (${seen[0]}), except the rows of the no-verification control.`
    : `The handshakes shown were measured before the harness verified a chain (${seen[0]}): see the methodology’s harness steps.`;
}
