/**
 * A partial index as an entity declares it: MikroORM's `@Index` takes a `where` only as the whole
 * statement's text, so the statement is made here, where SQL text is written, from its parts.
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
