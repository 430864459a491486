import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { searchDocs } from '../../src/docs/export';
import { restTable } from '../../src/rest/table';

/**
 * docs/search.md is made from the field lists (`npm run docs:search`, which also formats it); it
 * must say what they say. Table padding is prettier's, so lines are compared without it.
 */
const unpadded = (text: string) =>
  text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').replace(/-{3,}/g, '---').trim())
    .filter(Boolean);

describe('docs/search.md', () => {
  it('lists the fields the service filters and sorts on', async () => {
    const file = path.join(__dirname, '..', '..', 'docs', 'search.md');
    expect(unpadded(readFileSync(file, 'utf8'))).toEqual(unpadded(await searchDocs()));
  });

  it('names a REST dynamic search for each group that publishes one', async () => {
    const text = await searchDocs();
    const published = restTable.filter((r) => r.path.endsWith('/dynamic-search') && r.method === 'GET');
    expect(published.length).toBeGreaterThan(10);
    for (const r of published) if (r.field.startsWith('search')) expect(text).toContain(`\`${r.path}\``);
  });
});
