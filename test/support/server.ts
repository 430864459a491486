import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { createApp, type App, type AppOptions } from '../../src/app';
import { CALLER_CHANNEL } from '../../src/auth/caller-cache';
import { entities } from '../../src/orm-composition';
import { openOrm } from '../../src/db/orm';
import { forkFor } from '../../src/db/tenancy';
import { signToken, type JwtSettings } from '../../src/auth/jwt';
import { createLogger } from '../../src/logger';
import { unmappedRefusalCount } from '../../src/db/refusals';
import { createTenant, createUser } from '../../src/services/provisioning';
import { TenantRole, Permissions } from '../../src/entities/tenant-role';
import { User } from '../../src/entities/user';
import { PERMISSION_LIST_NAMES, PERMISSIONS_BY_LIST } from '../../src/permissions/catalog';
import { ormComposition } from '../../src/orm-composition';
import { workerDatabaseUrl } from './database';
import { Client, type Response } from './http';
import { forgetDocument, loadDocument } from './openapi-exchange';

/** A running service on the test database, for one test file. */
export interface TestServer {
  baseUrl: string;
  orm: MikroORM;
  app: App;
  jwt: JwtSettings;
  close(): Promise<void>;
  /** A new tenant with its super-admin: the client acts as that admin. */
  tenant(name?: string): Promise<TestTenant>;
  /**
   * Waits until the service's caller cache has heard of every change to users, roles and tenants
   * committed so far. Those notifications arrive asynchronously and drop the tenant's remembered
   * callers, so a test that counts a request's statements right after creating a user could see
   * its warmed caller dropped between two requests. One call at a time: it lends itself the
   * cache's `notified` while it waits.
   */
  callersHeard(): Promise<void>;
  /**
   * Waits until a user's first sign-in has written `lastLogin` (src/auth/last-login.ts), a write
   * made beside the request rather than in it: a test that counts statements signs the user in,
   * then waits here, so that write is not among those it counts.
   */
  signedIn(userId: string): Promise<void>;
}

export interface TestTenant {
  tenantId: string;
  adminId: string;
  adminEmail: string;
  token: string;
  client: Client;
  /** A user of this tenant holding exactly `permissions` (through a role of their own). */
  userWith(
    permissions: string[],
    options?: { hasFullAccess?: boolean; subsidiaryAccess?: string[]; projectAccess?: string[] },
  ): Promise<{ userId: string; email: string; token: string; client: Client }>;
}

export interface ServerOptions {
  http?: AppOptions['http'];
  /**
   * The domains served, as the group recipe adds a module: their entities join the ORM's list,
   * as each module's join it in production (src/orm-composition.ts).
   */
  modules?: AppOptions['modules'];
  /** Where stored files live (a temporary local folder unless given). */
  files?: AppOptions['files'];
}

