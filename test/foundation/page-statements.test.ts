import { RawQueryFragment } from '@mikro-orm/core';
import { QueryBuilder } from '@mikro-orm/knex';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * A page's statement is made by MikroORM's query builders once per shape of the search (its
 * filters' fields and operators, its sort, its page size, the presence of an offset) and later
 * requests bind their own values to it (src/db/orm-bypass/detached.ts, pageRows). What must hold: every
 * request gets its own values, tenant and page, whatever request made the statement; a search
 * whose values cannot be placed for certainty is built afresh and still right; nothing piles up.
 */
describe('page statements made once per search shape', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;
  let builds: jest.SpyInstance;

  const names = (res: { body: { content: { name: string }[] } }) => res.body.content.map((f) => f.name);

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Shapes A');
    b = await server.tenant('Shapes B');
    for (const [client, name, points, status] of [
      [a.client, 'Alpha', 1, 'READY'],
      [a.client, 'Beta', 2, 'READY'],
      [a.client, 'Gamma', 3, 'BACKLOG'],
      [a.client, 'Delta', 3, 'READY'],
      [b.client, 'Beta', 2, 'READY'],
      [b.client, 'Other', 5, 'READY'],
    ] as const) {
      const res = await client.post('/hr/features', { name, estimatedPoints: points, status });
      expect(res.status).toBe(201);
    }
    builds = jest.spyOn(QueryBuilder.prototype, 'getKnexQuery');
  });
  afterAll(async () => {
    builds.mockRestore();
    await server.close();
  });

  const search = (client: TestTenant['client'], query: string) =>
    client.get(`/hr/features/dynamic-search?${query}`);

  it('a second search of the same shape binds its own values without building', async () => {
    const first = await search(a.client, 'filters=name:eq:Alpha&sort=name,asc&size=10');
    expect(names(first)).toEqual(['Alpha']);
    builds.mockClear();
    const second = await search(a.client, 'filters=name:eq:Beta&sort=name,asc&size=10');
    expect(names(second)).toEqual(['Beta']);
    expect(second.body.totalElements).toBe(1);
    expect(builds).not.toHaveBeenCalled();
  });

  it("another tenant's request of the same shape sees its own records only", async () => {
    await search(a.client, 'filters=estimatedPoints:gte:2&sort=name,asc&size=10');
    builds.mockClear();
    const theirs = await search(b.client, 'filters=estimatedPoints:gte:2&sort=name,asc&size=10');
    expect(names(theirs)).toEqual(['Beta', 'Other']);
    expect(builds).not.toHaveBeenCalled();
    const ours = await search(a.client, 'filters=estimatedPoints:gte:3&sort=name,asc&size=10');
    expect(names(ours)).toEqual(['Delta', 'Gamma']);
  });

  it('the offset is bound per request; the page size is part of the shape', async () => {
    await search(a.client, 'sort=name,asc&size=1&page=1');
    builds.mockClear();
    const page = await search(a.client, 'sort=name,asc&size=1&page=2');
    expect(names(page)).toEqual(['Delta']);
    expect(page.body.totalElements).toBe(4);
    expect(builds).not.toHaveBeenCalled();
    // Another size is another statement (generic-plans.test.ts says why), with the right rows.
    const larger = await search(a.client, 'sort=name,asc&size=2&page=1');
    expect(names(larger)).toEqual(['Delta', 'Gamma']);
    expect(builds).toHaveBeenCalled();
    // The first page has no offset: another statement, and the right rows.
    expect(names(await search(a.client, 'sort=name,asc&size=3'))).toEqual(['Alpha', 'Beta', 'Delta']);
  });

  it('a search whose values repeat is built afresh, and answers right', async () => {
    // Two values alike cannot be told apart in the built statement's parameters.
    const query = (n: number) => `filters=estimatedPoints:gte:${n}&filters=estimatedPoints:lte:${n}&size=10`;
    expect(names(await search(a.client, query(2)))).toEqual(['Beta']);
    builds.mockClear();
    const again = await search(a.client, query(3));
    expect(names(again).sort()).toEqual(['Delta', 'Gamma']);
    expect(builds).toHaveBeenCalled();
  });

  it('filters and sorts on derived values keep no raw fragment behind', async () => {
    const query = (n: number) =>
      `filters=taskCount:gte:${n}&filters=status:eq:READY&sort=progress,desc&size=5`;
    await search(a.client, query(0));
    const before = RawQueryFragment.checkCacheSize();
    for (let i = 0; i < 5; i++) {
      const res = await search(a.client, query(i));
      expect(res.status).toBe(200);
      expect(res.body.totalElements).toBe(i === 0 ? 3 : 0);
    }
    expect(RawQueryFragment.checkCacheSize()).toBe(before);
  });
});
