import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { signToken } from '../../src/auth/jwt';
import { workerDatabaseUrl } from '../support/database';
import { Client } from '../support/http';
import { AUDIENCE, OidcProvider, privateKey } from '../support/oidc';
import { childEnv, cliCommands, randomSecret } from '../support/process';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * A tenant that signs in through its own identity provider, exported and imported into the same
 * deployment as a copy: an issuer belongs to one tenant, so the import is refused with the options
 * that make it go, and goes with them: the issuers left out, or another issuer trusted in place
 * of the bundle's (discovered as registration does), whose tokens then sign in to the copy alone.
 */
jest.setTimeout(300_000);

let server: TestServer;
let a: TestTenant;
let provider: OidcProvider;
let other: OidcProvider;
let work: string;
let bundle: string;
let env: NodeJS.ProcessEnv;
const { ok, fails } = cliCommands(() => env);

const withToken = (token: string) => new Client(server.baseUrl, token);
const tenantCount = async () => ((await ok('tenants')) as unknown[]).length;

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'bms-import-issuers-'));
  server = await startServer();
  a = await server.tenant('Federated');
  [provider, other] = await Promise.all([
    OidcProvider.start([privateKey('RSA')], [{ id: 'admin', secret: 'a'.repeat(32), email: a.adminEmail }]),
    OidcProvider.start([privateKey('RSA')], [{ id: 'admin', secret: 'b'.repeat(32), email: a.adminEmail }]),
  ]);
  expect(
    (await a.client.post('/trusted-issuers', { issuer: provider.issuer, audiences: [AUDIENCE] })).status,
  ).toBe(201);
  env = childEnv({
    DATABASE_URL: await workerDatabaseUrl(),
    JWT_SECRET: randomSecret(),
    FILES_DIR: server.app.files.settings.dir,
  });
  bundle = path.join(work, 'bundle');
  expect(await ok('tenant:export', '--tenant', a.tenantId, '--out', bundle)).toEqual(
    expect.objectContaining({ records: expect.objectContaining({ trusted_issuer: 1 }) }),
  );
});
afterAll(async () => {
  await Promise.all([provider?.stop(), other?.stop()]);
  await server?.close();
  await fs.rm(work, { recursive: true, force: true });
});

it("into the deployment that trusts the bundle's issuer already: refused, naming the options, nothing imported", async () => {
  const tenants = await tenantCount();
  const { code, line } = await fails('tenant:import', '--bundle', bundle, '--name', `Copy ${randomUUID()}`);
  expect(code).toBe(1);
  expect(line).toContain(`trusted_issuer: line 1 trusts the identity provider ${provider.issuer}`);
  expect(line).toContain(`--issuer-map ${provider.issuer}=<another issuer URL>`);
  expect(line).toContain('--without-issuers');
  expect(line).toContain('nothing was imported');
  expect(await tenantCount()).toBe(tenants);
  // An issuer the bundle does not trust, or a pair that is not one, is refused before anything.
  expect(
    await fails('tenant:import', '--bundle', bundle, '--issuer-map', `${other.issuer}=${provider.issuer}`),
  ).toEqual({
    code: 1,
    line: expect.stringContaining(
      `--issuer-map names ${other.issuer}, an issuer the bundle's tenant does not trust`,
    ),
  });
  expect(await fails('tenant:import', '--bundle', bundle, '--issuer-map', provider.issuer)).toEqual({
    code: 2,
    line: expect.stringContaining('--issuer-map takes OLD=NEW'),
  });
});

it('--without-issuers: the copy trusts no issuer, and the provider still signs in to the original alone', async () => {
  const copy = await ok(
    'tenant:import',
    '--bundle',
    bundle,
    '--name',
    `Copy ${randomUUID()}`,
    '--without-issuers',
  );
  expect(copy.records.trusted_issuer).toBe(0);
  expect(await ok('issuer:list', '--tenant', copy.tenantId)).toEqual([]);
  const token = await provider.token('admin');
  const created = await withToken(token).post('/concepts', { name: 'Via the provider', buildingType: 'ROW' });
  expect(created.status).toBe(201);
  expect((await a.client.get(`/concepts/find/${created.body.id}`)).status).toBe(200);
});

it('--issuer-map OLD=NEW: the copy trusts the new issuer, discovered, whose tokens sign in to the copy and not the original', async () => {
  const copy = await ok(
    'tenant:import',
    '--bundle',
    bundle,
    '--name',
    `Copy ${randomUUID()}`,
    '--issuer-map',
    `${provider.issuer}=${other.issuer}`,
  );
  expect(copy.records.trusted_issuer).toBe(1);
  expect(await ok('issuer:list', '--tenant', copy.tenantId)).toEqual([
    expect.objectContaining({
      issuer: other.issuer,
      jwksUri: expect.stringContaining(other.issuer),
      audiences: [AUDIENCE],
    }),
  ]);
  const created = await withToken(await other.token('admin')).post('/concepts', {
    name: 'Via the new issuer',
    buildingType: 'ROW',
  });
  expect(created.status).toBe(201);
  const copyAdmin = withToken(
    signToken(server.jwt, { sub: a.adminId, email: a.adminEmail, tenantId: copy.tenantId }),
  );
  expect((await copyAdmin.get(`/concepts/find/${created.body.id}`)).status).toBe(200);
  expect((await a.client.get(`/concepts/find/${created.body.id}`)).status).toBe(404);
  // The original's issuer stays the original's.
  expect(await ok('issuer:list', '--tenant', a.tenantId)).toEqual([
    expect.objectContaining({ issuer: provider.issuer }),
  ]);
});
