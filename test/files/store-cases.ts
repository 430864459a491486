import { createHash } from 'node:crypto';
import type { FileSettings } from '../../src/files/settings';
import { cleanUpFiles } from '../../src/domain/files/file-jobs';
import {
  cutOffUpload,
  download,
  fileRows,
  graphql,
  png,
  startServer,
  upload,
  type TestServer,
  type TestTenant,
} from './file-suite';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const SETTINGS = `mutation($input: FileSettingsInput!) { updateFileSettings(input: $input) { maxFileSize quotaBytes allowedTypes usedBytes } }`;
const CREATE_UPLOAD = `mutation($input: CreateFileUploadInput!) { createFileUpload(input: $input) { fileId method url fields expires } }`;
const COMPLETE_UPLOAD = `mutation($id: ID!) { completeFileUpload(id: $id) { file { blobId name extension fileSize type url } image { blobId width height thumbnailBlobId url } } }`;

/** Sends the bytes of a two-step upload where its ticket says, as a browser would. */
async function sendTicket(server: TestServer, ticket: any, content: Buffer, type: string): Promise<number> {
  const form = new FormData();
  for (const [k, v] of Object.entries(ticket.fields as Record<string, string>)) form.append(k, v);
  form.append('file', new Blob([content], { type }), 'x');
  const url = ticket.url.startsWith('/') ? server.baseUrl + ticket.url : ticket.url;
  const res = await fetch(url, { method: ticket.method, body: form });
  await res.arrayBuffer();
  return res.status;
}

/**
 * What every backend must do, over HTTP against a server storing files with `settings()`:
 * round trips, ranges, the two-step flow, limits, isolation, a killed upload.
 */
