import 'reflect-metadata';
import { startServer, type TestServer } from '../support/server';
import { crmModule } from '../../src/domain/crm';

/**
 * Every field a CRM search looks in, every link to another record and every status has an index
 * led by tenant_id, so that a tenant's common searches never scan other tenants' rows (every
 * documented field can be filtered; these are the filters used most). Audit fields are the
 * foundation's business.
 */
describe('CRM indexes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const AUDIT = new Set(['id', 'created', 'createdBy', 'updated', 'updatedBy']);

  it.each(crmModule.groups.map((g) => [g.name, g]))(
    '%s: each searched field, link and status is indexed',
    async (_name, group) => {
      const meta = server.orm.getMetadata().get(group.entity.name);
      const led = new Set(
        [...meta.indexes, ...meta.uniques]
          .map((i) => [i.properties].flat() as string[])
          .filter((p) => p[0] === 'tenantId' && p.length >= 2)
          .map((p) => p[1]),
      );
      const common = Object.values(meta.properties)
        .filter((p) => p.persist !== false && !p.primary && (p.enum || p.columnTypes?.[0] === 'uuid'))
        .map((p) => p.name);
      const fields = new Set([...group.searchable, ...common]);
      const missing = [...fields].filter((f) => !AUDIT.has(f) && !led.has(f));
      expect(missing).toEqual([]);
      const tables = await server.orm.em
        .getConnection()
        .execute(`select indexname from pg_indexes where tablename = ?`, [meta.tableName]);
      for (const index of [...meta.indexes, ...meta.uniques])
        expect(tables.map((t: any) => t.indexname)).toContain(index.name);
    },
  );
});
