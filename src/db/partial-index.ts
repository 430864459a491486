/**
 * An index over some rows only (`where`), as an entity's `@Index` declares it: MikroORM's index
 * options have no condition, so its DDL is the index's `expression`, written here once for every
 * entity that has one. Columns are named as the table names them.
 */
export function partialIndex(
  table: string,
  name: string,
  columns: readonly string[],
  where: string,
): { name: string; expression: string } {
  const list = columns.map((c) => `"${c}"`).join(', ');
  return { name, expression: `create index "${name}" on "${table}" (${list}) where ${where}` };
}
