import { lexicographicSortSchema, printSchema } from 'graphql';
import { compileRoutes } from '../rest/compile';
import { restTable } from '../rest/table';
import { buildAppSchema, buildBareSchema } from '../schema/build';
import { buildOpenApi, type OpenApiDocument } from './openapi';

/**
 * What the export scripts write (scripts/*.mjs): the same document the running service serves,
 * and the SDL of the schema, both built without a database.
 */
export async function openApiDocument(): Promise<OpenApiDocument> {
  const schema = await buildAppSchema();
  return buildOpenApi(schema, compileRoutes(schema, restTable));
}

/** The bare schema (no permission wrappers), sorted so the file changes only when the schema does. */
export async function schemaSdl(): Promise<string> {
  return printSchema(lexicographicSortSchema(await buildBareSchema()));
}
