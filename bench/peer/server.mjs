// PostGraphile 5 on the benchmark's database: the peer a user choosing GraphQL over PostgreSQL
// with row-level security would also consider. Started by bench/processes.ts on the Node of this
// folder (PostGraphile 5 needs Node 22 or later; the service keeps its own Node).
//
// The same tenant isolation as the service: the token the service accepts (HS256, JWT_SECRET) is
// verified here, and each request's transaction runs as the application role with the token's
// tenant (`pgSettings`, which PostGraphile sets with set_config at the start of the transaction),
// so the tables' row-level security policies decide what is visible, as they do for the service.
// Unlike the service, it checks the token only: no user is read and no permission is checked.
//
// Environment: DATABASE_URL, JWT_SECRET, DB_POOL_SIZE, PORT (0 = any). The port is reported over
// IPC once the schema is built.
import { createServer } from 'node:http';
import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { postgraphile } from 'postgraphile';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const APP_ROLE = 'bms_app';
const secret = createSecretKey(Buffer.from(process.env.JWT_SECRET ?? ''));

/** The token's tenant, or undefined: an unauthenticated request then runs with no tenant and sees nothing. */
function tenantOf(header) {
  const token = /^Bearer\s+(\S+)$/.exec(header ?? '')?.[1];
  if (!token) return undefined;
  try {
    const claims = jwt.verify(token, secret, { algorithms: ['HS256'] });
    return UUID.test(claims.tenantId ?? '') ? claims.tenantId : undefined;
  } catch {
    return undefined;
  }
}

const preset = {
  extends: [PostGraphileAmberPreset],
  pgServices: [
    makePgService({
      connectionString: process.env.DATABASE_URL,
      schemas: ['public'],
      poolConfig: { max: Number(process.env.DB_POOL_SIZE || 10) },
    }),
  ],
  grafserv: { graphqlPath: '/graphql', graphiql: false, watch: false },
  grafast: {
    context(requestContext) {
      const tenantId = tenantOf(requestContext.node?.req?.headers.authorization);
      return {
        pgSettings: {
          role: APP_ROLE,
          'app.tenant_id': tenantId ?? '00000000-0000-0000-0000-000000000000',
        },
      };
    },
  },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer();
serv.addTo(server).catch((err) => {
  console.error(err);
  process.exit(1);
});
// Build the schema before reporting ready, so the first measured request does not pay for it.
await pgl.getSchema();
server.listen(Number(process.env.PORT || 0), '127.0.0.1', () => {
  const { port } = server.address();
  if (process.send) process.send({ port });
  else console.log(`PostGraphile listening on http://127.0.0.1:${port}/graphql`);
});
const stop = () => {
  server.close();
  void pgl.release().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
