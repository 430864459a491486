import { Entity } from '@mikro-orm/core';
import { Field, InputType, ObjectType } from 'type-graphql';
import { IsOptional, Length } from 'class-validator';
import { appModules } from '../../src/app-modules';
import { TenantIndexes, TextColumn } from '../../src/entities/columns';
import { Audited } from '../../src/entities/tenant-scoped';
import { defineGroup } from '../../src/family/group';
import { enableRowLevelSecurity } from '../../src/db/orm';
import { schemaDrift } from '../../src/db/schema-drift';
import { familyRoutes } from '../../src/rest/family-routes';
import { expectErrorBody } from '../support/http';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * Follows the "Adding a field" recipe of docs/contributing.md: a fixture group whose table was
 * made before its `colour` field existed gets the field by the recipe's two edits (a column on
 * the entity, a field on the update input) and its migration, and every place the recipe says
 * derives the field by itself is checked to have it: GraphQL, REST answers and writes, filters,
 * sorting, CSV, the OpenAPI document and its validation.
 */

const FIELD = 'colour';

@Entity({ tableName: 'recipe_widget' })
@TenantIndexes('recipe_widget', 'name')
@ObjectType({ description: 'A fixture record of the field recipe test.' })
class RecipeWidget extends Audited {
  @TextColumn({ nullable: false, description: 'Name of the widget.' })
  name!: string;

  // 1. The new column: one helper, its description once.
  @TextColumn({ description: 'Colour of the widget.' })
  colour?: string | null;
}

@InputType({ description: 'Changes to a widget.' })
class UpdateRecipeWidgetInput {
  @Field(() => String, { nullable: true, description: 'Name of the widget.' })
  @IsOptional()
  @Length(1, 200)
  name?: string;

  // 2. The new input field, with its constraints; the create input inherits it.
  @Field(() => String, { nullable: true, description: 'Colour of the widget.' })
  @IsOptional()
  @Length(1, 30)
  colour?: string;
}

@InputType({ description: 'A new widget.' })
class CreateRecipeWidgetInput extends UpdateRecipeWidgetInput {
  @Field(() => String, { description: 'Name of the widget.' })
  override name!: string;
}

const widgets = defineGroup({
  entity: RecipeWidget,
  name: 'RecipeWidget',
  plural: 'RecipeWidgets',
  resource: 'CONCEPTS',
  createInput: CreateRecipeWidgetInput,
  updateInput: UpdateRecipeWidgetInput,
  searchable: ['name'],
});
const BASE = '/recipe-widgets';
const widgetModule = {
  entities: [RecipeWidget],
  groups: [widgets],
  resolvers: [],
  routes: familyRoutes(widgets, BASE, ['create', 'S3', 'S6', 'S8']),
};

describe('the "add a field" recipe', () => {
  let server: TestServer;
  let t: TestTenant;
  let migration: string;

  beforeAll(async () => {
    server = await startServer({ modules: [...appModules, widgetModule] });
    const connection = server.orm.em.getConnection();
    // The table as it was before the field: made whole, then the column taken away.
    await connection.execute(await schemaDrift(server.orm as never, { safe: true }));
    await connection.execute(`alter table "recipe_widget" drop column "${FIELD}"`);
    await enableRowLevelSecurity(server.orm);
    // 3. The migration: what `npm run migration:create` would write now.
    migration = await schemaDrift(server.orm as never, { safe: true });
    await connection.execute(migration);
    t = await server.tenant('Field recipe');
  });

  afterAll(async () => {
    // The worker's database serves other test files, whose entities know no such table.
    await server?.orm.em.getConnection().execute('drop table if exists "recipe_widget"');
    await server?.close();
  });

  it('needs a migration that adds the column and nothing else', async () => {
    expect(migration.trim()).toBe(`alter table "recipe_widget" add column "${FIELD}" text null;`);
    expect((await schemaDrift(server.orm as never)).trim()).toBe('');
  });

  it('is written and answered over REST and GraphQL, filtered, sorted and exported, with nothing else edited', async () => {
    const red = await t.client.post(BASE, { name: 'Knob', colour: 'red' });
    expect(red.status).toBe(201);
    expect(red.body).toMatchObject({ name: 'Knob', colour: 'red' });
    await t.client.post(BASE, { name: 'Dial', colour: 'blue' });
    const changed = await t.client.graphql(
      `mutation($id: ID!) { updateRecipeWidget(id: $id, input: { ${FIELD}: "green" }) { ${FIELD} } }`,
      { id: red.body.id },
    );
    expect(changed.body).toEqual({ data: { updateRecipeWidget: { [FIELD]: 'green' } } });
    expect((await t.client.get(`${BASE}/find/${red.body.id}`)).body.colour).toBe('green');

    const filtered = await t.client.get(`${BASE}/dynamic-search?filters=${FIELD}:eq:blue&sort=${FIELD},asc`);
    expect(filtered.body.content.map((w: { name: string }) => w.name)).toEqual(['Dial']);
    const sorted = await t.client.get(`${BASE}/dynamic-search?sort=${FIELD},desc`);
    expect(sorted.body.content.map((w: { colour: string }) => w.colour)).toEqual(['green', 'blue']);

    const csv = await t.client.get(`${BASE}/csv-export?sort=${FIELD},asc`);
    const [header, first, second] = (csv.body as string).split('\r\n');
    expect(header.split(',')).toContain(FIELD);
    expect([first, second].map((row) => /(?:^|,)(blue|green)(?:,|$)/.exec(row)?.[1])).toEqual([
      'blue',
      'green',
    ]);

    const gql = await t.client.graphql(`{ recipeWidget(id: "${red.body.id}") { ${FIELD} } }`);
    expect(gql.body).toEqual({ data: { recipeWidget: { [FIELD]: 'green' } } });
  });

  it('is in the OpenAPI document with its constraints, and a value outside them is a 400 naming it', async () => {
    const document = (await t.client.get('/openapi.json')).body;
    const schemas = document.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
    expect(schemas.RecipeWidget.properties?.[FIELD]).toBeDefined();
    expect(schemas.CreateRecipeWidgetInput.properties?.[FIELD]).toMatchObject({ maxLength: 30 });
    const bad = await t.client.post(BASE, { name: 'Lever', colour: 'x'.repeat(31) });
    expectErrorBody(bad, 400);
    expect(bad.body.detail).toMatch(new RegExp(FIELD));
  });
});
