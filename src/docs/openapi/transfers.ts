import type { Download, Refusal, TransferRoute, Upload } from '../../http/transfer-route';
import type { JsonSchema } from '../json-schema';
import type { OpenApiDocument } from './types';
import { common, headerRef } from './responses';

const STATUS: Record<Refusal, string> = {
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
};

/** The responses of `names`, by status, each the component the document declares once. */
export const errors = (...names: Refusal[]) =>
  Object.fromEntries(names.map((name) => [STATUS[name], { $ref: `#/components/responses/${name}` }]));

const idParameter = (description: string) => ({
  name: 'id',
  in: 'path' as const,
  required: true,
  description,
  schema: { type: 'string', format: 'uuid', maxLength: 36 },
});

const parametersOf = (route: TransferRoute) => (route.id ? [idParameter(route.id)] : []);

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

const BYTES = { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } };

function download(route: Download, tag: string) {
  const { what, more = '', refusals = [] } = route;
  return {
    operationId: route.operationId,
    summary: `Download ${what}`,
    description: `${what[0].toUpperCase()}${what.slice(1)}, streamed with its type, length, \`ETag\` and a safe \`Content-Disposition\` (SVG, HTML and unknown types only as attachments); a \`Range\` of bytes answers 206.${more}`,
    tags: [tag],
    parameters: [
      ...parametersOf(route),
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
        content: BYTES,
      },
      '206': {
        description: 'The range asked for.',
        headers: {
          ...common(),
          'Content-Range': { description: 'Which bytes.', schema: { type: 'string', maxLength: 100 } },
        },
        content: BYTES,
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
  };
}

function upload(route: Upload, tag: string, answerOf: (operation: string) => JsonSchema) {
  const { answer } = route;
  const parameters = parametersOf(route);
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: [tag],
    ...(route.security ? { security: [{ [route.security]: [] }] } : {}),
    ...(parameters.length ? { parameters } : {}),
    requestBody: MULTIPART,
    responses: {
      [answer.status]:
        answer.status === 201
          ? {
              description: answer.description,
              headers: { ...common(), Location: headerRef('Location') },
              content: { 'application/json': { schema: answerOf(answer.as) } },
            }
          : { description: answer.description, headers: common() },
      ...errors(...route.refusals),
    },
    'x-extension': true as const,
  };
}

/**
 * The path items of the operations whose body or answer is a file's bytes (src/http/transfer-route.ts),
 * in the order given: each tagged as its path (or `taggedAs`) is by `tagOf`; an upload answering
 * as another operation takes that operation's 200 schema from `paths`, the document so far.
 */
export function transferPaths(
  transfers: readonly TransferRoute[],
  paths: OpenApiDocument['paths'],
  tagOf: (path: string) => string,
): OpenApiDocument['paths'] {
  const answerOf = (operation: string): JsonSchema => {
    const [method, path] = operation.split(' ');
    const ok = paths[path]?.[method.toLowerCase()]?.responses['200'] as
      { content: { 'application/json': { schema: JsonSchema } } } | undefined;
    if (!ok) throw new Error(`an upload answers as ${operation}, which the document lacks`);
    return ok.content['application/json'].schema;
  };
  const items: OpenApiDocument['paths'] = {};
  for (const route of transfers) {
    const tag = tagOf(route.taggedAs ?? route.path);
    const operation = route.method === 'GET' ? download(route, tag) : upload(route, tag, answerOf);
    (items[route.path] ??= {})[route.method.toLowerCase()] =
      operation as unknown as OpenApiDocument['paths'][string][string];
  }
  return items;
}
