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
 * CSV export (decisions.md S8): RFC 4180 text, a header of the entity's stored field names,
 * nested objects flattened as `a.b`, lists as JSON, and cells that a spreadsheet would run as a
 * formula (= + - @ tab CR) prefixed with a quote.
 */
export interface CsvColumn {
  header: string;
  path: string[];
}

const isList = (t: GraphQLOutputType): boolean => isListType(isNonNullType(t) ? t.ofType : t);

/** Columns from the GraphQL type: only fields the record stores (`stored`), REST-visible ones. */
export function csvColumns(type: GraphQLObjectType, stored: (field: string) => boolean): CsvColumn[] {
  const walk = (t: GraphQLObjectType, prefix: string[], depth: number): CsvColumn[] =>
    Object.values(t.getFields()).flatMap((f) => {
      if (f.extensions?.rest === false) return [];
      if (prefix.length === 0 && !stored(f.name)) return [];
      const named = getNamedType(f.type);
      const path = [...prefix, f.name];
      if (isObjectType(named) && !isList(f.type) && depth < 3) return walk(named, path, depth + 1);
      return [{ header: path.join('.'), path }];
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

export function toCsv(columns: CsvColumn[], rows: readonly object[]): string {
  const records = rows.map((row) =>
    columns.map((c) => cell(c.path.reduce<any>((v, key) => (v == null ? undefined : v[key]), row))),
  );
  return stringify(records, {
    header: true,
    columns: columns.map((c) => c.header),
    record_delimiter: '\r\n',
  });
}
