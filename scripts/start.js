/* eslint-disable @typescript-eslint/no-require-imports */
'use strict';
/**
 * `npm start`, in one process:
 * 1. the port: one that cannot be had is one line on stderr and exit 1, before anything is built
 *    (src/port-probe.js);
 * 2. the build: tsc only when the sources differ from those the last build was made from
 *    (scripts/build.js);
 * 3. the service itself (dist/src/main.js), loaded in this process, which hears SIGINT and SIGTERM
 *    from its first line and stops cleanly at any point of its start-up.
 * A SIGINT (Ctrl-C) or SIGTERM before the service is loaded stops the build, says "stopped" and
 * exits 0. Its lines are JSON, as the service's log is.
 */
const path = require('node:path');
const { portProblem } = require('../src/port-probe');
const { build, upToDate } = require('./build');

const log = (msg, extra = {}) =>
  process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), ...extra, msg })}\n`);

let stopped;
let building;
const onSignal = (signal) => {
  if (stopped) return;
  stopped = signal;
  // A terminal's Ctrl-C reaches tsc too; a signal sent to this process alone is passed on.
  if (building && building.exitCode === null) building.kill('SIGTERM');
  else finish();
};
const finish = () => {
  log('stopped', { signal: stopped, during: 'start-up' });
  process.exit(0);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

async function start() {
  // As src/config.ts reads them; a PORT that is not a number is the service's to refuse.
  const host = process.env.HOST || '127.0.0.1';
  const port = Number(process.env.PORT || 4000);
  if (Number.isInteger(port) && port >= 0 && port < 65536) {
    const problem = await portProblem(host, port);
    if (problem) {
      process.stderr.write(`${problem}\n`);
      process.exit(1);
    }
  }
  if (stopped) return finish();
  const { fresh, digest } = upToDate();
  if (fresh) log('the build is up to date with the sources: not building');
  else {
    log('building (tsc, incremental): the sources changed since the last build');
    const code = await build(digest, (child) => (building = child));
    building = undefined;
    if (stopped) return finish();
    if (code !== 0) {
      process.stderr.write(`the build failed (tsc: ${code}); nothing was started\n`);
      process.exit(typeof code === 'number' ? code : 1);
    }
  }
  if (stopped) return finish();
  // The service hears the signals from here on (src/stop-signals.ts).
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  require(path.join(__dirname, '..', 'dist', 'src', 'main.js'));
}

start().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : err}\n`);
  process.exit(1);
});
