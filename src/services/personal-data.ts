import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/postgresql';
import { PERSONAL_DATA, type PersonalKind } from '../db/personal-data';
import { queryRows } from '../db/orm-bypass/statements';
import { notFound } from '../errors';
import { aboutOrMentioning, ERASED, eraseRows, namesAndPhones } from './personal-data-repository';
import { actAsTenant, tenantRowTable, tenantTables, type Sql, knexOf } from './tenant-table-repository';

/**
 * One person's data in one tenant (docs/security.md, "Personal data"): everything the service
 * holds about the person found by e-mail address (a user, a lead's or a booking's contact, a
 * mail's sender...), exported as one JSON document (GDPR art. 15) or erased (art. 17): the
 * columns PERSONAL_DATA declares are replaced in every record, history, event, outbox entry,
 * inbox and sent mail, while everything else (amounts, dates, statuses) stays.
 */
/** The types each kind of personal column can have: a `*.` declaration covers those columns only. */
const TYPES: Record<PersonalKind, readonly string[]> = {
  email: ['text'],
  'email-list': ['text[]'],
  name: ['text'],
  phone: ['text'],
  text: ['text'],
  json: ['jsonb'],
};

/** The declared personal columns of each tenant table, as the catalog has them. */
async function personalColumns(sql: Sql): Promise<Map<string, Map<string, PersonalKind>>> {
  const out = new Map<string, Map<string, PersonalKind>>();
  // The tenant's own row (its owner's address) is the tenant's too, keyed by `id`.
  const tenantRow = await tenantRowTable(sql);
  for (const table of [tenantRow, ...(await tenantTables(sql))]) {
    const columns = new Map<string, PersonalKind>();
    for (const column of table.columns) {
      const own = PERSONAL_DATA[`${table.name}.${column}`];
      const shared = PERSONAL_DATA[`*.${column}`];
      if (own) columns.set(column, own);
      else if (shared && TYPES[shared].includes(table.types[column])) columns.set(column, shared);
    }
    if (columns.size > 0) out.set(table.name, columns);
  }
  return out;
}

interface Person {
  email: string;
  /** Full names and phone numbers found in the rows about the person. */
  identifiers: string[];
}

/** The person's identifiers: the address, and the names and numbers of the rows about them. */
async function identify(
  sql: Sql,
  tables: Map<string, Map<string, PersonalKind>>,
  tenantId: string,
  email: string,
): Promise<Person | null> {
  let found = false;
  const identifiers = new Set<string>([email]);
  for (const [table, columns] of tables) {
    const hits = await namesAndPhones(sql, table, columns, tenantId, email);
    if (hits.length > 0) found = true;
    for (const h of hits) {
      if (h.name && h.name.trim().length > 2 && h.name.includes(' ')) identifiers.add(h.name.trim());
      if (h.phone && h.phone.replace(/\D/g, '').length >= 6) identifiers.add(h.phone.trim());
    }
  }
  return found ? { email, identifiers: [...identifiers] } : null;
}

const normalise = (email: string) => email.trim().toLowerCase();

export interface PersonalExport {
  person: { email: string; tenantId: string; identifiers: string[] };
  exportedAt: string;
  /** Records about the person (an e-mail column is theirs), whole, by table. */
  about: Record<string, unknown[]>;
  /** Records that mention the person in free text or history, whole, by table. */
  mentions: Record<string, unknown[]>;
}

/** Runs `work` in one transaction of the tenant, on whatever runs its statements. */
type Runner = <R>(work: (sql: Sql) => Promise<R>, config?: Knex.TransactionConfig) => Promise<R>;

/** A transaction of its own, as the database's owner bound to the tenant (the CLI). */
const ownTransaction =
  (orm: MikroORM, tenantId: string): Runner =>
  (work, config) =>
    knexOf(orm).transaction(async (trx) => {
      await actAsTenant(trx, tenantId);
      return work(trx);
    }, config);

