import type { Download, TransferRoute, Upload } from '../../../http/transfer-route';
import { body, type RestRoute } from '../../../rest/route';

/**
 * Stored files' operations that GraphQL serves (docs/files.md); not in the specification. The
 * upload itself (multipart), downloads and the local backend's upload target are `fileTransfers`
 * below, served by the module's own router (api/files-router.ts).
 */
export const fileRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/files/{id}/info',
    field: 'storedFile',
    nullIs404: true,
    code: 'custom',
    extension: true,
    summary: 'A stored file: its FileAsset and, for an image, its ImageRef, with their download links',
    allFields: true,
  },
  {
    method: 'DELETE',
    path: '/files/{id}',
    field: 'deleteFile',
    nullIs404: true,
    status: 204,
    code: 'custom',
    extension: true,
    summary: 'Delete a stored file (records that name it keep the id; its downloads answer 404)',
  },
  {
    method: 'POST',
    path: '/file-uploads',
    field: 'createFileUpload',
    args: { input: body() },
    code: 'custom',
    extension: true,
    summary: 'Start a two-step upload: where to send the bytes, with size and type conditions',
  },
  {
    method: 'POST',
    path: '/file-uploads/{id}/complete',
    field: 'completeFileUpload',
    status: 201,
    location: (a: { file: { blobId: string } }) => `/files/${a.file.blobId}`,
    code: 'custom',
    extension: true,
    summary: 'Complete a two-step upload: the stored bytes must have the declared size and type',
    allFields: true,
  },
  {
    method: 'GET',
    path: '/file-settings',
    field: 'fileSettings',
    code: 'custom',
    extension: true,
    summary: "The tenant's limits on stored files, and what it uses",
  },
  {
    method: 'PUT',
    path: '/file-settings',
    field: 'updateFileSettings',
    args: { input: body() },
    code: 'custom',
    extension: true,
    summary: "Set the tenant's limits on stored files",
  },
];

const STORED_FILE_ID = 'Id of the stored file (its blobId).';

/** A multipart upload to the store, answered as `GET /files/{id}/info`. */
export const uploadTransfer: Upload = {
  method: 'POST',
  path: '/files',
  operationId: 'uploadFile',
  summary: 'Upload a file (multipart)',
  description:
    "One part named `file`, streamed to the store; checked against the tenant's largest file, allowed types and quota (docs/files.md). The answer is the FileAsset and, for an image, its ImageRef, as `GET /files/{id}/info` gives them.",
  answer: { status: 201, description: 'Stored.', as: 'GET /files/{id}/info' },
  refusals: [
    'BadRequest',
    'Unauthorized',
    'PayloadTooLarge',
    'UnsupportedMediaType',
    'TooManyRequests',
    'InternalServerError',
    'ServiceUnavailable',
  ],
};

export const downloadTransfer: Download = {
  method: 'GET',
  path: '/files/{id}',
  operationId: 'downloadFile',
  id: STORED_FILE_ID,
  what: 'a stored file',
};

export const thumbnailTransfer: Download = {
  method: 'GET',
  path: '/files/{id}/thumbnail',
  operationId: 'downloadFileThumbnail',
  id: STORED_FILE_ID,
  what: "an image's thumbnail",
};

/** The local backend's target of a two-step upload: the URL's signature stands for the credential. */
export const uploadTargetTransfer: Upload = {
  method: 'POST',
  path: '/file-uploads/{id}',
  operationId: 'sendFileUpload',
  id: STORED_FILE_ID,
  taggedAs: '/files',
  summary: "Send a two-step upload's bytes (local backend)",
  description:
    "Where `POST /file-uploads` sends the bytes when files are kept on local disk: the `signature` of its URL (an HMAC of the tenant, the file and the expiry) stands for the credential, as an object store's presigned URL does. Then complete the upload.",
  answer: { status: 204, description: 'Received.' },
  security: 'uploadSignature',
  refusals: [
    'BadRequest',
    'NotFound',
    'PayloadTooLarge',
    'UnsupportedMediaType',
    'TooManyRequests',
    'InternalServerError',
    'ServiceUnavailable',
  ],
};

/** The uploads and downloads (the registry's `transfers`), in the document's order. */
export const fileTransfers: TransferRoute[] = [
  uploadTransfer,
  downloadTransfer,
  thumbnailTransfer,
  uploadTargetTransfer,
];
