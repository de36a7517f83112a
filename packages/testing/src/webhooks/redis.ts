import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export const REDIS_URL = process.env['PIS_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** A Redis key prefix no other test file uses. */
export const testPrefix = (name: string) => `pis-test-${name}-${randomBytes(4).toString('hex')}`;

/** Deletes every key under the prefix (the shared Redis keeps nothing of a test); answers how many. */
export async function dropPrefix(prefix: string, url = REDIS_URL): Promise<number> {
  const redis = new Redis(url);
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) deleted += await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}
