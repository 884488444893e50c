// Jest global setup: every test run gets a database and a Redis key prefix of its own, so
// `npm test` never touches the data of `npm start` and two runs never collide.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKnex } from '../../db/src/knex';
import { ensureDatabase, withDatabase } from '../../db/src/migrate';
import { prepareDatabase } from '../../content-store/src/prepare';
import { VALIDATED_OPERATIONS_DIR } from './openapi';

export default async function globalSetup(): Promise<void> {
  const server = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const url = withDatabase(server, `catalogue_test_${runId}`);
  await ensureDatabase(url);
  const db = createKnex({ url, poolMin: 0, poolMax: 1, statementTimeoutMs: 30_000 });
  try {
    await prepareDatabase(db);
  } finally {
    await db.destroy();
  }
  process.env.TEST_DATABASE_URL = url;
  process.env.TEST_QUEUE_PREFIX = `test-${runId}`;
  // Where the workers record the operations whose success answer a test validated (openapi.ts).
  process.env[VALIDATED_OPERATIONS_DIR] = mkdtempSync(join(tmpdir(), 'openapi-validated-'));
}
