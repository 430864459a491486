/** A JSON Schema (OpenAPI 3.1 dialect) as plain data. */
export type JsonSchema = { [key: string]: unknown };
