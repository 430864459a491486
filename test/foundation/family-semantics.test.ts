import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * The family semantics of docs/conventions.md (filters, sort, search, paging, CSV), exercised through
 * GraphQL's searchX / exportXCsv on the reference group "Products", which has text, number and
 * enum fields. The REST spellings of the same input (S6 query, S7 body) are tested with the
 * groups that document them.
 */
describe('dynamic search and CSV export', () => {
  let server: TestServer;
  let t: TestTenant;

  const search = async (input: object) => {
    const res = await t.client.graphql(
      `query($input: SearchInput) { searchProducts(input: $input) { totalElements totalPages number size numberOfElements first last sort { sorted } content { name brand unitPrice productType } } }`,
      { input },
    );
    return res;
  };
  const names = async (input: object) => {
    const res = await search(input);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.searchProducts.content.map((p: any) => p.name);
  };

  beforeAll(async () => {
    server = await startServer();
    t = await server.tenant('Search');
    const products = [
      { name: 'Oak plank', brand: 'Woody', unitPrice: 12.5, productType: 'RAW_MATERIAL', category: 'wood' },
      { name: 'Pine plank', brand: 'Woody', unitPrice: 7, productType: 'RAW_MATERIAL', category: 'wood' },
      {
        name: 'Steel beam',
        brand: 'Ironclad',
        unitPrice: 99,
        productType: 'RAW_MATERIAL',
        category: 'metal',
      },
      {
        name: 'Kitchen 100%_deluxe',
        brand: null,
        unitPrice: 1500,
        productType: 'FINISHED_GOOD',
        category: 'kitchen',
      },
      {
        name: '=HYPERLINK("http://evil")',
        brand: 'Evil, "Inc"',
        unitPrice: -1,
        productType: 'SERVICE',
        category: 'x',
      },
    ];
    for (const input of products) {
      const res = await t.client.graphql(
        `mutation($input: ProductInput!) { createProduct(input: $input) { id } }`,
        { input },
      );
      expect(res.body.errors).toBeUndefined();
    }
  });
  afterAll(() => server.close());

  it('each filter op selects what it says', async () => {
    const f = (field: string, op: string, value?: unknown) =>
      names({ filters: [{ field, op, value }], sort: [{ field: 'name', ascending: true }] });
    expect(await f('brand', 'eq', 'Woody')).toEqual(['Oak plank', 'Pine plank']);
    expect(await f('brand', 'ne', 'Woody')).toEqual([
      '=HYPERLINK("http://evil")',
      'Kitchen 100%_deluxe',
      'Steel beam',
    ]);
    expect(await f('unitPrice', 'gt', 12.5)).toEqual(['Kitchen 100%_deluxe', 'Steel beam']);
    expect(await f('unitPrice', 'gte', '12.5')).toEqual(['Kitchen 100%_deluxe', 'Oak plank', 'Steel beam']);
    expect(await f('unitPrice', 'lt', 7)).toEqual(['=HYPERLINK("http://evil")']);
    expect(await f('unitPrice', 'lte', 7)).toEqual(['=HYPERLINK("http://evil")', 'Pine plank']);
    expect(await f('productType', 'in', ['SERVICE', 'FINISHED_GOOD'])).toEqual([
      '=HYPERLINK("http://evil")',
      'Kitchen 100%_deluxe',
    ]);
    expect(await f('productType', 'in', 'SERVICE|FINISHED_GOOD')).toEqual([
      '=HYPERLINK("http://evil")',
      'Kitchen 100%_deluxe',
    ]);
    expect(await f('name', 'contains', 'PLANK')).toEqual(['Oak plank', 'Pine plank']);
    expect(await f('name', 'contains', '100%_')).toEqual(['Kitchen 100%_deluxe']);
    expect(await f('name', 'contains', '%')).toEqual(['Kitchen 100%_deluxe']);
    expect(await f('name', 'startsWith', 'st')).toEqual(['Steel beam']);
    expect(await f('brand', 'isNull')).toEqual(['Kitchen 100%_deluxe']);
    expect((await f('brand', 'notNull')).length).toBe(4);
  });

  it('several filters and search terms must all hold; terms match any searchable field', async () => {
    expect(await names({ search: ['woody', 'oak'] })).toEqual(['Oak plank']);
    expect(
      await names({ search: ['plank'], filters: [{ field: 'unitPrice', op: 'lt', value: 10 }] }),
    ).toEqual(['Pine plank']);
    expect(await names({ search: ["'; drop table product; --"] })).toEqual([]);
  });

  it('sorts by several keys and pages with stable arithmetic', async () => {
    const res = await search({
      sort: [
        { field: 'brand', ascending: false },
        { field: 'unitPrice', ascending: true },
      ],
      page: 1,
      size: 2,
    });
    const page = res.body.data.searchProducts;
    expect(page).toMatchObject({
      totalElements: 5,
      totalPages: 3,
      number: 1,
      size: 2,
      numberOfElements: 2,
      first: false,
      last: false,
      sort: { sorted: true },
    });
    const all = await names({
      sort: [
        { field: 'brand', ascending: false },
        { field: 'unitPrice', ascending: true },
      ],
      size: 10,
    });
    expect(page.content.map((p: any) => p.name)).toEqual(all.slice(2, 4));
  });

  it('unknown fields, ops, sort keys and wrong value types are errors naming the culprit', async () => {
    const cases: [object, string][] = [
      [{ filters: [{ field: 'nope', op: 'eq', value: 1 }] }, 'nope'],
      [{ filters: [{ field: 'unitPrice', op: 'eq', value: 'cheap' }] }, 'unitPrice'],
      [{ filters: [{ field: 'productType', op: 'eq', value: 'GADGET' }] }, 'productType'],
      [{ filters: [{ field: 'productType', op: 'gt', value: 'SERVICE' }] }, 'productType'],
      [{ filters: [{ field: 'unitPrice', op: 'contains', value: '1' }] }, 'unitPrice'],
      [{ sort: [{ field: 'secret', ascending: true }] }, 'secret'],
      [{ size: 1001 }, 'size'],
      [{ page: -1 }, 'page'],
    ];
    for (const [input, culprit] of cases) {
      const res = await search(input);
      expect(res.body.errors?.[0].extensions?.status).toBe(400);
      expect(res.body.errors?.[0].message).toContain(culprit);
    }
    const badOp = await search({ filters: [{ field: 'name', op: 'like', value: 'x' }] });
    expect(res400(badOp)).toBe(true);
  });

  it('CSV: a header of stored fields, RFC 4180 quoting, formula cells neutralised', async () => {
    const res = await t.client.graphql(`query($input: SearchInput) { exportProductsCsv(input: $input) }`, {
      input: { sort: [{ field: 'name', ascending: true }] },
    });
    const csv: string = res.body.data.exportProductsCsv;
    const lines = csv.split('\r\n');
    const header = lines[0].split(',');
    expect(header).toEqual(
      expect.arrayContaining([
        'id',
        'tenantId',
        'name',
        'brand',
        'unitPrice',
        'baseUnit.unit',
        'baseUnit.isBaseUnit',
        'unitsOfMeasurement',
        'created',
      ]),
    );
    // Neither the row version nor the events list (a record's events are its history, not a column).
    expect(header).not.toContain('version');
    expect(header).not.toContain('events');
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(csv).toContain(`"Evil, ""Inc"""`);
    expect(csv).toContain(`'-1`);
    expect(lines.filter((l) => l.length > 0)).toHaveLength(6);
  });
});

function res400(res: { status: number; body: any }): boolean {
  return res.status === 400 || res.body.errors?.[0]?.extensions?.status === 400;
}
