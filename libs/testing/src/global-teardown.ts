import { Redis } from 'ioredis';
import { dropDatabase } from '../../db/src/migrate';

export default async function globalTeardown(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) await dropDatabase(process.env.TEST_DATABASE_URL);
  const prefix = process.env.TEST_QUEUE_PREFIX;
  if (!prefix) return;
  // Also the derived prefixes (`<prefix>-render`, …) of tests that run a worker of their own.
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
