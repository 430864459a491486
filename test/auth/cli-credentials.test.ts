import { randomUUID } from 'node:crypto';
import { childEnv, cliCommands, randomSecret } from '../support/process';
import { workerDatabaseUrl } from '../support/database';
import { AUDIENCE, OidcProvider, privateKey } from '../support/oidc';

/**
 * The credential commands of the CLI (run in this process, as test/support/process.ts says): each
 * prints one JSON value on stdout, or one line on stderr and exit 1 when it fails.
 */
jest.setTimeout(300_000);

let env: NodeJS.ProcessEnv;
let provider: OidcProvider;

beforeAll(async () => {
  env = childEnv({ DATABASE_URL: await workerDatabaseUrl(), JWT_SECRET: randomSecret() });
  provider = await OidcProvider.start([privateKey('RSA')], [{ id: 'c', secret: 'c'.repeat(32) }]);
});
afterAll(() => provider?.stop());

const { run: cli, ok } = cliCommands(() => env);

describe('credential commands', () => {
  it('issuer:add, issuer:list and issuer:remove', async () => {
    const name = `CLI issuers ${randomUUID().slice(0, 8)}`;
    const { tenantId } = await ok('tenant:create', '--name', name, '--admin-email', 'boss@cli.test');
    const added = await ok(
      'issuer:add',
      '--tenant',
      name,
      '--issuer',
      provider.issuer,
      '--audience',
      AUDIENCE,
      '--allowed-domain',
      'cli.test',
    );
    expect(added).toMatchObject({
      tenantId,
      issuer: provider.issuer,
      jwksUri: `${provider.issuer}/jwks`,
      audiences: [AUDIENCE],
      userClaim: 'email',
      allowedDomains: ['cli.test'],
      createUsers: false,
    });
    const bad = await cli(
      'issuer:add',
      '--tenant',
      name,
      '--issuer',
      'http://idp.example.com',
      '--audience',
      'x',
    );
    expect(bad).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/^bms: .*must use https.*\n$/),
    });
    expect(await ok('issuer:list', '--tenant', name)).toEqual([added]);
    expect(await ok('issuer:remove', '--tenant', name, '--id', added.id)).toEqual({ removed: added.id });
    expect(await ok('issuer:list', '--tenant', name)).toEqual([]);
  });

  it('apikey:create, apikey:list, apikey:revoke and user:signout', async () => {
    const name = `CLI keys ${randomUUID().slice(0, 8)}`;
    const { token } = await ok('tenant:create', '--name', name, '--admin-email', 'boss@keys.test');
    const created = await ok(
      'apikey:create',
      '--tenant',
      name,
      '--creator',
      'boss@keys.test',
      '--name',
      'erp',
      '--permission',
      'READ_CONCEPTS',
      '--expires-at',
      new Date(Date.now() + 86_400_000).toISOString(),
    );
    expect(created).toMatchObject({ name: 'erp', permissions: ['READ_CONCEPTS'], revokedAt: null });
    expect(created.key).toMatch(/^bms_[0-9a-f]{64}_/);
    const { key, ...shown } = created;
    void key;
    const listed = await ok('apikey:list', '--tenant', name);
    expect(listed).toEqual([shown]);
    expect(JSON.stringify(listed)).not.toContain(created.key.split('_').slice(2).join('_'));
    const revoked = await ok('apikey:revoke', '--tenant', name, '--id', created.id);
    expect(revoked.revokedAt).toEqual(expect.any(String));
    const lacking = await cli(
      'apikey:create',
      '--tenant',
      name,
      '--creator',
      'boss@keys.test',
      '--name',
      'past',
      '--permission',
      'READ_CONCEPTS',
      '--expires-at',
      '2000-01-01T00:00:00Z',
    );
    expect(lacking).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/expiresAt is in the past/),
    });
    const out = await ok('user:signout', '--tenant', name, '--email', 'boss@keys.test');
    expect(out).toEqual({
      userId: expect.any(String),
      email: 'boss@keys.test',
      signedOutAt: expect.any(String),
    });
    expect(Date.parse(out.signedOutAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(token).toEqual(expect.any(String));
  });
});
