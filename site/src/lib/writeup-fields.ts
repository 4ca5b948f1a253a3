// The one place the home chart reads the write-ups' frontmatter: id, title, versions and the series keys
// they name (nothing else, so changes to the other fields never touch the home page).
import { getCollection } from 'astro:content';
import type { WriteupFields } from './model.ts';

export async function writeupFields(): Promise<WriteupFields[]> {
  return (await getCollection('writeups')).map((w) => ({
    id: w.id,
    title: w.data.title,
    versions: w.data.versions,
    seriesKeys: w.data.series.map((s) => s.key),
  }));
}
