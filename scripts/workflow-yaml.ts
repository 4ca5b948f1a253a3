// The plain block YAML GitHub workflows are written in, read into a tree with line numbers, for the
// project's workflow rules (check-workflows.ts). It reads block mappings and sequences, one-line flow
// collections, quoted and plain scalars, block scalars (| and >) and comments. Anything else (anchors,
// aliases, tags, merge keys, several documents, flow collections over several lines) is refused with
// its line: a security lint must not guess what GitHub would read, so it fails closed.

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

interface Line {
  no: number;
  indent: number;
  /** without indentation and trailing comment */
  text: string;
  raw: string;
}

/** The text of a line up to a comment (a # at the start or after a space, outside quotes). */
function stripComment(s: string): string {
  let quote: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === quote) quote = quote === "'" && s[i + 1] === "'" ? (i++, quote) : null;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === '"' || c === "'") {
      // a quote only opens a string at the start of a value, not inside a plain scalar (it's)
      if (i === 0 || /[\s,[{:-]/.test(s[i - 1]!)) quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(s[i - 1]!))) return s.slice(0, i).trimEnd();
  }
  return s.trimEnd();
}

export function parseWorkflowYaml(text: string): YamlNode {
  const raw = text.replace(/\r\n/g, '\n').split('\n');
  const lines: Line[] = raw.map((r, i) => {
    if (/^\t/.test(r)) throw new YamlSubsetError(i + 1, 'a tab in the indentation');
    const indent = r.length - r.trimStart().length;
    return { no: i + 1, indent, text: stripComment(r.trimStart()), raw: r };
  });
  let i = 0;
  const skipBlank = () => {
    while (i < lines.length && lines[i]!.text === '') i++;
  };
  const fail = (line: number, message: string): never => {
    throw new YamlSubsetError(line, message);
  };

  function blockScalar(header: string, parentIndent: number, line: number): YamlScalar {
    if (!/^[|>][-+]?$/.test(header)) fail(line, `block scalar header "${header}" (only |, |-, |+, >, >-, >+)`);
    const body: string[] = [];
    let indent = -1;
    while (i < lines.length) {
      const l = lines[i]!;
      if (l.raw.trim() === '') {
        body.push('');
        i++;
        continue;
      }
      if (l.indent <= parentIndent) break;
      if (indent < 0) indent = l.indent;
      if (l.indent < indent) fail(l.no, 'a block scalar line indented less than its first line');
      body.push(l.raw.slice(indent));
      i++;
    }
    while (body.length && body[body.length - 1] === '') body.pop();
    const text = header.startsWith('>') ? body.join('\n').replace(/([^\n])\n(?=[^\n])/g, '$1 ') : body.join('\n');
    return { kind: 'scalar', value: header.endsWith('-') ? text : `${text}\n`, line };
  }

  /** A value written on the line of its key or dash: scalar, flow collection or block scalar header. */
  function inline(s: string, line: number, parentIndent: number): YamlNode {
    if (/^[&*!]/.test(s)) fail(line, `anchors, aliases and tags ("${s.slice(0, 20)}") are not read`);
    if (s.startsWith('|') || s.startsWith('>')) return blockScalar(s, parentIndent, line);
    if (s.startsWith('[') || s.startsWith('{')) {
      const { node, rest } = flow(s, line);
      if (rest.trim() !== '') fail(line, `text after a flow collection: "${rest.trim()}"`);
      return node;
    }
    let value = scalar(s, line);
    // a plain scalar may continue on more indented lines (folded with spaces)
    while (!/^["']/.test(s) && i < lines.length && lines[i]!.text !== '' && lines[i]!.indent > parentIndent && !/^(-\s|-$)|^[^\s"'][^:]*:(\s|$)/.test(lines[i]!.text)) {
      value += ` ${lines[i]!.text}`;
      i++;
    }
    return { kind: 'scalar', value, line };
  }

  function scalar(s: string, line: number): string {
    if (s.startsWith('"')) {
      if (!/^"(?:[^"\\]|\\.)*"$/.test(s)) fail(line, 'a double-quoted string that does not end on its line');
      try {
        return JSON.parse(s) as string;
      } catch {
        return fail(line, `an escape JSON does not know in ${s}`);
      }
    }
    if (s.startsWith("'")) {
      if (!/^'(?:[^']|'')*'$/.test(s)) fail(line, 'a single-quoted string that does not end on its line');
      return s.slice(1, -1).replace(/''/g, "'");
    }
    return s;
  }

  /** A one-line flow collection: [a, 'b', {c: d}] or {a: b}. */
  function flow(s: string, line: number): { node: YamlNode; rest: string } {
    const open = s[0]!;
    const close = open === '[' ? ']' : '}';
    let rest = s.slice(1).trimStart();
    const items: YamlNode[] = [];
    const entries: YamlMap['entries'] = [];
    const item = (): { node: YamlNode; rest: string } => {
      if (rest.startsWith('[') || rest.startsWith('{')) return flow(rest, line);
      let j = 0;
      if (rest[0] === '"' || rest[0] === "'") {
        const q = rest[0];
        j = 1;
        while (j < rest.length && rest[j] !== q) j += rest[j] === '\\' && q === '"' ? 2 : rest[j] === "'" && rest[j + 1] === "'" ? 2 : 1;
        j++;
      } else {
        // plain: up to , ] } or ": " (expressions ${{ }} keep their braces)
        let depth = 0;
        while (j < rest.length) {
          if (rest.startsWith('${{', j)) depth++, (j += 3);
          else if (depth && rest.startsWith('}}', j)) depth--, (j += 2);
          else if (!depth && (rest[j] === ',' || rest[j] === ']' || rest[j] === '}' || (rest[j] === ':' && /\s/.test(rest[j + 1] ?? ' ')))) break;
          else j++;
        }
      }
      const token = rest.slice(0, j).trim();
      if (/^[&*!]/.test(token)) fail(line, `anchors, aliases and tags ("${token}") are not read`);
      return { node: { kind: 'scalar', value: scalar(token, line), line }, rest: rest.slice(j) };
    };
    while (!rest.startsWith(close)) {
      if (rest === '') fail(line, 'a flow collection that does not end on its line');
      if (open === '[') {
        const r = item();
        items.push(r.node);
        rest = r.rest.trimStart();
      } else {
        const k = item();
        rest = k.rest.trimStart();
        if (k.node.kind !== 'scalar' || !rest.startsWith(':')) fail(line, 'a flow mapping entry without "key: value"');
        rest = rest.slice(1).trimStart();
        const v = item();
        entries.push({ key: (k.node as YamlScalar).value, value: v.node, line });
        rest = v.rest.trimStart();
      }
      if (rest.startsWith(',')) rest = rest.slice(1).trimStart();
      else if (!rest.startsWith(close)) fail(line, `expected "," or "${close}" in a flow collection`);
    }
    return { node: open === '[' ? { kind: 'seq', items, line } : { kind: 'map', entries, line }, rest: rest.slice(1) };
  }

  /** The key of a "key: value" or "key:" line, and what follows it. */
  function keyOf(text: string, line: number): { key: string; rest: string } | null {
    const quoted = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*')\s*:(\s+|$)/.exec(text);
    if (quoted) return { key: scalar(quoted[1]!, line), rest: text.slice(quoted[0].length) };
    const plain = /^([^\s"'#[\]{},&*!|>][^:]*?)\s*:(\s+|$)/.exec(text);
    if (plain) return { key: plain[1]!, rest: text.slice(plain[0].length) };
    return null;
  }

  function block(indent: number): YamlNode {
    skipBlank();
    const first = lines[i]!;
    if (/^-(\s|$)/.test(first.text)) return sequence(first.indent);
    if (keyOf(first.text, first.no)) return mapping(first.indent);
    i++;
    return inline(first.text, first.no, indent - 1);
  }

  function sequence(indent: number): YamlSeq {
    const node: YamlSeq = { kind: 'seq', items: [], line: lines[i]!.no };
    for (skipBlank(); i < lines.length; skipBlank()) {
      const l = lines[i]!;
      if (l.indent < indent) break;
      if (l.indent > indent) fail(l.no, 'unexpected indentation in a sequence');
      if (!/^-(\s|$)/.test(l.text)) break;
      const rest = l.text.slice(1).trimStart();
      if (rest === '') {
        i++;
        skipBlank();
        if (i >= lines.length || lines[i]!.indent <= indent) fail(l.no, 'an empty sequence item');
        node.items.push(block(lines[i]!.indent));
        continue;
      }
      // "- key: value" opens a mapping whose keys line up with "key"
      const contentIndent = l.indent + (l.text.length - rest.length);
      if (keyOf(rest, l.no)) {
        lines[i] = { ...l, indent: contentIndent, text: rest };
        node.items.push(mapping(contentIndent));
      } else {
        i++;
        node.items.push(inline(rest, l.no, indent));
      }
    }
    return node;
  }

  function mapping(indent: number): YamlMap {
    const node: YamlMap = { kind: 'map', entries: [], line: lines[i]!.no };
    for (skipBlank(); i < lines.length; skipBlank()) {
      const l = lines[i]!;
      if (l.indent < indent) break;
      if (l.indent > indent) fail(l.no, 'unexpected indentation in a mapping');
      if (/^-(\s|$)/.test(l.text)) break;
      if (l.text === '---' || l.text === '...') fail(l.no, 'several YAML documents in one file');
      const kv = keyOf(l.text, l.no);
      if (!kv) fail(l.no, `expected "key: value", got "${l.text.slice(0, 40)}"`);
      const { key, rest } = kv!;
      if (key === '<<') fail(l.no, 'merge keys (<<) are not read');
      if (node.entries.some((e) => e.key === key)) fail(l.no, `key "${key}" appears twice in one mapping`);
      i++;
      let value: YamlNode;
      if (rest !== '') value = inline(rest, l.no, indent);
      else {
        skipBlank();
        const next = lines[i];
        if (next && next.indent > indent) value = block(next.indent);
        else if (next && next.indent === indent && /^-(\s|$)/.test(next.text)) value = sequence(indent);
        else value = { kind: 'scalar', value: '', line: l.no };
      }
      node.entries.push({ key, value, line: l.no });
    }
    return node;
  }

  skipBlank();
  if (i >= lines.length) return { kind: 'map', entries: [], line: 1 };
  if (lines[i]!.text === '---') i++;
  const root = block(lines[i]?.indent ?? 0);
  skipBlank();
  if (i < lines.length) fail(lines[i]!.no, lines[i]!.text === '---' ? 'several YAML documents in one file' : 'text after the end of the document');
  return root;
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
