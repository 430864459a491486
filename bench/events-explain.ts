/**
 * The plans of the event worker's claiming statements with a small and a large backlog waiting:
 * deliveries written straight into the tables (as dispatching that many events would have), one
 * endpoint holding the backlog among ten, and as many notification e-mails. Each statement runs
 * under EXPLAIN (ANALYZE, BUFFERS) in a transaction that is rolled back, so every size sees the
 * same tables.
 *
 *   node -r ./test/support/register-ts.js bench/events-explain.ts
 *
 * Then the webhook claim again once BENCH_DELIVERED (100,000) of the backlog were delivered and
 * not yet vacuumed, as a drain leaves the table between two vacuums.
 *
 * Settings: BENCH_BACKLOGS (10,1000000), BENCH_DELIVERED, DATABASE_URL (the local server),
 * BENCH_KEEP=1.
 */
import 'reflect-metadata';
import { Client } from 'pg';
import { enableRowLevelSecurity, migrate, openOrm } from '../src/db/orm';
import { createTenant } from '../src/services/provisioning';
import {
  claimEmailsStatement,
  claimWebhooksStatement,
  recordStatement,
  type Claim,
} from '../src/events/delivery-repository';
import { preparedForm, type TripStatement } from '../src/events/store';
import { eventSettings } from '../src/events/settings';
import { ormComposition } from '../src/orm-composition';
import { createBenchDatabase } from './database';

const BACKLOGS = (process.env.BENCH_BACKLOGS ?? '10,1000000').split(',').map(Number);

/**
 * The plans of a statement as the worker runs it, a prepared statement of its connection
 * (events/store.ts), in a transaction rolled back: its first execution (planned for its values),
 * and one after `runs` more (each undone to a savepoint), by when PostgreSQL keeps a generic plan
 * if it is no dearer. A function for `statement` makes it in the transaction first (a record
 * needs the claim it records).
 */
async function explain(
  client: Client,
  statement: TripStatement | ((client: Client) => Promise<TripStatement>),
  runs = 6,
): Promise<string> {
  await client.query('begin');
  try {
    await client.query(
      `select set_config('app.worker', 'events', true), set_config('app.tenant_id', '', true)`,
    );
    const form = preparedForm(typeof statement === 'function' ? await statement(client) : statement);
    await client.query(form.prepare);
    // Each run is undone, so every one meets the same rows.
    const plan = async () => {
      await client.query('savepoint run');
      const { rows } = await client.query(`explain (analyze, buffers, costs off) ${form.execute}`);
      await client.query('rollback to savepoint run');
      return rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
    };
    const first = await plan();
    for (let i = 0; i < runs; i++) {
      await client.query('savepoint run');
      await client.query(form.execute);
      await client.query('rollback to savepoint run');
    }
    const settled = await plan();
    return `#### First execution\n\n${first}\n\n#### After ${runs} more\n\n${settled}`;
  } finally {
    await client.query('rollback');
    await client.query('deallocate all');
  }
}

async function main() {
  const db = await createBenchDatabase(
    process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  );
  const orm = await openOrm({ composition: ormComposition, clientUrl: db.url, poolMax: 2 });
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
      await client.query('vacuum analyze webhook_backlog');
      console.log(
        `\n## ${backlog.toLocaleString('en-US')} deliveries waiting for one endpoint (of 10), as many e-mails\n`,
      );
      const worker = crypto.randomUUID();
      console.log('### Webhooks: claimWebhooks (64)\n');
      console.log(await explain(client, claimWebhooksStatement(settings, worker, 64)));
      console.log('\n### E-mail: claimEmails (64)\n');
      console.log(await explain(client, claimEmailsStatement(settings, worker, 64)));
      // The record of a window's successes: the first endpoint's 16 claimed, then recorded.
      console.log(`\n### Webhooks: the record of ${settings.endpointConcurrency} successes\n`);
      console.log(
        await explain(client, async (c) => {
          const { rows } = await c.query<Claim>(
            `update event_delivery d set locked_by = $1, locked_until = now() + interval '1 minute',
               attempts = d.attempts + 1
             from (select tenant_id, id from event_delivery
                   where status = 'PENDING' and channel = 'WEBHOOK' and endpoint_id = $2
                   order by occurred_at, id limit $3) w
             where d.tenant_id = w.tenant_id and d.id = w.id
             returning d.tenant_id, d.id, d.attempts`,
            [worker, endpoints[0], settings.endpointConcurrency],
          );
          const at = new Date();
          return recordStatement(
            settings,
            worker,
            rows.map((claim) => ({ claim, ok: true, statusCode: 200, error: null, durationMs: 1, at })),
          );
        }),
      );
    }
    // As a drain leaves the table between two vacuums: the first endpoint's oldest deliveries
    // delivered, each record a new row version, and the old versions' index entries still there.
    const delivered = Number(process.env.BENCH_DELIVERED ?? 100_000);
    if (delivered > 0) {
      await client.query(
        `update event_delivery d set status = 'DELIVERED', delivered_at = now(), next_attempt_at = null,
           attempts = 1, attempt_log = d.attempt_log || '[{"statusCode": 200}]'::jsonb
         from (select tenant_id, id from event_delivery where channel = 'WEBHOOK' and endpoint_id = $1
               order by occurred_at, id limit $2) w
         where d.tenant_id = w.tenant_id and d.id = w.id`,
        [endpoints[0], delivered],
      );
      // A drain's claims move the endpoint's start (webhook_backlog) up past what was recorded
      // before each. Recorded here all at once, one claim moves it past them (stepping over their
      // entries once); its claims are given back, so the claims below start where a drain's would.
      const mover = preparedForm(claimWebhooksStatement(settings, crypto.randomUUID(), 64));
      await client.query('begin');
      await client.query(`select set_config('app.worker', 'events', true)`);
      await client.query(mover.prepare);
      await client.query(mover.execute);
      await client.query(
        `update event_delivery set locked_by = null, locked_until = null, attempts = attempts - 1
         where locked_by is not null and status = 'PENDING'`,
      );
      await client.query('commit');
      await client.query(`deallocate ${mover.name}`);
      const worker = crypto.randomUUID();
      console.log(
        `\n## The same after ${delivered.toLocaleString('en-US')} of the first endpoint's were delivered, not yet vacuumed\n`,
      );
      console.log('### Webhooks: claimWebhooks (64)\n');
      console.log(await explain(client, claimWebhooksStatement(settings, worker, 64)));
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
