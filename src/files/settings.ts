import path from 'node:path';
import { intFrom } from '../env-values';

/** Where stored files live and the defaults of every tenant's limits; read once (config.ts). */
export interface FileSettings {
  backend: 'local' | 's3';
  /** The local backend's folder (default `<DATA_DIR>/files`). */
  dir: string;
  s3?: S3Settings;
  /** Downloads from the object store answer with a redirect to a short-lived signed URL. */
  redirectDownloads: boolean;
  /** Lifetime of a presigned upload and of a signed download URL, in seconds. */
  uploadTtlSeconds: number;
  downloadTtlSeconds: number;
  /** Longest side of a thumbnail, in pixels. */
  thumbnailSize: number;
  /** A file no record names is removed this long after it was stored (or deleted). */
  orphanGraceMs: number;
  /** The limits of a tenant that has not set its own. */
  defaults: FileLimits;
}

export interface S3Settings {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

export interface FileLimits {
  maxFileSize: number;
  quotaBytes: number;
  /** Media types a tenant may store; `*` allows any. */
  allowedTypes: readonly string[];
}

const MB = 1024 * 1024;

/** The types a tenant may store unless it says otherwise: pictures, documents, models, video. */
export const DEFAULT_ALLOWED_TYPES: readonly string[] = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/zip',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'model/gltf-binary',
  'model/gltf+json',
  'video/mp4',
  'application/octet-stream',
];

export function fileSettings(env: NodeJS.ProcessEnv, dataDir: string): FileSettings {
  const backend = env.FILES_BACKEND || 'local';
  if (backend !== 'local' && backend !== 's3')
    throw new Error(`FILES_BACKEND must be "local" or "s3", got "${backend}"`);
  const bucket = env.FILES_S3_BUCKET || undefined;
  if (backend === 's3' && !bucket) throw new Error('FILES_BACKEND=s3 needs FILES_S3_BUCKET');
  return {
    backend,
    dir: path.resolve(env.FILES_DIR || path.join(dataDir, 'files')),
    s3:
      backend === 's3'
        ? {
            endpoint: env.FILES_S3_ENDPOINT || undefined,
            region: env.FILES_S3_REGION || 'us-east-1',
            bucket: bucket!,
            accessKeyId: env.FILES_S3_ACCESS_KEY_ID || undefined,
            secretAccessKey: env.FILES_S3_SECRET_ACCESS_KEY || undefined,
            forcePathStyle: env.FILES_S3_FORCE_PATH_STYLE === 'true',
          }
        : undefined,
    redirectDownloads: env.FILES_S3_REDIRECT === 'true',
    uploadTtlSeconds: intFrom(env.FILES_UPLOAD_TTL_SECONDS, 900, 'FILES_UPLOAD_TTL_SECONDS'),
    downloadTtlSeconds: intFrom(env.FILES_DOWNLOAD_TTL_SECONDS, 60, 'FILES_DOWNLOAD_TTL_SECONDS'),
    thumbnailSize: intFrom(env.FILES_THUMBNAIL_SIZE, 256, 'FILES_THUMBNAIL_SIZE'),
    orphanGraceMs: intFrom(env.FILES_ORPHAN_GRACE_HOURS, 24, 'FILES_ORPHAN_GRACE_HOURS') * 3600_000,
    defaults: {
      maxFileSize: intFrom(env.FILES_MAX_FILE_SIZE, 1024 * MB, 'FILES_MAX_FILE_SIZE'),
      quotaBytes: intFrom(env.FILES_QUOTA_BYTES, 10 * 1024 * MB, 'FILES_QUOTA_BYTES'),
      allowedTypes: env.FILES_ALLOWED_TYPES
        ? env.FILES_ALLOWED_TYPES.split(',').map((t) => t.trim().toLowerCase())
        : DEFAULT_ALLOWED_TYPES,
    },
  };
}
