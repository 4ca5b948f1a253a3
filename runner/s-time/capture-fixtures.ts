// Capture real s_server/s_time/s_client output from built versions into fixtures/<version>/<case>.json:
//   node runner/s-time/capture-fixtures.ts [--case NAME] [VERSION...]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireBuilds } from '../build/cache.ts';
import { ensureCerts } from '../handshake/invoke.ts';
import { runSTime, sTimeHasProtocolOptions, type STimeConfig } from './s-time.ts';

export const FIXTURE_DIR = fileURLToPath(new URL('./fixtures/', import.meta.url));
export const CASES: Record<string, STimeConfig & { www?: string }> = {
  'tls1.3-ecdsa-p256': { proto: '1.3', cert: 'ecdsa-p256', forced: 'server' },
  'tls1.2-ecdsa-p256': { proto: '1.2', cert: 'ecdsa-p256', forced: 'server' },
  'tls1.2-ecdsa-p256-both': { proto: '1.2', cert: 'ecdsa-p256', forced: 'both' },
  // s_time reading s_server's status page from every connection: its byte counts are not zero
  'tls1.2-ecdsa-p256-www': { proto: '1.2', cert: 'ecdsa-p256', forced: 'server', www: '/' },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const only = args[0] === '--case' ? args[1] : undefined;
  const versions = only ? args.slice(2) : args;
  const builds = requireBuilds(versions);
  for (const b of builds) {
    await ensureCerts(b);
    mkdirSync(join(FIXTURE_DIR, b.record.version), { recursive: true });
    for (const [name, cfg] of Object.entries(CASES)) {
      if (only && name !== only) continue;
      if (cfg.forced === 'both' && !(await sTimeHasProtocolOptions(b.prefix))) continue;
      const run = await runSTime(b.prefix, cfg, 1, cfg.www);
      writeFileSync(join(FIXTURE_DIR, b.record.version, `${name}.json`), JSON.stringify({ version: b.record.version, ...cfg, ...run }, null, 2) + '\n');
      console.log(`${b.record.version} ${name}: s_time exit ${run.exitCode}`);
    }
  }
}