export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  // A database error answered as a 500 while this server ran fails the file at close(): an input
  // the database refuses must be mapped to a 4xx (src/db/refusals.ts), never answered as a fault.
  const unmappedAtStart = await unmappedRefusalCount();
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const orm = await openOrm({
    composition: ormComposition,
    clientUrl: await workerDatabaseUrl(),
    poolMax: 4,
    entities: options.modules && [...new Set([...entities, ...options.modules.flatMap((m) => m.entities)])],
    logger,
  });
  const jwt: JwtSettings = { secret: randomBytes(32).toString('hex') };
  const app = await createApp({
    orm,
    jwt,
    logger,
    production: false,
    http: options.http,
    modules: options.modules,
    files: options.files,
  });
  // The client keeps connections alive between requests; a busy machine (or a validator compiled
  // on first use, see openapi-exchange.ts) can stall a test's event loop past Node's 5 s default,
  // and a socket the server closed meanwhile would be reused and reset.
  app.server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // Ready the OpenAPI validators before the first test: building them takes a while, and a pause
  // between two requests longer than the server's keep-alive would reset the client's socket.
  await loadDocument(baseUrl);

  const tenant = async (name = 'Tenant'): Promise<TestTenant> => {
    const suffix = randomUUID().slice(0, 8);
    const { tenant: t, admin } = await createTenant(orm.em, {
      name: `${name} ${suffix}`,
      adminEmail: `admin-${suffix}@example.test`,
    });
    const token = signToken(jwt, { sub: admin.id, email: admin.email, tenantId: t.id });
    return {
      tenantId: t.id,
      adminId: admin.id,
      adminEmail: admin.email,
      token,
      client: new Client(baseUrl, token),
      async userWith(permissions, options = {}) {
        const roleName = `role-${randomUUID().slice(0, 8)}`;
        const em = forkFor(orm.em, { tenantId: t.id, userId: admin.id, email: admin.email });
        const perms = new Permissions();
        for (const list of PERMISSION_LIST_NAMES)
          perms[list] = permissions.filter((p) => PERMISSIONS_BY_LIST[list].includes(p));
        await em.persistAndFlush(
          em.create(TenantRole, { tenantId: t.id, name: roleName, permissions: perms } as never),
        );
        const user = await createUser(orm.em, {
          tenantId: t.id,
          email: `${roleName}@example.test`,
          roles: [roleName],
          hasFullAccess: options.hasFullAccess ?? false,
          actorEmail: admin.email,
        });
        if (options.subsidiaryAccess || options.projectAccess) {
          await forkFor(orm.em, { tenantId: t.id, userId: admin.id, email: admin.email }).nativeUpdate(
            User,
            { id: user.id },
            { subsidiaryAccess: options.subsidiaryAccess ?? [], projectAccess: options.projectAccess ?? [] },
          );
        }
        const userToken = signToken(jwt, { sub: user.id, email: user.email, tenantId: t.id });
        return {
          userId: user.id,
          email: user.email,
          token: userToken,
          client: new Client(baseUrl, userToken),
        };
      },
    };
  };

  const signedIn = async (userId: string) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const [row] = await orm.em
        .getConnection()
        .execute('select last_login from app_user where id = ?', [userId], 'all');
      if (row?.last_login != null) return;
      if (Date.now() > deadline) throw new Error(`user ${userId} was not signed in within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  const callersHeard = async () => {
    const callers = app.live.callers;
    if (!callers) return;
    // Notifications of different transactions arrive in commit order: once a mark sent now is
    // heard, so is every change committed before it. The mark names no tenant, so it drops nothing.
    const mark = randomUUID();
    const notified = callers.notified;
    const heard = new Promise<void>((resolve) => {
      callers.notified = (payload) => {
        notified.call(callers, payload);
        if (payload === mark) resolve();
      };
    });
    try {
      await orm.em.getConnection().execute(`select pg_notify('${CALLER_CHANNEL}', ?)`, [mark]);
      await heard;
    } finally {
      callers.notified = notified;
    }
  };

  return {
    baseUrl,
    orm,
    app,
    jwt,
    tenant,
    callersHeard,
    signedIn,
    async close() {
      forgetDocument(baseUrl);
      await app.close();
      await orm.close(true);
      const unmapped = (await unmappedRefusalCount()) - unmappedAtStart;
      if (unmapped > 0)
        throw new Error(
          `the service answered ${unmapped} database error(s) with 500 (database_errors_unmapped_total); ` +
            'map the refusal in src/db/refusals.ts, or fix the statement (TEST_LOG_LEVEL=error shows it)',
        );
    },
  };
}

export type { Response };

/**
 * Within the calling describe block, the service's caller cache hears no notifications, so only
 * a transaction's check of the caller version can see a change to a user or a role (tests of
 * that check). `server` is read when the block starts, after the file's beforeAll made it.
 */
export function holdCallerNotifications(server: () => TestServer): void {
  let notified: (payload: string) => void;
  beforeAll(() => {
    const callers = server().app.live.callers!;
    notified = callers.notified;
    callers.notified = () => undefined;
  });
  afterAll(() => {
    server().app.live.callers!.notified = notified;
  });
}
