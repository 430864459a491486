import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { FileStore } from '../../src/domain/files/stored-files';
import type { FileBackend } from '../../src/files/backends';
import type { TestTenant } from './server';

/**
 * A file stored through the API (POST /files) for a tenant, for tests whose records name one:
 * a PNG of `width` x `height` unless `content` is given. Answers the upload's `file` and `image`.
 */
export async function storedFile(
  baseUrl: string,
  tenant: Pick<TestTenant, 'token'>,
  {
    name = 'picture.png',
    type = 'image/png',
    content,
    width = 8,
    height = 6,
  }: { name?: string; type?: string; content?: Buffer | string; width?: number; height?: number } = {},
): Promise<{ file: any; image: any }> {
  const bytes =
    content ??
    (await sharp({ create: { width, height, channels: 3, background: { r: 0, g: 90, b: 160 } } })
      .png()
      .toBuffer());
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), name);
  const res = await fetch(`${baseUrl}/api/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.token}` },
    body: form,
  });
  const body = (await res.json()) as { file: any; image: any };
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body)}`);
  // As records hold them: without the download URLs the upload's answer adds.
  const { url: _url, thumbnailUrl: _fileThumbnailUrl, ...file } = body.file;
  const { url: _imageUrl, thumbnailUrl: _thumbnailUrl, ...image } = body.image ?? {};
  return { file, image: body.image ? image : null };
}

/** Writes to a backend, given the backend's own `put` to call. */
type PutThrough = (key: string, body: Readable, type: string, own: FileBackend['put']) => Promise<void>;

/** `backend` with its writes made by `put`, which is given the backend's own to call. */
export function backendWithPut(backend: FileBackend, put: PutThrough): FileBackend {
  return {
    kind: backend.kind,
    put: (key, body, type) => put(key, body, type, (k, b, t) => backend.put(k, b, t)),
    get: (key, range) => backend.get(key, range),
    size: (key) => backend.size(key),
    remove: (key) => backend.remove(key),
  };
}

/** `store` with its backend's writes made by `put`, which is given the backend's own to call. */
export function storeWithPut(store: FileStore, put: PutThrough): FileStore {
  return new FileStore(backendWithPut(store.backend, put), store.settings, store.uploadSecret);
}

/**
 * `store` as an object store slow to answer: each write waits until `letThrough` is called.
 * `writing` settles when the first write arrives; `puts` are the keys written, in order.
 */
export function heldStore(store: FileStore): {
  store: FileStore;
  puts: string[];
  writing: Promise<void>;
  letThrough: () => void;
} {
  const puts: string[] = [];
  let arrived!: () => void;
  const writing = new Promise<void>((resolve) => (arrived = resolve));
  let letThrough!: () => void;
  const through = new Promise<void>((resolve) => (letThrough = resolve));
  const held = storeWithPut(store, async (key, body, type, own) => {
    puts.push(key);
    arrived();
    await through;
    await own(key, body, type);
  });
  return { store: held, puts, writing, letThrough };
}
