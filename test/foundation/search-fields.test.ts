import { getNamedType, isObjectType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { buildBareSchema } from '../../src/app-schema';
import { appGroups as groups } from '../../src/app-modules';
import { restTable } from '../../src/rest/table';
import { filterableFields, isSortable, OPS_BY_KIND, type DocumentedField } from '../../src/family/fields';
import { recordType } from '../../src/family/record-types';
import { recordInput } from '../support/record-inputs';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * Every documented field of every group filters and sorts, generated from the field lists
 * (src/family/fields.ts): for each group, three records are made through the API, and for each
 * field the filters and sorts that fit its kind are checked against the values the API answers
 * for those same records, so a derived value computed in SQL must agree with its resolver. A list
 * of objects and each path into its elements are checked as "some element matches" against the
 * lists answered, and refused as sort keys. The REST forms (GET and POST dynamic search) run once
 * per group that publishes them.
 */

type Row = Record<string, unknown>;
/** A search and what must hold of the records it finds. */
type Check = { input: object; holds: (found: Row[]) => void };
const RECORDS = 3;
const UNKNOWN = '6a1e7d1c-3b0b-4a7e-9d6f-00000000abcd';

/** A field's value in an answer: dot paths (`customer.name`) read the nested object. */
const at = (row: Row, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v == null ? null : (v as Row)[k]), row);

/** Every scalar under an object type, as a GraphQL selection (JSON fields are answered whole). */
function leaves(type: GraphQLObjectType, depth = 0): string {
  return Object.values(type.getFields())
    .filter((f) => f.args.length === 0)
    .map((f) => {
      const named = getNamedType(f.type);
      if (!isObjectType(named)) return f.name;
      return depth < 3 ? `${f.name} { ${leaves(named, depth + 1)} }` : '';
    })
    .filter(Boolean)
    .join(' ');
}

/** The selection that answers every field of `fields` (dot paths as nested selections). */
function selection(record: GraphQLObjectType, fields: readonly string[]): string {
  const nested = new Map<string, string[]>();
  for (const f of fields) {
    const [head, sub] = f.split('.');
    nested.set(head, [...(nested.get(head) ?? []), ...(sub ? [sub] : [])]);
  }
  return [...nested]
    .map(([head, subs]) => {
      const named = getNamedType(record.getFields()[head].type);
      if (!isObjectType(named)) return head;
      return `${head} { ${subs.length ? subs.join(' ') : leaves(named)} }`;
    })
    .join(' ');
}

/** A string inside a JSON value that its JSON text holds as written. */
function plainLeaf(value: unknown): string | undefined {
  if (typeof value === 'string') return /^[\w.-]{3,}$/.test(value) ? value : undefined;
  if (value && typeof value === 'object')
    for (const v of Object.values(value)) {
      const found = plainLeaf(v);
      if (found) return found;
    }
  return undefined;
}

/**
 * The values of a list's elements a path names (`rows.total`), or the elements of the list
 * itself, as the answer shows them; empty values left out.
 */
function elementValues(row: Row, field: DocumentedField): unknown[] {
  const list = (at(row, field.element!.list) as Row[] | null) ?? [];
  const sub = field.element!.field;
  return sub ? list.map((e) => e[sub]).filter((v) => v !== null && v !== undefined) : list;
}

const isEmpty = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && v.length === 0);

