/* eslint-disable @typescript-eslint/no-require-imports */
'use strict';
/**
 * Whether the service can listen on HOST:PORT, found by listening there for a moment: `npm start`
 * asks before it builds (scripts/start.js) and the service before it opens the database and
 * migrates (src/serve.ts), so a busy port costs neither. Plain JavaScript, since the start script
 * runs it before anything is built.
 */
const net = require('node:net');

/**
 * The one line a start says when it cannot have `host:port`, whose listen failed with `err`;
 * undefined for an error that is not about the address.
 * @param {string} host
 * @param {number} port
 * @param {NodeJS.ErrnoException} err
 * @returns {string | undefined}
 */
function addressProblem(host, port, err) {
  const address = `${host}:${port}`;
  if (err.code === 'EADDRINUSE')
    return `${address} is already in use (another instance?): set PORT (or HOST) to a free one`;
  if (err.code === 'EACCES' || err.code === 'EADDRNOTAVAIL')
    return `cannot listen on ${address} (${err.code}): set PORT or HOST`;
  return undefined;
}

/**
 * Listens on `host:port` and closes again: the line addressProblem says when that fails (any
 * other failure's own message), undefined when the address is free.
 * @param {string} host
 * @param {number} port
 * @returns {Promise<string | undefined>}
 */
function portProblem(host, port) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (/** @type {NodeJS.ErrnoException} */ err) =>
      resolve(addressProblem(host, port, err) ?? `cannot listen on ${host}:${port}: ${err.message}`),
    );
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}

module.exports = { addressProblem, portProblem };
