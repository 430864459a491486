/**
 * Writes a migration with the difference between the entities and the committed migrations:
 * `npm run migration:create` (whose entry, src/create-migration.ts, hands in the app's entities). It diffs against a throw-away embedded database that has every
 * committed migration applied, so no server is needed, and then rewrites src/migrations/index.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MikroORM, type MigrationDiff } from '@mikro-orm/core';
import { TSMigrationGenerator } from '@mikro-orm/migrations';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { migrationsList } from '../migrations';
import { migratorOf, ormOptions, type OrmComposition } from './orm';
import { startHost, stopHost } from './embedded';
import { withoutMigrationOwnedKeys } from './schema-drift';

const root = path.resolve(
  __dirname,
  '..',
  '..',
  __dirname.includes(`${path.sep}dist${path.sep}`) ? '..' : '',
);
const dir = path.join(root, 'src', 'migrations');
const NAMES_DOC = `/**
 * Every migration's name, in order, written with index.ts by \`npm run migration:create\`: what a
 * process reads to see whether its database is up to date without loading the migrations, whose
 * base class brings the whole migrator in (src/db/orm.ts \`migrate\`).
 */`;

/**
 * MikroORM's TypeScript migration writer, handed the diff without the migration-owned keys: the
 * Migrator diffs from the database (no snapshot), where they are, and the entities have none.
 */
export class KeysKeptMigrationGenerator extends TSMigrationGenerator {
  override generateMigrationFile(className: string, diff: MigrationDiff): string {
    return super.generateMigrationFile(className, {
      up: withoutMigrationOwnedKeys(diff.up),
      down: withoutMigrationOwnedKeys(diff.down),
    });
  }
}

/**
 * `timestamp`, or one after the latest migration's where that is later: some migrations were
 * named ahead of their day, and the list runs in the order of the names, so a new migration must
 * sort last whatever today's date.
 */
export function laterThanEvery(
  timestamp: string,
  names: readonly string[] = migrationsList.map((m) => m.name),
): string {
  const latest = names.reduce((max, name) => {
    const stamp = /^Migration(\d{14})/.exec(name)?.[1];
    return stamp && BigInt(stamp) > max ? BigInt(stamp) : max;
  }, 0n);
  return BigInt(timestamp) > latest ? timestamp : String(latest + 1n);
}

export async function createMigration(composition: OrmComposition): Promise<void> {
  const { child, port } = await startHost('memory://');
  try {
    const options = ormOptions({
      clientUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
      poolMax: 1,
      composition,
    });
    const name = process.argv.slice(2).find((a) => !a.startsWith('--'));
    options.migrations = {
      ...options.migrations,
      migrationsList,
      path: dir,
      pathTs: dir,
      emit: 'ts',
      generator: KeysKeptMigrationGenerator,
      fileName: (ts, label) => `Migration${laterThanEvery(ts)}${label ? `_${label}` : ''}`,
    };
    const orm = await MikroORM.init<PostgreSqlDriver>(options);
    const migrator = await migratorOf(orm);
    await migrator.up();
    const result = await migrator.createMigration(dir, false, false, name);
    await orm.close(true);
    // The Migrator writes a file whenever its diff has a statement, the keys' drops included.
    if (withoutMigrationOwnedKeys(result.diff.up).length === 0) {
      if (result.fileName) fs.rmSync(path.join(dir, result.fileName));
      console.log('no changes: the entities match the migrations');
      return;
    }
    const files = fs
      .readdirSync(dir)
      .filter((f) => /^Migration\d+.*\.ts$/.test(f))
      .sort()
      .map((f) => ({
        file: f.replace(/\.ts$/, ''),
        cls: /export class (\w+)/.exec(fs.readFileSync(path.join(dir, f), 'utf8'))![1],
      }));
    const lines = [
      '/** Every migration, in order: listed here so the same list runs from sources, builds and tests. */',
      ...files.map((m) => `import { ${m.cls} } from './${m.file}';`),
      '',
      `export const migrationsList: { name: string; class: any }[] = [`,
      ...files.map((m) => `  { name: '${m.file}', class: ${m.cls} },`),
      '];',
      '',
    ];
    fs.writeFileSync(path.join(dir, 'index.ts'), lines.join('\n'));
    const names = [
      NAMES_DOC,
      'export const migrationNames: readonly string[] = [',
      ...files.map((m) => `  '${m.file}',`),
      '];',
      '',
    ];
    fs.writeFileSync(path.join(dir, 'names.ts'), names.join('\n'));
    console.log(`wrote ${result.fileName}`);
  } finally {
    await stopHost(child);
  }
}
