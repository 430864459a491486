import http from 'node:http';
import sharp from 'sharp';
import type { FileSettings } from '../../src/files/settings';
import { fileSettings } from '../../src/files/settings';
import { checkExchange } from '../support/openapi-exchange';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/** A PNG of the given size, made by sharp. */
export const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .png()
    .toBuffer();

export interface Uploaded {
  status: number;
  body: any;
  headers: Headers;
}

/** POST /files with one file part, as a browser's FormData sends it. */
export async function upload(
  server: TestServer,
  token: string,
  content: Buffer | string,
  { name = 'file.bin', type = 'application/octet-stream' }: { name?: string; type?: string } = {},
): Promise<Uploaded> {
  const form = new FormData();
  form.append('file', new Blob([content], { type }), name);
  const res = await fetch(`${server.baseUrl}/api/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.text();
  const body = text ? JSON.parse(text) : undefined;
  // The answer as the OpenAPI document describes it (the request's bytes stand in as text).
  await checkExchange(server.baseUrl, {
    method: 'POST',
    path: '/api/v1/files',
    query: '',
    requestHeaders: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=x' },
    requestBody: { file: String(content).slice(0, 100) },
    status: res.status,
    headers: res.headers,
    body,
  });
  return { status: res.status, body, headers: res.headers };
}

export async function download(
  server: TestServer,
  token: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const res = await fetch(`${server.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${token}`, ...headers },
    redirect: 'manual',
  });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

export async function graphql(server: TestServer, token: string, query: string, variables: object = {}) {
  const res = await fetch(`${server.baseUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as { data?: any; errors?: any[] };
}

/**
 * Sends the start of a multipart upload and then drops the connection, as a client that dies
 * halfway does; resolves once the socket is gone.
 */
export function cutOffUpload(
  server: TestServer,
  token: string,
  declaredLength: number,
  sent: Buffer,
): Promise<void> {
  const boundary = 'cutoffboundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const url = new URL(`${server.baseUrl}/api/v1/files`);
  return new Promise((resolve) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + declaredLength + boundary.length + 8,
      },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(head);
    req.write(sent, () => setTimeout(() => req.destroy(), 200));
  });
}

/** Counts a tenant's file rows as the database holds them (completed or not, deleted or not). */
export async function fileRows(server: TestServer, tenantId: string): Promise<number> {
  const rows = await server.orm.em
    .getConnection()
    .execute(`select count(*) as n from stored_file where tenant_id = ?`, [tenantId], 'all');
  return Number(rows[0].n);
}

export const localSettings = (dir: string, extra: NodeJS.ProcessEnv = {}): FileSettings =>
  fileSettings({ FILES_DIR: dir, ...extra }, dir);

export type { TestServer, TestTenant };
export { startServer };
