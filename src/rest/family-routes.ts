import type { GroupDef } from '../family/group';
import { lowerFirst } from '../family/fields';
import { body, fromRequest, query, type RestRoute } from './route';
import { searchFromBody, searchFromQuery } from './search-params';

/** The codes of the specification's family table (section 4.1), plus create, update and bulk delete. */
export type FamilyCode =
  'create' | 'update' | 'S1' | 'S2' | 'S3' | 'S4' | 'S5' | 'S6' | 'S7' | 'S8' | 'S9' | 'S10' | 'bulk-delete';

export interface FamilyOptions {
  /** S1 without ids answers [] instead of 400 (Inbox). */
  s1IdsOptional?: boolean;
  /** S9 without ids deletes nothing instead of 400 (Invoices, AP invoices). */
  s9IdsOptional?: boolean;
}

/**
 * The REST rows of a group's family operations, generated from the codes the specification
 * lists for it. Where a group has no documented `find/{id}`, one is added as an extension so
 * that the Location of a created record points somewhere real; so are a single record's change
 * (`PATCH <base>/{id}`, as the specification writes it for concepts) and deletion
 * (`DELETE <base>/{id}`, S10) where the specification lists none, so that every group's record can
 * be changed and deleted over REST as over GraphQL.
 */
export function familyRoutes(
  group: GroupDef<any, any, any>,
  base: string,
  codes: readonly FamilyCode[],
  options: FamilyOptions = {},
): RestRoute[] {
  const { name, plural } = group;
  const one = lowerFirst(name);
  const many = lowerFirst(plural);
  const rows: Record<FamilyCode, RestRoute> = {
    create: {
      method: 'POST',
      path: base,
      field: `create${name}`,
      args: { input: body() },
      status: 201,
      location: (r: { id: string }) => `${base}/find/${r.id}`,
      summary: `Create ${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`,
    },
    update: {
      method: 'PATCH',
      path: `${base}/{id}`,
      field: `update${name}`,
      args: { input: body() },
      summary: `Change one ${name}: the fields sent (with ?expectedVersion=, a 409 if it changed since)`,
    },
    S1: {
      method: 'GET',
      path: `${base}/find`,
      field: many,
      args: { ids: query('ids', options.s1IdsOptional ? [] : undefined) },
      summary: `${plural} by ids`,
    },
    S2: {
      method: 'GET',
      path: `${base}/find-all`,
      field: `all${plural}`,
      summary: `Every ${name} of the tenant`,
    },
    S3: { method: 'GET', path: `${base}/find/{id}`, field: one, nullIs404: true, summary: `One ${name}` },
    S4: {
      method: 'GET',
      path: `${base}/find-list`,
      field: many,
      args: { ids: query('ids', []) },
      summary: `${plural} by ids (optional)`,
    },
    S5: { method: 'GET', path: `${base}/page`, field: `${one}Page`, summary: `A page of ${plural}` },
    S6: {
      method: 'GET',
      path: `${base}/dynamic-search`,
      field: `search${plural}`,
      args: { input: fromRequest(searchFromQuery) },
      summary: `Dynamic search of ${plural}`,
    },
    S7: {
      method: 'POST',
      path: `${base}/dynamic-search`,
      field: `search${plural}`,
      args: { input: fromRequest(searchFromBody) },
      summary: `Dynamic search of ${plural} (body)`,
    },
    S8: {
      method: 'GET',
      path: `${base}/csv-export`,
      field: `export${plural}Csv`,
      args: { input: fromRequest(searchFromQuery) },
      summary: `${plural} as CSV`,
      csv: { filename: `${base.split('/').pop()}.csv` },
    },
    S9: {
      method: 'DELETE',
      path: `${base}/delete-list`,
      field: `delete${plural}`,
      args: { ids: query('ids', options.s9IdsOptional ? [] : undefined) },
      status: 204,
      summary: `Delete ${plural} by ids`,
    },
    S10: {
      method: 'DELETE',
      path: `${base}/{id}`,
      field: `delete${name}`,
      nullIs404: true,
      status: 204,
      summary: `Delete one ${name}`,
    },
    'bulk-delete': {
      method: 'DELETE',
      path: base,
      field: `delete${plural}`,
      args: { ids: body() },
      status: 204,
      summary: `Delete ${plural} (body: ids)`,
    },
  };
  const routes: RestRoute[] = codes.map((code) => ({ ...rows[code], code }));
  for (const code of ['S3', 'update', 'S10'] as const)
    if (!codes.includes(code)) routes.push({ ...rows[code], code, extension: true });
  // The record's history, wherever it can be found by id; restore, wherever it can be deleted.
  routes.push({
    method: 'GET',
    path: `${base}/find/{id}/history`,
    field: `${one}History`,
    code: 'custom',
    extension: true,
    summary: `The history of one ${name}, newest first (docs/history.md)`,
  });
  routes.push({
    method: 'POST',
    path: `${base}/deleted/{id}/restore`,
    field: `restore${name}`,
    code: 'custom',
    extension: true,
    summary: `Restore a deleted ${name} (docs/history.md)`,
  });
  return routes;
}
