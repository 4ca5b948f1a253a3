// The field types every schema file builds on, and the error a data file's reader raises.
import { z } from 'zod';

/** A finite number: NaN and ±Infinity are refused everywhere (JSON cannot carry them honestly). */
export const finite = z.number().refine(Number.isFinite, { message: 'must be a finite number' });
export const nonNegative = finite.refine((v) => v >= 0, { message: 'must be >= 0' });
export const isoTime = z.iso.datetime({ offset: true });
export const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits (sha256)');
/** Identifiers end up in paths and URLs: keep them to a safe alphabet. */
export const safeId = z
  .string()
  .min(1)
  .max(120)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'only letters, digits, ".", "_" and "-", not starting with a symbol');
/** Free text shown on the site: bounded, no control characters (the site escapes it anyway). */
export const shortText = (max = 500) =>
  z
    .string()
    .max(max)
    .refine((s) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(s), { message: 'must not contain control characters' });

export class DataFileError extends Error {}

/** "series.3.iterations.0.value: must be a finite number" — the JSON path first, as users search for it. */
export function describeIssues(error: z.ZodError, max = 8): string {
  const lines = error.issues.slice(0, max).map((i) => `  ${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
  if (error.issues.length > max) lines.push(`  ... and ${error.issues.length - max} more`);
  return lines.join('\n');
}
