// GitHub workflows read by the `yaml` package into a plain tree with line numbers, for the project's
// workflow rules (check-workflows.ts). Every scalar stays the text it was written as (the failsafe
// schema: `false` is "false", `~` is "~"). What yaml finds wrong (a tab in the indentation, a key twice
// in one mapping, several documents) is refused with its line, and so are anchors, aliases, tags and
// merge keys, which the rules would have to resolve as GitHub does: a security lint must not guess what
// GitHub would read, so it fails closed.
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

export type YamlNode = YamlScalar | YamlSeq | YamlMap;
export interface YamlScalar {
  kind: 'scalar';
  value: string;
  line: number;
}
export interface YamlSeq {
  kind: 'seq';
  items: YamlNode[];
  line: number;
}
export interface YamlMap {
  kind: 'map';
  entries: { key: string; value: YamlNode; line: number }[];
  line: number;
}

export class YamlSubsetError extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(message);
    this.line = line;
  }
}

export function parseWorkflowYaml(text: string): YamlNode {
  const counter = new LineCounter();
  const doc = parseDocument(text, { schema: 'failsafe', lineCounter: counter, prettyErrors: false });
  const lineOf = (offset: number) => counter.linePos(offset).line;
  const [error] = doc.errors;
  if (error) throw new YamlSubsetError(lineOf(error.pos[0]), error.message);
  const refuse = (node: Node): never => {
    throw new YamlSubsetError(
      lineOf(node.range?.[0] ?? 0),
      `anchors, aliases and tags (${isAlias(node) ? `*${node.source}` : node.anchor ? `&${node.anchor}` : node.tag}) are not read`,
    );
  };
  const tree = (node: unknown, line: number): YamlNode => {
    if (node === null || node === undefined) return { kind: 'scalar', value: '', line };
    const n = node as Node;
    if (isAlias(n) || n.anchor || n.tag) return refuse(n);
    // an empty value (`pull_request:`) is on the line of its key
    const at = n.range && n.range[0] < n.range[1] ? lineOf(n.range[0]) : line;
    if (isScalar(n)) return { kind: 'scalar', value: String(n.value), line: at };
    if (isSeq(n)) return { kind: 'seq', items: n.items.map((item) => tree(item, at)), line: at };
    if (!isMap(n)) throw new YamlSubsetError(at, 'a node yaml does not describe');
    const entries = n.items.map((pair) => {
      const key = tree(pair.key, at);
      if (key.kind !== 'scalar') throw new YamlSubsetError(key.line, 'a mapping key that is not a scalar');
      if (key.value === '<<') throw new YamlSubsetError(key.line, 'merge keys (<<) are not read');
      return { key: key.value, value: tree(pair.value, key.line), line: key.line };
    });
    return { kind: 'map', entries, line: at };
  };
  return doc.contents === null ? { kind: 'map', entries: [], line: 1 } : tree(doc.contents, 1);
}

/** The value under a key of a mapping (undefined for anything else). */
export function get(node: YamlNode | undefined, key: string): YamlNode | undefined {
  return node?.kind === 'map' ? node.entries.find((e) => e.key === key)?.value : undefined;
}

/** Every scalar in a tree, with its line. */
export function scalars(node: YamlNode): YamlScalar[] {
  if (node.kind === 'scalar') return [node];
  if (node.kind === 'seq') return node.items.flatMap(scalars);
  return node.entries.flatMap((e) => [{ kind: 'scalar' as const, value: e.key, line: e.line }, ...scalars(e.value)]);
}
