// The OpenAPI document, one builder per part: inputs (parameters.ts), responses and headers
// (responses.ts), one operation (operation.ts), tags (tags.ts), the fixed parts (info.ts), and
// the whole (document.ts).
export { buildOpenApi } from './document';
export { operationIdOf } from './operation';
export { API_BASE, type OpenApiDocument, type OpenApiOperation } from './types';
