import type { EntityManager } from '@mikro-orm/core';
import { flattenPermissions, type Permissions } from '../entities/tenant-role';
import { User, UserStatus } from '../entities/user';
import { Tenant } from '../entities/tenant';
import { ALL_PERMISSIONS, SUPER_ADMIN } from '../permissions/catalog';
import { forkFor, setActor } from '../db/tenancy';
import { beginTenantTransaction, endTenantTransaction } from '../db/tenant-transaction';
import { unauthorized } from '../errors';
import type { Caller } from '../context';
import { uuidLiteral } from '../db/statements';
import { hydrateDetached } from '../family/detached';
import { verifyToken, type JwtSettings } from './jwt';

export interface Authenticated {
  caller: Caller;
  em: EntityManager;
}

/**
 * Whether a tenant is active, remembered for a short while: deactivating a tenant shuts its users
 * out within TENANT_CHECK_MS without a query on every request.
 */
const TENANT_CHECK_MS = 30_000;
const tenantChecks = new Map<string, { active: boolean; at: number }>();

async function tenantActive(em: EntityManager, tenantId: string): Promise<boolean> {
  const known = tenantChecks.get(tenantId);
  if (known && Date.now() - known.at < TENANT_CHECK_MS) return known.active;
  const tenant = await em.findOne(Tenant, { id: tenantId }, { disableIdentityMap: true, fields: ['active'] });
  const active = tenant?.active === true;
  if (tenantChecks.size > 10_000) tenantChecks.clear();
  tenantChecks.set(tenantId, { active, at: Date.now() });
  return active;
}

/**
 * The user and the permission lists of its roles in one statement: authentication runs on every
 * request, and two queries with entity hydration were a quarter of a simple read (see bench/).
 * The ids come from a verified token and are checked UUIDs (they are inlined: the statement
 * shares a round trip with the transaction's settings).
 */
const userStatement = (tenantId: string, userId: string) =>
  `select u.*, coalesce((select jsonb_agg(r.permissions) from tenant_role r
                         where r.tenant_id = u.tenant_id and r.name = any(u.roles)), '[]'::jsonb) as role_permissions
   from app_user u where u.tenant_id = ${uuidLiteral(tenantId)} and u.id = ${uuidLiteral(userId)}`;

function userOf(
  em: EntityManager,
  rows: Record<string, unknown>[],
): { user: User | null; rolePermissions: Permissions[] } {
  if (rows.length === 0) return { user: null, rolePermissions: [] };
  const { role_permissions, ...columns } = rows[0];
  const rolePermissions = (
    typeof role_permissions === 'string' ? JSON.parse(role_permissions) : role_permissions
  ) as Permissions[];
  // A view, not a managed entity: the caller's record is read on every request and never
  // written through this object, so the commit has nothing of it to compare.
  const [user] = hydrateDetached<User>(em, User.name, [columns]);
  return { user, rolePermissions };
}

/** Reads `Authorization: Bearer <jwt>`; throws 401 for anything but a well-formed header. */
export function bearerToken(header: string | undefined): string {
  if (!header) throw unauthorized('the Authorization header is missing');
  const match = /^Bearer\s+([A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]*\.[A-Za-z0-9\-_]*)\s*$/.exec(header);
  if (!match) throw unauthorized('the Authorization header is not "Bearer <token>"');
  return match[1];
}

/**
 * Verifies the credential and loads its user afresh (so role, access and status changes apply
 * to the very next request). Unknown or inactive users are 401.
 */
export async function authenticate(
  rootEm: EntityManager,
  jwt: JwtSettings,
  header: string | undefined,
): Promise<Authenticated> {
  const claims = verifyToken(jwt, bearerToken(header));
  const em = forkFor(rootEm, { tenantId: claims.tenantId, userId: claims.sub, email: claims.email });
  // The request's work, authentication included, runs in one transaction under row-level
  // security for the token's tenant: a user of another tenant is simply not found.
  // The transaction's settings and the user go to the database in one round trip.
  const rows = await beginTenantTransaction(em, claims.tenantId, userStatement(claims.tenantId, claims.sub));
  try {
    const { user, rolePermissions } = userOf(em, rows);
    if (!user || user.status !== UserStatus.ACTIVE) throw unauthorized('the user is unknown or not active');
    if (!(await tenantActive(em, user.tenantId))) throw unauthorized('the tenant is not active');
    const superAdmin = user.roles.includes(SUPER_ADMIN);
    const permissions = new Set(superAdmin ? ALL_PERMISSIONS : rolePermissions.flatMap(flattenPermissions));
    // The actor recorded on writes is the user as stored now, not as the token remembers it.
    setActor(em, { tenantId: user.tenantId, userId: user.id, email: user.email });
    return {
      em,
      caller: {
        user,
        userId: user.id,
        tenantId: user.tenantId,
        email: user.email,
        permissions,
        superAdmin,
        hasFullAccess: user.hasFullAccess || superAdmin,
        projectAccess: user.projectAccess,
        subsidiaryAccess: user.subsidiaryAccess,
      },
    };
  } catch (err) {
    await endTenantTransaction(em, false);
    throw err;
  }
}
