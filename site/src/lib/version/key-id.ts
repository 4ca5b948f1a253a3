// The short id of a long key (a series key, a table's contents) that table rows and caption ids carry instead of it.

/** A short, stable id of a series key (FNV-1a, 32 bits): rows carry it instead of the 150-character key. */
export function keyId(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
