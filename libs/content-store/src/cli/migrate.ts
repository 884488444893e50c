// `npm run migrate`: creates the database when missing, applies every pending migration and
// seeds the public widget catalogue, designs and prompts.
// Safe to run again and again; used as the Helm pre-install/pre-upgrade Job.
import 'dotenv/config';
import { loadConfigOrExit } from '@catalogue/config';
import { createKnex, databaseName, ensureDatabase } from '@catalogue/db';
import { prepareDatabase } from '../prepare';

async function main(): Promise<void> {
  const config = loadConfigOrExit(process.env);
  const created = await ensureDatabase(config.database.url);
  const db = createKnex({ ...config.database, poolMin: 0, poolMax: 1, applicationName: 'catalogue-migrate' });
  try {
    const applied = await prepareDatabase(db);
    process.stdout.write(
      `${JSON.stringify({ database: databaseName(config.database.url), created, applied })}\n`,
    );
  } finally {
    await db.destroy();
  }
}

main().catch((err: Error) => {
  process.stderr.write(`migration failed: ${err.message}\n`);
  process.exit(1);
});
