// Changes of the harness that change what a benchmark measures, so that figures before and after one are
// not the same experiment: each is a numbered revision, recorded in every run file (harness.revision), shown
// as a harness step on the drift view and listed on the methodology page. Runs without a revision predate
// the list: revision 1.

export interface HarnessStep {
  revision: number;
  /** the day it landed (UTC) */
  date: string;
  /** the benchmarks whose figures it changes */
  benchmarks: string[];
  /** a short title for markers */
  title: string;
  /** what changed and what it does to the figures */
  what: string;
}

export const HARNESS_STEPS: readonly HarnessStep[] = [
  {
    revision: 2,
    date: '2026-11-26',
    benchmarks: ['handshake', 'known-issues', 's-time', 'causes'],
    title: 'handshakes verify a certificate chain',
    what: 'The server sends its leaf certificate and the intermediate CA that issued it; the client trusts only the root CA and verifies both certificates and the server name, as a client of a public server does. Before, the client trusted the self-signed server certificate itself, which OpenSSL, AWS-LC and BoringSSL accept without checking a signature while wolfSSL checks one, so the libraries did unequal work. Every handshake figure changes: more bytes from the server, two signature checks for every client.',
  },
  {
    revision: 3,
    date: '2026-11-27',
    benchmarks: ['handshake', 'known-issues', 'aead', 'causes'],
    title: 'one C library in every program',
    what: "Every C program now compiles the whole of runner/c-common (one clock, one CPU pinning, one certificate maker, one error drain, one JSON writer). The measured code is the same: under callgrind every OpenSSL and harness function executes the same instructions with the same calls before and after. The programs' layout changed, which moves where the C library's string routines land, so an instruction count per handshake moves by up to about 0.07% (3.5.7, ECDSA P-256, X25519: +0.06%; 1.1.1w +0.002%; 4.0.3 -0.03%). A refused --cpu now fails an AEAD run as it fails a handshake run.",
  },
];

/** The revision this checkout's harness measures with. */
export const HARNESS_REVISION = Math.max(1, ...HARNESS_STEPS.map((s) => s.revision));

/** The step that starts a revision (none for revision 1, the harness before the list). */
export const harnessStep = (revision: number | undefined): HarnessStep | undefined => HARNESS_STEPS.find((s) => s.revision === (revision ?? 1));