/**
 * The request's own transaction (as the application role, bound to the caller's tenant): the
 * statements go through it, `?` placeholders numbered as PostgreSQL's.
 */
const requestTransaction =
  (em: EntityManager): Runner =>
  (work) =>
    work({
      raw: async (text: string, bindings: Knex.RawBinding[]) => {
        let n = 0;
        return {
          rows: await queryRows(
            em,
            text.replace(/\?/g, () => `$${++n}`),
            bindings,
          ),
        };
      },
    });

/**
 * Runs `work` with the person found (their identifiers, and the declared columns of each table);
 * 404 when the tenant holds nothing about them.
 */
function withPerson<R>(
  run: Runner,
  tenantId: string,
  address: string,
  work: (sql: Sql, person: Person, tables: Map<string, Map<string, PersonalKind>>) => Promise<R>,
  config?: Knex.TransactionConfig,
): Promise<R> {
  const email = normalise(address);
  return run(async (sql) => {
    const tables = await personalColumns(sql);
    const person = await identify(sql, tables, tenantId, email);
    if (!person) throw notFound(`no personal data of ${email} in this tenant`);
    return work(sql, person, tables);
  }, config);
}

/** Everything held about the person in the tenant, as one document; 404 when nothing is. */
export const exportPerson = (orm: MikroORM, tenantId: string, address: string) =>
  exportWith(ownTransaction(orm, tenantId), tenantId, address);

/** exportPerson in a request's transaction (the caller's tenant). */
export const exportPersonIn = (em: EntityManager, tenantId: string, address: string) =>
  exportWith(requestTransaction(em), tenantId, address);

/** Erases the person (erasePerson, below); the CLI's own transaction. */
export const erasePerson = (orm: MikroORM, tenantId: string, address: string) =>
  eraseWith(ownTransaction(orm, tenantId), tenantId, address);

/** erasePerson in a request's transaction (the caller's tenant). */
export const erasePersonIn = (em: EntityManager, tenantId: string, address: string) =>
  eraseWith(requestTransaction(em), tenantId, address);

function exportWith(run: Runner, tenantId: string, address: string): Promise<PersonalExport> {
  return withPerson(
    run,
    tenantId,
    address,
    async (sql, person, tables) => {
      const { email } = person;
      const about: Record<string, unknown[]> = {};
      const mentions: Record<string, unknown[]> = {};
      for (const [table, columns] of tables) {
        const found = await aboutOrMentioning(sql, table, columns, tenantId, email, person.identifiers);
        const a = found.filter((f) => f.about).map((f) => f.r);
        const m = found.filter((f) => !f.about).map((f) => f.r);
        if (a.length) about[table] = a;
        if (m.length) mentions[table] = m;
      }
      return {
        person: { email, tenantId, identifiers: person.identifiers },
        exportedAt: new Date().toISOString(),
        about,
        mentions,
      };
    },
    { isolationLevel: 'repeatable read', readOnly: true },
  );
}

export interface Erasure {
  email: string;
  /** The address that stands in for the person's from now on. */
  replacedBy: string;
  /** Rows changed, by table. */
  rows: Record<string, number>;
}

/**
 * Erases the person in one transaction: in the rows about them, every declared e-mail, name and
 * phone column is replaced; in every declared free-text and JSON column of the tenant, each
 * occurrence of their address, full name or phone number. 404 when nothing is held about them.
 */
function eraseWith(run: Runner, tenantId: string, address: string): Promise<Erasure> {
  const replacedBy = `erased-${randomUUID().slice(0, 8)}@erased.invalid`;
  return withPerson(run, tenantId, address, async (sql, person, tables) => {
    const { email } = person;
    const replacements = person.identifiers.map((id) => [id, id === email ? replacedBy : ERASED] as const);
    const changed: Record<string, number> = {};
    for (const [table, columns] of tables) {
      const n = await eraseRows(sql, table, columns, tenantId, { email, replacedBy, replacements });
      if (n > 0) changed[table] = n;
    }
    return { email, replacedBy, rows: changed };
  });
}
