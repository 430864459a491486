import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { JWK } from 'jose';
import { freePort } from './process';

/**
 * A real OpenID provider (oidc-provider) on 127.0.0.1, in a child process (oidc-provider.mjs):
 * started with private keys, restarted on the same port with others (key rotation), stopped
 * (provider down). Its clients get JWT access tokens through client credentials.
 */
export interface ProviderClient {
  id: string;
  secret: string;
  email?: string;
  alg?: 'RS256' | 'ES256' | 'EdDSA';
}

export const AUDIENCE = 'https://api.bms.test';

export function privateKey(kind: 'RSA' | 'EC' | 'OKP', kid = randomBytes(6).toString('hex')): JWK {
  const pair =
    kind === 'RSA'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : kind === 'EC'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('ed25519');
  return { ...(pair.privateKey.export({ format: 'jwk' }) as JWK), kid, use: 'sig' };
}

export const publicOf = (key: JWK): JWK => {
  const { d, p, q, dp, dq, qi, ...pub } = key;
  void [d, p, q, dp, dq, qi];
  return pub;
};

export class OidcProvider {
  private child?: ChildProcess;
  issuer = '';

  private constructor(
    readonly port: number,
    public clients: ProviderClient[],
  ) {
    this.issuer = `http://127.0.0.1:${port}`;
  }

  static async start(keys: JWK[], clients: ProviderClient[]): Promise<OidcProvider> {
    const provider = new OidcProvider(await freePort(), clients);
    await provider.run(keys);
    return provider;
  }

  /** (Re)starts the provider on its port with these keys (the first of each type signs). */
  async run(keys: JWK[]): Promise<void> {
    await this.stop();
    const config = { port: this.port, keys, clients: this.clients, audience: AUDIENCE };
    const child = spawn(
      process.execPath,
      [path.join(__dirname, 'oidc-provider.mjs'), JSON.stringify(config)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.child = child;
    let err = '';
    child.stderr!.on('data', (d) => (err += String(d)));
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += String(d);
        if (out.includes('ready ')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the provider exited (${code}): ${err}`)));
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  /** An access token for the client (client credentials, the audience as resource indicator). */
  async token(clientId: string): Promise<string> {
    const client = this.clients.find((c) => c.id === clientId)!;
    const res = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource: AUDIENCE }),
    });
    const body = (await res.json()) as { access_token?: string };
    if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
    return body.access_token;
  }
}
