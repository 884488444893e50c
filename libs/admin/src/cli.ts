// The operators' admin CLI: `npm run --silent admin -- <command>` (see USAGE).
import 'dotenv/config';
import { loadConfigOrExit } from '@catalogue/config';
import { createKnex } from '@catalogue/db';
import { createLogger } from '@catalogue/logger';
import { closeQueues, createQueues, createRedis, type Queues, type RedisClient } from '@catalogue/queue';
import { webhookEgressPolicy } from '@catalogue/webhooks';
import { adminService } from './admin.service';
import { authChangePublisher } from './auth-changes';
import { runCli } from './cli-commands';

async function main(): Promise<number> {
  const config = loadConfigOrExit(process.env);
  const db = createKnex({ ...config.database, poolMin: 0, poolMax: 2, applicationName: 'catalogue-admin' });
  // Revocations, origin and eshop changes reach every API replica's auth cache over Redis.
  const changes = authChangePublisher(config, (text) => process.stderr.write(text));
  // A bulk generation's resume queues its next step: Redis is reached only by that command.
  let redis: RedisClient | undefined;
  let queues: Queues | undefined;
  const batches = () => {
    redis ??= createRedis(config.redis, 'catalogue-admin');
    queues ??= createQueues(redis, config.redis.queuePrefix);
    return {
      queues,
      logger: createLogger({ service: 'catalogue-admin', level: 'warn', destination: process.stderr }),
      maxResearchUrls: config.generation.research.maxUrls,
    };
  };
  try {
    return await runCli(
      process.argv.slice(2),
      () =>
        adminService(db, {
          webhookEgress: webhookEgressPolicy(config),
          authChanged: changes.authChanged,
          batches,
        }),
      {
        out: (text) => process.stdout.write(text),
        err: (text) => process.stderr.write(text),
      },
    );
  } finally {
    if (queues) await closeQueues(queues);
    redis?.disconnect();
    await changes.close();
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
