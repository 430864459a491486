import { body, type RestRoute } from '../../../rest/route';

/**
 * Stored files' operations that GraphQL serves (docs/files.md); not in the specification. The
 * upload itself (multipart), downloads and the local backend's upload target are HTTP routes of
 * their own (src/http/files-router.ts), documented beside these (src/files/openapi.ts).
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
