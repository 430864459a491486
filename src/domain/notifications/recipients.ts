import type { EntityManager } from '@mikro-orm/core';
import { SUPER_ADMIN } from '../../permissions/catalog';
import { isUuid } from '../../limits';
import {
  activeUsersAmong,
  activeUsersByEmail,
  employeesUsers,
  epicOwnersUsers,
  leadOwnersUsers,
  usersHolding,
} from './recipient-repository';

/**
 * The users a notification concerns, looked up in the transaction of the change that makes it
 * (recipient-repository.ts's statements, never the unit of work: they run while that change is
 * being flushed). Only ACTIVE users are ever answered.
 */
export class Recipients {
  constructor(
    private readonly em: EntityManager,
    readonly tenantId: string,
  ) {}

  /** The lookup's users for the well-formed ids among `ids`; none without any. */
  private byIds(
    lookup: (em: EntityManager, tenantId: string, ids: readonly string[]) => Promise<string[]>,
    ids: readonly (string | null | undefined)[],
  ): Promise<string[]> {
    const wanted = ids.filter(isUuid);
    return wanted.length === 0 ? Promise.resolve([]) : lookup(this.em, this.tenantId, wanted);
  }

  /** These users, as far as they exist in the tenant and are active. */
  users(ids: readonly (string | null | undefined)[]): Promise<string[]> {
    return this.byIds(activeUsersAmong, ids);
  }

  /** The user with this e-mail (records keep their creator's e-mail in `createdBy`). */
  byEmail(email: string | null | undefined): Promise<string[]> {
    if (!email) return Promise.resolve([]);
    return activeUsersByEmail(this.em, this.tenantId, email);
  }

  /** The users of these employees (an employee's `userId`), HR naming people by employee. */
  employees(ids: readonly (string | null | undefined)[]): Promise<string[]> {
    return this.byIds(employeesUsers, ids);
  }

  /** The user of the employee who owns this epic. */
  epicOwner(epicId: string | null | undefined): Promise<string[]> {
    return this.byIds(epicOwnersUsers, [epicId]);
  }

  /** The user responsible for this lead (its `ownerId`). */
  leadOwner(leadId: string | null | undefined): Promise<string[]> {
    return this.byIds(leadOwnersUsers, [leadId]);
  }

  /**
   * The users holding `permission` (`UPDATE_INVENTORY`) through one of their roles, or the
   * super-admin role, which holds every permission.
   */
  holding(permission: string): Promise<string[]> {
    return usersHolding(this.em, this.tenantId, SUPER_ADMIN, permission);
  }
}
