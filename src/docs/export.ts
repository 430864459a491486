import { lexicographicSortSchema, printSchema } from 'graphql';
import { compileRoutes } from '../rest/compile';
import { restTable, transferTable } from '../rest/table';
import { buildAppSchema, buildBareSchema } from '../app-schema';
import { appGroups } from '../app-modules';
import { buildOpenApi, type OpenApiDocument } from './openapi';
import { searchMarkdown } from './search-docs';

/**
 * What the export scripts write (scripts/*.mjs): the same document the running service serves,
 * and the SDL of the schema, both built without a database.
 */
export async function openApiDocument(): Promise<OpenApiDocument> {
  const schema = await buildAppSchema();
  return buildOpenApi(schema, compileRoutes(schema, restTable), transferTable);
}

/** The bare schema (no permission wrappers), sorted so the file changes only when the schema does. */
export async function schemaSdl(): Promise<string> {
  return printSchema(lexicographicSortSchema(await buildBareSchema()));
}

/** docs/search.md: each group's filterable and sortable fields, from the schema. */
export async function searchDocs(): Promise<string> {
  const schema = await buildBareSchema();
  return searchMarkdown(
    schema,
    appGroups.map((g) => {
      const rows = restTable.filter(
        (r) => r.field === `search${g.plural}` && r.path.endsWith('/dynamic-search'),
      );
      return {
        record: g.entity.name,
        path: rows[0]?.path,
        methods: rows.map((r) => r.method).sort(),
        derived: Object.keys(g.derived ?? {}),
      };
    }),
  );
}
