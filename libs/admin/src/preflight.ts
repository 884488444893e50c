import pg from 'pg';
import { createRedis, describeRedis, type RedisTarget } from '@catalogue/queue';

/** The URL with any password replaced, safe to print. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/**
 * Checks that PostgreSQL and Redis answer before anything starts, and explains what to do
 * when one does not, instead of a stack trace. Returns the problems found (empty when fine).
 */
export async function checkDependencies(databaseUrl: string, redisTarget: RedisTarget): Promise<string[]> {
  const problems: string[] = [];
  const server = new URL(databaseUrl);
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: server.toString(), connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (err) {
    problems.push(
      `PostgreSQL is not reachable at ${redactUrl(databaseUrl)} (${reasonOf(err)}).\n` +
        '  Start it, or point DATABASE_URL at a running server, e.g.\n' +
        '  DATABASE_URL=postgres://user:password@host:5432/catalogue npm start',
    );
  } finally {
    await client.end().catch(() => undefined);
  }

  // Through the services' own factory: a cluster or sentinel set is checked as they will use it.
  const redis = createRedis(redisTarget, 'preflight', {
    lazyConnect: true,
    connectTimeout: 3_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    problems.push(
      `Redis is not reachable at ${describeRedis(redisTarget)} (${reasonOf(err)}).\n` +
        '  Start it, or point REDIS_URL (REDIS_CLUSTER_NODES, REDIS_SENTINELS) at a running server, e.g.\n' +
        '  REDIS_URL=redis://host:6379 npm start',
    );
  } finally {
    redis.disconnect();
  }
  return problems;
}

/** What a failed connection says: its message, else its code (a refused connection may have only that). */
function reasonOf(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  return typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : String(err);
}
