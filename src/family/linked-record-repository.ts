/**
 * A linked record's value as a correlated subquery on its row (aliased `lk`, of `table`, quoted)
 * of the same tenant as the row aliased `alias`, by its primary key in that row's `idColumn`:
 * searches filter, sort and count by it in the statement that pages (fields.ts, linkedField).
 * `visible` is a further condition on `lk` (with its leading ` and `), or empty.
 */
export const linkedValueSql = (
  value: string,
  table: string,
  alias: string,
  idColumn: string,
  visible: string,
): string =>
  `select ${value} from ${table} lk where lk.tenant_id = ${alias}.tenant_id and lk.id = ${alias}.${idColumn}${visible}`;
