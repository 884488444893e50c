import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import {
  startHttpServer,
  type BaseDeps,
  type HttpApp,
  type RunningServer,
  type ServiceModule,
} from '@catalogue/http';
import type { Logger } from '@catalogue/logger';
import { observeErrorCodes } from './error-codes';
import { loadConfig, type Config, type Language } from '@catalogue/config';
import { adminService, type CreatedEshop } from '@catalogue/admin';
import {
  createKnex,
  databaseName,
  dropDatabase,
  ensureDatabase,
  poolState,
  withDatabase,
  type Knex,
  type WlEntityType,
} from '@catalogue/db';

/**
 * Rate limits stay on in tests (every request goes through the limiter, on the run's own Redis
 * prefix) with budgets no test reaches by accident: the whole suite calls from 127.0.0.1, and
 * many tests assert 401s. Rate-limit tests set small budgets of their own.
 */
const GENEROUS_RATE_LIMITS = {
  RATE_LIMIT_READ_PER_MINUTE: '100000',
  RATE_LIMIT_WRITE_PER_MINUTE: '100000',
  RATE_LIMIT_GENERATE_PER_MINUTE: '100000',
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
  RATE_LIMIT_AUTH_FAILURES: '100000',
  // Tests that count decisions must not see a Redis call fail open because a busy CI machine
  // held it past the default 250 ms (seen once: a 4th bad token answered 401, not 429). Failing
  // open is tested with Redis gone, which refuses at once; tests that need a short wait set it.
  RATE_LIMIT_REDIS_TIMEOUT_MS: '5000',
};

/** The configuration of a test: the run's own database and queue prefix, silent logs. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  const queuePrefix = process.env.TEST_QUEUE_PREFIX;
  if (!databaseUrl || !queuePrefix)
    throw new Error('run tests through jest (globalSetup creates the test database)');
  return loadConfig({
    DATABASE_URL: databaseUrl,
    QUEUE_PREFIX: queuePrefix,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    ...GENEROUS_RATE_LIMITS,
    // A test serves every app of a file from one process and reads the database through the
    // same pool in bursts (the tenancy read-back sends ~45 reads at once): the bound on requests
    // waiting for a connection would shed them on a busy machine (seen in CI). The bound is
    // tested with a pool and queue of its own (services/catalogue-api/test/pool-queue.test.ts).
    DATABASE_POOL_QUEUE_MAX: '100000',
    // The same bursts on a machine busy with other test files wait longer than the 2 s budget
    // behind the pool or the event loop, and the door would answer them 503 (a CI run's tenancy
    // read-back met `unavailable` on every read). The budget is tested where it is set:
    // libs/db/test/pool.test.ts, libs/http/test/loop-admission.test.ts, tests/bench/overload.bench.ts.
    DATABASE_POOL_QUEUE_BUDGET_MS: '0',
    ...overrides,
  });
}

/**
 * A database URL on the test run's server, named after the run's database plus a suffix: for
 * tests that need a schema of their own (migrations up and down, throwaway tables).
 */
export function siblingDatabaseUrl(suffix: string): string {
  const testUrl = testConfig().database.url;
  return withDatabase(testUrl, `${databaseName(testUrl)}_${suffix}`);
}

export interface SiblingDatabase {
  url: string;
  db: Knex;
  /** Closes the connections and drops the database. */
  drop(): Promise<void>;
}

/** An empty database of its own beside the run's (dropped first if a crashed run left it). */
export async function freshSiblingDatabase(suffix: string): Promise<SiblingDatabase> {
  const url = siblingDatabaseUrl(suffix);
  await dropDatabase(url);
  await ensureDatabase(url);
  const db = createKnex({ url, poolMin: 0, poolMax: 2, statementTimeoutMs: 30_000 });
  return {
    url,
    db,
    drop: async () => {
      await db.destroy();
      await dropDatabase(url);
    },
  };
}

export interface EshopFixture {
  languages?: Language[];
  origins?: string[];
  credits?: number;
  licenceValidUntil?: string | null;
  enableSiteLink?: boolean;
  enableRichSnippet?: boolean;
  reviewRequired?: boolean;
  name?: string;
}

let counter = 0;

/** A new eshop with one API token and one white-label token (each test makes its own). */
export function makeEshop(db: Knex, fixture: EshopFixture = {}): Promise<CreatedEshop> {
  counter += 1;
  return adminService(db).createEshop({
    name: fixture.name ?? `Test eshop ${process.pid}-${counter}`,
    languages: fixture.languages ?? ['default', 'cs', 'en'],
    origins: fixture.origins ?? ['https://admin.shop.test'],
    credits: fixture.credits ?? 0,
    enableSiteLink: fixture.enableSiteLink ?? false,
    enableRichSnippet: fixture.enableRichSnippet ?? false,
    reviewRequired: fixture.reviewRequired ?? false,
    licenceValidUntil: fixture.licenceValidUntil === undefined ? '2099-12-31' : fixture.licenceValidUntil,
  });
}

export interface GenerationJobFixture {
  entityType?: WlEntityType;
  entityId?: string;
  /** Key of a seeded public design. */
  designKey?: string;
  estimatedCost?: number;
}

/**
 * A pending generation job of the eshop, for an entity registered for it (the database refuses
 * a job of an entity the eshop has not registered, and credit ledger rows of a job that does
 * not exist). One statement, as property tests make hundreds of them. Returns the job's id.
 */
