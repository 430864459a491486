import type { EntityManager } from '@mikro-orm/core';
import { flattenPermissions, type Permissions } from '../entities/tenant-role';
import { User, UserStatus } from '../entities/user';
import { ALL_PERMISSIONS, SUPER_ADMIN } from '../permissions/catalog';
import { forkFor, setActor } from '../db/tenancy';
import {
  beginCallerTransaction,
  beginTenantTransaction,
  endTenantTransaction,
  openCallerTransaction,
} from '../db/tenant-transaction';
import { unauthorized } from '../errors';
import type { Caller } from '../context';
import { queryRows, type Rows } from '../db/orm-bypass/statements';
import { withTenant } from '../db/tenant-transaction';
import { hydrateDetached } from '../db/orm-bypass/detached';
import { knownToken, verifyToken, type Claims, type JwtSettings } from './jwt';
import type { CallerCache } from './caller-cache';
import { PROVIDER_ALGORITHMS } from './key-sets';
import { withdrawnBySignOut } from './withdrawal';
import { signedIn } from './last-login';
import { trustedIssuers } from './issuers';
import { userOfIssuerToken } from './issuer-users';
import {
  callerRows,
  keyCallerRows,
  keyStatement,
  userStatement,
  type CallerRow,
  type CallerStatement,
} from './caller-repository';
import { API_KEY_PREFIX, checkKey, keyActor, keyCaller, keyUsed, loadedKey, parseApiKey } from './api-keys';

export interface Authenticated {
  caller: Caller;
  em: EntityManager;
  /** When the credential expires (ms since the epoch). */
  expiresAt: number;
  /** A provider token's identity (Claims.tokenId), which a sign-out it asks for records. */
  tokenId?: string;
}

/** Where a caller comes from: its cache entry's id, the statement that reads it, and the reading. */
interface CallerSource {
  cacheId: string;
  statement: CallerStatement;
  derive(em: EntityManager, rows: Rows): Readonly<Caller>;
}

const userSource = (tenantId: string, userId: string): CallerSource => ({
  cacheId: userId,
  statement: userStatement(tenantId, userId),
  derive: (em, rows) => callerFrom(em, loadedCallerOf(callerRows(rows))),
});

const keySource = (tenantId: string, keyId: string): CallerSource => ({
  cacheId: `key:${keyId}`,
  statement: keyStatement(tenantId, keyId),
  derive(em, rows) {
    const { key, rows: creator } = loadedKey(keyCallerRows(rows));
    return keyCaller(callerFrom(em, loadedCallerOf(creator)), key);
  },
});

interface LoadedCaller {
  columns: Record<string, unknown> | null;
  rolePermissions: Permissions[];
  tenantActive: boolean;
  /** The tenant's modules switched off. */
  modulesOff: string[];
}

function loadedCallerOf(rows: CallerRow[]): LoadedCaller {
  if (rows.length === 0) return { columns: null, rolePermissions: [], tenantActive: false, modulesOff: [] };
  const { role_permissions, tenant_active, tenant_scopes, ...columns } = rows[0];
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
  const rolePermissions = json(role_permissions) as Permissions[];
  const scopes = (json(tenant_scopes) ?? {}) as Record<string, unknown>;
  const modulesOff = Object.keys(scopes).filter((name) => scopes[name] === false);
  return { columns, rolePermissions, tenantActive: tenant_active === true, modulesOff };
}

/**
 * The caller of a loaded user, frozen (it may serve many requests from the cache); 401 for an
 * unknown or inactive user or tenant.
 */
function callerFrom(em: EntityManager, loaded: LoadedCaller): Readonly<Caller> {
  // A view, not a managed entity: the caller's record is never written through this object,
  // so the commit has nothing of it to compare.
  const user = loaded.columns ? hydrateDetached<User>(em, User.name, [loaded.columns])[0] : null;
  if (!user || user.status !== UserStatus.ACTIVE) throw unauthorized('the user is unknown or not active');
  if (!loaded.tenantActive) throw unauthorized('the tenant is not active');
  const superAdmin = user.roles.includes(SUPER_ADMIN);
  const permissions = new Set(
    superAdmin ? ALL_PERMISSIONS : loaded.rolePermissions.flatMap(flattenPermissions),
  );
  for (const list of [user.roles, user.projectAccess, user.subsidiaryAccess]) Object.freeze(list);
  return Object.freeze({
    user: Object.freeze(user),
    userId: user.id,
    tenantId: user.tenantId,
    email: user.email,
    permissions,
    superAdmin,
    hasFullAccess: user.hasFullAccess || superAdmin,
    projectAccess: user.projectAccess,
    subsidiaryAccess: user.subsidiaryAccess,
    modulesOff: new Set(loaded.modulesOff),
  });
}

/**
 * Opens the request's transaction and derives its caller: from `callers` when the entry there
 * was read at the tenant's current version (checked in the settings' round trip), otherwise from
 * the database (in that same round trip when there is no entry to check; in a second one when the
 * entry turns out stale), remembering the caller for the next request.
 *
 * `optimistic`: a remembered caller is used before its version is checked, and the settings go
 * to the database with the request's first statement instead of in a round trip of their own.
 * The transaction then carries the check (`endTenantTransaction` makes it): if the version has
 * moved, the transaction is rolled back and the request must be run again, not optimistically.
 */
