/**
 * The indexes MikroORM's `@Index` options cannot say: a condition (`where`) or a column in
 * descending order. An entity declares such an index by its whole statement (`expression`); the
 * statements are made here, from their parts, as the migrations made them, so the schema
 * comparison finds entity and table equal. A column is named as the table names it, optionally
 * followed by its order (`seq desc`).
 */
export function indexOn(
  table: string,
  name: string,
  columns: readonly string[],
  where?: string,
): { name: string; expression: string } {
  const list = columns.map((c) => c.replace(/^(\w+)/, '"$1"')).join(', ');
  const condition = where === undefined ? '' : ` where ${where}`;
  return { name, expression: `create index "${name}" on "${table}" (${list})${condition}` };
}

/** An index over the rows `where` holds for. */
export function partialIndex(
  table: string,
  name: string,
  columns: readonly string[],
  where: string,
): { name: string; expression: string } {
  return indexOn(table, name, columns, where);
}
