import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { generate } from 'selfsigned';
import type { LoadedTenant } from './load-data';

/**
 * The credentials a find can arrive with besides the service's own HS256 token: an RS256 access
 * token from a trusted issuer (an OpenID provider of the tenant's, here a discovery document and
 * a key set served on 127.0.0.1, registered through the service's API as an administrator would)
 * and an API key created through the API with the planner's read permissions. Both read the same
 * rows as the planner's HS256 token, so only the verification differs.
 */
export interface Credentials {
  issuerToken: string;
  apiKey: string;
}

/**
 * The provider: https on 127.0.0.1 with a certificate of its own, since the service (run as in
 * production) accepts no http issuer. The service trusts the certificate through
 * NODE_EXTRA_CA_CERTS, so `caFile` must be handed to it before it starts.
 */
export interface Issuer {
  url: string;
  caFile: string;
  credentials(serviceBase: string, tenant: LoadedTenant, tokens: { admin: string }): Promise<Credentials>;
  stop(): Promise<void>;
}

const AUDIENCE = 'bench';

async function post(base: string, path: string, token: string, body: unknown): Promise<any> {
  const res = await fetch(`${base}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text);
}

export async function startIssuer(): Promise<Issuer> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-issuer-'));
  const caFile = path.join(dir, 'ca.pem');
  fs.writeFileSync(caFile, pems.cert);
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench-1', alg: 'RS256', use: 'sig' };
  let url = '';
  const provider = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const json = (body: unknown) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    if (req.url === '/.well-known/openid-configuration')
      return json({ issuer: url, jwks_uri: `${url}/jwks` });
    if (req.url === '/jwks') return json({ keys: [jwk] });
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  return {
    url,
    caFile,
    async credentials(serviceBase, tenant, tokens) {
      await post(serviceBase, '/trusted-issuers', tokens.admin, { issuer: url, audiences: [AUDIENCE] });
      const issuerToken = await new SignJWT({ email: tenant.planner.email })
        .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
        .setIssuer(url)
        .setAudience(AUDIENCE)
        .setSubject(tenant.planner.id)
        .setIssuedAt()
        .setExpirationTime('12h')
        .sign(privateKey);
      // Created by the administrator (a planner may not create keys), with the planner's reads.
      const { key } = await post(serviceBase, '/api-keys', tokens.admin, {
        name: 'bench',
        permissions: ['READ_FEATURES', 'READ_EPICS', 'READ_TASKS'],
      });
      return { issuerToken, apiKey: key as string };
    },
    async stop() {
      await new Promise<void>((resolve) => provider.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
