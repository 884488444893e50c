// The admin CLI tells the API processes' auth caches of what it changes, over the deployment's
// Redis (libs/admin auth-changes.ts): the real entry point (dist/cli.js) with the test run's
// database, Redis and QUEUE_PREFIX, and a subscriber where an API process would have one.
import { createKnex, tokensRepository, type Knex } from '@catalogue/db';
import { authChangesChannel, subscribe, type Subscription } from '@catalogue/queue';
import { eventually, freePort, makeEshop, runNodeScript, testConfig } from '@catalogue/testing';

describe('admin CLI: auth changes reach the APIs over Redis', () => {
  const config = testConfig();
  const env = (redisUrl = config.redis.url): NodeJS.ProcessEnv => ({
    DATABASE_URL: config.database.url,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: config.redis.queuePrefix,
  });
  const admin = (args: string[], redisUrl?: string) =>
    runNodeScript('libs/admin/dist/cli.js', args, env(redisUrl));
  let db: Knex;
  let subscription: Subscription;
  const received: string[] = [];
  let up = false;

  beforeAll(async () => {
    db = createKnex(config.database);
    subscription = subscribe(
      {
        redis: config.redis,
        channel: authChangesChannel(config.redis.queuePrefix),
        connectionName: 'cli-test',
      },
      { onMessage: (m) => received.push(m), onUp: () => (up = true), onDown: () => (up = false) },
    );
    await eventually(() => expect(up).toBe(true), 5_000);
  });
  afterAll(async () => {
    await subscription.close();
    await db.destroy();
  });

  test('when a token is revoked, then its table is published after the commit', async () => {
    const { eshop } = await makeEshop(db);
    const [token] = await tokensRepository.listForEshop(db, eshop.id);
    received.length = 0;

    const result = await admin(['token', 'revoke', String(eshop.id), token!.prefix]);

    expect({ code: result.code, err: result.stderr }).toEqual({ code: 0, err: '' });
    await eventually(
      () => expect(received).toContain(token!.kind === 'api' ? 'api_tokens' : 'white_label_tokens'),
      5_000,
    );
  });

  test('when an operator flushes the auth caches, then every subscriber is told', async () => {
    received.length = 0;

    const result = await admin(['auth-cache', 'flush']);

    expect({ code: result.code, out: JSON.parse(result.stdout) }).toEqual({
      code: 0,
      out: { flushed: true },
    });
    await eventually(() => expect(received).toEqual(['all']), 5_000);
  });

  test('when Redis cannot be reached, then the change is still saved and the operator is warned of the TTL', async () => {
    const { eshop } = await makeEshop(db);
    const nowhere = `redis://127.0.0.1:${await freePort()}`;

    const result = await admin(['origin', 'add', String(eshop.id), 'https://late.example.com'], nowhere);

    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).origins).toContain('https://late.example.com');
    expect(result.stderr).toMatch(
      /^warning: the change is saved, but the APIs were not told .*AUTH_CACHE_TTL_MS/,
    );
  });
});
