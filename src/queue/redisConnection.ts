import { Redis, type RedisOptions } from 'ioredis';
import { InvalidOptions } from '../core/errors.ts';
import { QueueUnreachable } from './queueErrors.ts';

/** Told when the connection to Redis is lost (once per outage) and when it is back. */
export interface ConnectionWatcher {
  readonly onLost?: (message: string) => void;
  readonly onBack?: () => void;
}

/** Backoff between reconnection attempts: 200 ms, 400 ms, … up to 5 s, forever (a run waits for Redis to come back). */
export function reconnectDelay(times: number): number {
  return Math.min(200 * 2 ** Math.min(times - 1, 5), 5_000);
}

/** ioredis options of a `redis://[user:password@]host:port[/db]` URL (rediss:// for TLS). */
export function redisOptions(url: string): RedisOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidOptions(`--queue: not a URL: ${url} (redis://HOST:PORT[/DB])`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new InvalidOptions(`--queue: expected redis://HOST:PORT[/DB], got ${printableUrl(url)}`);
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) throw new InvalidOptions(`--queue: the database is a number (redis://HOST:PORT/DB), got /${db}`);
  return {
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port === '' ? 6379 : Number(parsed.port),
    ...(db === '' ? {} : { db: Number(db) }),
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/**
 * A connection for BullMQ: `maxRetriesPerRequest: null` (commands wait for the connection instead of
 * failing, as BullMQ asks), reconnection with backoff forever; the first failed attempt of an outage is
 * told to `watch.onLost`, the connection being ready again to `watch.onBack`.
 */
export function watchedConnection(url: string, watch: ConnectionWatcher = {}): Redis {
  let lost = false;
  const client = new Redis({
    ...redisOptions(url),
    maxRetriesPerRequest: null,
    retryStrategy: (times: number) => {
      if (!lost) {
        lost = true;
        watch.onLost?.(`Redis at ${printableUrl(url)} is unreachable; retrying with backoff until it is back`);
      }
      return reconnectDelay(times);
    },
  });
  client.on('error', () => {}); // each failure is a reconnection attempt, reported once per outage above
  client.on('ready', () => {
    if (!lost) return;
    lost = false;
    watch.onBack?.();
  });
  return client;
}

/**
 * Checks that Redis answers before a run starts: one attempt, a few seconds at most, so an unreachable
 * server is a clear error (exit 2) instead of a process that waits forever.
 */
export async function checkReachable(url: string, timeoutMs = 5_000): Promise<void> {
  const client = new Redis({ ...redisOptions(url), lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: timeoutMs, enableOfflineQueue: false });
  client.on('error', () => {}); // the failure is reported by connect() below
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw new QueueUnreachable(`--queue: Redis at ${printableUrl(url)} is unreachable (${(error as Error).message || String(error)})`, { cause: error });
  } finally {
    client.disconnect();
  }
}

/** A Redis URL as it may be printed or logged: its password (`redis://user:pass@host`) shown as ***. */
export function printableUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return '(not a URL)';
  }
}
