// `npm run migrate`: creates the database when missing, applies every pending migration and
// seeds the public widget catalogue, designs and prompts.
// Safe to run again and again; used as the Helm pre-install/pre-upgrade Job. Connects to
// DATABASE_MIGRATION_URL (DATABASE_URL when unset): a direct connection to PostgreSQL, never a
// transaction-mode pooler, which cannot keep the session's advisory lock.
import 'dotenv/config';
import { loadConfigOrExit } from '@catalogue/config';
import { createKnex, databaseName, ensureDatabase } from '@catalogue/db';
import { prepareDatabase } from '../prepare';

async function main(): Promise<void> {
  const config = loadConfigOrExit(process.env);
  const url = config.database.migrationUrl;
  const created = await ensureDatabase(url);
  const db = createKnex({
    ...config.database,
    url,
    poolMin: 0,
    poolMax: 1,
    applicationName: 'catalogue-migrate',
  });
  try {
    const applied = await prepareDatabase(db);
    process.stdout.write(`${JSON.stringify({ database: databaseName(url), created, applied })}\n`);
  } finally {
    await db.destroy();
  }
}

main().catch((err: Error) => {
  process.stderr.write(`migration failed: ${err.message}\n`);
  process.exit(1);
});
