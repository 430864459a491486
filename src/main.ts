import 'reflect-metadata';
import cluster from 'node:cluster';
import { loadConfig } from './config';
import { StopSignals } from './stop-signals';

// Heard from the first line: a Ctrl-C during start-up stops it cleanly (stop-signals.ts).
const stops = new StopSignals();

/**
 * The service's start: its settings first, then either the primary of several processes
 * (cluster.ts) or the service itself (serve.ts). Each is loaded only when it runs, so a refused
 * setting answers without loading the app, and a primary loads no more than migrating needs.
 */
async function main() {
  const config = loadConfig();
  // Several processes: this one starts and watches them (cluster.ts), and each serves as below.
  if (cluster.isPrimary && config.webConcurrency > 1)
    return (await import('./cluster')).runCluster(config, stops);
  await (await import('./serve')).serve(config, stops);
}

main().catch((err) => {
  if (stops.stopRequested) process.exit(0);
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
