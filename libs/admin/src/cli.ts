// The operators' admin CLI: `npm run --silent admin -- <command>` (see USAGE).
import 'dotenv/config';
import { loadConfigOrExit } from '@catalogue/config';
import { createKnex } from '@catalogue/db';
import { webhookEgressPolicy } from '@catalogue/webhooks';
import { adminService } from './admin.service';
import { runCli } from './cli-commands';

async function main(): Promise<number> {
  const config = loadConfigOrExit(process.env);
  const db = createKnex({ ...config.database, poolMin: 0, poolMax: 2, applicationName: 'catalogue-admin' });
  try {
    return await runCli(
      process.argv.slice(2),
      () => adminService(db, { webhookEgress: webhookEgressPolicy(config) }),
      {
        out: (text) => process.stdout.write(text),
        err: (text) => process.stderr.write(text),
      },
    );
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: Error) => {
    process.stderr.write(`error: ${err.message}\n`);
    process.exitCode = 1;
  },
);
