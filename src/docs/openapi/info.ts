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
    bearerFormat: 'JWT',
    description:
      'HS256 JWT with the claims sub, email, tenantId and exp, handled as RFC8725 (JSON Web Token Best Current Practices) asks: the algorithm is fixed to HS256 (never taken from the token, `none` refused), the secret is at least 32 bytes, `exp` is required, and `iss`/`aud` are checked when configured.',
  },
};
