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
 * port (default: any free one). Sends {ready, port, control} to the parent once listening; stops
 * on SIGTERM or when the parent goes. `control` is a second loopback port and a token for the
 * operations the wire protocol cannot carry (a backup: see backup()).
 */
const fs = require('node:fs');
const http = require('node:http');
const { randomBytes, timingSafeEqual } = require('node:crypto');
const { PGlite } = require('@electric-sql/pglite');
const { PGLiteSocketServer } = require('@electric-sql/pglite-socket');

/**
 * The folder of a database being created carries a marker beside it until PGlite is ready: a
 * marker found at start means a creation was cut off, and what it left is removed and made anew.
 */
function prepareDataDir(dataDir) {
  const marker = `${dataDir}.creating`;
  if (fs.existsSync(marker)) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(marker, { force: true });
  }
  if (fs.existsSync(dataDir)) return undefined;
  fs.writeFileSync(marker, `${process.pid}\n`);
  return marker;
}

async function main() {
  const dataDir = process.argv[2];
  const memory = dataDir === 'memory://';
  const creating = memory ? undefined : prepareDataDir(dataDir);
  // A stop asked for while PGlite opens: PGlite cannot be interrupted, and a PGlite killed while it
  // writes may not open again. A database being created is given up at once (the marker has the
  // next start make it anew); an existing one is opened to the end, then closed.
  let stopAsked = false;
  let onStop = () => {
    if (creating) process.exit(0);
    stopAsked = true;
  };
  process.on('SIGTERM', () => onStop());
  process.on('disconnect', () => onStop());
  // A terminal's Ctrl-C reaches the whole process group, this host included. Stopping then would
  // cut off the queries of a parent that is still finishing its requests; the parent stops the
  // host itself (SIGTERM), or the host stops when the parent goes away.
  process.on('SIGINT', () => undefined);
  const db = memory ? new PGlite() : new PGlite(dataDir);
  await db.waitReady;
  if (creating) fs.rmSync(creating, { force: true });
  onStop = () => (stopAsked = true);
  const server = new PGLiteSocketServer({
    db,
    port: Number(process.argv[3] || 0),
    host: '127.0.0.1',
    maxConnections: 64,
  });
  routeNotifications(server);
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  const control = await startControl(db);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    try {
      control.server.close();
      await server.stop();
      await db.close();
    } finally {
      process.exit(0);
    }
  };
  onStop = () => void stop();
  if (stopAsked) return stop();
  process.send?.({ ready: true, port, control: { port: control.port, token: control.token } });
}

/**
 * The control port: `POST /backup` with the token in `x-bms-token` answers the data directory as
 * a gzipped tarball (PGlite's dumpDataDir, which PGlite's loadDataDir reads back). PGlite runs one
 * statement at a time and the dump waits for the statement running, so the tarball is the
 * directory between two statements: a transaction committed before it is in it, one still open is
 * not (PostgreSQL's recovery rolls it back when the copy is opened), exactly as after a crash. No
 * statement runs here: every client shares PGlite's one session, so a statement sent from here
 * (a CHECKPOINT, say) would run inside whichever client's transaction is open, under its role.
 */
async function startControl(db) {
  const token = randomBytes(24).toString('hex');
  const expected = Buffer.from(token);
  const server = http.createServer((req, res) => {
    const given = Buffer.from(String(req.headers['x-bms-token'] || ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(403).end();
      return;
    }
    if (req.method !== 'POST' || req.url !== '/backup') {
      res.writeHead(404).end();
      return;
    }
    backup(db).then(
      (bytes) =>
        res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': bytes.length }).end(bytes),
      (err) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String((err && err.message) || err)),
    );
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: server.address().port, token };
}

async function backup(db) {
  const dump = await db.dumpDataDir('gzip');
  return Buffer.from(await dump.arrayBuffer());
}

/**
 * LISTEN/NOTIFY across the socket's clients. Every client shares PGlite's one session, so
 * PostgreSQL hands a notification to that session, and pglite-socket writes it into the answer of
 * whichever client's statement produced it (the COMMIT of the notifying transaction), never to the
 * client that listens. Here the server's query queue is wrapped: a client's `LISTEN channel` (or
 * `UNLISTEN`), sent as a simple query, is noted, and every NotificationResponse found in an answer
 * is also written to each other client listening on its channel, between two of the queue's
 * statements, so it lands on a message boundary as a server's own notification would. This reaches
 * into pglite-socket 0.2.17's queue (`queryQueue.enqueue`); test/events/subscriptions.test.ts fails
 * if a later version changes it.
 */
function routeNotifications(server) {
  const queue = server.queryQueue;
  if (!queue || typeof queue.enqueue !== 'function')
    throw new Error('pglite-socket: no query queue to route notifications');
  const channelsOf = new Map();
  const enqueue = queue.enqueue.bind(queue);
  queue.enqueue = (handlerId, message, onData) => {
    noteListen(channelsOf, handlerId, message);
    let carry = Buffer.alloc(0);
    const found = [];
    const scan = (data) => {
      carry = carry.length ? Buffer.concat([carry, Buffer.from(data)]) : Buffer.from(data);
      while (carry.length >= 5) {
        const end = 1 + carry.readInt32BE(1);
        if (carry.length < end) break;
        if (carry[0] === 0x41) found.push(Buffer.from(carry.subarray(0, end)));
        carry = carry.subarray(end);
      }
    };
    return enqueue(handlerId, message, (data) => {
      scan(data);
      onData(data);
    }).then((bytes) => {
      for (const notification of found) deliver(server, channelsOf, handlerId, notification);
      return bytes;
    });
  };
}

/** `LISTEN name` / `UNLISTEN name|*` in a simple query ('Q' message): the handler's channels. */
function noteListen(channelsOf, handlerId, message) {
  if (message[0] !== 0x51) return;
  const text = Buffer.from(message.subarray(5, message.length - 1)).toString('utf8');
  const match = /^\s*(UN)?LISTEN\s+("?)([\w$*]+)\2\s*;?\s*$/i.exec(text);
  if (!match) return;
  const channel = match[2] ? match[3] : match[3].toLowerCase();
  const channels = channelsOf.get(handlerId) ?? new Set();
  if (!match[1]) channels.add(channel);
  else if (channel === '*') channels.clear();
  else channels.delete(channel);
  channelsOf.set(handlerId, channels);
}

/** Writes a NotificationResponse to every other attached client listening on its channel. */
function deliver(server, channelsOf, fromHandlerId, notification) {
  const end = notification.indexOf(0, 9);
  const channel = notification.subarray(9, end).toString('utf8');
  const attached = new Set();
  for (const handler of server.handlers) {
    attached.add(handler.handlerId);
    if (handler.handlerId === fromHandlerId || !channelsOf.get(handler.handlerId)?.has(channel)) continue;
    if (handler.socket?.writable) handler.socket.write(notification);
  }
  for (const id of channelsOf.keys()) if (!attached.has(id)) channelsOf.delete(id);
}

main().catch((err) => {
  process.send?.({ ready: false, error: String(err && err.message ? err.message : err) });
  process.exit(1);
});
