import 'reflect-metadata';
import { startHost, stopHost } from '../../src/db/embedded';
import { migrate, openOrm } from '../../src/db/orm';

describe('migrations', () => {
  it('build exactly the schema the entities describe (run `npm run migration:create` after changing an entity)', async () => {
    const { child, port } = await startHost('memory://');
    try {
      const orm = await openOrm({
        clientUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
        poolMax: 1,
      });
      try {
        await migrate(orm);
        const drift = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false });
        expect(drift.trim()).toBe('');
      } finally {
        await orm.close(true);
      }
    } finally {
      await stopHost(child);
    }
  });
});
