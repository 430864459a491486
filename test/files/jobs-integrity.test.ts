import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { cleanUpFiles, makeThumbnails } from '../../src/domain/files/file-jobs';
import { storedFile } from '../support/files';
import {
  download,
  fileRows,
  graphql,
  localSettings,
  startServer,
  type TestServer,
  type TestTenant,
} from './file-suite';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bms-files-jobs-'));

const image = (format: 'png' | 'jpeg' | 'webp' | 'avif' | 'gif') =>
  sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .toFormat(format)
    .toBuffer();

async function outboxTypes(server: TestServer, tenantId: string, resourceId: string): Promise<string[]> {
  const rows = await server.orm.em
    .getConnection()
    .execute(
      `select type from outbox_event where tenant_id = ? and resource_id = ? order by occurred_at`,
      [tenantId, resourceId],
      'all',
    );
  return rows.map((r: { type: string }) => r.type);
}

/** History entries of a stored file: none, since its events are the store's own, not a record's. */
async function historyCount(server: TestServer, tenantId: string, recordId: string): Promise<number> {
  const [row] = await server.orm.em
    .getConnection()
    .execute(
      `select count(*)::int as n from record_history where tenant_id = ? and record_id = ?`,
      [tenantId, recordId],
      'all',
    );
  return row.n;
}

