import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { fileSettings, type FileSettings } from '../../src/files/settings';
import { download, png, startServer, upload, type TestServer } from './file-suite';
import { fileStoreCases } from './store-cases';

/**
 * The object-store backend against a real S3-compatible server (s3rver) started here on
 * 127.0.0.1, through the same AWS SDK calls a deployment on S3, MinIO or R2 makes.
 */
const BUCKET = 'bms-files-test';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bms-s3rver-'));
const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
let endpoint = '';
let client: S3Client;

const settings = (extra: NodeJS.ProcessEnv = {}): FileSettings =>
  fileSettings(
    {
      FILES_BACKEND: 's3',
      FILES_S3_ENDPOINT: endpoint,
      FILES_S3_REGION: 'us-east-1',
      FILES_S3_BUCKET: BUCKET,
      FILES_S3_ACCESS_KEY_ID: 'S3RVER',
      FILES_S3_SECRET_ACCESS_KEY: 'S3RVER',
      FILES_S3_FORCE_PATH_STYLE: 'true',
      ...extra,
    },
    dir,
  );

async function objectCount(): Promise<number> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return listed.KeyCount ?? 0;
}

beforeAll(async () => {
  const { port } = await s3rver.run();
  endpoint = `http://127.0.0.1:${port}`;
  client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
});
afterAll(async () => {
  client?.destroy();
  await s3rver.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('stored files on an S3-compatible object store', () => {
  const cases = fileStoreCases(() => settings(), objectCount);

  test('object keys start with the tenant, and hold the bytes uploaded', async () => {
    const server = cases.server();
    const a = cases.a();
    const image = await png(10, 10);
    const up = await upload(server, a.token, image, { name: 'k.png', type: 'image/png' });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${a.tenantId}/` }));
    expect(listed.Contents?.map((o) => o.Key)).toContain(`${a.tenantId}/${up.body.file.blobId}`);
  });
});

describe('downloads redirected to a signed URL', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      files: settings({ FILES_S3_REDIRECT: 'true', FILES_DOWNLOAD_TTL_SECONDS: '30' }),
    });
  });
  afterAll(() => server?.close());

  test('a download answers 302 to a short-lived signed URL that serves the file as an attachment when unsafe', async () => {
    const t = await server.tenant('Redirect');
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    const up = await upload(server, t.token, svg, { name: 'r.svg', type: 'image/svg+xml' });
    const got = await download(server, t.token, `/api/v1/files/${up.body.file.blobId}`);
    expect(got.status).toBe(302);
    const location = got.headers.get('location')!;
    expect(location).toContain('X-Amz-Expires=30');
    const direct = await fetch(location);
    expect(direct.status).toBe(200);
    expect(await direct.text()).toBe(svg);
    expect(direct.headers.get('content-disposition')).toBe('attachment; filename=r.svg');
  });
});
