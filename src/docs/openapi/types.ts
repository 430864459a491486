import type { JsonSchema } from '../json-schema';
import type { QueryParameter } from '../search-docs';

/** The OpenAPI 3.1 document of the REST facade, as plain data. */
export type OpenApiDocument = {
  openapi: '3.1.0';
  info: Record<string, unknown>;
  servers: { url: string; description?: string; 'x-internal'?: boolean }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  /** The events sent to webhook endpoints (docs/event-webhooks.ts). */
  webhooks: Record<string, unknown>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    parameters: Record<string, unknown>;
    headers: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
};

export type OpenApiOperation = {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters?: (QueryParameter | { $ref: string })[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
  'x-graphql-field': string;
  'x-permission'?: string;
  'x-extension'?: true;
};

export { API_BASE } from '../../http/api-base';
