// Which host ids are the project's own machines: the self-hosted bench runners (bench.yml) use ids with a
// reserved prefix, which submissions may not use. Imported by the submission check and by the site, whose
// default views open on a project machine. No dependencies: the site's browser scripts may import it.

/** Host ids with these prefixes (in any letter case) belong to the project's self-hosted runners and cannot be submitted. */
export const RESERVED_HOST_PREFIXES = ['obs-'];
export const isReservedHostId = (id: string) => RESERVED_HOST_PREFIXES.some((p) => id.toLowerCase().startsWith(p.toLowerCase()));

/** A host name as a reader tells it apart: letter case ignored, "_", "-" and "." read alike. */
const spelling = (name: string) => name.toLowerCase().replace(/[_.]/g, '-');
/** Most characters inserted, removed or replaced for a name to count as a lookalike of another. */
export const LOOKALIKE_DISTANCE = 2;

/** Levenshtein distance, stopped once it exceeds `limit` (names are short; this runs per known name). */
function distanceAtMost(a: string, b: string, limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit) return false;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...cur) > limit) return false;
    prev = cur;
  }
  return prev[b.length]! <= limit;
}

/**
 * Why a new `name` could be mistaken for a known host name or the reserved prefix, or null. A name that is
 * known already (exactly) is that host, never a lookalike, even beside names accepted before this rule.
 * "obs_devbox-2c" beside "obs-devbox-2c" would read as the project's machine on every page that names it.
 */
export function lookalikeOf(name: string, known: Iterable<string>): string | null {
  const names = [...known];
  if (names.includes(name)) return null;
  for (const other of names) {
    if (distanceAtMost(spelling(name), spelling(other), LOOKALIKE_DISTANCE))
      return `"${name}" looks like "${other}" (letter case, "_", "-" and "." aside, or ${LOOKALIKE_DISTANCE} or fewer characters changed)`;
  }
  const reserved = RESERVED_HOST_PREFIXES.find((p) => spelling(name).startsWith(spelling(p)));
  return reserved && !isReservedHostId(name) ? `"${name}" looks like the reserved prefix "${reserved}" (letter case, "_", "-" and "." aside)` : null;
}
