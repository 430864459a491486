import { randomUUID } from 'node:crypto';
import {
  getNamedType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLInputObjectType,
  type GraphQLSchema,
} from 'graphql';
import { appGroups } from '../../src/app-modules';
import { lowerFirst } from '../../src/family/fields';
import type { GroupDef } from '../../src/family/group';
import { restTable } from '../../src/rest/table';
import { sampleValue } from '../support/sample-requests';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * Null where the record requires a value, generated from the schema: for every group's create and
 * update input, each field whose column is NOT NULL in the database (information_schema, not the
 * code under test) is sent as null over GraphQL and over each REST row that takes that input. The
 * answer is a 400 naming the field, and nothing was written.
 */

interface Case {
  group: GroupDef<any, any, any>;
  kind: 'create' | 'update';
  input: GraphQLInputObjectType;
  field: string;
  column: string;
}

/**
 * What a group's create needs beyond sample values: records it refers to (made earlier, as the
 * groups come in an order where those exist) and values of a given form.
 */
const CREATE_NEEDS: Record<string, (made: Map<string, string>, t: TestTenant) => Record<string, unknown>> = {
  TypeProductCoverage: (made) => ({ typeId: made.get('ConfiguratorType') }),
  ConfiguratorType: () => ({ staticModels: [{ id: 'sm-main', modelNamePrefix: 'S-', type: 'VARIANT' }] }),
  CoverageJob: (made) => ({ typeId: made.get('ConfiguratorType'), staticModelId: 'sm-main' }),
  StockInventory: (made) => ({ siteId: made.get('StockSite'), productId: made.get('Product') }),
  WasteRecord: (made) => ({ productId: made.get('Product'), deductRawMaterials: false }),
  SentMail: () => ({ recipient: 'nobody@example.test' }),
  Notification: (_made, t) => ({ username: t.adminEmail }),
  User: () => ({ email: `user-${randomUUID().slice(0, 8)}@example.test`, roles: [] }),
};

function inputOf(schema: GraphQLSchema, mutation: string): GraphQLInputObjectType {
  const field = schema.getMutationType()!.getFields()[mutation];
  const arg = field.args.find((a) => a.name === 'input')!;
  const type = getNamedType(arg.type);
  if (!isInputObjectType(type)) throw new Error(`${mutation}(input) is not an input object`);
  return type;
}

const GRAPHQL_PROBLEM = (res: { body: any }) => res.body.errors?.[0]?.extensions;

