import { Redis } from 'ioredis';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Store } from 'express-rate-limit';
import type { Logger } from '../logger';

/**
 * Redis for the state that every process of a deployment must agree on: the rate limits' counts.
 * ioredis because rate-limit-redis needs nothing but a way to send a raw command (`call`), and
 * ioredis reconnects by itself; a request's command fails after one retry rather than waiting
 * for Redis to come back (the limiters then let requests pass: http/hardening.ts).
 */
export interface SharedState {
  store(limiter: string): Store;
  close(): Promise<void>;
}

export async function connectSharedState(url: string, prefix: string, logger: Logger): Promise<SharedState> {
  const client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  let down = false;
  client.on('error', (err: Error) => {
    if (!down) logger.error({ err }, 'Redis unavailable: rate limits are not enforced until it is back');
    down = true;
  });
  client.on('ready', () => {
    if (down) logger.info('Redis available again');
    down = false;
  });
  try {
    await client.connect();
  } catch (err) {
    client.disconnect();
    throw new Error(`cannot reach Redis at REDIS_URL: ${(err as Error).message}`);
  }
  return {
    store: (limiter) =>
      new RedisStore({
        prefix: `${prefix}rl:${limiter}:`,
        sendCommand: (command: string, ...args: string[]) =>
          client.call(command, ...args) as Promise<RedisReply>,
      }),
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
