import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { JwtSettings } from '../auth/jwt';
import type { FileBackend } from '../files/backends';

/**
 * The operators' tool (docs/conventions.md "Credentials" and docs/operations.md): same configuration as
 * the server; each command prints one JSON value on stdout (an object, or an array for the
 * listings); a failure is one line on stderr and exit 1, a usage mistake one line and exit 2.
 * In embedded mode it uses the running server's database when there is one (see db/embedded.ts).
 */
type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | string[] | undefined>;

/**
 * What commands work with. The modules behind them (the ORM, the entities, GraphQL types) are
 * loaded only once a command runs, so --help and usage mistakes answer at once.
 */
interface Services {
  em: EntityManager;
  orm: MikroORM;
  /** Where stored files live (the service's FILES_* settings). */
  files: FileBackend;
  jwt: JwtSettings;
  sign: typeof import('../auth/jwt').signToken;
  provisioning: typeof import('../services/provisioning');
  directory: typeof import('../services/directory');
  issuers: typeof import('../domain/access/issuers');
  /** The entity manager of one tenant, acting as the CLI. */
  tenantEm(tenantId: string): EntityManager;
  /** The tenant the command's --tenant names (by id or exact name). */
  named(values: Values): ReturnType<typeof import('../services/directory').resolveTenant>;
  /** The scheduler over every job the service runs (not started: the CLI runs jobs when told). */
  scheduler(): Promise<import('../jobs/scheduler').JobScheduler>;
}

type Command = {
  args: string;
  summary: string;
  options: Options;
  /** The one word it takes before its options (`jobs:run NAME`), read as `values._`. */
  positional?: string;
} & (
  | { run(values: Values, services: Services): Promise<unknown> }
  /** A command that must not open the database the usual way (a backup asks its host; a restore replaces it). */
  | { alone(values: Values, config: import('../config').Config): Promise<unknown> }
);

const DEFAULT_EXPIRY = '12h';
const expiry: Options = { 'expires-in': { type: 'string' } };

class UsageError extends Error {}

const need = (values: Values, key: string): string => {
  const v = values[key];
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError(`--${key} is required`);
  return v;
};

const tokenFor = (
  services: Services,
  user: { id: string; email: string; tenantId: string },
  values: Values,
) =>
  services.sign(
    services.jwt,
    { sub: user.id, email: user.email, tenantId: user.tenantId },
    lifetime((values['expires-in'] as string | undefined) ?? DEFAULT_EXPIRY),
  );

/**
 * A bare number of --expires-in is seconds, as JWT's `exp` counts: jsonwebtoken would read the
 * string "600" as 600 milliseconds, a token dead before it is used.
 */
const lifetime = (expiresIn: string): string => (/^\d+$/.test(expiresIn) ? `${expiresIn}s` : expiresIn);

/** What the CLI prints of a trusted issuer: its published fields. */
const issuerView = (i: import('../entities/trusted-issuer').TrustedIssuer) => ({
  id: i.id,
  tenantId: i.tenantId,
  issuer: i.issuer,
  jwksUri: i.jwksUri,
  audiences: i.audiences,
  userClaim: i.userClaim,
  allowedDomains: i.allowedDomains,
  createUsers: i.createUsers,
  createRole: i.createRole ?? null,
  created: i.created,
});

/** What the CLI prints of an API key: its published fields, never its hash. */
const keyView = (k: import('../entities/api-key').ApiKey) => ({
  id: k.id,
  tenantId: k.tenantId,
  name: k.name,
  hint: k.hint,
  permissions: k.permissions,
  subsidiaryId: k.subsidiaryId ?? null,
  projectId: k.projectId ?? null,
  expiresAt: k.expiresAt ?? null,
  revokedAt: k.revokedAt ?? null,
  lastUsedAt: k.lastUsedAt ?? null,
  creatorId: k.creatorId,
  created: k.created,
});

const list = (values: Values, key: string) => (values[key] as string[] | undefined) ?? [];

const DURATION_UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration written like 30d, 12h or 0 (then now), in milliseconds. */
function duration(values: Values, key: string, fallback: string): number {
  const text = (values[key] as string | undefined) ?? fallback;
  const match = /^(\d+)([smhd]?)$/.exec(text);
  if (!match) throw new UsageError(`--${key} must look like 30d, 12h, 45m or 0, got "${text}"`);
  return Number(match[1]) * DURATION_UNITS[match[2] || 'd'];
}

