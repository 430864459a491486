import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from '../../db/orm-bypass/statements';

/**
 * The statements that find a notification's users and their feed settings. They run in the
 * transaction of the change that makes the notification, while that change is being flushed, so
 * they go past the unit of work; each names the tenant, so a lookup outside a tenant's transaction
 * keeps to it as well. Only ACTIVE users are ever answered: the others could not read what they
 * were sent. A list of ids is `$2` of the statements that take one.
 */

interface UserIdRow {
  id: string;
}

/** A recipient's settings as far as the in-app feed goes (delivery.ts's `accepts`). */
export interface FeedSettingsRow {
  user_id: string;
  in_app_notifications_enabled: boolean;
  enabled_categories: string[];
  disabled_scopes: string[];
}

async function userIds(em: EntityManager, sql: string, params: readonly unknown[]): Promise<string[]> {
  const rows = await queryRows<UserIdRow>(em, sql, params);
  return rows.map((r) => r.id);
}

/** These users, as far as they exist in the tenant and are active. */
export const activeUsersAmong = (em: EntityManager, tenantId: string, ids: readonly string[]) =>
  userIds(em, `select id from app_user where tenant_id = $1 and id = any($2::uuid[]) and status = 'ACTIVE'`, [
    tenantId,
    ids,
  ]);

/** The active user with this e-mail (any case). */
export const activeUsersByEmail = (em: EntityManager, tenantId: string, email: string) =>
  userIds(
    em,
    `select id from app_user where tenant_id = $1 and lower(email) = lower($2) and status = 'ACTIVE'`,
    [tenantId, email],
  );

/** The active users of these employees (an employee's `userId`). */
export const employeesUsers = (em: EntityManager, tenantId: string, employeeIds: readonly string[]) =>
  userIds(
    em,
    `select u.id from employee e join app_user u on u.tenant_id = e.tenant_id and u.id = e.user_id
       where e.tenant_id = $1 and e.id = any($2::uuid[]) and u.status = 'ACTIVE'`,
    [tenantId, employeeIds],
  );

/** The active users of the employees who own these epics. */
export const epicOwnersUsers = (em: EntityManager, tenantId: string, epicIds: readonly string[]) =>
  userIds(
    em,
    `select u.id from epic p join employee e on e.tenant_id = p.tenant_id and e.id = p.owner_id
       join app_user u on u.tenant_id = e.tenant_id and u.id = e.user_id
       where p.tenant_id = $1 and p.id = any($2::uuid[]) and u.status = 'ACTIVE'`,
    [tenantId, epicIds],
  );

/** The active users owning these leads (a lead's `ownerId`). */
export const leadOwnersUsers = (em: EntityManager, tenantId: string, leadIds: readonly string[]) =>
  userIds(
    em,
    `select u.id from lead l join app_user u on u.tenant_id = l.tenant_id and u.id = l.owner_id
       where l.tenant_id = $1 and l.id = any($2::uuid[]) and u.status = 'ACTIVE'`,
    [tenantId, leadIds],
  );

/**
 * The active users holding `permission` through one of their roles, or `superAdmin`, the role
 * holding every permission.
 */
export const usersHolding = (em: EntityManager, tenantId: string, superAdmin: string, permission: string) =>
  userIds(
    em,
    `select u.id from app_user u where u.tenant_id = $1 and u.status = 'ACTIVE' and (
         $2 = any(u.roles) or exists (
           select 1 from tenant_role r, jsonb_each(r.permissions) l
           where r.tenant_id = u.tenant_id and r.name = any(u.roles)
             and jsonb_typeof(l.value) = 'array' and l.value @> to_jsonb(array[$3::text]))
       )`,
    [tenantId, superAdmin, permission],
  );

/** Every active user of the tenant but `except`. */
export const activeUsersBut = (em: EntityManager, tenantId: string, except: string | null) =>
  userIds(em, `select id from app_user where tenant_id = $1 and status = 'ACTIVE' and id <> $2`, [
    tenantId,
    except,
  ]);

/** The feed settings of those of `userIds` who have a settings row. */
export const feedSettingsOf = (
  em: EntityManager,
  tenantId: string,
  userIds: readonly string[],
): Promise<FeedSettingsRow[]> =>
  queryRows<FeedSettingsRow>(
    em,
    `select user_id, in_app_notifications_enabled, enabled_categories, disabled_scopes
     from notification_settings where tenant_id = $1 and user_id = any($2::uuid[])`,
    [tenantId, userIds],
  );
