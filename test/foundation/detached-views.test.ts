import type { EntityManager } from '@mikro-orm/core';
import { withTenant } from '../../src/db/tenant-transaction';
import { Feature } from '../../src/domain/hr/entities/feature';
import { Invoice } from '../../src/domain/finance/entities/invoice';
import { hydrateDetached, selectByIds } from '../../src/db/orm-bypass/detached';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * Queries answer with views read outside the unit of work (src/db/orm-bypass/detached.ts). A view must
 * hold exactly what `em.find` gives for the same row (decimals, JSON, dates, arrays), keep the
 * entity's class, and leave nothing in the identity map for the commit to compare.
 */
describe('detached views', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;
  const actor = (t: TestTenant) => ({ tenantId: t.tenantId, userId: t.adminId, email: t.adminEmail });

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Views A');
    b = await server.tenant('Views B');
  });
  afterAll(() => server.close());

  /** Every persisted property of `entity`, as the ORM's managed read and as a view. */
  async function compare(em: EntityManager, entity: typeof Feature | typeof Invoice, id: string) {
    const managed = await em.findOneOrFail(entity, { id } as never, { disableIdentityMap: true });
    const [view] = await selectByIds<object>(em, entity.name, [id]);
    expect(view).toBeInstanceOf(entity);
    for (const prop of Object.values(em.getMetadata().get(entity.name).properties)) {
      expect([prop.name, (view as any)[prop.name]]).toEqual([prop.name, (managed as any)[prop.name]]);
    }
    // Nothing registered, nothing wrapped: the commit has nothing of it to compare.
    expect(em.getUnitOfWork().getIdentityMap().values()).toHaveLength(0);
    expect(Object.prototype.hasOwnProperty.call(view, '__helper')).toBe(false);
    return view;
  }

  it('hold what em.find gives, for text, arrays, enums and dates', async () => {
    const res = await a.client.post('/hr/features', {
      name: 'Viewed',
      tags: ['x', 'y'],
      priority: 'LOW',
      estimatedPoints: 5,
    });
    expect(res.status).toBe(201);
    await withTenant(server.orm.em, actor(a), async (em) => {
      const view = (await compare(em, Feature, res.body.id)) as Feature;
      expect(view.tags).toEqual(['x', 'y']);
      // The history is kept apart (record_history): neither a view nor a managed entity holds it.
      expect(view.events).toBeUndefined();
      expect(view.created).toBeInstanceOf(Date);
    });
  });

  it('hold decimals as numbers, as managed entities do', async () => {
    const res = await a.client.post('/invoices', {
      invoiceDate: '2026-03-10T10:00:00.000Z',
      rows: [{ id: 'row-1', quantity: 3, unitPrice: 19.99, vatPercentage: 24 }],
    });
    expect(res.status).toBe(201);
    await withTenant(server.orm.em, actor(a), async (em) => {
      const view = (await compare(em, Invoice, res.body.id)) as Invoice;
      expect(typeof view.totalWithTax).toBe('number');
    });
  });

  it("never show another tenant's row, even by its id", async () => {
    const res = await a.client.post('/hr/features', { name: 'Not yours' });
    await withTenant(server.orm.em, actor(b), async (em) => {
      expect(await selectByIds(em, Feature.name, [res.body.id])).toEqual([]);
    });
  });

  it('can be written to without the write reaching the database', async () => {
    const res = await a.client.post('/hr/features', { name: 'Unchanged' });
    await withTenant(server.orm.em, actor(a), async (em) => {
      const [view] = await selectByIds<Feature>(em, Feature.name, [res.body.id]);
      view.name = 'Changed';
      await em.flush();
    });
    expect((await a.client.get(`/hr/features/find/${res.body.id}`)).body.name).toBe('Unchanged');
  });

  it('keep a row of nulls a row of nulls', async () => {
    await withTenant(server.orm.em, actor(a), async (em) => {
      const [view] = hydrateDetached<Feature>(em, Feature.name, [
        {
          tenant_id: a.tenantId,
          id: '00000000-0000-4000-8000-000000000000',
          name: 'n',
          events: [],
          tags: [],
        },
      ]);
      expect(view.description ?? null).toBeNull();
      expect(view.name).toBe('n');
    });
  });
});