describe('thumbnails, integrity of blob ids, deletion and clean-up', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    server = await startServer({ files: localSettings(dir, { FILES_THUMBNAIL_SIZE: '64' }) });
    a = await server.tenant('Jobs A');
    b = await server.tenant('Jobs B');
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the thumbnail job makes one WebP thumbnail of each JPEG, PNG, WebP, AVIF and GIF, once', async () => {
    const uploads: any[] = [];
    for (const format of ['jpeg', 'png', 'webp', 'avif', 'gif'] as const) {
      const up = await storedFile(server.baseUrl, a, {
        name: `pic.${format}`,
        type: `image/${format}`,
        content: await image(format),
      });
      expect(up.image).toMatchObject({ width: 300, height: 200 });
      uploads.push(up);
    }
    const before = await download(server, a.token, `/api/v1/files/${uploads[0].file.blobId}/thumbnail`);
    expect(before.status).toBe(404);
    // Other tests' files may be due as well; the job is run until it finds nothing.
    let made = 0;
    for (
      let n = await makeThumbnails(server.orm, server.app.files);
      n > 0;
      n = await makeThumbnails(server.orm, server.app.files)
    )
      made += n;
    expect(made).toBeGreaterThanOrEqual(5);
    expect(await makeThumbnails(server.orm, server.app.files)).toBe(0);
    for (const up of uploads) {
      const thumb = await download(server, a.token, `/api/v1/files/${up.file.blobId}/thumbnail`);
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get('content-type')).toBe('image/webp');
      const meta = await sharp(thumb.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 64, 43]);
      // The thumbnail is a stored file of its own, under the id the upload answered.
      const same = await download(server, a.token, `/api/v1/files/${up.image.thumbnailBlobId}`);
      expect(same.bytes.equals(thumb.bytes)).toBe(true);
      expect((await download(server, b.token, `/api/v1/files/${up.file.blobId}/thumbnail`)).status).toBe(404);
      expect((await download(server, b.token, `/api/v1/files/${up.image.thumbnailBlobId}`)).status).toBe(404);
    }
  });

  test("a record naming another tenant's file, or none, is a 404 naming the field", async () => {
    const theirs = await storedFile(server.baseUrl, b, { name: 'theirs.png' });
    const res = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `mutation($i: CreateHrProjectInput!) { createHrProject(input: $i) { id } }`,
        variables: { i: { name: 'Stolen', picture: { blobId: theirs.file.blobId } } },
      }),
    });
    const body = (await res.json()) as any;
    expect(body.errors[0]).toMatchObject({
      message: `picture.blobId: there is no file ${theirs.file.blobId}`,
      extensions: {
        status: 404,
        errors: [{ field: 'picture.blobId', reason: `there is no file ${theirs.file.blobId}` }],
      },
    });
    const rest = await a.client.post('/hr/projects', {
      name: 'Made up',
      picture: { blobId: 'made-up', fileSize: 5 },
    });
    expect(rest.status).toBe(404);
    expect(rest.body.errors).toEqual([{ field: 'picture.blobId', reason: 'there is no file made-up' }]);
    const text = await storedFile(server.baseUrl, a, { name: 'a.txt', type: 'text/plain', content: 'text' });
    const notImage = await graphql(
      server,
      a.token,
      `
        mutation ($i: UpdateTenantInput!) {
          updateTenant(input: $i) {
            id
          }
        }
      `,
      {
        i: { logo: { blobId: text.file.blobId } },
      },
    );
    expect(notImage.errors?.[0]).toMatchObject({
      message: `logo.blobId: the file ${text.file.blobId} is not an image`,
      extensions: { status: 404 },
    });
  });

  test('deleting a file a record names: the record keeps the id, the download is a 404, saving it again is refused', async () => {
    const { file } = await storedFile(server.baseUrl, a, { name: 'plan.png' });
    const created = await graphql(
      server,
      a.token,
      `
        mutation ($i: CreateHrProjectInput!) {
          createHrProject(input: $i) {
            id
            picture {
              blobId
              fileSize
              url
            }
          }
        }
      `,
      { i: { name: 'Named', picture: { blobId: file.blobId } } },
    );
    const project = created.data.createHrProject;
    expect(project.picture).toEqual({
      blobId: file.blobId,
      fileSize: file.fileSize,
      url: `/api/v1/files/${file.blobId}`,
    });
    const del = await graphql(
      server,
      a.token,
      `
        mutation ($id: ID!) {
          deleteFile(id: $id)
        }
      `,
      { id: file.blobId },
    );
    expect(del.data.deleteFile).toBe(true);
    expect((await download(server, a.token, `/api/v1/files/${file.blobId}`)).status).toBe(404);
    const kept = await a.client.get(`/hr/projects/find/${project.id}`);
    expect(kept.body.picture.blobId).toBe(file.blobId);
    const again = await graphql(
      server,
      a.token,
      `
        mutation ($id: ID!, $i: UpdateHrProjectInput!) {
          updateHrProject(id: $id, input: $i) {
            id
          }
        }
      `,
      { id: project.id, i: { picture: { blobId: file.blobId } } },
    );
    expect(again.errors?.[0].extensions.status).toBe(404);
    expect(await outboxTypes(server, a.tenantId, file.blobId)).toEqual(['file.created', 'file.deleted']);
    expect(await historyCount(server, a.tenantId, file.blobId)).toBe(0);
  });

  test('the clean-up removes files no record names and deleted files after the grace period; named files stay', async () => {
    const t = await server.tenant('Clean-up');
    const orphan = await storedFile(server.baseUrl, t, {
      name: 'orphan.txt',
      type: 'text/plain',
      content: 'nobody',
    });
    const named = await storedFile(server.baseUrl, t, { name: 'named.png' });
    expect(
      (await t.client.post('/hr/projects', { name: 'Keeps it', picture: { blobId: named.file.blobId } }))
        .status,
    ).toBe(201);
    while ((await makeThumbnails(server.orm, server.app.files)) > 0);
    const gone = await storedFile(server.baseUrl, t, {
      name: 'gone.txt',
      type: 'text/plain',
      content: 'bye',
    });
    await graphql(
      server,
      t.token,
      `
        mutation ($id: ID!) {
          deleteFile(id: $id)
        }
      `,
      { id: gone.file.blobId },
    );
    expect(await fileRows(server, t.tenantId)).toBe(4);

    // Within the grace period nothing goes.
    await cleanUpFiles(server.orm, server.app.files, 3600_000);
    expect(await fileRows(server, t.tenantId)).toBe(4);

    await cleanUpFiles(server.orm, server.app.files, 0);
    // The named image and its thumbnail stay; the orphan and the deleted file are gone, bytes too.
    expect(await fileRows(server, t.tenantId)).toBe(2);
    expect((await download(server, t.token, `/api/v1/files/${orphan.file.blobId}`)).status).toBe(404);
    expect(fs.existsSync(path.join(dir, t.tenantId, orphan.file.blobId))).toBe(false);
    expect(fs.existsSync(path.join(dir, t.tenantId, gone.file.blobId))).toBe(false);
    expect((await download(server, t.token, `/api/v1/files/${named.file.blobId}`)).status).toBe(200);
    expect((await download(server, t.token, `/api/v1/files/${named.file.blobId}/thumbnail`)).status).toBe(
      200,
    );
    expect(await outboxTypes(server, t.tenantId, orphan.file.blobId)).toEqual([
      'file.created',
      'file.deleted',
    ]);
  });
});

describe('uploads and downloads count in the rate limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      files: localSettings(dir),
      http: { rateLimits: { perCredential: 3, perTenant: 0, windowMs: 60_000 } },
    });
  });
  afterAll(() => server?.close());

  test('the credential limit answers 429 to the upload past it', async () => {
    const t = await server.tenant('Limited');
    const first = await storedFile(server.baseUrl, t, {
      name: 'one.txt',
      type: 'text/plain',
      content: 'one',
    });
    expect((await download(server, t.token, `/api/v1/files/${first.file.blobId}`)).status).toBe(200);
    await storedFile(server.baseUrl, t, { name: 'two.txt', type: 'text/plain', content: 'two' });
    const form = new FormData();
    form.append('file', new Blob(['three'], { type: 'text/plain' }), 'three.txt');
    const res = await fetch(`${server.baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}` },
      body: form,
    });
    expect(res.status).toBe(429);
    expect(await fileRows(server, t.tenantId)).toBe(2);
  });
});
