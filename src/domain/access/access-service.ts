import type { Context } from '../../context';
import { callerOf } from '../../context';
import { Subsidiary } from '../reference/entities/subsidiary';
import { User } from '../../entities/user';
import { badRequest, problems } from '../../errors';
import { HrProject } from '../hr/entities/hr-project';
import { checkRefs, refsOf } from '../../family/references';
import { checkIds, isUuid, MAX_IDS } from '../../limits';
import { inTransaction } from '../../db/transaction';
import { SUPER_ADMIN } from '../../permissions/catalog';
import { userByEmail, usersByEmails } from './user-guards';

/**
 * Access control (spec 4.2): which users may see records of a project or subsidiary. Access is
 * a list of ids on each user plus the full-access flag; authentication reads both afresh on
 * every request, so each change applies from the user's next request on. Every id is checked:
 * it must name a project (an HR project) or subsidiary of the caller's tenant, otherwise the
 * answer is a 404 naming it and nothing changes, so no list can hold an id that reaches nothing.
 */
export type AccessKind = 'project' | 'subsidiary';
const listOf = (kind: AccessKind) => (kind === 'project' ? 'projectAccess' : 'subsidiaryAccess');
const entityOf = (kind: AccessKind) => (kind === 'project' ? HrProject : Subsidiary);

/** The project or subsidiary named in a path must exist (404 naming it). */
async function requireTarget(ctx: Context, kind: AccessKind, id: string): Promise<void> {
  await checkRefs(ctx, 404, [{ field: 'id', id, target: entityOf(kind) }]);
}

/** Why a user holds access: its own list, its full-access flag, or the super-admin role. */
export const FULL_ACCESS = 'FULL_ACCESS';

export interface AccessEntry {
  email: string;
  firstName: string | null;
  lastName: string | null;
  hasFullAccess: boolean;
  isDirect: boolean;
  inheritedFrom: string | null;
}

export interface Access {
  accessibleProjectIds: string[];
  accessibleSubsidiaryIds: string[];
  hasFullAccess: boolean;
}

/** Ids of every record of an entity of another domain, when that domain is installed. */
async function allIdsOf(ctx: Context, entityName: string): Promise<string[]> {
  if (!ctx.em.getMetadata().find(entityName)) return [];
  const rows = await ctx.em.find<{ id: string }>(entityName, {}, { fields: ['id'] as never });
  return rows.map((r) => r.id);
}

const union = (...lists: readonly (readonly string[])[]) => [...new Set(lists.flat())];

/**
 * The caller's access. A user with full access (or a super-admin) reaches every project and
 * subsidiary, so the lists name all of them, plus any ids of its own lists.
 */
export async function myAccess(ctx: Context): Promise<Access> {
  const access = await accessOf(ctx);
  // A module switched off for the tenant hides its groups: projects, subsidiaries.
  const off = callerOf(ctx).modulesOff;
  if (off?.has('projects')) access.accessibleProjectIds = [];
  if (off?.has('subsidiaries')) access.accessibleSubsidiaryIds = [];
  return access;
}

async function accessOf(ctx: Context): Promise<Access> {
  const caller = callerOf(ctx);
  if (!caller.hasFullAccess) {
    return {
      accessibleProjectIds: [...caller.projectAccess],
      accessibleSubsidiaryIds: [...caller.subsidiaryAccess],
      hasFullAccess: false,
    };
  }
  const subsidiaries = await ctx.em.find(Subsidiary, {}, { fields: ['id'], orderBy: { created: 'asc' } });
  return {
    accessibleProjectIds: union(await allIdsOf(ctx, 'HrProject'), caller.projectAccess),
    accessibleSubsidiaryIds: union(
      subsidiaries.map((s) => s.id),
      caller.subsidiaryAccess,
    ),
    hasFullAccess: true,
  };
}

function entryOf(user: User, kind: AccessKind, id: string): AccessEntry {
  const superAdmin = user.roles.includes(SUPER_ADMIN);
  const isDirect = user[listOf(kind)].includes(id);
  return {
    email: user.email,
    firstName: user.firstName ?? null,
    lastName: user.lastName ?? null,
    hasFullAccess: user.hasFullAccess || superAdmin,
    isDirect,
    inheritedFrom: isDirect ? null : user.hasFullAccess ? FULL_ACCESS : SUPER_ADMIN,
  };
}

/** Everyone who reaches the record: direct holders first, then those with full access; by e-mail. */
export async function accessUsers(ctx: Context, kind: AccessKind, id: string): Promise<AccessEntry[]> {
  await requireTarget(ctx, kind, id);
  const users = await ctx.em.find(
    User,
    {
      $or: [
        { [listOf(kind)]: { $contains: [id] } },
        { hasFullAccess: true },
        { roles: { $contains: [SUPER_ADMIN] } },
      ],
    },
    { orderBy: { email: 'asc' } },
  );
  const entries = users.map((u) => entryOf(u, kind, id));
  return [...entries.filter((e) => e.isDirect), ...entries.filter((e) => !e.isDirect)];
}

/**
 * Makes exactly the users named hold the id directly: it is added to theirs and taken from every
 * other user's list. An unknown e-mail changes nothing (404).
 */
export async function setAccessUsers(
  ctx: Context,
  kind: AccessKind,
  id: string,
  emails: readonly string[],
): Promise<AccessEntry[]> {
  await requireTarget(ctx, kind, id);
  if (emails.length > MAX_IDS) throw badRequest(`userEmails may hold at most ${MAX_IDS} addresses`);
  const list = listOf(kind);
  await inTransaction(ctx.em, async () => {
    const named = await usersByEmails(ctx, emails);
    const keep = new Set(named.map((u) => u.id));
    for (const holder of await ctx.em.find(User, { [list]: { $contains: [id] } })) {
      if (!keep.has(holder.id)) holder[list] = holder[list].filter((x) => x !== id);
    }
    for (const user of named) if (!user[list].includes(id)) user[list] = [...user[list], id];
    await ctx.em.flush();
  });
  return accessUsers(ctx, kind, id);
}

export async function setFullAccess(ctx: Context, email: string, value: boolean): Promise<User> {
  const user = await userByEmail(ctx, email);
  user.hasFullAccess = value;
  await ctx.em.flush();
  return user;
}

/** Replaces a user's list of project or subsidiary ids (each must be an id). */
export async function setUserAccess(
  ctx: Context,
  email: string,
  kind: AccessKind,
  ids: readonly string[],
): Promise<User> {
  const field = kind === 'project' ? 'projectIds' : 'subsidiaryIds';
  const valid = checkIds(ids, field);
  const malformed = ids.flatMap((id, i) =>
    isUuid(id) ? [] : [{ field: `${field}[${i}]`, reason: `"${id}" is not an id` }],
  );
  if (malformed.length) throw problems(400, malformed);
  const user = await userByEmail(ctx, email);
  await checkRefs(ctx, 404, refsOf(field, valid, entityOf(kind)));
  user[listOf(kind)] = [...new Set(valid)];
  await ctx.em.flush();
  return user;
}
