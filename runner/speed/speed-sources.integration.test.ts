// The facts speed.ts relies on, checked against apps/speed.c of every catalogue version whose source
// archive is in the download cache: which output format it prints, how it loops over AES-GCM and
// ChaCha20-Poly1305, that it divides by user CPU time, and its default buffer sizes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { VERSIONS } from '../../catalogue/index.ts';
import { cacheRoot, downloadsDir } from '../sources.ts';
import type { FormatName } from './formats.ts';
import { gcmLoop, speedFormat, type GcmLoop } from './speed.ts';
import { needs } from '../integration-needs.ts';

/** apps/speed.c of a version, extracted once from its verified archive into the cache; null if not downloaded. */
function speedSource(version: string): string | null {
  const v = VERSIONS.find((x) => x.version === version)!;
  for (const s of v.sources) {
    const archive = join(downloadsDir(), s.file);
    if (!existsSync(archive)) continue;
    const cached = join(cacheRoot(), 'extracted', `speed-${s.sha256.slice(0, 16)}.c`);
    if (!existsSync(cached)) {
      mkdirSync(join(cacheRoot(), 'extracted'), { recursive: true });
      writeFileSync(cached, execFileSync('tar', ['-xzOf', archive, `${s.root}/apps/speed.c`], { maxBuffer: 16 << 20 }));
    }
    return readFileSync(cached, 'utf8');
  }
  return null;
}

/** The -mr result lines a source prints, reduced to what tells the formats apart. */
export function formatOfSource(src: string): FormatName | null {
  const has = (s: string) => src.includes(`"${s}\\n"`);
  const rsa2 = has('+F2:%u:%u:%f:%f');
  const rsa4 = has('+F2:%u:%u:%f:%f:%f:%f');
  if (rsa2 && !src.includes('"+F7:')) return 'mr-1.1.1';
  if (rsa2 && has('+F7:%u:%u:%s:%f:%f') && has('+F8:%u:%u:%f:%f')) return 'mr-3.0';
  if (rsa4 && has('+F7:%u:%u:%s:%f:%f') && has('+F9:%u:%f:%f:%f') && has('+F10:%u:%f:%f:%f')) return 'mr-3.2';
  if (rsa4 && has('+F7:%u:%u:%f:%f') && has('+F8:%u:%f:%f:%f') && has('+F9:%u:%f:%f:%f') && !src.includes('"+F10:')) return 'mr-4.0';
  return null;
}

/** How `-evp <gcm>` loops without -aead: the ae_mode dispatch (per buffer) or the plain update loop. */
export function gcmLoopOfSource(src: string): GcmLoop | null {
  const dispatch = /if \(mode_op == EVP_CIPH_GCM_MODE[\s\S]{0,400}?loopfunc = EVP_Update_loop_aead_enc;/.test(src);
  if (dispatch) return 'per-buffer';
  // older: GCM falls through to EVP_Update_loop; only -aead selects the per-record loop
  const plain =
    /\(\*loopfunc\)\s*\(void \*\s*(args)?\)\s*=\s*EVP_Update_loop;/.test(src) && /else if \(aead && \(EVP_CIPHER_(get_)?flags\(evp_cipher\)/.test(src);
  return plain && !src.includes('EVP_Update_loop_aead_enc') ? 'stream' : null;
}

/** ChaCha20-Poly1305 (a stream-mode AEAD) is never in the ae_mode list: it streams in every version. */
function chachaStreams(src: string): boolean {
  const modes = /if \((mode_op == EVP_CIPH_\w+_MODE\s*(\|\|\s*)?)+\)\s*\{\s*ae_mode = 1;/.exec(src);
  return modes ? !/STREAM/.test(modes[0]) : gcmLoopOfSource(src) === 'stream';
}

describe('apps/speed.c of each catalogue version agrees with speed.ts', () => {
  for (const v of VERSIONS) {
    const src = speedSource(v.version);
    test(`${v.version}`, { skip: needs(src, `the source archive of ${v.version} is not downloaded`) }, () => {
      assert.equal(formatOfSource(src!), speedFormat(v.series), 'output format');
      assert.equal(gcmLoopOfSource(src!), gcmLoop(v.version, v.series), 'AES-GCM loop');
      assert.ok(chachaStreams(src!), 'ChaCha20-Poly1305 streams');
      assert.match(src!, /static int usertime = 1;/, 'divides by user CPU time by default');
      assert.match(src!, /lengths_list\[\] = \{\s*16, 64, 256, 1024, 8 \* 1024, 16 \* 1024\s*\}/, 'default sizes');
      // the spellings speed.ts passes: options and algorithm names
      for (const opt of ['mr', 'seconds', 'bytes', 'evp']) assert.match(src!, new RegExp(`\\{\\s*"${opt}",\\s*OPT_`), `option -${opt}`);
      for (const name of ['rsa2048', 'rsa3072', 'rsa4096', 'ecdsap256', 'ecdsap384', 'ecdhp256', 'ecdhx25519'])
        assert.match(src!, new RegExp(`\\{\\s*"${name}",`), `algorithm ${name}`);
    });
  }
});
