import 'reflect-metadata';
import { createApp } from './app';
import { resolveJwtSecret } from './auth/secret';
import { signToken } from './auth/jwt';
import { loadConfig } from './config';
import { openDatabase } from './db/database';
import { Tenant } from './entities/tenant';
import { createLogger } from './logger';
import { startCoverageWorker } from './jobs/worker';
import { startEventWorker } from './events/worker';
import { useEventSettings } from './events/settings';
import { createTenant } from './services/provisioning';

async function main() {
  const config = loadConfig();
  useEventSettings(config.events);
  const logger = createLogger(config.logLevel);
  const db = await openDatabase(config);
  const jwt = { secret: resolveJwtSecret(config), issuer: config.jwtIssuer, audience: config.jwtAudience };
  const app = await createApp({
    orm: db.orm,
    jwt,
    logger,
    production: config.production,
    http: {
      corsOrigins: config.corsOrigins,
      rateLimits: config.rateLimits,
      introspection: config.graphqlIntrospection,
    },
  });
  // The demo tenant exists before the first request can arrive.
  const demo = db.embedded && !config.production ? await demoTenant(db.orm.em, jwt) : undefined;
  await new Promise<void>((resolve) => app.server.listen(config.port, config.host, resolve));
  // Coverage jobs are picked up from the PostgreSQL queue by this process (and any other instance).
  const worker = startCoverageWorker(db.orm, logger);
  // Webhooks (and notification e-mail) go out from the outbox through this process and any other.
  const events = startEventWorker(db.orm, logger, config.events);
  const base = `http://${config.host}:${config.port}`;
  logger.info({ url: base, embedded: db.embedded }, 'listening');

  console.log(`\nBusiness management service on ${base}`);
  console.log(`  REST     ${base}/api/v1`);
  console.log(`  GraphQL  ${base}/graphql  (Apollo Sandbox in a browser)`);
  console.log(`  Docs     ${base}/api/v1/docs`);
  if (demo) {
    console.log(`\nFirst start: created the demo tenant "${demo.name}" with admin ${demo.email}. Try:\n`);
    console.log(`  curl -H 'Authorization: Bearer ${demo.token}' ${base}/api/v1/concepts/find-all\n`);
    console.log(
      'Make more tenants and tokens with: npm run cli -- tenant:create --name NAME --admin-email EMAIL\n',
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 25_000);
    force.unref();
    try {
      await app.close();
      await worker.stop();
      await events.stop();
      await db.close();
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/** On an empty embedded database, a tenant to try things with. */
async function demoTenant(
  em: import('@mikro-orm/core').EntityManager,
  jwt: { secret: string; issuer?: string; audience?: string },
) {
  const fork = em.fork({ clear: true });
  if ((await fork.count(Tenant, {}, { filters: false })) > 0) return undefined;
  const { tenant, admin } = await createTenant(em, {
    name: 'Demo',
    adminEmail: 'admin@demo.local',
    domain: 'demo.local',
  });
  const token = signToken(jwt, { sub: admin.id, email: admin.email, tenantId: tenant.id }, '7d');
  return { name: tenant.name, email: admin.email, token };
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
