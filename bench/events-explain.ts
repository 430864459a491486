/**
 * The plans of the event worker's claiming statements with a small and a large backlog waiting:
 * deliveries written straight into the tables (as dispatching that many events would have), one
 * endpoint holding the backlog among ten, and as many notification e-mails. Each statement runs
 * under EXPLAIN (ANALYZE, BUFFERS) in a transaction that is rolled back, so every size sees the
 * same tables.
 *
 *   node -r ./test/support/register-ts.js bench/events-explain.ts
 *
 * Settings: BENCH_BACKLOGS (10,1000000), DATABASE_URL (the local server), BENCH_KEEP=1.
 */
import 'reflect-metadata';
import { Client } from 'pg';
import { enableRowLevelSecurity, migrate, openOrm } from '../src/db/orm';
import { createTenant } from '../src/services/provisioning';
import { claimEmailsSql, claimWebhooksSql } from '../src/events/deliveries';
import { eventSettings } from '../src/events/settings';
import { createBenchDatabase } from './database';

const BACKLOGS = (process.env.BENCH_BACKLOGS ?? '10,1000000').split(',').map(Number);

/** EXPLAIN takes no parameters whose type it must infer: the worker's id goes in as a literal. */
async function explain(client: Client, sql: string): Promise<string> {
  const worker = crypto.randomUUID();
  const statement = sql.replaceAll('?', `'${worker}'::uuid`);
  await client.query('begin');
  try {
    await client.query(
      `select set_config('app.worker', 'events', true), set_config('app.tenant_id', '', true)`,
    );
    const { rows } = await client.query(`explain (analyze, buffers, costs off) ${statement}`);
    return rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
  } finally {
    await client.query('rollback');
  }
}

async function main() {
  const db = await createBenchDatabase(
    process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  );
  const orm = await openOrm({ clientUrl: db.url, poolMax: 2 });
  const client = new Client({ connectionString: db.url });
  await client.connect();
  try {
    await migrate(orm);
    await enableRowLevelSecurity(orm);
    const { tenant } = await createTenant(orm.em.fork(), {
      name: 'Explain',
      adminEmail: 'admin@explain.test',
    });
    const endpoints: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { rows } = await client.query(
        `insert into webhook_endpoint (tenant_id, id, url, events, active, secret, version)
         values ($1, gen_random_uuid(), $2, '{*}', true, 'whsec_ZXhwbGFpbi1iZW5jaC1zZWNyZXQtMTIzNDU2', 1) returning id`,
        [tenant.id, `https://receiver${i}.example/hooks`],
      );
      endpoints.push(rows[0].id as string);
    }
    const settings = eventSettings({});
    let loaded = 0;
    for (const backlog of BACKLOGS) {
      // The outbox rows and, for each, a delivery to the first endpoint and an e-mail (due now).
      const more = backlog - loaded;
      await client.query(
        `with events as (
           insert into outbox_event (tenant_id, id, type, resource_type, resource_id, occurred_at, actor, data, dispatched_at)
           select $1, gen_random_uuid(), 'feature.created', 'feature', gen_random_uuid()::text,
             now() - make_interval(secs => $3::int - n), null, jsonb_build_object('n', n), now()
           from generate_series(1, $3::int) n
           returning tenant_id, id, occurred_at
         ), hooks as (
           insert into event_delivery (tenant_id, id, version, channel, endpoint_id, event_id, event_type, occurred_at,
             status, attempts, next_attempt_at, attempt_log)
           select tenant_id, gen_random_uuid(), 1, 'WEBHOOK', $2, id, 'feature.created', occurred_at, 'PENDING', 0, now(), '[]'
           from events returning 1
         )
         insert into event_delivery (tenant_id, id, version, channel, event_id, event_type, occurred_at,
           status, attempts, next_attempt_at, attempt_log, target)
         select tenant_id, gen_random_uuid(), 1, 'EMAIL', id, 'notification.created', occurred_at, 'PENDING', 0, now(), '[]',
           jsonb_build_object('notificationId', gen_random_uuid(), 'userId', gen_random_uuid())
         from events`,
        [tenant.id, endpoints[0], more],
      );
      loaded = backlog;
      // Each of the other endpoints has a few waiting too.
      await client.query(
        `insert into event_delivery (tenant_id, id, version, channel, endpoint_id, event_id, event_type, occurred_at,
           status, attempts, next_attempt_at, attempt_log)
         select d.tenant_id, gen_random_uuid(), 1, 'WEBHOOK', e, d.event_id, d.event_type, d.occurred_at, 'PENDING', 0, now(), '[]'
         from (select * from event_delivery where channel = 'WEBHOOK' and endpoint_id = $1 order by occurred_at limit 5) d,
           unnest($2::uuid[]) e
         where not exists (select 1 from event_delivery x where x.endpoint_id = e)`,
        [endpoints[0], endpoints.slice(1)],
      );
      await client.query('vacuum analyze event_delivery');
      await client.query('vacuum analyze outbox_event');
      console.log(
        `\n## ${backlog.toLocaleString('en-US')} deliveries waiting for one endpoint (of 10), as many e-mails\n`,
      );
      console.log('### Webhooks: claimWebhooks (64)\n');
      console.log(await explain(client, claimWebhooksSql(settings, 64)));
      console.log('\n### E-mail: claimEmails (64)\n');
      console.log(await explain(client, claimEmailsSql(settings, 64)));
    }
  } finally {
    await client.end();
    await orm.close(true);
    if (process.env.BENCH_KEEP !== '1') await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
