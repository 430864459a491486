import type { EntityDictionary, EntityManager } from '@mikro-orm/core';
import { queryRows } from '../../db/orm-bypass/statements';
import { StoredFile } from './entities/stored-file';

/**
 * The statements on stored files that are not one record's read or write: the tenant's lock, the
 * quota's sums, the thumbnail queue's claim and the clean-up's search across every record's JSON.
 * A record read or written by its key goes through the entity (stored-files.ts).
 */

/** The tenant's own limits and the bytes it stores now, as one statement gives them. */
export interface LimitsAndUseRow {
  max_file_size: string | null;
  allowed_types: string[] | null;
  quota_bytes: string | null;
  /** bigint sums arrive as text. */
  used: string;
}

/**
 * A row that takes its size of the quota: a file, or a two-step upload whose ticket has not
 * expired. An expired ticket's reservation is released at once, though its row waits for the
 * clean-up job (a ticket cut by a stalled body stays valid until then: it can be sent again).
 */
const HOLDS_ROOM = `not (completed is null and coalesce(expires < now(), false))`;

/** The tenant's settings row (if any) and its use, in one statement (an upload needs both). */
export async function limitsAndUseRow(em: EntityManager, tenantId: string): Promise<LimitsAndUseRow> {
  const [row] = await queryRows<LimitsAndUseRow>(
    em,
    `select s.max_file_size, s.allowed_types, s.quota_bytes,
       (select coalesce(sum(size), 0) from stored_file where tenant_id = $1 and deleted is null and ${HOLDS_ROOM}) as used
     from (select 1) one left join file_settings s on s.tenant_id = $1`,
    [tenantId],
  );
  return row;
}

/** Bytes the tenant's files take (pending uploads count with their declared size). */
export async function usedBytes(em: EntityManager, tenantId: string): Promise<number> {
  const [row] = await queryRows<{ used: string }>(
    em,
    `select coalesce(sum(size), 0) as used from stored_file where tenant_id = $1 and deleted is null and ${HOLDS_ROOM}`,
    [tenantId],
  );
  return Number(row.used);
}

/** Serialises the quota check and insert of one tenant's files (two uploads could both fit alone). */
export async function lockTenantFiles(em: EntityManager, tenantId: string): Promise<void> {
  await queryRows(em, `select pg_advisory_xact_lock(hashtext('stored_file:' || $1))`, [tenantId]);
}

/** A `stored_file` row as the database gives it (`select *`), which `em.map` makes the entity. */
type StoredFileRow = EntityDictionary<StoredFile>;

/**
 * Claims up to `batch` images whose thumbnail is due, oldest first, skipping those another
 * process holds; they come back as entities of `em`, so setting their state is a flush.
 */
export async function claimDueThumbnails(em: EntityManager, batch: number): Promise<StoredFile[]> {
  const rows = await queryRows<StoredFileRow>(
    em,
    `select * from stored_file where thumbnail_state = 'PENDING' and completed is not null and deleted is null
     order by created limit $1 for update skip locked`,
    [batch],
  );
  return rows.map((row) => em.map(StoredFile, row));
}

/** Where a record can name a stored file: a JSON column of a record's table. */
export interface JsonColumn {
  table: string;
  column: string;
}

/**
 * Claims the files whose grace period `graceMs` is over and that no one can use any more: files no
 * record names (by their id anywhere in one of `columns`; a thumbnail counts as named while its
 * image lives), files deleted through the API, and two-step uploads never completed before they
 * expired. `live` says whether the file was still readable (its removal is then an event).
 */
export async function claimRemovable(
  em: EntityManager,
  columns: readonly JsonColumn[],
  graceMs: number,
): Promise<{ file: StoredFile; live: boolean }[]> {
  const named = columns
    .map(
      ({ table, column }) =>
        `exists (select 1 from "${table}" r where r.tenant_id = f.tenant_id and r."${column}"::text like '%' || f.id::text || '%')`,
    )
    .join(' or ');
  const rows = await queryRows<StoredFileRow & { live: boolean }>(
    em,
    `select f.*, (f.deleted is null and f.completed is not null) as live from stored_file f
     where (f.deleted is not null and f.deleted < now() - make_interval(secs => $1 / 1000.0))
        or (f.completed is null and f.expires < now() - make_interval(secs => $1 / 1000.0))
        or (f.completed is not null and f.deleted is null and f.completed < now() - make_interval(secs => $1 / 1000.0)
            and not exists (select 1 from stored_file s where s.tenant_id = f.tenant_id and s.thumbnail_id = f.id and s.deleted is null)
            ${named ? `and not (${named})` : ''})
     for update of f skip locked`,
    [graceMs],
  );
  return rows.map(({ live, ...row }) => ({ file: em.map(StoredFile, row), live }));
}
