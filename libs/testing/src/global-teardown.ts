import { readdirSync, rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { dropDatabase } from '../../db/src/migrate';
import { VALIDATED_OPERATIONS_DIR, openApiDocument } from './openapi';
import { isWholeSuite, unvalidatedOperations, validatedOperations, type RunConfig } from './openapi-coverage';

export default async function globalTeardown(config: RunConfig): Promise<void> {
  await dropTestData();
  // The whole suite must have checked a success answer of every operation against its schema
  // in docs/openapi.yaml (through expectMatchesContract(), checkedFetch() or the helpers on them).
  const dir = process.env[VALIDATED_OPERATIONS_DIR];
  if (!dir) return;
  const files = readdirSync(dir).length;
  const validated = validatedOperations(dir);
  rmSync(dir, { recursive: true, force: true });
  if (!isWholeSuite(config)) return;
  const missing = unvalidatedOperations(openApiDocument(), validated);
  if (missing.length > 0) {
    throw new Error(
      `no test validated a successful answer of these ${missing.length} operations against docs/openapi.yaml ` +
        `(${validated.size} were, recorded by ${files} workers in ${dir}):\n  ${missing.join('\n  ')}`,
    );
  }
}

async function dropTestData(): Promise<void> {
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
