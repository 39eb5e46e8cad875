import { Redis } from 'ioredis';

/**
 * A Redis client of a server that is not there (nothing listens on loopback port 1): every command fails at
 * once, with no retry, no offline queue and no reconnecting, and its errors are swallowed. disconnect() it.
 */
export function unreachableRedis(): Redis {
  const down = new Redis({
    host: '127.0.0.1',
    port: 1,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  down.on('error', () => undefined);
  return down;
}
