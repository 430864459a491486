import type { JsonSchema } from '../json-schema';
import type { OpenApiDocument } from './types';
import { common, headerRef } from './responses';

/**
 * The stored files' routes that are HTTP of their own rather than rows of the REST table
 * (src/http/files-router.ts): the multipart upload, downloads with ranges, and the local backend's
 * upload target. Their answers reuse what the table documents: an upload answers the same JSON
 * as `GET /files/{id}/info`.
 */
export const errors = (...names: string[]) =>
  Object.fromEntries(
    names.map((name) => [
      {
        BadRequest: '400',
        Unauthorized: '401',
        Forbidden: '403',
        NotFound: '404',
        Conflict: '409',
        PayloadTooLarge: '413',
        UnsupportedMediaType: '415',
        TooManyRequests: '429',
        InternalServerError: '500',
        ServiceUnavailable: '503',
      }[name]!,
      { $ref: `#/components/responses/${name}` },
    ]),
  );

const ID = {
  name: 'id',
  in: 'path' as const,
  required: true,
  description: 'Id of the stored file (its blobId).',
  schema: { type: 'string', format: 'uuid', maxLength: 36 },
};

const MULTIPART = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: {
          file: {
            type: 'string',
            contentMediaType: 'application/octet-stream',
            description:
              'The file, streamed; its type is read from its content, and a declared type that disagrees is refused.',
          },
        },
      },
    },
  },
};

const download = (
  what: string,
  operationId: string,
  tag: string,
  { id = ID, more = '', refusals = [] as string[] } = {},
) => ({
  operationId,
  summary: `Download ${what}`,
  description: `${what[0].toUpperCase()}${what.slice(1)}, streamed with its type, length, \`ETag\` and a safe \`Content-Disposition\` (SVG, HTML and unknown types only as attachments); a \`Range\` of bytes answers 206.${more}`,
  tags: [tag],
  parameters: [
    id,
    {
      name: 'Range',
      in: 'header' as const,
      required: false,
      description: 'One range of bytes (`bytes=0-1023`).',
      schema: { type: 'string', maxLength: 200 },
    },
  ],
  responses: {
    '200': {
      description: 'The bytes.',
      headers: {
        ...common(),
        ETag: { description: "The content's SHA-256.", schema: { type: 'string', maxLength: 70 } },
        'Content-Disposition': {
          description: '`inline` or `attachment`, with the file name.',
          schema: { type: 'string', maxLength: 1024 },
        },
      },
      content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
    },
    '206': {
      description: 'The range asked for.',
      headers: {
        ...common(),
        'Content-Range': { description: 'Which bytes.', schema: { type: 'string', maxLength: 100 } },
      },
      content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
    },
    '302': {
      description: 'With the object store and `FILES_REDIRECT_DOWNLOADS`: to a short-lived signed URL.',
      headers: { ...common(), Location: headerRef('Location') },
    },
    '416': {
      description: 'A range that cannot be satisfied.',
      headers: common(),
    },
    ...errors(
      'Unauthorized',
      ...refusals,
      'NotFound',
      'TooManyRequests',
      'InternalServerError',
      'ServiceUnavailable',
    ),
  },
  'x-extension': true as const,
});

/**
 * The path items, given the JSON schema of a stored file's answer, the files' tag, and the tag of
 * the tenant exports (whose bundles download from the same store, the same way).
 */
export function filePaths(answer: JsonSchema, tag: string, exportsTag: string): OpenApiDocument['paths'] {
  return {
    '/tenant-exports/{id}/bundle': {
      get: download("a finished tenant export's bundle", 'downloadTenantExportBundle', exportsTag, {
        id: { ...ID, description: 'Id of the tenant export.' },
        more: " The bundle is one gzip-compressed tar archive (`application/gzip`) of the export's folder (`manifest.json`, `tenant.ndjson`, `records/`, `files/`: docs/operations.md); its `ETag` is the archive's SHA-256, as the export reports it. For the tenant's super-admin only (403 to anyone else); 409 while the export is not DONE; 404 for an export of another tenant.",
        refusals: ['Forbidden', 'Conflict'],
      }),
    },
    '/files': {
      post: {
        operationId: 'uploadFile',
        summary: 'Upload a file (multipart)',
        description:
          "One part named `file`, streamed to the store; checked against the tenant's largest file, allowed types and quota (docs/files.md). The answer is the FileAsset and, for an image, its ImageRef, as `GET /files/{id}/info` gives them.",
        tags: [tag],
        requestBody: MULTIPART,
        responses: {
          '201': {
            description: 'Stored.',
            headers: { ...common(), Location: headerRef('Location') },
            content: { 'application/json': { schema: answer } },
          },
          ...errors(
            'BadRequest',
            'Unauthorized',
            'PayloadTooLarge',
            'UnsupportedMediaType',
            'TooManyRequests',
            'InternalServerError',
            'ServiceUnavailable',
          ),
        },
        'x-extension': true,
      },
    },
    '/files/{id}': { get: download('a stored file', 'downloadFile', tag) },
    '/files/{id}/thumbnail': { get: download("an image's thumbnail", 'downloadFileThumbnail', tag) },
    '/file-uploads/{id}': {
      post: {
        operationId: 'sendFileUpload',
        summary: "Send a two-step upload's bytes (local backend)",
        description:
          "Where `POST /file-uploads` sends the bytes when files are kept on local disk: the `signature` of its URL (an HMAC of the tenant, the file and the expiry) stands for the credential, as an object store's presigned URL does. Then complete the upload.",
        tags: [tag],
        security: [{ uploadSignature: [] }],
        parameters: [ID],
        requestBody: MULTIPART,
        responses: {
          '204': { description: 'Received.', headers: common() },
          ...errors(
            'BadRequest',
            'NotFound',
            'PayloadTooLarge',
            'UnsupportedMediaType',
            'TooManyRequests',
            'InternalServerError',
            'ServiceUnavailable',
          ),
        },
        'x-extension': true,
      },
    },
  } as unknown as OpenApiDocument['paths'];
}
