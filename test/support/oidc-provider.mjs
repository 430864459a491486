// A real OpenID provider (the npm package oidc-provider) for the sign-in tests, in a process of
// its own (the package is ES modules only; jest runs CommonJS). Its one argument is JSON:
// { port, keys: [private JWK...], clients: [{ id, secret, email?, alg? }], audience }.
// Clients get JWT access tokens through client credentials, for the audience as their resource.
// It prints "ready <issuer>" once it listens, and stops on SIGTERM.
import Provider from 'oidc-provider';

const config = JSON.parse(process.argv[2]);
const issuer = `http://127.0.0.1:${config.port}`;
const byClient = new Map(config.clients.map((c) => [c.id, c]));

const provider = new Provider(issuer, {
  clients: config.clients.map((c) => ({
    client_id: c.id,
    client_secret: c.secret,
    grant_types: ['client_credentials'],
    redirect_uris: [],
    response_types: [],
  })),
  jwks: { keys: config.keys },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => config.audience,
      useGrantedResource: () => true,
      getResourceServerInfo: (ctx, resource, client) => ({
        scope: 'api',
        audience: resource,
        accessTokenFormat: 'jwt',
        accessTokenTTL: 600,
        jwt: { sign: { alg: byClient.get(client.clientId)?.alg ?? 'RS256' } },
      }),
    },
  },
  extraTokenClaims: (ctx, token) => {
    const client = byClient.get(token.clientId);
    return client?.email ? { email: client.email } : undefined;
  },
});
provider.proxy = false;
const server = provider.listen(config.port, '127.0.0.1', () => {
  process.stdout.write(`ready ${issuer}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections?.();
  server.close(() => process.exit(0));
});
