import {
  getNamedType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from 'graphql';
import { stringify } from 'csv-stringify/sync';

/**
 * CSV export (docs/conventions.md S8): RFC 4180 text with a header row of the record's documented
 * fields in the order its type declares them, derived ones included (the same field list the
 * search filters on, fields.ts), nested objects the record holds flattened as `a.b`, lists as
 * JSON, and cells that a spreadsheet would run as a formula (= + - @ tab CR) prefixed with a quote.
 */
export interface CsvColumn {
  header: string;
  path: string[];
  /** A derived field: its value is computed with the page (service.ts derivedOf), not held. */
  derived?: boolean;
}

const isList = (t: GraphQLOutputType): boolean => isListType(isNonNullType(t) ? t.ofType : t);

/**
 * Columns from the GraphQL type: every documented scalar field (`scalars`, stored or derived),
 * and the nested objects the record stores (`stored`); REST-hidden fields and the summaries of
 * linked records (resolved from another table, their ids are columns) are left out.
 */
export function csvColumns(
  type: GraphQLObjectType,
  scalars: ReadonlySet<string>,
  stored: (field: string) => boolean,
  derived: ReadonlySet<string>,
): CsvColumn[] {
  const walk = (t: GraphQLObjectType, prefix: string[], depth: number): CsvColumn[] =>
    Object.values(t.getFields()).flatMap((f): CsvColumn[] => {
      if (f.extensions?.rest === false) return [];
      const top = prefix.length === 0;
      if (top && !scalars.has(f.name) && !stored(f.name)) return [];
      const named = getNamedType(f.type);
      const path = [...prefix, f.name];
      if (isObjectType(named) && !isList(f.type) && depth < 3) return walk(named, path, depth + 1);
      return [{ header: path.join('.'), path, ...(top && derived.has(f.name) ? { derived: true } : {}) }];
    });
  return walk(type, [], 0);
}

const DANGEROUS = /^[=+\-@\t\r]/;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (value instanceof Date) text = value.toISOString();
  else if (Array.isArray(value) || typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  return DANGEROUS.test(text) ? `'${text}` : text;
}

export function toCsv(
  columns: CsvColumn[],
  rows: readonly object[],
  derivedOf: (row: object) => Record<string, unknown> | undefined = () => undefined,
): string {
  const records = rows.map((row) =>
    columns.map((c) =>
      cell(
        c.derived
          ? derivedOf(row)?.[c.path[0]]
          : c.path.reduce<any>((v, key) => (v == null ? undefined : v[key]), row),
      ),
    ),
  );
  return stringify(records, {
    header: true,
    columns: columns.map((c) => c.header),
    record_delimiter: '\r\n',
  });
}
