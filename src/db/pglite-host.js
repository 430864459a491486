/* eslint-disable @typescript-eslint/no-require-imports */
'use strict';
/**
 * Hosts the embedded PostgreSQL (PGlite) in a process of its own: PGlite runs synchronously in
 * WebAssembly, so it must never share an event loop with request handling. It speaks the
 * PostgreSQL wire protocol on a loopback port through pglite-socket, so the service, the CLI and
 * tests all reach it with the ordinary `pg` driver. pglite-socket serialises queries and keeps a
 * transaction's statements on the connection that opened it, so several clients can share it.
 *
 * Started with fork(); argv: dataDir ("memory://" for an in-memory database) and an optional
 * port (default: any free one). Sends
 * {ready, port} to the parent once listening; stops on SIGTERM or when the parent goes.
 */
const { PGlite } = require('@electric-sql/pglite');
const { PGLiteSocketServer } = require('@electric-sql/pglite-socket');

async function main() {
  const dataDir = process.argv[2];
  const db = dataDir === 'memory://' ? new PGlite() : new PGlite(dataDir);
  await db.waitReady;
  const server = new PGLiteSocketServer({
    db,
    port: Number(process.argv[3] || 0),
    host: '127.0.0.1',
    maxConnections: 64,
  });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    try {
      await server.stop();
      await db.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', stop);
  // A terminal's Ctrl-C reaches the whole process group, this host included. Stopping then would
  // cut off the queries of a parent that is still finishing its requests; the parent stops the
  // host itself (SIGTERM), or the host stops when the parent goes away.
  process.on('SIGINT', () => undefined);
  process.on('disconnect', stop);
  process.send?.({ ready: true, port });
}

main().catch((err) => {
  process.send?.({ ready: false, error: String(err && err.message ? err.message : err) });
  process.exit(1);
});
