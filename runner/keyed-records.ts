// Records kept per machine in the build cache under a key, one JSON file per key named by the key's
// sha256 (the deterministic reuse cache, runner/deterministic.ts; the task times, runner/task-times.ts).
// The key's fields are hashed in a fixed order, so the name does not depend on how the object was built;
// a record is found only under the key it was written with, and only when it passes its reader's check.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileDurably } from '../schema/index.ts';
import { cacheRoot } from './sources.ts';

export interface KeyedRecords<K extends { machine: string }, R> {
  /** the folder of a machine's records */
  dir(machine: string): string;
  /** the sha256 of the key's fields in order */
  keySha256(k: K): string;
  /** the record written under this key, or undefined (none, unreadable, written under another key, or failing `valid`) */
  find(k: K): (R & { keySha256: string }) | undefined;
  /** write a record under the key (the key and its sha256 are stored with it) */
  write(k: K, body: R): void;
}

export function keyedRecords<K extends { machine: string }, R>(folder: string, fields: (k: K) => unknown[], valid: (r: R) => boolean): KeyedRecords<K, R> {
  const dir = (machine: string) => join(cacheRoot(), folder, machine);
  const keySha256 = (k: K) =>
    createHash('sha256')
      .update(JSON.stringify(fields(k)))
      .digest('hex');
  const pathOf = (k: K) => join(dir(k.machine), `${keySha256(k)}.json`);
  return {
    dir,
    keySha256,
    find(k) {
      const path = pathOf(k);
      if (!existsSync(path)) return undefined;
      try {
        const r = JSON.parse(readFileSync(path, 'utf8')) as R & { keySha256: string };
        return r.keySha256 === keySha256(k) && valid(r) ? r : undefined;
      } catch {
        return undefined;
      }
    },
    write(k, body) {
      mkdirSync(dir(k.machine), { recursive: true });
      writeFileDurably(pathOf(k), JSON.stringify({ key: k, keySha256: keySha256(k), ...body }) + '\n');
    },
  };
}
