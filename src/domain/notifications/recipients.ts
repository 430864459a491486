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
 * Lookups sent ahead of a create's flush (look-ahead.ts), by the transaction they were sent in and
 * what they ask: the flush's own lookup of the same takes the answer, once, instead of a round
 * trip of its own.
 */
const sentAhead = new WeakMap<object, Map<string, Promise<string[]>>>();

/**
 * Forgets what was sent ahead in `em`'s transaction: once a flush has been judged, an answer it
 * did not take could be out of date for a later one.
 */
export function forgetSentAhead(em: EntityManager): void {
  const transaction = em.getTransactionContext<object>();
  if (transaction) sentAhead.delete(transaction);
}

/**
 * The users a notification concerns, looked up in the transaction of the change that makes it
 * (recipient-repository.ts's statements, never the unit of work: they run while that change is
 * being flushed). Only ACTIVE users are ever answered.
 *
 * Made with `ahead`, it is the look-ahead's (look-ahead.ts): each lookup waits in `ahead` until
 * the look-ahead sends it, together with the request's next statement, and its answer is kept
 * for the flush.
 */
export class Recipients {
  constructor(
    private readonly em: EntityManager,
    readonly tenantId: string,
    private readonly ahead?: (() => void)[],
  ) {}

  /** The answer to `what`: sent ahead and kept, taken from there, or looked up now. */
  private read(what: string, lookup: () => Promise<string[]>): Promise<string[]> {
    const transaction = this.em.getTransactionContext<object>();
    if (!transaction) return lookup();
    const key = `${this.tenantId} ${what}`;
    if (this.ahead) {
      const ahead = this.ahead;
      return new Promise<string[]>((resolve) => {
        ahead.push(() => {
          const answer = lookup();
          // Kept for the flush, which may never ask (its change differs): never unhandled.
          answer.catch(() => undefined);
          let kept = sentAhead.get(transaction);
          if (!kept) sentAhead.set(transaction, (kept = new Map()));
          kept.set(key, answer);
          resolve(answer);
        });
      });
    }
    const kept = sentAhead.get(transaction);
    const answer = kept?.get(key);
    if (!answer) return lookup();
    kept!.delete(key);
    return answer;
  }

  /** The lookup's users for the well-formed ids among `ids`; none without any. */
  private byIds(
    name: string,
    lookup: (em: EntityManager, tenantId: string, ids: readonly string[]) => Promise<string[]>,
    ids: readonly (string | null | undefined)[],
  ): Promise<string[]> {
    const wanted = ids.filter(isUuid);
    if (wanted.length === 0) return Promise.resolve([]);
    return this.read(`${name} ${wanted.join(',')}`, () => lookup(this.em, this.tenantId, wanted));
  }

  /** These users, as far as they exist in the tenant and are active. */
  users(ids: readonly (string | null | undefined)[]): Promise<string[]> {
    return this.byIds('users', activeUsersAmong, ids);
  }

  /** The user with this e-mail (records keep their creator's e-mail in `createdBy`). */
  byEmail(email: string | null | undefined): Promise<string[]> {
    if (!email) return Promise.resolve([]);
    return this.read(`email ${email}`, () => activeUsersByEmail(this.em, this.tenantId, email));
  }

  /** The users of these employees (an employee's `userId`), HR naming people by employee. */
  employees(ids: readonly (string | null | undefined)[]): Promise<string[]> {
    return this.byIds('employees', employeesUsers, ids);
  }

  /** The user of the employee who owns this epic. */
  epicOwner(epicId: string | null | undefined): Promise<string[]> {
    return this.byIds('epic owner', epicOwnersUsers, [epicId]);
  }

  /** The user responsible for this lead (its `ownerId`). */
  leadOwner(leadId: string | null | undefined): Promise<string[]> {
    return this.byIds('lead owner', leadOwnersUsers, [leadId]);
  }

  /**
   * The users holding `permission` (`UPDATE_INVENTORY`) through one of their roles, or the
   * super-admin role, which holds every permission.
   */
  holding(permission: string): Promise<string[]> {
    return this.read(`holding ${permission}`, () =>
      usersHolding(this.em, this.tenantId, SUPER_ADMIN, permission),
    );
  }
}