export function fileStoreCases(settings: () => FileSettings, objectCount: () => Promise<number>) {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    server = await startServer({ files: settings() });
    a = await server.tenant('Files A');
    b = await server.tenant('Files B');
  });
  afterAll(() => server?.close());

  test('an image goes up streamed and comes back whole, with its dimensions and headers', async () => {
    const image = await png(300, 200);
    const up = await upload(server, a.token, image, { name: 'logo.png', type: 'image/png' });
    expect(up.status).toBe(201);
    const { file, image: ref } = up.body;
    expect(file).toMatchObject({ name: 'logo.png', extension: 'png', fileSize: image.length, type: 'IMAGE' });
    expect(ref).toMatchObject({ blobId: file.blobId, width: 300, height: 200 });
    expect(ref.thumbnailBlobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(up.headers.get('location')).toBe(`/api/v1/files/${file.blobId}`);

    const got = await download(server, a.token, `/api/v1/files/${file.blobId}`);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(image)).toBe(true);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('content-length')).toBe(String(image.length));
    expect(got.headers.get('etag')).toBe(`"${sha(image)}"`);
    expect(got.headers.get('cache-control')).toBe('private');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-disposition')).toBe('inline; filename=logo.png');

    const again = await download(server, a.token, `/api/v1/files/${file.blobId}`, {
      'if-none-match': `"${sha(image)}"`,
    });
    expect(again.status).toBe(304);

    const q = await graphql(
      server,
      a.token,
      `
        query ($id: ID!) {
          storedFile(id: $id) {
            file {
              fileSize
              url
              thumbnailUrl
            }
            image {
              width
              height
              url
            }
          }
        }
      `,
      { id: file.blobId },
    );
    expect(q.data.storedFile).toEqual({
      file: {
        fileSize: image.length,
        url: `/api/v1/files/${file.blobId}`,
        thumbnailUrl: `/api/v1/files/${file.blobId}/thumbnail`,
      },
      image: { width: 300, height: 200, url: `/api/v1/files/${file.blobId}` },
    });
  });

  test('ranges: a part is a 206 with its Content-Range, a range past the end a 416', async () => {
    const content = Buffer.from('0123456789abcdefghij'.repeat(100));
    const up = await upload(server, a.token, content, { name: 'notes.txt', type: 'text/plain' });
    expect(up.status).toBe(201);
    const path = `/api/v1/files/${up.body.file.blobId}`;
    const part = await download(server, a.token, path, { range: 'bytes=10-19' });
    expect(part.status).toBe(206);
    expect(part.bytes.toString()).toBe('abcdefghij');
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${content.length}`);
    expect(part.headers.get('content-length')).toBe('10');
    const tail = await download(server, a.token, path, { range: 'bytes=-5' });
    expect(tail.status).toBe(206);
    expect(tail.bytes.toString()).toBe('fghij');
    const bad = await download(server, a.token, path, { range: `bytes=${content.length + 10}-` });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe(`bytes */${content.length}`);
    expect(JSON.parse(bad.bytes.toString())).toMatchObject({ status: 416, title: 'Range Not Satisfiable' });
  });

  test("tenant B gets a 404 for A's file on every path, and names cannot reach a path", async () => {
    const up = await upload(server, a.token, await png(20, 20), {
      name: '../../etc/passwd.png',
      type: 'image/png',
    });
    expect(up.status).toBe(201);
    expect(up.body.file.name).toBe('passwd.png');
    // Bidirectional controls would show `invoice\u202egnp.png` as `invoicegnp.png` reversed: gone.
    const bidi = await upload(server, a.token, await png(2, 2), {
      name: 'invoice\u202egnp\u2066\u200f\u061c.png',
      type: 'image/png',
    });
    expect(bidi.status).toBe(201);
    expect(bidi.body.file.name).toBe('invoicegnp.png');
    const id = up.body.file.blobId;
    for (const path of [`/api/v1/files/${id}`, `/api/v1/files/${id}/thumbnail`]) {
      const got = await download(server, b.token, path);
      expect(got.status).toBe(404);
      expect(JSON.parse(got.bytes.toString())).toMatchObject({ status: 404, title: 'Not Found' });
    }
    const q = await graphql(
      server,
      b.token,
      `
        query ($id: ID!) {
          storedFile(id: $id) {
            file {
              blobId
            }
          }
        }
      `,
      { id },
    );
    expect(q.data.storedFile).toBeNull();
    const del = await graphql(
      server,
      b.token,
      `
        mutation ($id: ID!) {
          deleteFile(id: $id)
        }
      `,
      { id },
    );
    expect(del.errors?.[0].extensions.status).toBe(404);
    expect((await download(server, a.token, `/api/v1/files/${id}`)).status).toBe(200);
    expect((await download(server, a.token, `/api/v1/files/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
  });

  test('SVG, HTML and unknown types are only ever attachments', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const up = await upload(server, a.token, svg, { name: 'x.svg', type: 'image/svg+xml' });
    expect(up.status).toBe(201);
    const got = await download(server, a.token, `/api/v1/files/${up.body.file.blobId}`);
    expect(got.headers.get('content-disposition')).toBe('attachment; filename=x.svg');
    expect(got.headers.get('content-type')).toBe('image/svg+xml');
    const bin = await upload(server, a.token, Buffer.from([1, 2, 3, 4]), { name: 'Überblick; final.bin' });
    expect(bin.status).toBe(201);
    const d = await download(server, a.token, `/api/v1/files/${bin.body.file.blobId}`);
    expect(d.headers.get('content-type')).toBe('application/octet-stream');
    expect(d.headers.get('content-disposition')).toBe(
      `attachment; filename="?berblick; final.bin"; filename*=UTF-8''%C3%9Cberblick%3B%20final.bin`,
    );
  });

  test('bad uploads: not multipart, no file part, a lying type, a type not allowed, over the limit, over the quota', async () => {
    const t = await server.tenant('Limits');
    const json = await fetch(`${server.baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: '{"file":"x"}',
    });
    expect(json.status).toBe(415);
    expect((await json.json()) as Record<string, unknown>).toMatchObject({
      status: 415,
      detail: expect.stringContaining('multipart/form-data'),
    });

    const form = new FormData();
    form.append('name', 'nothing');
    const none = await fetch(`${server.baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}` },
      body: form,
    });
    expect(none.status).toBe(400);
    expect(((await none.json()) as any).detail).toBe('the multipart body has no part named "file"');

    const lie = await upload(server, t.token, Buffer.from('just some text, not a picture'), {
      name: 'x.png',
      type: 'image/png',
    });
    expect(lie.status).toBe(415);
    expect(lie.body.detail).toBe('the file was declared image/png but its content is not');
    const lie2 = await upload(server, t.token, await png(4, 4), { name: 'x.pdf', type: 'application/pdf' });
    expect(lie2.status).toBe(415);
    expect(lie2.body.detail).toBe('the file was declared application/pdf but its content is image/png');

    const set = await graphql(server, t.token, SETTINGS, {
      input: { maxFileSize: 5000, quotaBytes: 12000, allowedTypes: ['image/*', 'text/plain'] },
    });
    expect(set.data.updateFileSettings).toEqual({
      maxFileSize: 5000,
      quotaBytes: 12000,
      allowedTypes: ['image/*', 'text/plain'],
      usedBytes: 0,
    });

    const csv = await upload(server, t.token, 'a,b\n1,2\n', { name: 'x.csv', type: 'text/csv' });
    expect(csv.status).toBe(415);
    expect(csv.body.detail).toBe('files of type text/csv are not allowed here');

    const big = await upload(server, t.token, Buffer.alloc(8000, 'x'), {
      name: 'big.txt',
      type: 'text/plain',
    });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({
      status: 413,
      detail: 'the file is larger than the largest file allowed (the limit is 5000 bytes)',
    });

    for (let i = 0; i < 3; i++)
      expect(
        (await upload(server, t.token, Buffer.alloc(4000, 'y'), { name: `f${i}.txt`, type: 'text/plain' }))
          .status,
      ).toBe(201);
    const over = await upload(server, t.token, Buffer.alloc(100, 'z'), {
      name: 'one-more.txt',
      type: 'text/plain',
    });
    expect(over.status).toBe(413);
    expect(over.body.detail).toMatch(/over its quota \(the limit is 12000 bytes\)$/);
    expect(await fileRows(server, t.tenantId)).toBe(3);
  });

  test('an upload cut off halfway leaves no file, no row and no object', async () => {
    const t = await server.tenant('Cut');
    const before = await objectCount();
    await cutOffUpload(server, t.token, 1_000_000, Buffer.alloc(300_000, 'q'));
    // The server notices the lost client and throws the partial object away.
    const deadline = Date.now() + 10_000;
    while ((await objectCount()) !== before && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(await objectCount()).toBe(before);
    expect(await fileRows(server, t.tenantId)).toBe(0);
    const ok = await upload(server, t.token, 'still works', { name: 'ok.txt', type: 'text/plain' });
    expect(ok.status).toBe(201);
  });

  test('two-step upload: presigned, then completed after the stored object is checked', async () => {
    const image = await png(64, 48);
    const ticket = await graphql(server, a.token, CREATE_UPLOAD, {
      input: { name: 'big.png', type: 'image/png', size: image.length },
    });
    const t = ticket.data.createFileUpload;
    expect(t.method).toBe('POST');
    expect(new Date(t.expires).getTime()).toBeGreaterThan(Date.now());
    // Not a file before it is completed.
    expect((await download(server, a.token, `/api/v1/files/${t.fileId}`)).status).toBe(404);
    expect([200, 201, 204]).toContain(await sendTicket(server, t, image, 'image/png'));
    // Tenant B cannot complete A's upload.
    const theirs = await graphql(server, b.token, COMPLETE_UPLOAD, { id: t.fileId });
    expect(theirs.errors?.[0].extensions.status).toBe(404);
    const done = await graphql(server, a.token, COMPLETE_UPLOAD, { id: t.fileId });
    expect(done.data.completeFileUpload).toMatchObject({
      file: { blobId: t.fileId, name: 'big.png', extension: 'png', fileSize: image.length, type: 'IMAGE' },
      image: { blobId: t.fileId, width: 64, height: 48 },
    });
    const got = await download(server, a.token, `/api/v1/files/${t.fileId}`);
    expect(got.bytes.equals(image)).toBe(true);
    const twice = await graphql(server, a.token, COMPLETE_UPLOAD, { id: t.fileId });
    expect(twice.errors?.[0].extensions.status).toBe(409);
  });

  test('two-step upload: never uploaded, or stored with another size, is refused and stays no file', async () => {
    const never = (
      await graphql(server, a.token, CREATE_UPLOAD, {
        input: { name: 'n.txt', type: 'text/plain', size: 10 },
      })
    ).data.createFileUpload;
    const r1 = await graphql(server, a.token, COMPLETE_UPLOAD, { id: never.fileId });
    expect(r1.errors?.[0]).toMatchObject({
      message: `nothing was uploaded for ${never.fileId}`,
      extensions: { status: 409 },
    });

    const wrong = (
      await graphql(server, a.token, CREATE_UPLOAD, {
        input: { name: 'w.txt', type: 'text/plain', size: 10 },
      })
    ).data.createFileUpload;
    const status = await sendTicket(server, wrong, Buffer.from('only five'.slice(0, 5)), 'text/plain');
    expect([200, 201, 204]).toContain(status);
    const r2 = await graphql(server, a.token, COMPLETE_UPLOAD, { id: wrong.fileId });
    expect(r2.errors?.[0]).toMatchObject({
      message: 'the stored object has 5 bytes, not the 10 the upload declared',
      extensions: { status: 400 },
    });
    expect((await download(server, a.token, `/api/v1/files/${wrong.fileId}`)).status).toBe(404);
  });

  test('the same over REST, as the OpenAPI document describes it: two steps, info, settings, delete', async () => {
    const image = await png(32, 16);
    const ticket = await a.client.post('/file-uploads', {
      name: 'rest\u202e.png',
      type: 'image/png',
      size: image.length,
    });
    expect(ticket.status).toBe(200);
    const id = ticket.body.fileId as string;
    expect((await a.client.get(`/files/${id}/info`)).status).toBe(404);
    expect([200, 201, 204]).toContain(await sendTicket(server, ticket.body, image, 'image/png'));
    expect((await b.client.post(`/file-uploads/${id}/complete`)).status).toBe(404);
    const done = await a.client.post(`/file-uploads/${id}/complete`);
    expect(done.status).toBe(201);
    expect(done.headers.get('location')).toBe(`/api/v1/files/${id}`);
    // The same links as a one-step upload's answer, in one form everywhere (GraphQL too).
    const links = {
      file: { url: `/api/v1/files/${id}`, thumbnailUrl: `/api/v1/files/${id}/thumbnail` },
      image: { url: `/api/v1/files/${id}`, thumbnailUrl: `/api/v1/files/${id}/thumbnail` },
    };
    expect(done.body).toMatchObject({
      file: { blobId: id, name: 'rest.png', fileSize: image.length, ...links.file },
      image: { width: 32, height: 16, thumbnailBlobId: expect.any(String), ...links.image },
    });
    expect((await a.client.get(`/files/${id}/info`)).body).toEqual(done.body);
    const gql = await graphql(
      server,
      a.token,
      'query ($id: ID!) { storedFile(id: $id) { file { url thumbnailUrl } image { url thumbnailUrl } } }',
      { id },
    );
    expect(gql.data.storedFile).toEqual(links);
    const once = await upload(server, a.token, image, { name: 'once.png', type: 'image/png' });
    const onceId = once.body.file.blobId as string;
    expect(once.body).toMatchObject({
      file: { url: `/api/v1/files/${onceId}`, thumbnailUrl: `/api/v1/files/${onceId}/thumbnail` },
      image: { url: `/api/v1/files/${onceId}`, thumbnailUrl: `/api/v1/files/${onceId}/thumbnail` },
    });
    expect(Object.keys(once.body.file).sort()).toEqual(Object.keys(done.body.file).sort());
    expect(Object.keys(once.body.image).sort()).toEqual(Object.keys(done.body.image).sort());
    expect((await b.client.get(`/files/${id}/info`)).status).toBe(404);

    const settings = (await a.client.get('/file-settings')).body;
    expect(settings.usedBytes).toBeGreaterThanOrEqual(image.length);
    const changed = await a.client.put('/file-settings', { maxFileSize: 4096 });
    expect(changed.body).toMatchObject({ maxFileSize: 4096, usedBytes: settings.usedBytes });
    await a.client.put('/file-settings', { maxFileSize: null });

    expect((await b.client.delete(`/files/${id}`)).status).toBe(404);
    expect((await a.client.delete(`/files/${id}`)).status).toBe(204);
    expect((await a.client.get(`/files/${id}/info`)).status).toBe(404);
    expect((await a.client.delete(`/files/${id}`)).status).toBe(404);
  });

  // Last: the clean-up it runs removes whatever of the tests above is due.
  test('a two-step upload never completed: once expired, the clean-up removes its stored bytes and its row', async () => {
    const t = await server.tenant('Never completed');
    const ticket = async (name: string) => {
      const res = await t.client.post('/file-uploads', { name, type: 'text/plain', size: 9 });
      expect(res.status).toBe(200);
      expect([200, 201, 204]).toContain(
        await sendTicket(server, res.body, Buffer.from('abandoned'), 'text/plain'),
      );
      return { id: res.body.fileId as string, key: `${t.tenantId}/${res.body.fileId}` };
    };
    const expired = await ticket('expired.txt');
    const waiting = await ticket('waiting.txt');
    const { backend } = server.app.files;
    expect(await backend.size(expired.key)).toBe(9);
    expect(await backend.size(waiting.key)).toBe(9);
    const objects = await objectCount();
    // As an upload whose expiry passed two hours ago: past the hour of grace the clean-up is given.
    await server.orm.em
      .getConnection()
      .execute(`update stored_file set expires = now() - interval '2 hours' where tenant_id = ? and id = ?`, [
        t.tenantId,
        expired.id,
      ]);
    await cleanUpFiles(server.orm, server.app.files, 3600_000);
    expect(await backend.size(expired.key)).toBeNull();
    expect(await objectCount()).toBe(objects - 1);
    expect(await fileRows(server, t.tenantId)).toBe(1);
    // The upload still within its time keeps its bytes and can be completed.
    expect(await backend.size(waiting.key)).toBe(9);
    expect((await t.client.post(`/file-uploads/${expired.id}/complete`)).status).toBe(404);
    const done = await t.client.post(`/file-uploads/${waiting.id}/complete`);
    expect(done.status).toBe(201);
    expect((await download(server, t.token, `/api/v1/files/${waiting.id}`)).bytes.toString()).toBe(
      'abandoned',
    );
  });

  return { server: () => server, a: () => a, b: () => b };
}
