import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { startHost, stopHost } from '../../src/db/embedded';
import { migrate, migratorOf, openOrm } from '../../src/db/orm';
import { schemaDrift, withoutMigrationOwnedKeys } from '../../src/db/schema-drift';
import { migrationsList } from '../../src/migrations';
import { migrationNames } from '../../src/migrations/names';
import { RENAMED_MIGRATIONS } from '../../src/migrations/renamed';
import { ormComposition } from '../../src/orm-composition';

const DIR = path.join(__dirname, '..', '..', 'src', 'migrations');

describe('migrations', () => {
  it('are named alike everywhere: a timestamp of their own, the class named as the file, listed in file order', () => {
    const files = fs
      .readdirSync(DIR)
      .filter((f) => /^Migration\d+.*\.ts$/.test(f))
      .sort()
      .map((f) => f.replace(/\.ts$/, ''));
    const stamps = files.map((f) => /^Migration(\d{14})/.exec(f)?.[1]);
    expect(stamps.every(Boolean)).toBe(true);
    expect(new Set(stamps).size).toBe(files.length);
    for (const file of files) {
      const cls = /export class (\w+)/.exec(fs.readFileSync(path.join(DIR, `${file}.ts`), 'utf8'))?.[1];
      expect(`${file}: ${cls}`).toBe(`${file}: ${file}`);
    }
    expect(migrationsList.map((m) => m.name)).toEqual(files);
    expect(migrationsList.map((m) => m.class.name)).toEqual(files);
    expect(migrationNames).toEqual(files);
    // A rename points at a migration that exists, from a name no migration has now.
    for (const [before, after] of Object.entries(RENAMED_MIGRATIONS)) {
      expect(files).toContain(after);
      expect(files).not.toContain(before);
    }
  });

  it("are compared with the entities without the tenant keys' drops and re-creations, and nothing else", () => {
    const drop = 'alter table "feature" drop constraint "feature_epic_id_tenant_fk";';
    const add =
      'alter table "feature" add constraint "feature_epic_id_tenant_fk" foreign key ("tenant_id", "epic_id") references "epic" ("tenant_id", "id") on update no action on delete set null (epic_id);';
    const qualified = drop.replace('"feature"', '"public"."feature"');
    expect(withoutMigrationOwnedKeys([drop, add, '', qualified, ''])).toEqual([]);
    // Another key, a column named like one, a drop beside another change, a line inside a statement.
    const kept = [
      'alter table "feature" drop constraint "feature_epic_id_foreign";',
      'alter table "feature" add column "epic_tenant_fk" int null;',
      'alter table "feature" drop constraint "feature_epic_id_tenant_fk", drop column "epic_id";',
      'alter table "feature" alter column "name" set default \'',
      drop,
      "';",
    ];
    expect(withoutMigrationOwnedKeys(['', drop, '', ...kept, '', drop, ''])).toEqual(kept);
  });

  it('build exactly the schema the entities describe (run `npm run migration:create` after changing an entity); a database that applied a renamed one runs it not again', async () => {
    const { child, port } = await startHost('memory://');
    try {
      const orm = await openOrm({
        composition: ormComposition,
        clientUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
        poolMax: 1,
      });
      try {
        await migrate(orm);
        // The tenant foreign keys live in migrations only (src/db/schema-drift.ts says why).
        const drift = await schemaDrift(orm);
        expect(drift.trim()).toBe('');

        // As a deployment of the build before the renames recorded them.
        const connection = orm.em.getConnection();
        for (const [before, after] of Object.entries(RENAMED_MIGRATIONS))
          await connection.execute(`update mikro_orm_migrations set name = ? where name = ?`, [
            before,
            after,
          ]);
        const applied = async () =>
          (
            await connection.execute<{ name: string }[]>(
              `select name from mikro_orm_migrations order by name`,
            )
          ).map((r) => r.name);
        const recordedBefore = await applied();
        // Running the initial migration again would fail on its existing tables.
        await migrate(orm);
        expect(await (await migratorOf(orm)).getPendingMigrations()).toEqual([]);
        expect(await applied()).toEqual([...recordedBefore, ...Object.values(RENAMED_MIGRATIONS)].sort());
        // Once recorded, a second start adds nothing.
        await migrate(orm);
        expect((await applied()).length).toBe(recordedBefore.length + Object.keys(RENAMED_MIGRATIONS).length);
      } finally {
        await orm.close(true);
      }
    } finally {
      await stopHost(child);
    }
  }, 120_000); // every migration on the embedded database, which runs one statement at a time
});
