import type { Readable } from 'node:stream';

/** A byte range of an object, both ends included (as HTTP's Range counts them). */
export interface ByteRange {
  start: number;
  end: number;
}

/** What a browser sends its file with, straight to the object store. */
export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
}

/**
 * Where the bytes of stored files live. Keys are made by the service alone (`<tenant>/<file id>`,
 * ids it generated), never from a name a client sent. `put` is all or nothing: an object is
 * readable under its key only once every byte arrived, and a body that fails halfway leaves
 * nothing behind.
 */
export interface FileBackend {
  readonly kind: 'local' | 's3';
  put(key: string, body: Readable, type: string): Promise<void>;
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** The stored size, or null when there is no such object. */
  size(key: string): Promise<number | null>;
  remove(key: string): Promise<void>;
  /** A presigned browser upload with its conditions (object store only). */
  presignPost?(
    key: string,
    conditions: { type: string; size: number; expiresSeconds: number },
  ): Promise<PresignedPost>;
  /** A short-lived signed URL that downloads the object (object store only). */
  signedUrl?(
    key: string,
    answer: { type: string; disposition: string; expiresSeconds: number },
  ): Promise<string>;
}

const KEY = /^[0-9a-f-]{36}\/[0-9a-f-]{36}$/;

/** The key of a tenant's object: the only scheme there is, for stored files and export archives alike. */
export const storageKeyOf = (tenantId: string, id: string): string => `${tenantId}/${id}`;

/** Whether `key` is one the service makes, for an object of `tenantId` when that is given. */
export const isStorageKey = (key: string, tenantId?: string): boolean =>
  KEY.test(key) && (tenantId === undefined || key.startsWith(`${tenantId}/`));

/** A key the service made: two ids. Anything else never reaches a path or the object store. */
export function checkedKey(key: string): string {
  if (!isStorageKey(key)) throw new Error(`not a storage key: ${key}`);
  return key;
}

/**
 * The store holds no bytes under the key: a file whose bytes were lost, or a record that names a
 * key the service never made. A download answers it with 404, not as a failure of the service.
 */
export class MissingBytes extends Error {
  constructor(readonly key: string) {
    super(`no bytes are stored under ${JSON.stringify(key)}`);
  }
}
