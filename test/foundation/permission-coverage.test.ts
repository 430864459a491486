import { buildBareSchema } from '../../src/app-schema';
import { unguardedRootFields } from '../../src/permissions/rules';

describe('permission rules', () => {
  it('every root field of the schema has a rule', async () => {
    const schema = await buildBareSchema();
    expect(unguardedRootFields(schema)).toEqual([]);
    expect(Object.keys(schema.getQueryType()!.getFields()).length).toBeGreaterThan(10);
  });
});