describe('null where a value is required: a 400 naming the field, for every create and update', () => {
  let server: TestServer;
  let a: TestTenant;
  const cases: Case[] = [];
  /** The id of the record each group's updates are tried on. */
  const made = new Map<string, string>();

  const graphql = (query: string, variables: Record<string, unknown>) =>
    a.client.post('/graphql', { query, variables });

  /** Sample values for the input's required fields and for the fields whose column is NOT NULL. */
  function createInput(group: GroupDef<any, any, any>): Record<string, unknown> {
    const input = inputOf(server.app.schema, `create${group.name}`);
    const notNull = new Set(
      cases.filter((c) => c.group === group && c.kind === 'create').map((c) => c.field),
    );
    const out: Record<string, unknown> = {};
    for (const f of Object.values(input.getFields()))
      if (isNonNullType(f.type) || notNull.has(f.name))
        // An empty list refers to nothing that would have to exist.
        out[f.name] = isListType(isNonNullType(f.type) ? f.type.ofType : f.type)
          ? []
          : sampleValue(f.type, f.name);
    const aliases = new Set((group.booleanPairs ?? []).map(([, alias]) => alias));
    for (const alias of aliases) delete out[alias];
    return { ...out, ...CREATE_NEEDS[group.name]?.(made, a) };
  }

  /** What a record reads now, and how many the group holds: both must be as they were. */
  async function state(group: GroupDef<any, any, any>, field: string) {
    const one = lowerFirst(group.name);
    const res = await graphql(
      `query($id: ID!) { one: ${one}(id: $id) { id version } all: all${group.plural} { id } }`,
      { id: made.get(group.name) },
    );
    expect(res.body.errors).toBeUndefined();
    const rows = await server.orm.em
      .fork()
      .getConnection()
      .execute<{ value: unknown }[]>(
        `select to_jsonb(t) -> ? as value from ${server.orm.getMetadata().find(group.entity.name)!.tableName} t where tenant_id = ? and id = ?`,
        [
          cases.find((c) => c.group === group && c.field === field)?.column ?? 'id',
          a.tenantId,
          made.get(group.name),
        ],
      );
    return { version: res.body.data.one.version, count: res.body.data.all.length, value: rows[0]?.value };
  }

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Required');
    const schema = server.app.schema;
    const metadata = server.orm.getMetadata();
    const notNull = new Set(
      (
        await server.orm.em.getConnection().execute<{ t: string; c: string }[]>(
          `select table_name as t, column_name as c from information_schema.columns
              where table_schema = current_schema() and is_nullable = 'NO'`,
        )
      ).map((r: { t: string; c: string }) => `${r.t}.${r.c}`),
    );
    for (const group of appGroups) {
      const meta = metadata.find(group.entity.name)!;
      const aliases = new Map((group.booleanPairs ?? []).map(([stored, alias]) => [alias, stored as string]));
      for (const kind of ['create', 'update'] as const) {
        const input = inputOf(schema, `${kind}${group.name}`);
        for (const field of Object.keys(input.getFields())) {
          const property = meta.properties[aliases.get(field) ?? field];
          const column = property?.fieldNames?.[0];
          if (column && notNull.has(`${meta.tableName}.${column}`))
            cases.push({ group, kind, input, field, column });
        }
      }
    }
    // One record of each group, made through the API, for the updates to be tried on.
    for (const group of appGroups) {
      const input = inputOf(schema, `create${group.name}`);
      const res = await graphql(
        `mutation($input: ${input.name}!) { r: create${group.name}(input: $input) { id } }`,
        { input: createInput(group) },
      );
      expect([group.name, res.body.errors]).toEqual([group.name, undefined]);
      made.set(group.name, res.body.data.r.id);
    }
  });
  afterAll(() => server.close());

  it('tries the fields the database requires, the ones first reported among them', () => {
    const named = cases.map((c) => `${c.kind}${c.group.name}.${c.field}`);
    expect(named).toEqual(
      expect.arrayContaining(['updateConcept.name', 'createConcept.name', 'updateTaxPercentage.percentage']),
    );
    // All groups but those whose inputs write no NOT NULL column (an employee's) are tried.
    const tried = new Set(cases.map((c) => c.group.name));
    expect(appGroups.filter((g) => !tried.has(g.name)).map((g) => g.name)).toEqual(['Employee']);
  });

  it('a create that leaves out a value the record requires is a 400 naming it, not a 500', async () => {
    const res = await graphql(
      `
        mutation {
          r: createCustomer(input: {}) {
            id
          }
        }
      `,
      {},
    );
    expect(GRAPHQL_PROBLEM(res)).toMatchObject({
      status: 400,
      errors: [{ field: 'name', reason: 'is required' }],
    });
  });

  it('GraphQL: null for each such field is a 400 naming it, and nothing is written', async () => {
    const faults: string[] = [];
    for (const c of cases) {
      const before = await state(c.group, c.field);
      const res =
        c.kind === 'update'
          ? await graphql(
              `mutation($id: ID!, $input: ${c.input.name}!) { r: update${c.group.name}(id: $id, input: $input) { id } }`,
              { id: made.get(c.group.name), input: { [c.field]: null } },
            )
          : await graphql(
              `mutation($input: ${c.input.name}!) { r: create${c.group.name}(input: $input) { id } }`,
              { input: { ...createInput(c.group), [c.field]: null } },
            );
      const problem = GRAPHQL_PROBLEM(res);
      const named = (problem?.errors ?? []).some((p: { field: string }) => p.field === c.field);
      if (problem?.status !== 400 || !named || !res.body.errors[0].message.includes(c.field))
        faults.push(
          `${c.kind}${c.group.name}.${c.field}: ${JSON.stringify(res.body.errors ?? res.body.data)}`,
        );
      const after = await state(c.group, c.field);
      if (JSON.stringify(after) !== JSON.stringify(before))
        faults.push(`${c.kind}${c.group.name}.${c.field} wrote: ${JSON.stringify({ before, after })}`);
    }
    expect(faults).toEqual([]);
  });

  it('REST: null for each such field in a create or update row is a 400 naming it, and nothing is written', async () => {
    const faults: string[] = [];
    let tried = 0;
    for (const c of cases) {
      for (const route of restTable.filter((r) => r.field === `${c.kind}${c.group.name}`)) {
        if (route.args?.input?.from !== 'body') continue;
        const path = route.path.replace(/\{(\w+)\}/g, () => made.get(c.group.name)!);
        const body = c.kind === 'update' ? { [c.field]: null } : { ...createInput(c.group), [c.field]: null };
        const before = await state(c.group, c.field);
        const res = await fetch(`${server.baseUrl}/api/v1${path}`, {
          method: route.method,
          headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const answer = (await res.json()) as { detail: string; errors?: { field: string }[] };
        tried++;
        if (
          res.status !== 400 ||
          !answer.errors?.some((p) => p.field === c.field) ||
          !answer.detail.includes(c.field)
        )
          faults.push(`${route.method} ${route.path} ${c.field}: ${res.status} ${JSON.stringify(answer)}`);
        const after = await state(c.group, c.field);
        if (JSON.stringify(after) !== JSON.stringify(before))
          faults.push(`${route.method} ${route.path} ${c.field} wrote: ${JSON.stringify({ before, after })}`);
      }
    }
    expect(faults).toEqual([]);
    // The rows named in the first report are among those tried.
    expect(tried).toBeGreaterThan(appGroups.length);
  });
});
