import { Entity } from '@mikro-orm/core';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { IsOptional, Length, Min } from 'class-validator';
import { appModules } from '../../src/app-modules';
import type { DomainModule } from '../../src/modules';
import { IntColumn, TenantIndexes, TextColumn } from '../../src/entities/columns';
import { Audited } from '../../src/entities/tenant-scoped';
import { defineGroup } from '../../src/family/group';
import { enableRowLevelSecurity } from '../../src/db/orm';
import { schemaDrift } from '../../src/db/schema-drift';
import { familyRoutes } from '../../src/rest/family-routes';
import { expectErrorBody } from '../support/http';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * Follows the "Adding a resource group" recipe of docs/contributing.md with a small fixture
 * group, so that the recipe fails here when it stops being enough: an entity of column helpers,
 * its inputs, its group, its REST rows, the module's registry that gives them to the app and its
 * table, then the family through HTTP.
 */

// 1. The entity.
@Entity({ tableName: 'recipe_gadget' })
@TenantIndexes('recipe_gadget', 'name')
@ObjectType({ description: 'A fixture record of the group recipe test.' })
class RecipeGadget extends Audited {
  @TextColumn({ nullable: false, description: 'Name of the gadget.' })
  name!: string;

  @TextColumn({ description: 'What the gadget is for.' })
  purpose?: string | null;

  @IntColumn({ description: 'How many there are.' })
  quantity?: number | null;
}

// 2. Its inputs: the create input is the update's with the name required.
@InputType({ description: 'Changes to a gadget.' })
class UpdateRecipeGadgetInput {
  @Field(() => String, { nullable: true, description: 'Name of the gadget.' })
  @IsOptional()
  @Length(1, 200)
  name?: string;

  @Field(() => String, { nullable: true, description: 'What the gadget is for.' })
  @IsOptional()
  @Length(0, 2000)
  purpose?: string;

  @Field(() => Int, { nullable: true, description: 'How many there are.' })
  @IsOptional()
  @Min(0)
  quantity?: number;
}

@InputType({ description: 'A new gadget.' })
class CreateRecipeGadgetInput extends UpdateRecipeGadgetInput {
  @Field(() => String, { description: 'Name of the gadget.' })
  override name!: string;
}

// 3. Its group and REST rows.
const gadgets = defineGroup({
  entity: RecipeGadget,
  name: 'RecipeGadget',
  plural: 'RecipeGadgets',
  resource: 'CONCEPTS',
  createInput: CreateRecipeGadgetInput,
  updateInput: UpdateRecipeGadgetInput,
  searchable: ['name', 'purpose'],
  lists: [
    {
      name: 'recipeGadgetsByPurpose',
      description: 'The gadgets with one purpose, oldest first.',
      field: 'purpose',
      arg: 'purpose',
      argDescription: 'What the gadgets are for.',
      type: () => String,
    },
  ],
});
const BASE = '/recipe-gadgets';

// 4. The module's registry, composed with the application's as src/app-modules.ts composes them.
const recipeModule: DomainModule = {
  entities: [RecipeGadget],
  groups: [gadgets],
  resolvers: [],
  routes: familyRoutes(gadgets, BASE, ['create', 'S1', 'S3', 'S5', 'S6', 'S8', 'S10']),
};

describe('the "add a resource group" recipe', () => {
  let server: TestServer;
  let t: TestTenant;
  let migration: string;

  beforeAll(async () => {
    server = await startServer({ modules: [...appModules, recipeModule] });
    // 5. The migration: what `npm run migration:create` would write, run on this worker's database.
    migration = await schemaDrift(server.orm as never, { safe: true });
    await server.orm.em.getConnection().execute(migration);
    await enableRowLevelSecurity(server.orm);
    t = await server.tenant('Recipe');
  });

  afterAll(async () => {
    // The worker's database serves other test files, whose entities know no such table.
    await server?.orm.em.getConnection().execute('drop table if exists "recipe_gadget"');
    await server?.close();
  });

  it('needs a migration that creates the table and nothing else, after which the entities match', async () => {
    expect(migration).toMatch(/create table "recipe_gadget"/);
    expect(migration).toMatch(/"recipe_gadget_tenant_name_idx"/);
    expect(migration).not.toMatch(/\b(drop|alter table "(?!recipe_gadget))/i);
    expect((await schemaDrift(server.orm as never)).trim()).toBe('');
  });

  it('creates, finds, pages, searches and exports the new records over REST', async () => {
    const created = await t.client.post(BASE, { name: 'Sprocket', purpose: 'turning chains', quantity: 3 });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/api/v1${BASE}/find/${created.body.id}`);
    await t.client.post(BASE, { name: 'Flange', purpose: 'joining pipes' });
    const id = created.body.id as string;

    const one = await t.client.get(`${BASE}/find/${id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id, name: 'Sprocket', purpose: 'turning chains', quantity: 3 });
    const byIds = await t.client.get(`${BASE}/find?ids=${id}`);
    expect(byIds.body.map((g: { name: string }) => g.name)).toEqual(['Sprocket']);

    const page = await t.client.get(`${BASE}/page?pageSize=1&sortBy=name&direction=ASC`);
    expect(page.status).toBe(200);
    expect(page.body.totalElements).toBe(2);
    expect(page.body.content.map((g: { name: string }) => g.name)).toEqual(['Flange']);

    const search = await t.client.get(`${BASE}/dynamic-search?search=chain&filters=quantity:gt:1`);
    expect(search.status).toBe(200);
    expect(search.body.content.map((g: { id: string }) => g.id)).toEqual([id]);

    const csv = await t.client.get(`${BASE}/csv-export?sort=name,desc`);
    expect(csv.status).toBe(200);
    const [header, first, second] = (csv.body as string).split('\r\n');
    expect(header.split(',')).toEqual(expect.arrayContaining(['id', 'name', 'purpose', 'quantity']));
    expect(first).toContain('Sprocket');
    expect(second).toContain('Flange');
  });

  it('refuses bad input with the documented 400 body, and keeps tenants apart', async () => {
    const bad = await t.client.post(BASE, { purpose: 'no name' });
    expectErrorBody(bad, 400);
    expect(bad.body.detail).toMatch(/name/);
    const other = await server.tenant('Other');
    expect((await other.client.get(`${BASE}/page`)).body.totalElements).toBe(0);
  });
  it('generates the list queries the group declares, under its READ permission', async () => {
    await t.client.post(BASE, { name: 'Cog', purpose: 'turning chains' });
    const query = `query($p: String!) { recipeGadgetsByPurpose(purpose: $p) { name } }`;
    const listed = await t.client.graphql(query, { p: 'turning chains' });
    expect(listed.body.errors).toBeUndefined();
    expect(listed.body.data.recipeGadgetsByPurpose.map((g: { name: string }) => g.name)).toEqual([
      'Sprocket',
      'Cog',
    ]);
    const other = await server.tenant('Another');
    expect(
      (await other.client.graphql(query, { p: 'turning chains' })).body.data.recipeGadgetsByPurpose,
    ).toEqual([]);
    const unprivileged = await t.userWith([]);
    const refused = await unprivileged.client.graphql(query, { p: 'turning chains' });
    expect(refused.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });
});