/** Refuses a command of the embedded database when DATABASE_URL names a server, saying what to use. */
function embeddedOnly(config: import('../config').Config, instead: string): void {
  if (config.databaseUrl)
    throw new Error(`DATABASE_URL names a PostgreSQL server: ${instead} (docs/operations.md, "Backups")`);
}

const COMMANDS: Record<string, Command> = {
  tenants: {
    args: '',
    summary: "every tenant with its admins' user ids and e-mails (a JSON array)",
    options: {},
    run: (_values, { em, directory }) => directory.listTenants(em),
  },
  roles: {
    args: '--tenant TENANT',
    summary: 'the role names users of the tenant can be given, with their permissions (a JSON array)',
    options: { tenant: { type: 'string' } },
    run: async (values, { em, directory, named }) => directory.listRoles(em, (await named(values)).id),
  },
  'tenant:create': {
    args: '--name NAME --admin-email EMAIL [--domain DOMAIN] [--expires-in 12h]',
    summary: 'a tenant and its first user, who holds SUPER_ADMIN and full access, with a token',
    options: {
      name: { type: 'string' },
      'admin-email': { type: 'string' },
      domain: { type: 'string' },
      ...expiry,
    },
    async run(values, services) {
      const { tenant, admin } = await services.provisioning.createTenant(services.em, {
        name: need(values, 'name'),
        adminEmail: need(values, 'admin-email'),
        domain: values.domain as string | undefined,
      });
      return {
        tenantId: tenant.id,
        adminEmail: admin.email,
        userId: admin.id,
        token: tokenFor(services, admin, values),
      };
    },
  },
  'tenant:export': {
    args: '--tenant TENANT --out FOLDER [--skip-missing-files]',
    summary:
      "writes the tenant's records, settings and stored files as a bundle in a new folder (docs/operations.md)",
    options: {
      tenant: { type: 'string' },
      out: { type: 'string' },
      'skip-missing-files': { type: 'boolean' },
    },
    async run(values, services) {
      const tenant = await services.named(values);
      const { exportTenant } = await import('../services/tenant-bundle');
      const out = need(values, 'out');
      const manifest = await exportTenant(services.orm, services.files, tenant.id, out, undefined, {
        skipMissingFiles: values['skip-missing-files'] === true,
      });
      return {
        tenantId: tenant.id,
        bundle: out,
        schemaVersion: manifest.schemaVersion,
        records: Object.fromEntries(Object.entries(manifest.records).map(([t, r]) => [t, r.count])),
        files: Object.keys(manifest.files).length,
        ...(manifest.missingFiles ? { missingFiles: manifest.missingFiles } : {}),
      };
    },
  },
  'tenant:import': {
    args: '--bundle FOLDER [--name NAME] [--without-issuers] [--issuer-map OLD=NEW]... [--allow-missing-files]',
    summary:
      "loads a bundle as a new tenant (under the bundle's tenant name unless --name says another); issuers another tenant trusts are left out or renamed (docs/operations.md)",
    options: {
      bundle: { type: 'string' },
      name: { type: 'string' },
      'without-issuers': { type: 'boolean' },
      'issuer-map': { type: 'string', multiple: true },
      'allow-missing-files': { type: 'boolean' },
    },
    async run(values, services) {
      const { importTenant } = await import('../services/tenant-bundle');
      const issuerMap: Record<string, string> = {};
      for (const pair of list(values, 'issuer-map')) {
        const at = pair.indexOf('=');
        if (at <= 0 || at === pair.length - 1)
          throw new UsageError(`--issuer-map takes OLD=NEW (two issuer URLs), got "${pair}"`);
        issuerMap[pair.slice(0, at)] = pair.slice(at + 1);
      }
      return importTenant(services.orm, services.files, need(values, 'bundle'), {
        name: values.name as string | undefined,
        withoutIssuers: values['without-issuers'] === true,
        issuerMap,
        allowMissingFiles: values['allow-missing-files'] === true,
      });
    },
  },
  'tenant:delete': {
    args: '--tenant TENANT --confirm NAME [--grace 30d]',
    summary:
      'disables the tenant at once and removes all its data once the grace period ends (--confirm repeats its exact name)',
    options: { tenant: { type: 'string' }, confirm: { type: 'string' }, grace: { type: 'string' } },
    async run(values, services) {
      const graceMs = duration(values, 'grace', '30d');
      const tenant = await services.named(values);
      const confirm = values.confirm as string | undefined;
      if (confirm === undefined)
        throw new UsageError(`--confirm is required: repeat the tenant's exact name ("${tenant.name}")`);
      if (confirm !== tenant.name)
        throw new Error(
          `--confirm "${confirm}" is not the tenant's exact name ("${tenant.name}"): nothing was deleted`,
        );
      const { requestDeletion } = await import('../services/tenant-lifecycle');
      return requestDeletion(services.orm, tenant.id, graceMs);
    },
  },
  'tenant:undelete': {
    args: '--tenant TENANT',
    summary: 'brings back a deleted tenant whose grace period has not ended: active again, nothing lost',
    options: { tenant: { type: 'string' } },
    async run(values, services) {
      const tenant = await services.named(values);
      const { cancelDeletion } = await import('../services/tenant-lifecycle');
      return cancelDeletion(services.orm, tenant.id);
    },
  },
  'tenant:purge': {
    args: '[--tenant TENANT]',
    summary:
      'removes every row and stored file of the deleted tenants whose grace period has ended (a JSON array)',
    options: { tenant: { type: 'string' } },
    async run(values, services) {
      const ref = values.tenant as string | undefined;
      const tenantId =
        ref === undefined ? undefined : (await services.directory.resolveTenant(services.em, ref)).id;
      const { removeDue } = await import('../services/tenant-lifecycle');
      return removeDue(services.orm, services.files, tenantId);
    },
  },
  'person:export': {
    args: '--tenant TENANT --email EMAIL [--out FILE]',
    summary:
      "everything the tenant holds about one person (a user, a lead's or booking's contact...) as one JSON document",
    options: { tenant: { type: 'string' }, email: { type: 'string' }, out: { type: 'string' } },
    async run(values, services) {
      const tenant = await services.named(values);
      const { exportPerson } = await import('../services/personal-data');
      const document = await exportPerson(services.orm, tenant.id, need(values, 'email'));
      const out = values.out as string | undefined;
      if (out === undefined) return document;
      const fs = await import('node:fs/promises');
      await fs.writeFile(out, `${JSON.stringify(document, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
      return {
        file: out,
        records: Object.values(document.about).flat().length + Object.values(document.mentions).flat().length,
      };
    },
  },
  'person:erase': {
    args: '--tenant TENANT --email EMAIL --confirm EMAIL',
    summary:
      "replaces one person's e-mail address, names and phone numbers everywhere in the tenant; amounts and dates stay (docs/security.md)",
    options: { tenant: { type: 'string' }, email: { type: 'string' }, confirm: { type: 'string' } },
    async run(values, services) {
      const email = need(values, 'email');
      if (values.confirm === undefined)
        throw new UsageError('--confirm is required: repeat the e-mail address');
      if (String(values.confirm).trim().toLowerCase() !== email.trim().toLowerCase())
        throw new UsageError('--confirm must repeat the e-mail address: nothing was erased');
      const tenant = await services.named(values);
      const { erasePerson } = await import('../services/personal-data');
      return erasePerson(services.orm, tenant.id, email);
    },
  },
  backup: {
    args: '--out FILE',
    summary:
      'a backup of the embedded database (DATA_DIR) as one file, consistent while the service runs; on a server, see docs/operations.md',
    options: { out: { type: 'string' } },
    async alone(values, config) {
      embeddedOnly(config, 'back it up with pg_dump or pgBackRest');
      const { backupEmbedded } = await import('../db/backup');
      return backupEmbedded(config.dataDir, need(values, 'out'));
    },
  },
  restore: {
    args: '--from FILE',
    summary: 'replaces the embedded database (DATA_DIR) with a backup; the service must be stopped',
    options: { from: { type: 'string' } },
    async alone(values, config) {
      embeddedOnly(config, 'restore it with pg_restore or pgBackRest');
      const { restoreEmbedded } = await import('../db/backup');
      return restoreEmbedded(config.dataDir, need(values, 'from'));
    },
  },
  mail: {
    args: '',
    summary:
      'the e-mail kept as .eml files under DATA_DIR/outbox-mail because SMTP_URL is not set (a JSON array, oldest first: file, date, to, subject, attachments)',
    options: {},
    async alone(_values, config) {
      const { listKeptMail } = await import('./outbox-mail');
      return listKeptMail(config.events.mailDir ?? '');
    },
  },
  'role:create': {
    args: '--tenant TENANT --name NAME --permission PERMISSION... [--description TEXT]',
    summary: 'a tenant role granting the named permissions (READ_CONCEPTS, CREATE_INVOICES, ...)',
    options: {
      tenant: { type: 'string' },
      name: { type: 'string' },
      permission: { type: 'string', multiple: true },
      description: { type: 'string' },
    },
    async run(values, { em, directory, named }) {
      const tenant = await named(values);
      const permissions = (values.permission as string[] | undefined) ?? [];
      if (permissions.length === 0) throw new UsageError('--permission is required (once per permission)');
      const role = await directory.createRoleFor(em, {
        tenantId: tenant.id,
        name: need(values, 'name'),
        permissions,
        description: values.description as string | undefined,
      });
      return { tenantId: tenant.id, ...role };
    },
  },
  'user:create': {
    args: '--tenant TENANT --email EMAIL [--role NAME]... [--full-access] [--expires-in 12h]',
    summary: 'a user of the tenant holding the named roles (see roles), with a token',
    options: {
      tenant: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string', multiple: true },
      'full-access': { type: 'boolean' },
      ...expiry,
    },
    async run(values, services) {
      const { directory } = services;
      const tenant = await services.named(values);
      const roles = (values.role as string[] | undefined) ?? [];
      const known = (await directory.listRoles(services.em, tenant.id)).map((r) => r.name);
      const unknown = roles.filter((r) => !known.includes(r));
      if (unknown.length > 0)
        throw new Error(
          `unknown role(s) ${unknown.join(', ')}: tenant "${tenant.name}" has ${known.join(', ')}`,
        );
      const user = await services.provisioning.createUser(services.em, {
        tenantId: tenant.id,
        email: need(values, 'email'),
        roles,
        hasFullAccess: (values['full-access'] as boolean | undefined) ?? false,
        actorEmail: 'cli',
      });
      return { userId: user.id, email: user.email, token: tokenFor(services, user, values) };
    },
  },
  'issuer:add': {
    args: '--tenant TENANT --issuer URL --audience AUD... [--user-claim email|sub] [--allowed-domain DOMAIN]... [--create-users-with-role ROLE]',
    summary:
      "trusts an OpenID Connect issuer for the tenant's sign-in (its discovery document and keys are checked)",
    options: {
      tenant: { type: 'string' },
      issuer: { type: 'string' },
      audience: { type: 'string', multiple: true },
      'user-claim': { type: 'string' },
      'allowed-domain': { type: 'string', multiple: true },
      'create-users-with-role': { type: 'string' },
    },
    async run(values, services) {
      const tenant = await services.named(values);
      const audiences = list(values, 'audience');
      if (audiences.length === 0) throw new UsageError('--audience is required (once per accepted audience)');
      const userClaim = values['user-claim'] as string | undefined;
      if (userClaim !== undefined && userClaim !== 'email' && userClaim !== 'sub')
        throw new UsageError('--user-claim must be email or sub');
      const added = await services.issuers.addIssuer(services.tenantEm(tenant.id), tenant.id, {
        issuer: need(values, 'issuer'),
        audiences,
        userClaim,
        allowedDomains: list(values, 'allowed-domain'),
        createUsersWithRole: values['create-users-with-role'] as string | undefined,
      });
      return issuerView(added);
    },
  },
  'issuer:list': {
    args: '--tenant TENANT',
    summary: "the tenant's trusted issuers (a JSON array)",
    options: { tenant: { type: 'string' } },
    async run(values, services) {
      const tenant = await services.named(values);
      return (await services.issuers.listIssuers(services.tenantEm(tenant.id))).map(issuerView);
    },
  },
  'issuer:remove': {
    args: '--tenant TENANT --id ISSUER_ID',
    summary: 'stops trusting an issuer: its tokens are refused from the next request',
    options: { tenant: { type: 'string' }, id: { type: 'string' } },
    async run(values, services) {
      const tenant = await services.named(values);
      const id = need(values, 'id');
      if (!(await services.issuers.removeIssuer(services.tenantEm(tenant.id), id)))
        throw new Error(`tenant "${tenant.name}" has no trusted issuer ${id}`);
      return { removed: id };
    },
  },
  'apikey:create': {
    args: '--tenant TENANT --creator EMAIL --name NAME --permission PERMISSION... [--subsidiary ID] [--project ID] [--expires-at ISO-8601]',
    summary: "an API key acting within the creator's permissions; the answer holds the key, shown once",
    options: {
      tenant: { type: 'string' },
      creator: { type: 'string' },
      name: { type: 'string' },
      permission: { type: 'string', multiple: true },
      subsidiary: { type: 'string' },
      project: { type: 'string' },
      'expires-at': { type: 'string' },
    },
    async run(values, services) {
      const tenant = await services.named(values);
      const permissions = list(values, 'permission');
      if (permissions.length === 0) throw new UsageError('--permission is required (once per permission)');
      const expiresAt = values['expires-at'] as string | undefined;
      if (expiresAt !== undefined && Number.isNaN(Date.parse(expiresAt)))
        throw new UsageError('--expires-at must be a date and time (ISO 8601)');
      const user = await services.directory.userByEmail(services.em, need(values, 'creator'), tenant.id);
      const { userCaller } = await import('../auth/authenticate');
      const { createKey } = await import('../domain/access/api-keys');
      const creator = await userCaller(services.em, tenant.id, user.id);
      const created = await createKey(services.tenantEm(tenant.id), creator, {
        name: need(values, 'name'),
        permissions,
        subsidiaryId: values.subsidiary as string | undefined,
        projectId: values.project as string | undefined,
        expiresAt: expiresAt === undefined ? undefined : new Date(expiresAt),
      });
      return { ...keyView(created), key: created.key };
    },
  },
  'apikey:list': {
    args: '--tenant TENANT',
    summary: "the tenant's API keys, never their secrets (a JSON array)",
    options: { tenant: { type: 'string' } },
    async run(values, services) {
      const tenant = await services.named(values);
      const { listKeys } = await import('../domain/access/api-keys');
      return (await listKeys(services.tenantEm(tenant.id))).map(keyView);
    },
  },
  'apikey:revoke': {
    args: '--tenant TENANT --id KEY_ID',
    summary: 'revokes an API key: refused from the next request, on every process',
    options: { tenant: { type: 'string' }, id: { type: 'string' } },
    async run(values, services) {
      const tenant = await services.named(values);
      const { revokeKey } = await import('../domain/access/api-keys');
      return keyView(await revokeKey(services.tenantEm(tenant.id), need(values, 'id')));
    },
  },
  'user:signout': {
    args: '--tenant TENANT --email EMAIL',
    summary: 'signs a user out everywhere: every credential issued to them until now is refused',
    options: { tenant: { type: 'string' }, email: { type: 'string' } },
    async run(values, services) {
      const tenant = await services.named(values);
      const user = await services.directory.userByEmail(services.em, need(values, 'email'), tenant.id);
      const { signOutEverywhere } = await import('../domain/access/sign-out');
      const { signedOutAt } = await signOutEverywhere(services.tenantEm(tenant.id), user.id);
      return { userId: user.id, email: user.email, signedOutAt: signedOutAt.toISOString() };
    },
  },
  jobs: {
    args: '',
    summary: 'every scheduled job: its schedule, module, last run and next run (a JSON array)',
    options: {},
    run: async (_values, services) => (await services.scheduler()).status(),
  },
  'jobs:run': {
    args: '(NAME | --all) [--tenant TENANT] [--now ISO-TIME]',
    summary:
      "runs a job (or every job) now, for every tenant or one, with the clock at --now if given; recorded as a manual run, which the schedule ignores; prints each run's outcome and items (a JSON array)",
    options: { all: { type: 'boolean' }, tenant: { type: 'string' }, now: { type: 'string' } },
    positional: 'NAME',
    async run(values, services) {
      const name = values._ as string | undefined;
      if ((name === undefined) === (values.all !== true))
        throw new UsageError('jobs:run takes a job name (bms jobs lists them) or --all, not both');
      const text = values.now as string | undefined;
      const now = text === undefined ? new Date() : new Date(text);
      if (Number.isNaN(now.getTime()))
        throw new UsageError(`--now must be an ISO 8601 time (2026-12-01T06:00:00Z), got "${text}"`);
      const tenantId = values.tenant === undefined ? undefined : (await services.named(values)).id;
      return (await services.scheduler()).runNow(name === undefined ? 'all' : [name], { tenantId, now });
    },
  },
  token: {
    args: '--email EMAIL [--tenant TENANT] [--expires-in 12h]',
    summary: 'a token for an existing user; --tenant only when the e-mail is in several tenants',
    options: { tenant: { type: 'string' }, email: { type: 'string' }, ...expiry },
    async run(values, services) {
      const ref = values.tenant as string | undefined;
      const { directory } = services;
      const tenantId = ref === undefined ? undefined : (await directory.resolveTenant(services.em, ref)).id;
      const user = await directory.userByEmail(services.em, need(values, 'email'), tenantId);
      return { token: tokenFor(services, user, values) };
    },
  },
};

const USAGE = `usage: bms COMMAND [OPTIONS]     (from a checkout: npm run -s cli -- COMMAND [OPTIONS])

Prints one JSON value on stdout. TENANT is a tenant's id or its exact name.
Runs against the database the server would use (DATABASE_URL, or the embedded one in DATA_DIR).

commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name} ${c.args}\n      ${c.summary}`)
  .join('\n')}

  -h, --help   this text (after a command: that command's)
Tokens last 12 hours unless --expires-in says otherwise (30m, 12h, 7d; a bare number is seconds).
Exit status: 0 done, 1 failed (one line on stderr), 2 a usage mistake (one line on stderr).`;

/** The command and its checked options, or the usage text to print; usage mistakes throw. */
function parse(argv: string[]): { help: string } | { command: Command; values: Values } {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') return { help: USAGE };
  const command = COMMANDS[name];
  if (!command)
    throw new UsageError(
      name.startsWith('-') ? `expected a command before ${name}` : `unknown command "${name}"`,
    );
  let values: Values;
  try {
    let positionals: string[];
    ({ values, positionals } = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: command.positional !== undefined,
    }));
    if (positionals.length > 1)
      throw new UsageError(`${name} takes one ${command.positional}, got "${positionals.join(' ')}"`);
    if (positionals.length === 1) values._ = positionals[0];
  } catch (err) {
    if (err instanceof UsageError) throw err;
    // parseArgs explains itself at length (how to pass a positional that starts with "-").
    throw new UsageError(`${name}: ${(err as Error).message.split('. ')[0]}`);
  }
  if (values.help) return { help: `usage: bms ${name} ${command.args}\n  ${command.summary}` };
  const expiresIn = values['expires-in'];
  if (typeof expiresIn === 'string' && !/^\d+[smhdwy]?$/.test(expiresIn))
    throw new UsageError(`--expires-in must look like 30m, 12h or 7d, got "${expiresIn}"`);
  return { command, values };
}

/**
 * Runs one command line against the database `env` configures, and gives what the command prints
 * on stdout; a failure throws (`failureOf` says what the process prints and exits with).
 */
export async function runCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const parsed = parse(argv);
  if ('help' in parsed) return parsed.help;
  const { loadConfig } = await import('../config');
  const { resolveJwtSecret } = await import('../auth/secret');
  const { openDatabase } = await import('../db/database');
  const { ormComposition } = await import('../orm-composition');
  const config = loadConfig(env);
  const { command } = parsed;
  if ('alone' in command) return JSON.stringify(await command.alone(parsed.values, config));
  const jwt = { secret: resolveJwtSecret(config), issuer: config.jwtIssuer, audience: config.jwtAudience };
  const db = await openDatabase(config, { composition: ormComposition });
  (await import('../auth/issuers')).useIssuerSettings({ production: config.production });
  const { forkFor } = await import('../db/tenancy');
  const directory = await import('../services/directory');
  try {
    const services: Services = {
      em: db.orm.em,
      orm: db.orm,
      files: (await import('../files/backends')).openBackend(config.files),
      jwt,
      sign: (await import('../auth/jwt')).signToken,
      provisioning: await import('../services/provisioning'),
      directory,
      issuers: await import('../domain/access/issuers'),
      tenantEm: (tenantId) => forkFor(db.orm.em, { tenantId, userId: null, email: 'cli' }),
      named: (values) => directory.resolveTenant(db.orm.em, need(values, 'tenant')),
      scheduler: async () => (await import('./jobs')).schedulerOf(db.orm, config, jwt.secret),
    };
    return JSON.stringify(await command.run(parsed.values, services));
  } finally {
    await db.close();
  }
}

/** What a failed command prints on stderr (one line) and its exit status: 2 for a usage mistake. */
export function failureOf(err: unknown): { code: 1 | 2; line: string } {
  const message = err instanceof Error ? err.message : String(err);
  const hint = err instanceof UsageError ? ' (bms --help lists the commands and options)' : '';
  return {
    code: err instanceof UsageError ? 2 : 1,
    line: `bms: ${message.replace(/\s*\n\s*/g, ' ')}${hint}`,
  };
}
