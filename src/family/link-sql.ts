/**
 * First and last name joined by a space, null when both are empty: the `fullName` and
 * `displayName` of person summaries (summaries.ts, employee.ts) as SQL on the row aliased `alias`.
 */
export const fullNameSql = (alias: string): string =>
  `nullif(concat_ws(' ', nullif(${alias}.first_name, ''), nullif(${alias}.last_name, '')), '')`;
