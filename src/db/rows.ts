/** Rows as pg returns them: column name to value. */
export type Rows = Record<string, unknown>[];
