// The CPU capability vector each build uses on this host (cpucaps.c), recorded per run in
// Build.cpuCapabilities: native and valgrind results, or two hosts, can take different code paths
// (AVX-512 IFMA for RSA, VAES for AES-GCM) and the run file must say which one was taken.
import { fileURLToPath } from 'node:url';
import type { BuildUnderTest } from '../benchmark.ts';
import { runGuarded, stderrTail } from '../child-guard.ts';
import { compileAgainst } from '../compile.ts';

export const CPUCAPS_SOURCE = fileURLToPath(new URL('./cpucaps.c', import.meta.url));

/** "OPENSSL_ia32cap=0x...:0x..." (two words on 1.1.1-3.4, five from 3.5) or "OPENSSL_armcap=0x...", optionally " env:<value>". */
const FORMAT = /^OPENSSL_(?:ia32cap=0x[0-9a-f]{1,16}(?::0x[0-9a-f]{1,16}){1,4}|armcap=0x[0-9a-f]{1,8})(?: env:\S{1,200})?$/;

export function parseCpuCapabilities(text: string, where: string): string {
  const line = text.trim();
  if (!FORMAT.test(line)) throw new Error(`${where}: not a capability vector: ${JSON.stringify(text.slice(0, 200))}`);
  return line;
}

export async function cpuCapabilities(build: BuildUnderTest): Promise<string> {
  const binary = compileAgainst(build, CPUCAPS_SOURCE, 'cpucaps');
  const where = `cpucaps on ${build.record.version}/${build.record.variant}`;
  const r = await runGuarded(binary, [], { timeoutMs: 30_000 });
  if (r.code !== 0) throw new Error(`${where}: exit ${r.code}: ${stderrTail(r.stderr)}`);
  return parseCpuCapabilities(r.stdout, where);
}
