#!/usr/bin/env node
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { resolveJwtSecret } from '../auth/secret';
import { signToken } from '../auth/jwt';
import { createTenant, createUser, findUserByEmail } from '../services/provisioning';
import { AppError } from '../errors';

/**
 * The operators' tool (decisions.md "Credentials and the command line"): same configuration as
 * the server; each command prints one JSON object on stdout, or a message on stderr and exits 1.
 * In embedded mode it uses the running server's database when there is one (see db/embedded.ts).
 */
const USAGE = `usage:
  tenant:create --name NAME --admin-email EMAIL [--domain D] [--expires-in 12h]
  user:create --tenant ID --email EMAIL [--role NAME]... [--full-access] [--expires-in 12h]
  token --tenant ID --email EMAIL [--expires-in 12h]`;

const DEFAULT_EXPIRY = '12h';

async function run(argv: string[]): Promise<object> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      'admin-email': { type: 'string' },
      domain: { type: 'string' },
      tenant: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string', multiple: true },
      'full-access': { type: 'boolean' },
      'expires-in': { type: 'string' },
    },
    strict: true,
  });
  const need = (key: keyof typeof values): string => {
    const v = values[key];
    if (typeof v !== 'string' || v.trim() === '') throw new Error(`--${key} is required\n${USAGE}`);
    return v;
  };
  const expiresIn = values['expires-in'] ?? DEFAULT_EXPIRY;
  if (!/^\d+[smhdwy]?$/.test(expiresIn))
    throw new Error(`--expires-in must look like 30m, 12h or 7d, got "${expiresIn}"`);
  if (!['tenant:create', 'user:create', 'token'].includes(command)) throw new Error(USAGE);

  const config = loadConfig();
  const jwt = { secret: resolveJwtSecret(config), issuer: config.jwtIssuer, audience: config.jwtAudience };
  const db = await openDatabase(config);
  try {
    const em = db.orm.em;
    switch (command) {
      case 'tenant:create': {
        const { tenant, admin } = await createTenant(em, {
          name: need('name'),
          adminEmail: need('admin-email'),
          domain: values.domain,
        });
        const token = signToken(jwt, { sub: admin.id, email: admin.email, tenantId: tenant.id }, expiresIn);
        return { tenantId: tenant.id, adminEmail: admin.email, userId: admin.id, token };
      }
      case 'user:create': {
        const tenantId = need('tenant');
        const user = await createUser(em, {
          tenantId,
          email: need('email'),
          roles: values.role ?? [],
          hasFullAccess: values['full-access'] ?? false,
          actorEmail: 'cli',
        });
        const token = signToken(jwt, { sub: user.id, email: user.email, tenantId }, expiresIn);
        return { userId: user.id, email: user.email, token };
      }
      default: {
        const tenantId = need('tenant');
        const user = await findUserByEmail(em, tenantId, need('email'));
        return { token: signToken(jwt, { sub: user.id, email: user.email, tenantId }, expiresIn) };
      }
    }
  } finally {
    await db.close();
  }
}

run(process.argv.slice(2)).then(
  (out) => {
    process.stdout.write(`${JSON.stringify(out)}\n`);
    process.exit(0);
  },
  (err) => {
    process.stderr.write(`${err instanceof AppError || err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
