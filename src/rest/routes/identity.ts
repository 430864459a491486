import { body, type RestRoute } from '../route';

/** Trusted identity providers of the tenant (docs/security.md); not in the specification. */
export const identityRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/trusted-issuers',
    field: 'trustedIssuers',
    code: 'custom',
    extension: true,
    summary: "The tenant's trusted OpenID Connect issuers",
  },
  {
    method: 'POST',
    path: '/trusted-issuers',
    field: 'addTrustedIssuer',
    args: { input: body() },
    status: 201,
    location: (i: { id: string }) => `/trusted-issuers/${i.id}`,
    code: 'custom',
    extension: true,
    summary: 'Trust an OpenID Connect issuer (its discovery document and keys are checked first)',
  },
  {
    method: 'GET',
    path: '/trusted-issuers/{id}',
    field: 'trustedIssuer',
    nullIs404: true,
    code: 'custom',
    extension: true,
    summary: 'One trusted issuer',
  },
  {
    method: 'DELETE',
    path: '/trusted-issuers/{id}',
    field: 'removeTrustedIssuer',
    nullIs404: true,
    status: 204,
    code: 'custom',
    extension: true,
    summary: 'Stop trusting an issuer',
  },
];
