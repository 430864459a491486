/**
 * A second service process's event worker, for tests that kill it mid-delivery: argv is the
 * database URL; settings come from the environment. Prints "ready" once the worker runs.
 */
import 'reflect-metadata';
import { openOrm } from '../../src/db/orm';
import { createLogger } from '../../src/logger';
import { eventSettings } from '../../src/events/settings';
import { startEventWorker } from '../../src/events/worker';
import { ormComposition } from '../../src/orm-composition';

async function main() {
  const orm = await openOrm({ composition: ormComposition, clientUrl: process.argv[2], poolMax: 2 });
  startEventWorker(orm, createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'), eventSettings(process.env));
  process.stdout.write('ready\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