async function loadCaller(
  em: EntityManager,
  tenantId: string,
  source: CallerSource,
  callers: CallerCache | undefined,
  optimistic: boolean,
): Promise<Readonly<Caller>> {
  const { statement, cacheId: userId } = source;
  if (!callers) return source.derive(em, await beginTenantTransaction(em, tenantId, statement));
  const cached = callers.peek(tenantId, userId);
  if (cached && optimistic) {
    await openCallerTransaction(em, tenantId, async (version) => {
      if (version === cached.version) return true;
      callers.delete(tenantId, userId);
      return false;
    });
    callers.touch(tenantId, userId, cached);
    return cached.caller;
  }
  const { callerVersion, rows } = await beginCallerTransaction(em, tenantId, cached ? undefined : statement);
  if (cached && cached.version === callerVersion) {
    callers.touch(tenantId, userId, cached);
    return cached.caller;
  }
  if (cached) callers.delete(tenantId, userId);
  const caller = source.derive(em, cached ? await queryRows(em, statement.text, statement.values) : rows);
  // Only an active caller of an active tenant gets this far (callerFrom).
  if (callerVersion !== null) callers.set(tenantId, userId, { version: callerVersion, caller });
  return caller;
}

/** Reads `Authorization: Bearer <jwt or API key>`; throws 401 for anything but a well-formed header. */
export function bearerToken(header: string | undefined): string {
  if (!header) throw unauthorized('the Authorization header is missing');
  const match = /^Bearer\s+([A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]*\.[A-Za-z0-9\-_]*|bms_[A-Za-z0-9\-_]+)\s*$/.exec(
    header,
  );
  if (!match) {
    // Name what is wrong: a header of the right form whose credential is neither kind is the
    // commoner mistake (a placeholder pasted as the token) than a header of another form.
    throw unauthorized(
      /^Bearer\s+\S+\s*$/.test(header)
        ? 'the bearer credential is neither a JWT (three dot-separated parts) nor an API key (bms_...)'
        : 'the Authorization header is not "Bearer <token>"',
    );
  }
  return match[1];
}

/** The `alg` of a compact JWS's header; 401 when the header is not one. */
function algorithmOf(token: string): string {
  try {
    const header = JSON.parse(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('utf8'));
    if (typeof header?.alg === 'string') return header.alg;
  } catch {
    // refused below
  }
  throw unauthorized('the credential is invalid');
}

/**
 * Whom the token names: the service's own HS256 tokens synchronously (a token seen before costs
 * a map lookup, as it always did), a trusted identity provider's through its issuer
 * (src/auth/issuers.ts). Any other algorithm, `none` included, is refused.
 */
function claimsOf(rootEm: EntityManager, jwt: JwtSettings, token: string): Claims | Promise<Claims> {
  const known = knownToken(jwt, token) ?? trustedIssuers.knownClaims(token);
  if (known) return known;
  const alg = algorithmOf(token);
  if (alg === 'HS256') return verifyToken(jwt, token);
  if (PROVIDER_ALGORITHMS.includes(alg))
    return trustedIssuers
      .verify(rootEm, token)
      .then((verified) => userOfIssuerToken(rootEm, verified))
      .then((claims) => trustedIssuers.remember(token, claims));
  throw unauthorized(`the credential's algorithm ${alg} is not accepted`);
}

/**
 * Verifies the credential and loads its user (so role, access and status changes apply to the
 * very next request): afresh, or from `callers` when the tenant's version says nothing changed
 * since (`optimistic`: see loadCaller). Unknown or inactive users are 401.
 */
export async function authenticate(
  rootEm: EntityManager,
  jwt: JwtSettings,
  header: string | undefined,
  callers?: CallerCache,
  optimistic = false,
): Promise<Authenticated> {
  const token = bearerToken(header);
  const key = token.startsWith(API_KEY_PREFIX) ? parseApiKey(token) : undefined;
  if (!key && token.startsWith(API_KEY_PREFIX)) throw unauthorized('the API key is malformed');
  const found = key ? undefined : claimsOf(rootEm, jwt, token);
  const claims = found instanceof Promise ? await found : found;
  const tenantId = key ? key.tenantId : claims!.tenantId;
  const em = forkFor(rootEm, { tenantId, userId: claims?.sub ?? null, email: claims?.email ?? 'api-key' });
  // The request's work, authentication included, runs in one transaction under row-level
  // security for the token's tenant: a user of another tenant is simply not found.
  // The transaction's settings and the user go to the database in one round trip.
  try {
    const source = key ? keySource(tenantId, key.keyId) : userSource(tenantId, claims!.sub);
    const caller = await loadCaller(em, tenantId, source, callers, optimistic);
    if (key) {
      checkKey(caller, key);
      keyUsed(rootEm, tenantId, key.keyId, () => undefined);
      // Writes name the key, not its creator.
      setActor(em, {
        tenantId,
        userId: caller.userId,
        email: keyActor(caller.apiKey!),
        apiKeyId: caller.apiKey!.id,
      });
      return { em, caller, expiresAt: caller.apiKey!.expiresAt?.getTime() ?? Number.MAX_SAFE_INTEGER };
    }
    if (withdrawnBySignOut(caller.user, claims!))
      throw unauthorized('the credential was withdrawn: its user signed out everywhere');
    // The actor recorded on writes is the user as stored now, not as the token remembers it.
    setActor(em, { tenantId: caller.tenantId, userId: caller.userId, email: caller.email });
    void signedIn(rootEm, caller.tenantId, caller.userId, () => undefined);
    return { em, caller, expiresAt: (claims!.exp ?? 0) * 1000, tokenId: claims!.tokenId };
  } catch (err) {
    await endTenantTransaction(em, false);
    throw err;
  }
}

/** A user's caller as authentication would derive it, outside a request (the CLI acting for them). */
export function userCaller(
  rootEm: EntityManager,
  tenantId: string,
  userId: string,
): Promise<Readonly<Caller>> {
  const { text, values } = userStatement(tenantId, userId);
  return withTenant(rootEm, { tenantId, userId, email: 'cli' }, async (em) =>
    callerFrom(em, loadedCallerOf(callerRows(await queryRows(em, text, values)))),
  );
}
