import 'reflect-metadata';
import { getMetadataStorage } from 'type-graphql';
import { startHost, stopHost } from '../../src/db/embedded';
import { openOrm } from '../../src/db/orm';
import { buildBareSchema } from '../../src/app-schema';
import { Activity } from '../../src/domain/crm/entities/activity';
import { ContactFormWidgetConfig } from '../../src/domain/crm/entities/contact-form-widget';
import { ormComposition } from '../../src/orm-composition';

/**
 * The column helpers declare the database column and the GraphQL field together; this checks,
 * for every stored field of every entity, that the two still agree on nullability, so a column
 * the database may leave NULL is never published as non-null (or the other way round).
 */
describe('entity columns', () => {
  it('are nullable in GraphQL exactly when they are nullable in the database', async () => {
    const { child, port } = await startHost('memory://');
    try {
      const orm = await openOrm({
        composition: ormComposition,
        clientUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
        poolMax: 1,
      });
      try {
        const fields = getMetadataStorage().fields;
        const disagreements: string[] = [];
        let compared = 0;
        for (const meta of Object.values(orm.getMetadata().getAll())) {
          if (!meta.class || meta.embeddable) continue;
          for (const prop of meta.props) {
            if (prop.primary || prop.version) continue;
            const field = fields.find(
              (f) =>
                f.name === prop.name && (meta.class === f.target || meta.class.prototype instanceof f.target),
            );
            if (!field) continue;
            compared++;
            const graphqlNullable = field.typeOptions.nullable === true;
            if (graphqlNullable !== (prop.nullable === true)) {
              disagreements.push(`${meta.className}.${prop.name}: column nullable ${prop.nullable === true}`);
            }
          }
        }
        expect(compared).toBeGreaterThan(300);
        expect(disagreements).toEqual([]);
      } finally {
        await orm.close(true);
      }
    } finally {
      await stopHost(child);
    }
  }, 120_000);

  it('publish the second name of a boolean pair, reading the stored one', async () => {
    const widget = new ContactFormWidgetConfig();
    widget.active = false;
    expect((widget as unknown as { isActive: boolean }).isActive).toBe(false);
    widget.active = true;
    expect((widget as unknown as { isActive: boolean }).isActive).toBe(true);
    const activity = new Activity();
    activity.completed = true;
    expect((activity as unknown as { isCompleted: boolean }).isCompleted).toBe(true);

    const schema = await buildBareSchema();
    const type = schema.getType('ContactFormWidgetConfig');
    expect(type && 'getFields' in type && String(type.getFields().isActive.type)).toBe('Boolean!');
  });
});
