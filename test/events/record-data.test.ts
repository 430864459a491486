import { wrap, type EntityMetadata, type EntityProperty } from '@mikro-orm/core';
import { Audited } from '../../src/entities/tenant-scoped';
import { plainData, recordData } from '../../src/events/outbox';
import { startServer, type TestServer } from '../support/server';

/** A value of the property's type, differing by `n`; undefined for a type this test does not know. */
function sample(prop: EntityProperty, n: number): unknown {
  const type = prop.runtimeType as string;
  if (prop.version) return n + 1;
  if (type === 'string')
    return prop.enum && prop.items?.length ? prop.items[n % prop.items.length] : `v${n}-${prop.name}`;
  if (type === 'number') return 3 + n;
  if (type === 'boolean') return n % 2 === 0;
  if (type === 'Date') return new Date(Date.UTC(2026, 0, 1 + n));
  if (type === 'string[]') return [`a${n}`, 'b'];
  if (type === 'number[]') return [n, 2];
  if (type === 'object' || type === 'any') return { n, nested: [1, { x: 'y' }] };
  return undefined;
}

describe('the outbox data of a record', () => {
  let server: TestServer;
  let metas: EntityMetadata[];

  beforeAll(async () => {
    server = await startServer();
    metas = Object.values(server.orm.getMetadata().getAll()).filter(
      (m) => !m.abstract && m.class?.prototype instanceof Audited,
    );
  });
  afterAll(() => server.close());

  it('is toObject, key for key and in order, for a record of every type with events', () => {
    expect(metas.length).toBeGreaterThan(10);
    const em = server.orm.em.fork();
    for (const meta of metas) {
      for (let n = 0; n < 3; n++) {
        const values: Record<string, unknown> = { tenantId: '00000000-0000-4000-8000-000000000001' };
        for (const prop of meta.props) {
          if (prop.name === 'tenantId' || prop.persist === false) continue;
          // Every third record leaves its nullable fields null, every other one unset.
          if (prop.nullable && n === 1) values[prop.name] = null;
          else if (!(prop.nullable && n === 2)) {
            const value = sample(prop, n);
            if (value !== undefined) values[prop.name] = value;
          }
        }
        const entity = em.create(meta.className, values, { persist: false });
        const direct = plainData(entity);
        expect({ type: meta.className, direct: direct !== undefined }).toEqual({
          type: meta.className,
          direct: true,
        });
        const expected = wrap(entity).toObject() as Record<string, unknown>;
        expect(Object.keys(direct!)).toEqual(Object.keys(expected));
        expect(direct).toEqual(expected);
        expect(JSON.stringify(direct)).toBe(JSON.stringify(expected));
        expect(recordData(entity)).not.toHaveProperty('version');
        expect(recordData(entity)).not.toHaveProperty('events');
      }
    }
  });

  it("is MikroORM's own for a record that is not loaded", () => {
    const meta = metas[0];
    const reference = server.orm.em
      .fork()
      .getReference(meta.className, [
        '00000000-0000-4000-8000-000000000001',
        '00000000-0000-4000-8000-000000000002',
      ] as never);
    expect(plainData(reference)).toBeUndefined();
    expect(recordData(reference)).toEqual(wrap(reference).toObject());
  });
});
