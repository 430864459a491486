import { API_BASE } from './types';

/** The document's `info`, `servers`, `security` and security schemes: the same for every operation. */
export const info = {
  title: 'Business management service',
  version: 'v1',
  description: `The REST interface of the multi-tenant business-management service. Every operation runs a
GraphQL operation against the same schema that \`/graphql\` serves; each operation names its GraphQL
field, so the richer GraphQL interface is one step away.

**Credentials.** Every operation takes \`Authorization: Bearer <JWT>\`; the caller's tenant comes
from the token, and records of other tenants behave as if they did not exist.

**Errors.** Error responses carry \`{title, detail, time, status, requestId}\` as JSON; a 400 also
lists each culprit in \`errors\` (\`{field, reason}\`). A query parameter an operation does not
document is a 400 naming it.

**Request ids.** Send \`X-Request-Id\` (letters, digits, \`. _ : -\`, up to 128) to choose the id of a
request; otherwise one is generated. It comes back in the \`X-Request-Id\` header, in error bodies
and in the service's logs.

**Idempotency.** Every POST, PUT, PATCH and DELETE accepts \`Idempotency-Key\` (1 to 255 visible
ASCII characters, say a UUID): the first request with a key runs and its successful answer is kept
for 24 hours for the caller; a retry with the same key and the same request gets that answer again,
with \`Idempotent-Replayed: true\`, without running the operation again. The same key with a different
request is a 422; a retry while the first is still running is a 409. Error answers are not kept: the
operation changed nothing, and a retry runs it again.

**Extensions.** Operations marked \`x-extension\` are not in the interface specification.`,
  license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
};

/** Relative, so it is whichever deployment serves the document (production, staging or a local run). */
export const servers = [
  {
    url: API_BASE,
    description: 'This server: the deployment serving this document (production, staging or local)',
    'x-internal': false,
  },
];

export const security = [{ bearerAuth: [] }];

export const securitySchemes = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description:
      "One of three credentials (docs/security.md): the service's own HS256 JWT (claims sub, email, tenantId and exp; the algorithm fixed, `none` refused, the secret at least 32 bytes, `exp` required, as RFC 8725 asks); an access token of an OpenID provider the tenant trusts (RS256, ES256 or EdDSA, verified against the provider's published keys, its issuer and audience checked); or an API key (`bms_…`), stored only as a hash.",
  },
  uploadSignature: {
    type: 'apiKey',
    in: 'query',
    name: 'signature',
    description:
      "The signature in the URL that `POST /file-uploads` answers when files are kept on local disk: an HMAC of the tenant, the file and the expiry, good for one upload until it expires, as an object store's presigned URL is.",
  },
};
