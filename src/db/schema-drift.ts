import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';

const NAME = '"(?:[^"]|"")+"';
const OWNED_NAME = '"(?:[^"]|"")*_tenant_fk"';
/**
 * A whole statement of MikroORM's schema generator that only drops (its diff from the database) or
 * adds again (a migration's `down()`) a composite foreign key between records of one tenant, one
 * line each. Those keys are written in migrations only (docs/integrity.md): the entities keep
 * plain id columns, so MikroORM does not know them and its comparison would drop them. Their
 * names end with `_tenant_fk`.
 */
const OWNED_KEY_STATEMENT = new RegExp(
  `^alter table (?:${NAME}\\.)?${NAME} (?:drop constraint ${OWNED_NAME}|add constraint ${OWNED_NAME} foreign key \\([^\\n;]*);$`,
);

/**
 * `statements` (a diff's lines, or the Migrator's statements; blank ones separate tables) without
 * those that only drop or re-add a migration-owned key, and without blank ones left separating
 * nothing. A line is taken for a statement only where one starts, so a line inside another
 * statement is never removed.
 */
export function withoutMigrationOwnedKeys(statements: readonly string[]): string[] {
  const kept: string[] = [];
  let atStart = true;
  for (const statement of statements) {
    const blank = statement.trim() === '';
    const owned = atStart && OWNED_KEY_STATEMENT.test(statement.trim());
    if (!owned && !(blank && (kept.length === 0 || kept[kept.length - 1].trim() === '')))
      kept.push(statement);
    atStart = blank || statement.trimEnd().endsWith(';');
  }
  while (kept.length > 0 && kept[kept.length - 1].trim() === '') kept.pop();
  return kept;
}

/**
 * The SQL that would bring the database to what the entities describe (empty when they agree),
 * but for the migration-owned keys, which the schema generator would drop.
 */
export async function schemaDrift(
  orm: MikroORM<PostgreSqlDriver>,
  options: { safe?: boolean } = {},
): Promise<string> {
  const sql = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false, safe: options.safe });
  const kept = withoutMigrationOwnedKeys(sql.split('\n'));
  return kept.length === 0 ? '' : `${kept.join('\n')}\n`;
}
