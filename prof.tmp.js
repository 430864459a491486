require('reflect-metadata');
const { openOrm } = require('./dist/src/db/orm');
const { createApp } = require('./dist/src/app');
const { createLogger } = require('./dist/src/logger');
(async () => {
  const logger = createLogger('silent');
  const orm = await openOrm({ clientUrl: 'postgresql://postgres@127.0.0.1:5432/postgres', poolMax: 2, logger });
  const t = Date.now();
  const app = await createApp({ orm, jwt: { secret: 'x'.repeat(64) }, logger, production: false });
  console.log('createApp', Date.now() - t);
  await app.close(); await orm.close(true);
})();
