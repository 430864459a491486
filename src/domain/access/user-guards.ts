import { FlushMode, LockMode, type FindOptions } from '@mikro-orm/core';
import { callerOf, type Context } from '../../context';
import { TenantRole } from '../../entities/tenant-role';
import { User, UserStatus } from '../../entities/user';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import { SUPER_ADMIN } from '../../permissions/catalog';
import { normalizeEmail } from '../../services/provisioning';
import { inviteUser } from './invitations';
import type { CreateUserInput, UpdateUserInput } from './api/user-inputs';

/**
 * Rules about users that several operations share: finding a user by e-mail, checking role
 * names, and never leaving a tenant without an active super-admin (nobody could then grant
 * roles again). Queries here never auto-flush, so they see the stored state, not the change
 * being checked.
 */
const NO_FLUSH = { flushMode: FlushMode.COMMIT } as const;

/** The user with this e-mail in the caller's tenant; a malformed or unknown address is a 404. */
export async function userByEmail(ctx: Context, email: string): Promise<User> {
  let normalized: string;
  try {
    normalized = normalizeEmail(email);
  } catch {
    throw notFound(`no user ${email}`);
  }
  const user = await ctx.em.findOne(User, { email: normalized });
  if (!user) throw notFound(`no user ${email}`);
  return user;
}

/** Users by e-mail; unknown or malformed addresses are a 404 naming them all. */
export async function usersByEmails(ctx: Context, emails: readonly string[]): Promise<User[]> {
  const normalized = new Map<string, string>();
  const bad: string[] = [];
  for (const e of emails) {
    try {
      normalized.set(normalizeEmail(e), e);
    } catch {
      bad.push(e);
    }
  }
  const found = normalized.size
    ? await ctx.em.find(User, { email: { $in: [...normalized.keys()] } }, { orderBy: { email: 'asc' } })
    : [];
  const known = new Set(found.map((u) => u.email));
  const unknown = [...bad, ...[...normalized].filter(([n]) => !known.has(n)).map(([, e]) => e)];
  if (unknown.length > 0) throw notFound(`no user(s) ${unknown.join(', ')}`);
  return found;
}

/** Role names a user may hold: stored tenant roles, and the built-in super-admin role. */
export async function checkRoleNames(ctx: Context, names: readonly string[]): Promise<void> {
  const named = [...new Set(names.filter((n) => n !== SUPER_ADMIN))];
  if (named.length === 0) return;
  const known = new Set(
    (await ctx.em.find(TenantRole, { name: { $in: named } }, NO_FLUSH)).map((r) => r.name),
  );
  const unknown = named.filter((n) => !known.has(n));
  if (unknown.length > 0) throw badRequest(`roles: unknown role(s) ${unknown.join(', ')}`);
}

/**
 * Refuses a change that would leave no active super-admin once the users in `leaving` lose the
 * role (or their active status). Inside a transaction the super-admins' rows are locked, so two
 * administrators removing each other at once cannot both succeed.
 */
export async function checkSuperAdminsRemain(ctx: Context, leaving: readonly string[]): Promise<void> {
  const options: FindOptions<User> = ctx.em.isInTransaction()
    ? { ...NO_FLUSH, lockMode: LockMode.PESSIMISTIC_WRITE }
    : NO_FLUSH;
  const admins = await ctx.em.find(
    User,
    { roles: { $contains: [SUPER_ADMIN] }, status: UserStatus.ACTIVE },
    options,
  );
  const gone = new Set(leaving);
  if (admins.some((a) => gone.has(a.id)) && admins.every((a) => gone.has(a.id))) {
    throw conflict(`the tenant must keep at least one active ${SUPER_ADMIN}`);
  }
}

/** E-mail addresses identify users within a tenant, compared without case. */
async function checkEmailFree(ctx: Context, user: User): Promise<void> {
  const taken = await ctx.em.count(
    User,
    { email: user.email, id: { $ne: user.id } },
    { flushMode: FlushMode.COMMIT },
  );
  if (taken > 0) throw conflict(`a user with e-mail ${user.email} already exists in this tenant`);
}

/**
 * A user as stored: the e-mail normalised and free in the tenant; a new user verified and active,
 * with distinct, existing roles, SUPER_ADMIN granted only by a holder of it; and no deactivation
 * that would leave the tenant without a super-admin.
 */
export async function prepareUser(
  ctx: Context,
  user: User,
  input: Partial<CreateUserInput & UpdateUserInput>,
  isNew: boolean,
): Promise<void> {
  if (input.email !== undefined) {
    user.email = normalizeEmail(input.email);
    await checkEmailFree(ctx, user);
  }
  if (isNew) {
    const roles = [...new Set(input.roles ?? [])];
    if (roles.includes(SUPER_ADMIN) && !callerOf(ctx).superAdmin) {
      throw forbidden(`only a holder of ${SUPER_ADMIN} can grant it`);
    }
    await checkRoleNames(ctx, roles);
    user.roles = roles;
    // Users made by an administrator need no e-mail confirmation (as with the CLI).
    user.verified = true;
    if (
      input.status !== undefined &&
      input.status !== null &&
      input.status !== UserStatus.ACTIVE &&
      input.status !== UserStatus.INVITED
    )
      throw badRequest('status: a new user is ACTIVE or INVITED');
    user.status = input.status === UserStatus.INVITED ? UserStatus.INVITED : UserStatus.ACTIVE;
  } else if (input.status !== undefined && input.status !== UserStatus.ACTIVE) {
    await checkSuperAdminsRemain(ctx, [user.id]);
  }
}

/** Users may be deleted, unless the caller is among them or no super-admin would remain. */
export async function checkUsersLeave(ctx: Context, rows: readonly User[]): Promise<void> {
  if (rows.some((u) => u.id === callerOf(ctx).userId)) throw conflict('you cannot delete yourself');
  await checkSuperAdminsRemain(
    ctx,
    rows.map((u) => u.id),
  );
}

/** A user created INVITED, or set INVITED, is sent an invitation (a new one replaces the last). */
export async function inviteIfInvited(
  ctx: Context,
  user: User,
  input: Partial<CreateUserInput & UpdateUserInput>,
  isNew: boolean,
): Promise<void> {
  if (user.status !== UserStatus.INVITED || (!isNew && input.status !== UserStatus.INVITED)) return;
  await inviteUser(ctx.em, user, callerOf(ctx).user.email);
}