/** Compares two non-empty values of a field as the database orders them (the test's own data). */
function compare(field: DocumentedField, a: unknown, b: unknown): number {
  if (field.kind === 'datetime') return Date.parse(String(a)) - Date.parse(String(b));
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (field.kind === 'list' || field.kind === 'enum') return 0; // orders exist, checked by stability only
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

describe('every documented field filters and sorts', () => {
  let server: TestServer;
  let t: TestTenant;
  let schema: GraphQLSchema;
  const made = new Map<string, string[]>();

  beforeAll(async () => {
    server = await startServer();
    t = await server.tenant('Fields');
    schema = await buildBareSchema();
    // Every group's records first, in the groups' order, so links point at records made before
    // and derived counts (an epic's tasks) have something to count.
    for (const group of groups) await create(group);
    // Some hundred creates: beyond the default hook timeout on a machine busy with other work.
  }, 120_000);
  afterAll(() => server.close());

  async function create(group: (typeof groups)[number]): Promise<void> {
    const mutation = schema.getMutationType()!.getFields()[`create${group.name}`];
    const argType = mutation.args.find((a) => a.name === 'input')!.type;
    for (let i = 0; i < RECORDS; i++) {
      // The last record leaves its lists of objects empty, so "no element" has a record to find.
      for (const fill of [
        ...(i < RECORDS - 1 ? ['lists' as const] : []),
        'full' as const,
        'required' as const,
      ]) {
        const res = await t.client.graphql(
          `mutation($input: ${String(argType)}) { create${group.name}(input: $input) { id } }`,
          { input: recordInput(argType, i, fill, { ids: made, username: t.adminEmail }) },
        );
        if (!res.body.errors) {
          made.set(group.name, [...(made.get(group.name) ?? []), res.body.data[`create${group.name}`].id]);
          break;
        }
      }
    }
  }

  /** A tenant of its own, and a GraphQL call as its admin that must not fail. */
  async function tenantWithGql(name: string) {
    const d = await server.tenant(name);
    const gql = async (query: string, variables?: Record<string, unknown>) => {
      const res = await d.client.graphql(query, variables);
      expect(res.body.errors).toBeUndefined();
      return res.body.data;
    };
    return { d, gql };
  }

  async function search(group: (typeof groups)[number], fields: string[], inputs: object[]) {
    const select = selection(recordType(group.entity.name), fields);
    const query = `query(${inputs.map((_, i) => `$i${i}: SearchInput`).join(', ')}) { ${inputs
      .map((_, i) => `q${i}: search${group.plural}(input: $i${i}) { totalElements content { ${select} } }`)
      .join(' ')} }`;
    const variables = Object.fromEntries(inputs.map((v, i) => [`i${i}`, { size: 1000, ...v }]));
    const res = await t.client.graphql(query, variables);
    expect(res.body.errors).toBeUndefined();
    return inputs.map((_, i) => res.body.data[`q${i}`] as { totalElements: number; content: Row[] });
  }

  /** Runs `checks` on `f` as one request, naming the check that fails. */
  async function runChecks(group: (typeof groups)[number], f: string, names: string[], checks: Check[]) {
    const answers = await search(
      group,
      names,
      checks.map((c) => c.input),
    );
    answers.forEach((a, i) => {
      try {
        checks[i].holds(a.content);
        expect(a.totalElements).toBe(a.content.length);
      } catch (err) {
        throw new Error(`${group.name}.${f} ${JSON.stringify(checks[i].input)}: ${(err as Error).message}`);
      }
    });
  }

  /**
   * A list of objects, or a path into its elements: each op keeps the records some element of
   * which matches (the negative ops: none), checked against the lists the API answers; a sort on
   * it is a 400 naming it.
   */
  async function checkElements(
    group: (typeof groups)[number],
    field: DocumentedField,
    names: string[],
    rows: Row[],
  ): Promise<void> {
    const f = field.name;
    const key = (r: Row) => r.id as string;
    const ids = (found: Row[]) => found.map(key).sort();
    const some = (keep: (v: unknown) => boolean) =>
      rows
        .filter((r) => elementValues(r, field).some(keep))
        .map(key)
        .sort();
    const none = (keep: (v: unknown) => boolean) =>
      rows
        .filter((r) => !elementValues(r, field).some(keep))
        .map(key)
        .sort();
    const refused = await t.client.graphql(
      `query($i: SearchInput) { search${group.plural}(input: $i) { totalElements } }`,
      { i: { sort: [{ field: f, ascending: false }] } },
    );
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect(refused.body.errors?.[0]?.message).toContain(`'${f}'`);
    expect(refused.body.errors?.[0]?.message).toMatch(/not sorted/);

    const value = rows.flatMap((r) => elementValues(r, field))[0];
    const checks: { input: object; expected: string[] }[] = [
      { input: { filters: [{ field: f, op: 'notNull' }] }, expected: some(() => true) },
      { input: { filters: [{ field: f, op: 'isNull' }] }, expected: none(() => true) },
    ];
    if (field.element!.field && value !== undefined) {
      const ops = OPS_BY_KIND[field.kind] as readonly string[];
      if (field.kind === 'datetime') {
        const at = Date.parse(String(value));
        const time = (v: unknown) => Date.parse(String(v));
        checks.push({
          input: { filters: [{ field: f, op: 'gte', value }] },
          expected: some((v) => time(v) >= at),
        });
        checks.push({
          input: { filters: [{ field: f, op: 'lt', value }] },
          expected: some((v) => time(v) < at),
        });
      } else {
        checks.push({
          input: { filters: [{ field: f, op: 'eq', value }] },
          expected: some((v) => v === value),
        });
        checks.push({
          input: { filters: [{ field: f, op: 'ne', value }] },
          expected: none((v) => v === value),
        });
        checks.push({
          input: { filters: [{ field: f, op: 'in', value: [value, value] }] },
          expected: some((v) => v === value),
        });
        if (typeof value === 'number') {
          checks.push({
            input: { filters: [{ field: f, op: 'gt', value }] },
            expected: some((v) => (v as number) > value),
          });
          checks.push({
            input: { filters: [{ field: f, op: 'lte', value }] },
            expected: some((v) => (v as number) <= value),
          });
        }
        if (ops.includes('contains') && typeof value === 'string' && value.length > 2) {
          const part = value.slice(1, -1).toUpperCase();
          checks.push({
            input: { filters: [{ field: f, op: 'contains', value: part }] },
            expected: some((v) => String(v).toUpperCase().includes(part)),
          });
        }
      }
    }
    await runChecks(
      group,
      f,
      names,
      checks.map((c) => ({ input: c.input, holds: (found) => expect(ids(found)).toEqual(c.expected) })),
    );
  }

  it.each(groups.map((g) => [g.name, g] as const))('%s', async (_name, group) => {
    const fields = filterableFields(recordType(group.entity.name));
    const names = fields.map((f) => f.name);
    const [all] = await search(group, names, [{}]);
    const rows = all.content;
    // A coverage job needs a type with a static model, which no input here makes.
    if (group.name !== 'CoverageJob') expect(rows.length).toBeGreaterThanOrEqual(RECORDS);
    const key = (r: Row) => r.id as string;

    for (const field of fields.filter((x) => x.element)) await checkElements(group, field, names, rows);

    for (const field of fields.filter((x) => !x.element)) {
      const f = field.name;
      const sample = rows.find((r) => !isEmpty(at(r, f)));
      const value = sample ? at(sample, f) : undefined;
      const scalar = Array.isArray(value) ? value[0] : value;
      const checks: Check[] = [];
      const ids = (found: Row[]) => found.map(key).sort();
      const expected = (keep: (r: Row) => boolean) => rows.filter(keep).map(key).sort();

      checks.push({
        input: { filters: [{ field: f, op: 'isNull' }] },
        holds: (found) => expect(ids(found)).toEqual(expected((r) => isEmpty(at(r, f)))),
      });
      checks.push({
        input: { filters: [{ field: f, op: 'notNull' }] },
        holds: (found) => expect(ids(found)).toEqual(expected((r) => !isEmpty(at(r, f)))),
      });
      if (field.kind === 'json') {
        // A JSON field is refused as a sort key, and `contains` matches its JSON text.
        const refused = await t.client.graphql(
          `query($i: SearchInput) { search${group.plural}(input: $i) { totalElements } }`,
          { i: { sort: [{ field: f, ascending: true }] } },
        );
        expect(refused.body.errors?.[0]?.message).toMatch(/JSON field/);
        const leaf = plainLeaf(value);
        if (leaf)
          checks.push({
            input: { filters: [{ field: f, op: 'contains', value: leaf.toUpperCase() }] },
            holds: (found) =>
              expect(ids(found)).toEqual(
                expected((r) =>
                  JSON.stringify(at(r, f) ?? null)
                    .toUpperCase()
                    .includes(leaf.toUpperCase()),
                ),
              ),
          });
      }
      for (const ascending of field.kind === 'json' ? [] : [true, false]) {
        checks.push({
          input: { sort: [{ field: f, ascending }] },
          holds: (found) => {
            expect(ids(found)).toEqual(expected(() => true));
            const values = found.map((r) => at(r, f)).filter((v) => !isEmpty(v));
            for (let i = 1; i < values.length; i++) {
              const order = compare(field, values[i - 1], values[i]);
              expect(ascending ? order <= 0 : order >= 0).toBe(true);
            }
            // Nulls sort last ascending and first descending, as PostgreSQL orders them.
            const empties = found.map((r) => (at(r, f) === null || at(r, f) === undefined ? 1 : 0));
            const sorted = [...empties].sort((a, b) => (ascending ? a - b : b - a));
            if (field.kind !== 'list') expect(empties).toEqual(sorted);
          },
        });
      }
      if (sample && field.kind === 'list') {
        checks.push({
          input: { filters: [{ field: f, op: 'contains', value: scalar }] },
          holds: (found) =>
            expect(ids(found)).toEqual(
              expected((r) => Array.isArray(at(r, f)) && (at(r, f) as unknown[]).includes(scalar)),
            ),
        });
      } else if (sample && field.kind === 'datetime') {
        // Stored times carry microseconds the answer leaves out: compare from the millisecond.
        checks.push({
          input: { filters: [{ field: f, op: 'gte', value }] },
          holds: (found) =>
            expect(ids(found)).toEqual(
              expected((r) => !isEmpty(at(r, f)) && compare(field, at(r, f), value) >= 0),
            ),
        });
      } else if (sample && field.kind !== 'json') {
        checks.push({
          input: { filters: [{ field: f, op: 'eq', value }] },
          holds: (found) => expect(ids(found)).toEqual(expected((r) => at(r, f) === value)),
        });
        checks.push({
          input: { filters: [{ field: f, op: 'ne', value }] },
          holds: (found) => expect(ids(found)).toEqual(expected((r) => at(r, f) !== value)),
        });
        if (OPS_BY_KIND[field.kind].includes('gt' as never) && field.kind !== 'uuid') {
          checks.push({
            input: { filters: [{ field: f, op: 'gt', value }] },
            holds: (found) =>
              expect(ids(found)).toEqual(
                expected((r) => !isEmpty(at(r, f)) && compare(field, at(r, f), value) > 0),
              ),
          });
        }
        if (OPS_BY_KIND[field.kind].includes('contains' as never)) {
          const text = String(value);
          const part = text.slice(1, Math.max(2, text.length - 1)).toUpperCase();
          checks.push({
            input: { filters: [{ field: f, op: 'contains', value: part }] },
            holds: (found) =>
              expect(ids(found)).toEqual(
                expected((r) => !isEmpty(at(r, f)) && String(at(r, f)).toUpperCase().includes(part)),
              ),
          });
        }
      }
      await runChecks(group, f, names, checks);
    }

    // The REST forms, once per group that publishes them: an id found by a part of its text.
    const base = restTable
      .find(
        (r) =>
          r.method === 'GET' && r.field === `search${group.plural}` && r.path.endsWith('/dynamic-search'),
      )
      ?.path.replace(/^\/api\/v1/, '');
    const post = restTable.some(
      (r) => r.method === 'POST' && r.field === `search${group.plural}` && r.path === base,
    );
    if (base && rows.length > 0) {
      const id = key(rows[0]);
      const got = await t.client.get(
        `${base}?filters=${encodeURIComponent(`id:contains:${id.slice(9, 18).toUpperCase()}`)}&sort=created,desc`,
      );
      expect(got.status).toBe(200);
      expect(got.body.content.map(key)).toEqual([id]);
      if (post) {
        const posted = await t.client.post(base, {
          filters: { id: { startsWith: id.slice(0, 13) } },
          sort: [{ field: fields.filter((f) => isSortable(f)).pop()!.name, ascending: false }],
        });
        expect(posted.status).toBe(200);
        expect(posted.body.content.map(key)).toEqual([id]);
      }
    }
  });

  it("a linked record's scalars filter and sort by dot path; JSON fields filter only", async () => {
    const { d, gql } = await tenantWithGql('Links');
    const customer = async (name: string) =>
      (await gql(`mutation($n: String!) { createCustomer(input: { name: $n }) { id } }`, { n: name }))
        .createCustomer.id as string;
    const lead = async (input: Row) =>
      (await gql(`mutation($i: LeadInput!) { createLead(input: $i) { id } }`, { i: input })).createLead
        .id as string;
    const acme = await customer('Acme Corp');
    const zeta = await customer('Zeta Ltd');
    const l1 = await lead({ lastName: 'One', customerId: acme });
    const l2 = await lead({ lastName: 'Two', customerId: zeta });
    const l3 = await lead({ lastName: 'Three', customerId: acme });
    const l4 = await lead({ lastName: 'Four', address: { city: 'Utrecht', street: 'Oudegracht' } });
    const find = async (input: Row) =>
      (
        await gql(
          `query($i: SearchInput) { searchLeads(input: $i) { totalElements content { id customer { name } } } }`,
          { i: input },
        )
      ).searchLeads as {
        totalElements: number;
        content: { id: string; customer: { name: string } | null }[];
      };

    // A page of one whose total counts every match: the path is read in the statement that pages.
    const acmes = await find({
      filters: [{ field: 'customer.name', op: 'contains', value: 'ACME' }],
      sort: [{ field: 'lastName', ascending: true }],
      size: 1,
    });
    expect(acmes.totalElements).toBe(2);
    expect(acmes.content.map((l) => l.id)).toEqual([l1]);
    const byName = await find({ sort: [{ field: 'customer.name', ascending: false }] });
    // PostgreSQL puts nulls first when descending.
    expect(byName.content.map((l) => l.customer?.name ?? null)).toEqual([
      null,
      'Zeta Ltd',
      'Acme Corp',
      'Acme Corp',
    ]);
    expect((await find({ filters: [{ field: 'customer.id', op: 'eq', value: zeta }] })).content[0].id).toBe(
      l2,
    );
    expect(
      (await find({ filters: [{ field: 'customer.name', op: 'isNull' }] })).content.map((l) => l.id),
    ).toEqual([l4]);
    const inUtrecht = await find({ filters: [{ field: 'address', op: 'contains', value: 'utrecht' }] });
    expect(inUtrecht.content.map((l) => l.id)).toEqual([l4]);
    const noAddress = await find({ filters: [{ field: 'address', op: 'isNull' }] });
    expect(noAddress.content.map((l) => l.id).sort()).toEqual([l1, l2, l3].sort());

    const refused = async (input: Row, message: RegExp) => {
      const res = await d.client.graphql(
        `query($i: SearchInput) { searchLeads(input: $i) { totalElements } }`,
        { i: input },
      );
      expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
      expect(res.body.errors?.[0]?.message).toMatch(message);
    };
    await refused({ sort: [{ field: 'address' }] }, /JSON field/);
    await refused(
      { filters: [{ field: 'address', op: 'eq', value: 'x' }] },
      /does not apply to a json field/,
    );
    await refused({ filters: [{ field: 'customer', op: 'isNull' }] }, /customer\.name/);
    await refused({ filters: [{ field: 'customer.id', op: 'eq', value: 'acme' }] }, /is not an id/);
  });

  it('a linked record the caller may not see reads as no link in a search', async () => {
    const d = await server.tenant('HiddenLinks');
    const p1 = (await d.client.post('/hr/projects', { name: 'Seen' })).body;
    const p2 = (await d.client.post('/hr/projects', { name: 'Hidden' })).body;
    const seen = (await d.client.post('/hr/epics', { name: 'Seen epic', projectId: p1.id })).body;
    const hidden = (await d.client.post('/hr/epics', { name: 'Hidden epic', projectId: p2.id })).body;
    const f1 = (await d.client.post('/hr/features', { name: 'f1', epicId: seen.id })).body;
    const f2 = (await d.client.post('/hr/features', { name: 'f2', epicId: hidden.id })).body;
    const user = await d.userWith(['READ_FEATURES', 'READ_EPICS'], { projectAccess: [p1.id] });
    const search = async (filters: string) =>
      (await user.client.get(`/hr/features/dynamic-search?${filters}`)).body.content.map((f: Row) => f.id);
    expect(await search('filters=epic.name:contains:epic')).toEqual([f1.id]);
    expect(await search('filters=epic.name:isNull')).toEqual([f2.id]);
    // The full-access admin sees both epics' names.
    const all = await d.client.get(
      '/hr/features/dynamic-search?filters=epic.name:contains:epic&sort=epic.name,asc',
    );
    expect(all.body.content.map((f: Row) => f.id)).toEqual([f2.id, f1.id]);
  });

  it('a list of objects filters by some element in SQL; ne keeps a list without one; it does not sort', async () => {
    const { d, gql } = await tenantWithGql('Lists');
    const product = async (name: string) =>
      (await gql(`mutation($i: ProductInput!) { createProduct(input: $i) { id } }`, { i: { name } }))
        .createProduct.id as string;
    const oak = await product('Oak');
    const pine = await product('Pine');
    const invoice = async (rows: Row[]) => {
      const res = await d.client.post('/invoices', { rows });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const big = await invoice([{ productId: oak, quantity: 2, unitPrice: 100, type: 'ITEM' }]);
    const mixed = await invoice([
      { productId: pine, quantity: 1, unitPrice: 10, type: 'ITEM' },
      { productId: oak, quantity: 1, unitPrice: 50, type: 'ITEM' },
    ]);
    const empty = await invoice([]);
    const found = async (query: string) => {
      const res = await d.client.get(`/invoices/dynamic-search?${query}`);
      expect(res.status).toBe(200);
      expect(res.body.totalElements).toBe(res.body.content.length);
      return res.body.content.map((r: Row) => r.id).sort();
    };
    const ids = (...list: string[]) => list.sort();
    expect(await found('filters=rows.total:gt:100')).toEqual([big]);
    expect(await found('filters=rows.total:lt:100')).toEqual([mixed]);
    expect(await found(`filters=rows.productId:eq:${oak}`)).toEqual(ids(big, mixed));
    expect(await found(`filters=rows.productId:ne:${pine}`)).toEqual(ids(big, empty));
    expect(await found(`filters=rows.productId:in:${pine}|${UNKNOWN}`)).toEqual([mixed]);
    expect(await found('filters=rows.description:isNull')).toEqual(ids(big, mixed, empty));
    // Each condition is "some element": two on one path may hold on different elements.
    expect(await found('filters=rows.total:gt:20&filters=rows.total:lt:20')).toEqual([mixed]);
    expect(await found('filters=rows:isNull')).toEqual([empty]);
    expect(await found('filters=rows.productId:isNull')).toEqual([empty]);
    // A page of one counts every match: the condition runs in the statement that pages.
    const page = await d.client.get('/invoices/dynamic-search?filters=rows:notNull&size=1');
    expect([page.body.totalElements, page.body.content.length]).toEqual([2, 1]);
    const posted = await d.client.post('/invoices/dynamic-search', {
      filters: { 'rows.total': { gte: 200 } },
    });
    expect(posted.body.content.map((r: Row) => r.id)).toEqual([big]);
    for (const [query, message] of [
      ['sort=rows.total,asc', /'rows\.total' is a field of the elements of the list 'rows'.*not sorted/],
      ['sort=rows,desc', /'rows' is a list of objects.*not sorted/],
      ['filters=rows.total:gt:lots', /rows\.total:gt: "lots" is not a number/],
      ['filters=rows:eq:x', /the op eq does not apply/],
      ['filters=rows.type:eq:BUCKET', /one of ITEM/],
    ] as const) {
      const res = await d.client.get(`/invoices/dynamic-search?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(message);
    }
  });

  it("linked records a list shows are searched within the record's tenant; a computed list in SQL", async () => {
    const { d, gql } = await tenantWithGql('ListLinks');
    const employee = async (input: Row, g = gql) =>
      (await g(`mutation($i: EmployeeInput!) { createEmployee(input: $i) { id } }`, { i: input }))
        .createEmployee.id as string;
    const ada = await employee({ firstName: 'Ada', lastName: 'Lovelace' });
    const elsewhere = await tenantWithGql('ListLinksElsewhere');
    const stranger = await employee({ firstName: 'Sam', lastName: 'Stranger' }, elsewhere.gql);
    const team = async (name: string, memberIds: string[]) =>
      (
        await gql(`mutation($i: CreateTeamInput!) { createTeam(input: $i) { id } }`, {
          i: { name, memberIds },
        })
      ).createTeam.id as string;
    const withAda = await team('With Ada', [ada]);
    const foreign = await team('Foreign', []);
    // The API refuses another tenant's employee as a member; written directly, it still names no one.
    await server.orm.em
      .getConnection()
      .execute(`update team set member_ids = array[?] where id = ?`, [stranger, foreign]);
    const teams = async (filters: Row[]) =>
      (
        await gql(`query($i: SearchInput) { searchTeams(input: $i) { content { id members { id } } } }`, {
          i: { filters },
        })
      ).searchTeams.content as { id: string; members: { id: string }[] }[];
    expect(
      (await teams([{ field: 'members.lastName', op: 'contains', value: 'LOVE' }])).map((t) => t.id),
    ).toEqual([withAda]);
    expect(await teams([{ field: 'members.lastName', op: 'eq', value: 'Stranger' }])).toEqual([]);
    expect(await teams([{ field: 'members.id', op: 'eq', value: stranger }])).toEqual([]);
    // As the field answers: the foreign team has no members.
    expect(await teams([{ field: 'members', op: 'isNull' }])).toEqual([{ id: foreign, members: [] }]);
    const bad = await d.client.graphql(
      `query($i: SearchInput) { searchTeams(input: $i) { totalElements } }`,
      {
        i: { filters: [{ field: 'members.id', op: 'eq', value: 'ada' }] },
      },
    );
    expect(bad.body.errors?.[0]?.message).toMatch(/is not an id/);

    // An inventory's locations, grouped from its batches in SQL as the field groups them.
    const site = (await gql(`mutation { createStockSite(input: { name: "Depot" }) { id } }`)).createStockSite
      .id as string;
    const oak = (await gql(`mutation { createProduct(input: { name: "Oak" }) { id } }`)).createProduct
      .id as string;
    const pine = (await gql(`mutation { createProduct(input: { name: "Pine" }) { id } }`)).createProduct
      .id as string;
    const added = await d.client.post('/inventory', {
      stockSiteId: site,
      products: [
        { productId: oak, quantity: 10, price: 2, batchNumber: 'B1', locationId: 'A-01' },
        { productId: oak, quantity: 5, price: 2, batchNumber: 'B2', locationId: 'A-01' },
        { productId: pine, quantity: 12, price: 1, batchNumber: 'P1', locationId: 'B-02' },
      ],
    });
    expect(added.status).toBeLessThan(300);
    const stock = async (filters: Row[]) =>
      (
        await gql(
          `query($i: SearchInput) { searchStockInventories(input: $i) { content { productId locations { id totalQuantity } } } }`,
          { i: { filters } },
        )
      ).searchStockInventories.content as { productId: string; locations: Row[] }[];
    const byLocation = await stock([{ field: 'locations.totalQuantity', op: 'gte', value: 13 }]);
    expect(byLocation).toEqual([{ productId: oak, locations: [{ id: 'A-01', totalQuantity: 15 }] }]);
    expect(
      (await stock([{ field: 'locations.id', op: 'eq', value: 'B-02' }])).map((s) => s.productId),
    ).toEqual([pine]);
    expect(await stock([{ field: 'locations', op: 'isNull' }])).toEqual([]);
  });

  it('derived counts filter and sort in SQL, so a page and its total agree', async () => {
    const { d, gql } = await tenantWithGql('Derived');
    const epic = async (name: string) =>
      (await gql(`mutation($n: String!) { createEpic(input: { name: $n }) { id } }`, { n: name })).createEpic
        .id as string;
    const busy = await epic('Busy');
    const idle = await epic('Idle');
    const half = await epic('Half');
    for (const [epicId, status] of [
      [busy, 'DONE'],
      [busy, 'DONE'],
      [busy, 'TODO'],
      [half, 'DONE'],
      [half, 'TODO'],
    ])
      await gql(
        `mutation($e: ID!, $s: TaskStatus!) { createTask(input: { title: "t", epicId: $e, status: $s }) { id } }`,
        {
          e: epicId,
          s: status,
        },
      );
    // A page of one whose total counts every match: the filter runs in the database, not on a page.
    const page = await d.client.get(
      '/hr/epics/dynamic-search?filters=taskCount:gte:1&sort=taskCount,desc&size=1',
    );
    expect(page.status).toBe(200);
    expect(page.body.totalElements).toBe(2);
    expect(page.body.content.map((e: Row) => e.id)).toEqual([busy]);
    const done = await d.client.post('/hr/epics/dynamic-search', {
      filters: { progress: { gte: 50 }, completedTaskCount: 1 },
    });
    expect(done.body.content.map((e: Row) => e.id)).toEqual([half]);
    const empty = await d.client.post('/hr/epics/dynamic-search', { filters: { taskCount: 0 } });
    expect(empty.body.content.map((e: Row) => e.id)).toEqual([idle]);
    const byProgress = await d.client.get('/hr/epics/dynamic-search?sort=progress,desc');
    expect(byProgress.body.content.map((e: Row) => e.progress)).toEqual([66.67, 50, 0]);
  });
});
