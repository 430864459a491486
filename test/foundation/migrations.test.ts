import 'reflect-metadata';
import { startHost, stopHost } from '../../src/db/embedded';
import { migrate, openOrm } from '../../src/db/orm';
import { schemaDrift } from '../../src/db/schema-diff';

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
        // The tenant foreign keys live in migrations only (src/db/schema-diff.ts says why).
        const drift = await schemaDrift(orm);
        expect(drift.trim()).toBe('');
      } finally {
        await orm.close(true);
      }
    } finally {
      await stopHost(child);
    }
  }, 120_000); // every migration on the embedded database, which runs one statement at a time
});
