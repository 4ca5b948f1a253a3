import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Summary } from '../../../schema/index.ts';
import { openSSLOnly } from './data.ts';
import { versionPages } from './model.ts';
import { releaseDate, versionRows } from './versions-list.ts';

const fixture = openSSLOnly(Summary.parse(JSON.parse(readFileSync(new URL('../../tests/fixtures/data/summary.json', import.meta.url), 'utf8'))));

test('release dates from version strings; none where the string has none', () => {
  assert.equal(releaseDate('OpenSSL 3.5.7 27 Oct 2026'), '2026-10-27');
  assert.equal(releaseDate('OpenSSL 3.0.2 15 Mar 2022 (Library: OpenSSL 3.0.2 15 Mar 2022)'), '2022-03-15');
  assert.equal(releaseDate('OpenSSL 1.1.1w  11 Sep 2023'), '2023-09-11');
  assert.equal(releaseDate('OpenSSL 3.6.0-dev '), null);
});

test('every row of the list takes its headline from one machine', () => {
  const pages = versionPages(fixture);
  const { host, rows } = versionRows(fixture, pages);
  assert.equal(rows.length, pages.length);
  assert.ok(
    rows.some((r) => r.headline),
    'the fixture has handshake headlines',
  );
  for (const r of rows) if (r.headline) assert.equal(r.headline.entry.host, host);
});
