// A few lines to write SVG as text, so one drawing function serves the build (static HTML, the no-JS
// view) and the browser (redrawn at the container's width). No DOM needed.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
export const esc = (s: string | number) => String(s).replace(/[&<>"]/g, (c) => ENTITIES[c]!);

type Attrs = Record<string, string | number | boolean | null | undefined>;

/** <name attrs>children</name>; attributes that are null, undefined or false are left out. */
export function tag(name: string, attrs: Attrs, ...children: string[]): string {
  const a = Object.entries(attrs)
    .filter(([, v]) => v !== null && v !== undefined && v !== false)
    .map(([k, v]) => (v === true ? ` ${k}` : ` ${k}="${esc(v as string | number)}"`))
    .join('');
  return children.length ? `<${name}${a}>${children.join('')}</${name}>` : `<${name}${a}/>`;
}

/** Round coordinates to 0.1 px: shorter markup, no visible difference. */
export const px = (v: number) => Math.round(v * 10) / 10;
