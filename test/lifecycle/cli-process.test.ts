import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { verifyToken } from '../../src/auth/jwt';
import { childEnv, cliCommands, cliRunner, randomSecret } from '../support/process';
import { workerDatabaseUrl } from '../support/database';

/**
 * The operators' CLI as a process, as a pipe would see it: exactly one JSON value on stdout and
 * nothing on stderr when it works; one line on stderr and nothing on stdout when it does not
 * (exit 2 for a usage mistake, 1 for a failure). Runs against the test database (the embedded
 * run's PGlite host speaks the same protocol), with a secret of its own. What the commands then do
 * with tenants, users and roles is checked through the same code run in this process (`command`),
 * since a process start costs more than the commands it runs.
 */
jest.setTimeout(300_000);

const secret = randomSecret();
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  env = childEnv({ DATABASE_URL: await workerDatabaseUrl(), JWT_SECRET: secret });
});

const { run: cli, ok, fails } = cliRunner(() => env);
const command = cliCommands(() => env);

const claimsOf = (token: string) => verifyToken({ secret }, token);

describe('the CLI as a process', () => {
  it('--help prints the usage on stdout and exits 0; so does a command with --help', async () => {
    for (const args of [['--help'], ['-h'], []]) {
      const r = await cli(...args);
      expect(r).toEqual({ code: 0, stdout: expect.stringMatching(/^usage: bms COMMAND/), stderr: '' });
      for (const command of ['tenants', 'roles', 'tenant:create', 'role:create', 'user:create', 'token'])
        expect(r.stdout).toContain(`\n  ${command} `);
    }
    const r = await cli('token', '--help');
    expect(r).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^usage: bms token --email EMAIL/),
      stderr: '',
    });
  });

  it('usage mistakes exit 2 with one line on stderr', async () => {
    expect(await fails('tenant:rename')).toEqual({
      code: 2,
      line: expect.stringMatching(/unknown command "tenant:rename"/),
    });
    expect(await fails('tenants', '--all')).toEqual({
      code: 2,
      line: expect.stringMatching(/Unknown option '--all'/),
    });
    expect(await fails('token', '--email')).toEqual({ code: 2, line: expect.stringMatching(/--email/) });
    expect(await fails('token', '--email', 'a@b.test', 'extra')).toEqual({
      code: 2,
      line: expect.any(String),
    });
    expect(await fails('--email', 'a@b.test')).toEqual({
      code: 2,
      line: expect.stringMatching(/expected a command/),
    });
    expect(await fails('token')).toEqual({ code: 2, line: expect.stringMatching(/--email is required/) });
    expect(await fails('token', '--email', 'a@b.test', '--expires-in', 'soon')).toEqual({
      code: 2,
      line: expect.stringMatching(/--expires-in/),
    });
  });

  it('finds tenants, admins, roles and tokens without knowing any id', async () => {
    const suffix = randomUUID().slice(0, 8);
    const name = `Cli ${suffix}`;
    const adminEmail = `boss-${suffix}@cli.test`;
    // A process: the tenant, its admin and a token as one JSON value, exit 0.
    const created = await ok('tenant:create', '--name', name, '--admin-email', adminEmail);
    expect(claimsOf(created.token)).toMatchObject({ sub: created.userId, tenantId: created.tenantId });

    // tenants: every tenant with its admins' e-mails and ids.
    const tenants = await command.ok('tenants');
    expect(tenants).toContainEqual({
      tenantId: created.tenantId,
      name,
      domain: null,
      active: true,
      admins: [{ userId: created.userId, email: adminEmail, status: 'ACTIVE' }],
    });

    // token: by e-mail alone (unique), by tenant name, by tenant id.
    for (const args of [[], ['--tenant', name], ['--tenant', created.tenantId]]) {
      const { token } = await command.ok('token', '--email', adminEmail.toUpperCase(), ...args);
      expect(claimsOf(token)).toMatchObject({
        sub: created.userId,
        email: adminEmail,
        tenantId: created.tenantId,
      });
    }
    // A bare number of --expires-in is seconds, not jsonwebtoken's milliseconds.
    const { token: short } = await command.ok('token', '--email', adminEmail, '--expires-in', '600');
    const { exp, iat } = jwt.decode(short) as { exp: number; iat: number };
    // iat keeps milliseconds (a sign-out's precision); exp is whole seconds.
    expect(exp - iat).toBeGreaterThan(599);
    expect(exp - iat).toBeLessThanOrEqual(600);
    // A process: a failure is one line on stderr, exit 1.
    expect(await fails('token', '--email', `nobody-${suffix}@cli.test`)).toEqual({
      code: 1,
      line: expect.stringMatching(/no user nobody-.* in any tenant/),
    });

    // roles: a new tenant has the built-in one only, so the README's user:create with a role
    // works once the role exists.
    expect((await command.ok('roles', '--tenant', name)).map((r: { name: string }) => r.name)).toEqual([
      'SUPER_ADMIN',
    ]);
    const clerkEmail = `clerk-${suffix}@cli.test`;
    expect(
      await command.fails('user:create', '--tenant', name, '--email', clerkEmail, '--role', 'clerk'),
    ).toEqual({
      code: 1,
      line: `bms: unknown role(s) clerk: tenant "${name}" has SUPER_ADMIN`,
    });
    expect(
      await command.ok(
        'role:create',
        '--tenant',
        name,
        '--name',
        'clerk',
        '--permission',
        'READ_CONCEPTS',
        '--permission',
        'CREATE_CONCEPTS',
      ),
    ).toEqual({
      tenantId: created.tenantId,
      name: 'clerk',
      description: null,
      builtIn: false,
      permissions: ['READ_CONCEPTS', 'CREATE_CONCEPTS'],
    });
    expect(
      await command.fails(
        'role:create',
        '--tenant',
        name,
        '--name',
        'clerk',
        '--permission',
        'READ_CONCEPTS',
      ),
    ).toEqual({
      code: 1,
      line: expect.stringMatching(/already exists/),
    });
    expect(
      await command.fails('role:create', '--tenant', name, '--name', 'x', '--permission', 'READ_NOTHING'),
    ).toEqual({
      code: 1,
      line: expect.stringMatching(/unknown permission\(s\): READ_NOTHING/),
    });
    const roles = await command.ok('roles', '--tenant', created.tenantId);
    expect(roles.map((r: { name: string }) => r.name)).toEqual(['SUPER_ADMIN', 'clerk']);
    const clerk = await command.ok('user:create', '--tenant', name, '--email', clerkEmail, '--role', 'clerk');
    expect(claimsOf(clerk.token)).toMatchObject({
      sub: clerk.userId,
      email: clerkEmail,
      tenantId: created.tenantId,
    });

    // A second tenant of a name is refused (a setup script run twice), naming the first.
    expect(await command.fails('tenant:create', '--name', name, '--admin-email', adminEmail)).toEqual({
      code: 1,
      line: expect.stringMatching(
        new RegExp(`a tenant named "${name}" exists already \\(${created.tenantId}\\)`),
      ),
    });
    // An e-mail or a name in two tenants needs the id. Names were not unique before, so a
    // database may hold two tenants of one name: made here by renaming the twin.
    const twin = await command.ok('tenant:create', '--name', `${name} twin`, '--admin-email', adminEmail);
    const db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    await db
      .query('update tenant set name = $1 where id = $2', [name, twin.tenantId])
      .finally(() => db.end());
    expect(await command.fails('token', '--email', adminEmail)).toEqual({
      code: 1,
      line: expect.stringMatching(/2 tenants.*--tenant/),
    });
    expect(await command.fails('roles', '--tenant', name)).toEqual({
      code: 1,
      line: expect.stringMatching(/2 tenants are named/),
    });
    const { token } = await command.ok('token', '--email', adminEmail, '--tenant', twin.tenantId);
    expect(claimsOf(token).tenantId).toBe(twin.tenantId);
    expect(await command.fails('roles', '--tenant', `No such ${suffix}`)).toEqual({
      code: 1,
      line: expect.stringMatching(/no tenant/),
    });
  });
});
