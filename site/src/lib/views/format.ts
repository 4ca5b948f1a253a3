// A downloadable view ("Download this view"): a table's title, columns and raw rows (full precision, base
// units; the page formats them), its address under /data/views/<id>.csv|json, and its CSV and JSON text.
import { toCsv } from '../format.ts';
import { url } from '../url.ts';

export interface View {
  /** path under /data/views/, without extension */
  id: string;
  title: string;
  columns: string[];
  rows: unknown[][];
}

export const viewHref = (id: string, format: 'csv' | 'json'): string => url(`/data/views/${id}.${format}`);

export function viewCsv(v: View): string {
  return toCsv(v.columns, v.rows);
}

/** JSON: the title, and one object per row keyed by column. */
export function viewJson(v: View): string {
  return JSON.stringify({ title: v.title, rows: v.rows.map((r) => Object.fromEntries(v.columns.map((c, i) => [c, r[i] ?? null]))) });
}
