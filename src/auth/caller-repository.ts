import type { Rows } from '../db/orm-bypass/statements';
import type { Permissions } from '../entities/tenant-role';

/**
 * The statements that read a request's caller (authenticate.ts): a user, or an API key with its
 * creator, with the permission lists of the user's roles and its tenant's state, in one
 * statement each. They go to the database in the round trip that sets the transaction's settings
 * (src/db/tenant-transaction.ts), so they are handed over as text and values, and their rows come
 * back as pg gives them: `callerRows` and `keyCallerRows` are where those rows are taken to be
 * what these statements select.
 */

/** A statement with PostgreSQL's `$n` placeholders and its values. */
export interface CallerStatement {
  text: string;
  values: unknown[];
}

/**
 * What the caller statement adds to the user's own columns (`u.*`, hydrated as the user entity).
 * JSON may come back as text, depending on the connection.
 */
export interface CallerRow extends Record<string, unknown> {
  role_permissions: Permissions[] | string;
  tenant_active: boolean | null;
  tenant_scopes: Record<string, unknown> | string | null;
}

/** The key's columns, beside its creator's (all null when the key has no creator left). */
export interface KeyColumns {
  key_id: string;
  key_name: string;
  /** Hex. */
  key_hash: string;
  key_permissions: string[];
  key_subsidiary: string | null;
  key_project: string | null;
  key_expires: Date | string | null;
  key_revoked: Date | string | null;
}

export type KeyCallerRow = CallerRow & KeyColumns;

/**
 * The user, the permission lists of its roles and whether its tenant is active, in one statement:
 * authentication runs on every request, and two queries with entity hydration were a large share
 * of a simple read (bench/README.md). Reading the tenant's state here rather than remembering it
 * means a deactivated tenant is shut out on the next request on every process.
 */
const CALLER_COLUMNS = `u.*, coalesce((select jsonb_agg(r.permissions) from tenant_role r
                         where r.tenant_id = u.tenant_id and r.name = any(u.roles)), '[]'::jsonb) as role_permissions,
          coalesce((select t.active from tenant t where t.id = u.tenant_id), false) as tenant_active,
          (select t.scopes from tenant t where t.id = u.tenant_id) as tenant_scopes`;

const KEY_COLUMNS = `k.id as key_id, k.name as key_name, k.secret_hash as key_hash,
  k.permissions as key_permissions, k.subsidiary_id as key_subsidiary, k.project_id as key_project,
  k.expires_at as key_expires, k.revoked_at as key_revoked`;

/** The user with its roles' permissions and its tenant's state. */
export const userStatement = (tenantId: string, userId: string): CallerStatement => ({
  text: `select ${CALLER_COLUMNS}
   from app_user u where u.tenant_id = $1 and u.id = $2`,
  values: [tenantId, userId],
});

/** The key with its creator, read as `userStatement` reads a user. */
export const keyStatement = (tenantId: string, keyId: string): CallerStatement => ({
  text: `select ${CALLER_COLUMNS}, ${KEY_COLUMNS}
   from api_key k left join app_user u on u.tenant_id = k.tenant_id and u.id = k.creator_id
   where k.tenant_id = $1 and k.id = $2`,
  values: [tenantId, keyId],
});

/** The rows of a `userStatement`. */
export const callerRows = (rows: Rows): CallerRow[] => rows as CallerRow[];

/** The rows of a `keyStatement`. */
export const keyCallerRows = (rows: Rows): KeyCallerRow[] => rows as KeyCallerRow[];
