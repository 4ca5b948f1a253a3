// Naming builds, the one place: URL slugs, variants and versions in words, the label pages and logs use.
import type { Library } from '../schema/index.ts';
import { LIBRARIES, LIBRARY_NAMES } from './libraries.ts';

type Named = { library?: Library; version: string; variant: string };

/** URL slug and comparison key of a build: "3.5.7", "3.5.7-no-ml-kem", "aws-lc-5.12.0", "wolfssl-5.9.4-no-perf-options". */
export function buildSlug(b: Named): string {
  const lib = b.library && b.library !== 'openssl' ? `${b.library}-` : '';
  return `${lib}${b.version}${b.variant === 'default' ? '' : `-${b.variant}`}`;
}

/** What a variant leaves out, in words (each variant's `what`, in openssl.ts VARIANTS and libraries.ts LIBRARY_RELEASES, says how it is built). */
const VARIANT_WORDS: Record<string, string> = {
  'no-ml-kem': 'built without ML-KEM',
  // wolfSSL's WOLFSSL_PERFORMANCE turned off: SP maths (sp, sp-asm) and the Intel assembly (intelasm, aesni)
  'no-perf-options': 'without its SP-math, assembly and AES-NI options',
};

/** A variant in words: "" for the default, "no-ml-kem" -> "built without ML-KEM". */
export function variantWords(variant: string): string {
  if (variant === 'default') return '';
  const m = /^no-(.+)$/.exec(variant);
  return VARIANT_WORDS[variant] ?? (m ? `built without ${m[1]!.toUpperCase()}` : `${variant} build`);
}

/** A release's number as readers know it (LIBRARIES' releaseNumber: BoringSSL's identifier is read as its API version). */
export function versionWords(b: Named): string {
  return LIBRARIES[b.library ?? 'openssl'].releaseNumber?.(b.version) ?? b.version;
}

/**
 * How pages and logs name a build: "3.5.7", "3.5.7 built without ML-KEM", "AWS-LC 5.12.0", "BoringSSL API 44",
 * "wolfSSL 5.9.4 without its SP-math, assembly and AES-NI options". OpenSSL goes by its number alone.
 */
export function buildLabel(b: Named): string {
  const lib = b.library && b.library !== 'openssl' ? `${LIBRARY_NAMES[b.library]} ` : '';
  return `${lib}${versionWords(b)}${b.variant === 'default' ? '' : ` ${variantWords(b.variant)}`}`;
}
