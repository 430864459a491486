import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { workerDatabaseUrl } from '../support/database';
import { childEnv, cliCommands, randomSecret } from '../support/process';

/**
 * The tenant and personal-data commands as an operator runs them: one JSON value on stdout, or
 * one line on stderr. A tenant made with the CLI is exported and imported under another name; a
 * person is exported and erased; an unknown person, a missing confirmation and a bundle that is
 * not one are refused.
 */
jest.setTimeout(300_000);

const work = mkdtempSync(path.join(tmpdir(), 'bms-tenant-cli-'));
let env: NodeJS.ProcessEnv;
const { ok, fails } = cliCommands(() => env);

beforeAll(async () => {
  env = childEnv({
    DATABASE_URL: await workerDatabaseUrl(),
    JWT_SECRET: randomSecret(),
    FILES_DIR: path.join(work, 'files'),
  });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('exports a tenant to a bundle and imports it as another; refuses what is not a bundle', async () => {
  const name = `Cli ${randomUUID().slice(0, 8)}`;
  const created = await ok('tenant:create', '--name', name, '--admin-email', 'cli-admin@example.test');
  const bundle = path.join(work, 'bundle');
  const exported = await ok('tenant:export', '--tenant', name, '--out', bundle);
  expect(exported).toEqual({
    tenantId: created.tenantId,
    bundle,
    schemaVersion: expect.stringMatching(/^Migration/),
    records: expect.objectContaining({ app_user: 1, tenant_role: expect.any(Number) }),
    files: 0,
  });
  expect(JSON.parse(readFileSync(path.join(bundle, 'manifest.json'), 'utf8')).tenant).toEqual({
    id: created.tenantId,
    name,
  });
  expect(await fails('tenant:export', '--tenant', name, '--out', bundle)).toEqual({
    code: 1,
    line: expect.stringMatching(/already exists: name a new folder/),
  });
  expect(await fails('tenant:import', '--bundle', bundle)).toEqual({
    code: 1,
    line: expect.stringContaining(`a tenant named "${name}" already exists`),
  });
  const imported = await ok('tenant:import', '--bundle', bundle, '--name', `${name} copy`);
  expect(imported).toEqual({
    tenantId: expect.any(String),
    name: `${name} copy`,
    records: expect.objectContaining({ app_user: 1 }),
    files: 0,
  });
  // The imported admin is a user of the new tenant, under the same e-mail.
  expect(await ok('token', '--email', 'cli-admin@example.test', '--tenant', imported.tenantId)).toEqual({
    token: expect.any(String),
  });
  expect(await fails('tenant:import', '--bundle', work)).toEqual({
    code: 1,
    line: expect.stringMatching(/is not a tenant bundle/),
  });
});

it('exports and erases one person; an unknown person and a missing confirmation are refused', async () => {
  const name = `Person ${randomUUID().slice(0, 8)}`;
  await ok('tenant:create', '--name', name, '--admin-email', 'boss@example.test');
  await ok('user:create', '--tenant', name, '--email', 'jo@example.test');
  const document = await ok('person:export', '--tenant', name, '--email', 'JO@example.test');
  expect(document.person.email).toBe('jo@example.test');
  expect(document.about.app_user).toEqual([expect.objectContaining({ email: 'jo@example.test' })]);
  expect(await fails('person:export', '--tenant', name, '--email', 'nobody@example.test')).toEqual({
    code: 1,
    line: 'bms: no personal data of nobody@example.test in this tenant',
  });
  expect(await fails('person:erase', '--tenant', name, '--email', 'jo@example.test')).toEqual({
    code: 2,
    line: expect.stringMatching(/--confirm is required/),
  });
  const erased = await ok(
    'person:erase',
    '--tenant',
    name,
    '--email',
    'jo@example.test',
    '--confirm',
    'jo@example.test',
  );
  expect(erased).toEqual({
    email: 'jo@example.test',
    replacedBy: expect.stringMatching(/@erased\.invalid$/),
    rows: expect.objectContaining({ app_user: 1 }),
  });
  expect(
    await fails(
      'person:erase',
      '--tenant',
      name,
      '--email',
      'jo@example.test',
      '--confirm',
      'jo@example.test',
    ),
  ).toEqual({
    code: 1,
    line: 'bms: no personal data of jo@example.test in this tenant',
  });
});