export async function makeGenerationJob(
  db: Knex | Knex.Transaction,
  eshopId: number,
  fixture: GenerationJobFixture = {},
): Promise<number> {
  counter += 1;
  const { rows } = await db.raw<{ rows: { id: number }[] }>(
    `with entity as (
       insert into wl_entities (eshop_id, type, entity_id) values (:eshopId, :type, :entityId)
       on conflict (eshop_id, type, entity_id) do update set updated_at = now()
       returning eshop_id, type, entity_id)
     insert into generation_jobs (eshop_id, entity_type, entity_id, design_id, lang, estimated_cost)
     select entity.eshop_id, entity.type, entity.entity_id, designs.id, 'default', :cost
     from entity join designs on designs.key = :designKey and designs.type = 'public'
     returning id`,
    {
      eshopId,
      type: fixture.entityType ?? 'product',
      entityId: fixture.entityId ?? `JOB-ENTITY-${process.pid}-${counter}`,
      designKey: fixture.designKey ?? 'product-classic',
      cost: fixture.estimatedCost ?? 0,
    },
  );
  if (!rows[0]) throw new Error(`no seeded public design ${fixture.designKey ?? 'product-classic'}`);
  return rows[0].id;
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface DisposableRedis {
  url: string;
  stop(): Promise<void>;
  /** Kills the server and starts an empty one on the same port (Redis restarted, its data lost). */
  restart(): Promise<void>;
}

/**
 * A private redis-server on a free port, for tests that must stop Redis (the shared one
 * on 6379 is never stopped by a test). Nothing is persisted: a restart comes back empty.
 */
export async function startPrivateRedis(): Promise<DisposableRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 5_000;
    for (;;) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => (socket.end(), resolve(true)));
        socket.once('error', () => resolve(false));
      });
      if (up) break;
      if (Date.now() > deadline) throw new Error('redis-server did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return resolve();
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    restart: async () => {
      await stop();
      await start();
    },
  };
}

/** Polls until `check` passes or the time is up (for effects that happen asynchronously). */
export async function eventually(check: () => Promise<void> | void, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** The repository root (compiled entry points live under it, in each package's dist/). */
export const REPO_ROOT = join(__dirname, '..', '..', '..');

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a compiled Node script of the repository to its end, with only the given environment. */
export function runNodeScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServedApp extends RunningServer {
  url: string;
}

/** Serves a service's app (createApp(deps)) on a free loopback port. */
export async function serveApp(app: HttpApp, logger: Logger, shutdownTimeoutMs = 1_000): Promise<ServedApp> {
  observeErrorCodes(app);
  // No idle grace: test clients send nothing after their last response.
  const running = await startHttpServer(app, {
    port: 0,
    host: '127.0.0.1',
    logger,
    shutdownTimeoutMs,
    idleGraceMs: 0,
    // A jest worker serves hundreds of apps one after the other (and may not stop them all): no
    // whole-process last-resort collections in it. libs/http/test/idle-memory.test.ts tests it.
    releaseIdleMemory: false,
  });
  return { ...running, url: `http://127.0.0.1:${running.port}` };
}

/** How long a served service's dependencies may take to close before the file goes on without them. */
const CLOSE_DEPS_MS = 30_000;

/**
 * Closing a service's dependencies (queues, Redis, the pool) has been seen to hang in a browser
 * test file on a loaded machine after every test of the file passed: the file then failed on
 * its hook's timeout. Past the bound the file goes on, and says so on stderr (which close had not
 * finished), so the hang stays visible instead of failing an unrelated run.
 */
async function closeWithin(
  closing: Promise<void>,
  ms: number,
  deps: { logger: Logger; db?: Knex },
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  const outcome = await Promise.race([closing.then(() => 'closed' as const), late]);
  clearTimeout(timer);
  if (outcome === 'late') {
    // The pool's counts say whether a connection was never given back (what pool.end() waits for).
    const pool = deps.db ? ` (database pool: ${JSON.stringify(poolState(deps.db))})` : '';
    const message = `a served service's dependencies did not close within ${ms} ms${pool}; the test file goes on without them`;
    deps.logger.warn(message);
    process.stderr.write(`${message}\n`);
  }
}

export type { ServiceModule } from '@catalogue/http';

/** A service served for a describe block: its deps and its URL, inside tests and hooks. */
export interface ServedService<D> {
  readonly deps: D;
  readonly url: string;
}

/**
 * Runs a service (its module, e.g. `catalogueApi` of services/catalogue-api/src/service.ts)
 * in-process for the tests of the enclosing describe block: its real deps on the test database
 * and queue prefix, its app on a free port; everything closed afterwards.
 */
export function serveServiceForTests<D extends BaseDeps>(
  service: ServiceModule<D>,
  configOverrides: Record<string, string> | (() => Record<string, string>) = {},
): ServedService<D> {
  let deps: D | undefined;
  let server: ServedApp | undefined;
  beforeAll(async () => {
    // A function: overrides known only once an earlier beforeAll ran (a private Redis' address).
    const overrides = typeof configOverrides === 'function' ? configOverrides() : configOverrides;
    deps = service.buildDeps(testConfig(overrides));
    server = await serveApp(service.createApp(deps), deps.logger);
  });
  afterAll(async () => {
    await server?.stop();
    if (deps) await closeWithin(service.closeDeps(deps), CLOSE_DEPS_MS, deps);
  });
  return {
    get deps() {
      if (!deps) throw new Error('deps are ready inside tests and hooks only');
      return deps;
    },
    get url() {
      if (!server) throw new Error('the server runs inside tests and hooks only');
      return server.url;
    },
  };
}
export * from './openapi';
export * from './call';
export { observedErrorCodes } from './error-codes';
export { chromiumPath, launchBrowser } from './browser';
export * from './served-docs';
export * from './settled';
export * from './private-postgres';
export * from './private-replica';
export * from './private-pgbouncer';
export { crashAfterCommit } from './crash';
export * from './redis-topologies';
export * from './fake-llm';
