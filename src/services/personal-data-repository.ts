import type { PersonalKind } from '../db/personal-data';
import { isUuid } from '../limits';
import { quoteIdent, rows, type Sql } from './tenant-table-repository';

/**
 * A person's data's statements (personal-data.ts): over any tenant table with declared personal
 * columns (`columns`, by name, what each holds), the reads that find the person and what mentions
 * them, and the erasure's one update per table. Generic over the tables, as the catalog lists them.
 */

/** What stands in for an erased name, phone number or mention. */
export const ERASED = '[erased]';

const byKind = (columns: Map<string, PersonalKind>, kind: PersonalKind) =>
  [...columns].filter(([, k]) => k === kind).map(([c]) => quoteIdent(c));

/** SQL true for the rows of the tenant in `table`: the tenant's own row is keyed by its id. */
const ofTenant = (table: string, tenantId: string) => {
  // Named in the statement (a checked UUID), so each statement says which tenant it reads, as
  // a distributed database routes by it.
  if (!isUuid(tenantId)) throw new Error(`not a tenant id: ${tenantId}`);
  return `${table === 'tenant' ? 'id' : 'tenant_id'} = '${tenantId}'::uuid`;
};

/** SQL true for a row about the person: one of its e-mail columns is the address ($email). */
function aboutSql(columns: Map<string, PersonalKind>, email: string, bindings: unknown[]): string {
  const parts = [
    ...byKind(columns, 'email').map((c) => {
      bindings.push(email);
      return `lower(${c}) = ?`;
    }),
    ...byKind(columns, 'email-list').map((c) => {
      bindings.push(email);
      return `? = any(array(select lower(x) from unnest(${c}) x))`;
    }),
  ];
  return parts.length ? `(${parts.join(' or ')})` : 'false';
}

/** SQL true for a row whose free text or JSON mentions one of the identifiers. */
function mentionsSql(columns: Map<string, PersonalKind>, identifiers: string[], bindings: unknown[]): string {
  const parts: string[] = [];
  for (const c of [...byKind(columns, 'text'), ...byKind(columns, 'json')])
    for (const id of identifiers) {
      bindings.push(`%${id.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
      parts.push(`${c}::text ilike ?`);
    }
  return parts.length ? `(${parts.join(' or ')})` : 'false';
}

/** The names and phone numbers of the rows about the person (an e-mail column is `email`). */
export async function namesAndPhones(
  sql: Sql,
  table: string,
  columns: Map<string, PersonalKind>,
  tenantId: string,
  email: string,
): Promise<{ name: string | null; phone: string | null }[]> {
  const bindings: unknown[] = [];
  const where = aboutSql(columns, email, bindings);
  if (where === 'false') return [];
  const names = byKind(columns, 'name');
  const phones = byKind(columns, 'phone');
  const select = [
    names.length >= 2 ? `concat_ws(' ', ${names.slice(0, 2).join(', ')})` : (names[0] ?? 'null'),
    phones[0] ?? 'null',
  ];
  return rows<{ name: string | null; phone: string | null }>(
    sql,
    `select ${select[0]} as name, ${select[1]} as phone from ${quoteIdent(table)} where ${ofTenant(table, tenantId)} and ${where}`,
    bindings,
  );
}

/** The rows about the person (`about`) or mentioning one of their identifiers, whole (`r`). */
export function aboutOrMentioning(
  sql: Sql,
  table: string,
  columns: Map<string, PersonalKind>,
  tenantId: string,
  email: string,
  identifiers: string[],
): Promise<{ r: Record<string, unknown>; about: boolean }[]> {
  const b1: unknown[] = [];
  const isAbout = aboutSql(columns, email, b1);
  const b2: unknown[] = [];
  const mentioned = mentionsSql(columns, identifiers, b2);
  return rows<{ r: Record<string, unknown>; about: boolean }>(
    sql,
    `select row_to_json(t) as r, ${isAbout} as about from ${quoteIdent(table)} t
       where ${ofTenant(table, tenantId)} and (${isAbout} or ${mentioned})`,
    [...b1, ...b1, ...b2],
  );
}

export interface Replacing {
  /** The person's address (lower case). */
  email: string;
  /** The address that stands in for theirs. */
  replacedBy: string;
  /** Each identifier of the person with what replaces it in free text and JSON. */
  replacements: readonly (readonly [string, string])[];
}

/** JSON's escaping of a string, without the quotes: how it appears inside a JSON document. */
const inJson = (s: string) => JSON.stringify(s).slice(1, -1);

/**
 * Erases the person in `table`: in the rows about them, every declared e-mail, name and phone
 * column is replaced; in every declared free-text and JSON column, each occurrence of one of the
 * identifiers. How many rows changed.
 */
export async function eraseRows(
  sql: Sql,
  table: string,
  columns: Map<string, PersonalKind>,
  tenantId: string,
  { email, replacedBy, replacements }: Replacing,
): Promise<number> {
  const sets: string[] = [];
  const setBindings: unknown[] = [];
  const about: unknown[] = [];
  const isAbout = aboutSql(columns, email, about);
  for (const [column, kind] of columns) {
    const c = quoteIdent(column);
    if (kind === 'email') {
      sets.push(`${c} = case when lower(${c}) = ? then ? else ${c} end`);
      setBindings.push(email, replacedBy);
    } else if (kind === 'email-list') {
      sets.push(`${c} = array(select case when lower(x) = ? then ? else x end from unnest(${c}) x)`);
      setBindings.push(email, replacedBy);
    } else if (kind === 'name' || kind === 'phone') {
      sets.push(`${c} = case when ${isAbout} and ${c} is not null then ? else ${c} end`);
      setBindings.push(...about, ERASED);
    } else {
      // Longest first, so a full name is replaced before a part of it could be.
      let expr = `${c}::text`;
      for (const [id, by] of [...replacements].sort((x, y) => y[0].length - x[0].length)) {
        expr = `regexp_replace(${expr}, ?, ?, 'gi')`;
        const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        setBindings.push(escape(kind === 'json' ? inJson(id) : id), kind === 'json' ? inJson(by) : by);
      }
      sets.push(`${c} = (${expr})::${kind === 'json' ? 'jsonb' : 'text'}`);
    }
  }
  const b: unknown[] = [];
  const mentioned = mentionsSql(
    columns,
    replacements.map(([id]) => id),
    b,
  );
  const [{ n }] = await rows<{ n: number }>(
    sql,
    `with changed as (
       update ${quoteIdent(table)} set ${sets.join(', ')}
       where ${ofTenant(table, tenantId)} and (${isAbout} or ${mentioned}) returning 1)
     select count(*)::int as n from changed`,
    [...setBindings, ...about, ...b],
  );
  return n;
}
