import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from '../../db/orm-bypass/statements';
import { SUPER_ADMIN } from '../../permissions/catalog';
import { isUuid } from '../../limits';

/**
 * The users a notification concerns, looked up in the transaction of the change that makes it
 * (statements, never the unit of work: they run while that change is being flushed). Every
 * statement names the tenant, so a lookup outside a tenant's transaction keeps to it as well.
 * Only ACTIVE users are ever answered: the others could not read what they were sent.
 */
export class Recipients {
  constructor(
    private readonly em: EntityManager,
    readonly tenantId: string,
  ) {}

  private async ids(sql: string, params: unknown[]): Promise<string[]> {
    const rows = await queryRows(this.em, sql, [this.tenantId, ...params]);
    return rows.map((r) => String(r.id));
  }

  /** The statement's users for the well-formed ids among `ids` (`$2`); none without any. */
  private byIds(sql: string, ids: readonly (string | null | undefined)[]): Promise<string[]> {
    const wanted = ids.filter(isUuid);
    return wanted.length === 0 ? Promise.resolve([]) : this.ids(sql, [wanted]);
  }

  /** These users, as far as they exist in the tenant and are active. */
  users(ids: readonly (string | null | undefined)[]): Promise<string[]> {
    return this.byIds(
      `select id from app_user where tenant_id = $1 and id = any($2::uuid[]) and status = 'ACTIVE'`,
      ids,
    );
  }

  /** The user with this e-mail (records keep their creator's e-mail in `createdBy`). */
  byEmail(email: string | null | undefined): Promise<string[]> {
    if (!email) return Promise.resolve([]);
    return this.ids(
      `select id from app_user where tenant_id = $1 and lower(email) = lower($2) and status = 'ACTIVE'`,
      [email],
    );
  }

  /** The users of these employees (an employee's `userId`), HR naming people by employee. */
  employees(ids: readonly (string | null | undefined)[]): Promise<string[]> {
    return this.byIds(
      `select u.id from employee e join app_user u on u.tenant_id = e.tenant_id and u.id = e.user_id
       where e.tenant_id = $1 and e.id = any($2::uuid[]) and u.status = 'ACTIVE'`,
      ids,
    );
  }

  /** The user of the employee who owns this epic. */
  epicOwner(epicId: string | null | undefined): Promise<string[]> {
    return this.byIds(
      `select u.id from epic p join employee e on e.tenant_id = p.tenant_id and e.id = p.owner_id
       join app_user u on u.tenant_id = e.tenant_id and u.id = e.user_id
       where p.tenant_id = $1 and p.id = any($2::uuid[]) and u.status = 'ACTIVE'`,
      [epicId],
    );
  }

  /** The user responsible for this lead (its `ownerId`). */
  leadOwner(leadId: string | null | undefined): Promise<string[]> {
    return this.byIds(
      `select u.id from lead l join app_user u on u.tenant_id = l.tenant_id and u.id = l.owner_id
       where l.tenant_id = $1 and l.id = any($2::uuid[]) and u.status = 'ACTIVE'`,
      [leadId],
    );
  }

  /**
   * The users holding `permission` (`UPDATE_INVENTORY`) through one of their roles, or the
   * super-admin role, which holds every permission.
   */
  holding(permission: string): Promise<string[]> {
    return this.ids(
      `select u.id from app_user u where u.tenant_id = $1 and u.status = 'ACTIVE' and (
         $2 = any(u.roles) or exists (
           select 1 from tenant_role r, jsonb_each(r.permissions) l
           where r.tenant_id = u.tenant_id and r.name = any(u.roles)
             and jsonb_typeof(l.value) = 'array' and l.value @> to_jsonb(array[$3::text]))
       )`,
      [SUPER_ADMIN, permission],
    );
  }
}
