import type { MikroORM } from '@mikro-orm/core';
import { DatabaseSchema, type PostgreSqlDriver } from '@mikro-orm/postgresql';

/**
 * The composite foreign keys between records of one tenant are written in migrations only (see
 * docs/integrity.md): the entities keep plain id columns, so MikroORM does not know them and its
 * schema comparison would drop them. Their names end with this suffix.
 */
export const MIGRATION_OWNED_FOREIGN_KEY = /_tenant_fk$/;

/** The database's schema as MikroORM reads it, without the foreign keys the migrations own. */
export async function databaseSchema(orm: MikroORM<PostgreSqlDriver>): Promise<DatabaseSchema> {
  const driver = orm.em.getDriver();
  const schema = await DatabaseSchema.create(
    driver.getConnection(),
    driver.getPlatform(),
    orm.config,
    undefined,
    undefined,
    undefined,
    orm.config.get('schemaGenerator').skipTables,
  );
  for (const table of schema.getTables()) {
    const keys = table.getForeignKeys();
    for (const name of Object.keys(keys)) if (MIGRATION_OWNED_FOREIGN_KEY.test(name)) delete keys[name];
  }
  return schema;
}

/** The SQL that would bring the database to what the entities describe (empty when they agree). */
export async function schemaDrift(
  orm: MikroORM<PostgreSqlDriver>,
  options: { safe?: boolean } = {},
): Promise<string> {
  const fromSchema = await databaseSchema(orm);
  return orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false, safe: options.safe, fromSchema });
}
