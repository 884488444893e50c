// `npm start`: everything a developer needs on one machine. Checks PostgreSQL and Redis,
// migrates, seeds a demo eshop on an empty database (printing its tokens once), then runs
// the four services in the foreground with readable, prefixed logs (one line each; a service
// that stops on its own is started again with backoff). Ctrl-C stops them all gracefully and
// exits 0.
import 'dotenv/config';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { loadConfigOrExit, type Config, type Language } from '@catalogue/config';
import { prepareDatabase } from '@catalogue/content-store';
import {
  createKnex,
  ensureDatabase,
  eshopsRepository,
  hashToken,
  tokensRepository,
  type Knex,
} from '@catalogue/db';
import { adminService } from './admin.service';
import { seedDemoProduct } from './demo-seed';
import { LOCAL_WEBHOOK_RECEIVERS, startDemoHost } from './demo-host';
import { checkDependencies } from './preflight';

const ROOT = join(__dirname, '..', '..', '..');
/**
 * The demo eshop's white-label token for the demo page and the API token of its server (tokens are stored hashed only), in
 * `.demo/` (DEMO_STATE_DIR: another folder, for the launcher's own test).
 */
const DEMO_DIR = process.env.DEMO_STATE_DIR || join(ROOT, '.demo');
const DEMO_TOKEN_FILE = join(DEMO_DIR, 'white-label-token.json');
const DEMO_ESHOP = 'Demo eshop';
const COLOURS = ['\x1b[36m', '\x1b[35m', '\x1b[33m', '\x1b[32m'];
const RESET = '\x1b[0m';
/** A service that stops unexpectedly is started again after this, doubling up to the maximum. */
const RESTART_FIRST_MS = 1_000;
const RESTART_MAX_MS = 30_000;
/** A service that ran this long before it stopped starts again after RESTART_FIRST_MS. */
const RESTART_RESET_AFTER_MS = 60_000;

interface Service {
  name: string;
  port: number;
}

function services(config: Config): Service[] {
  return [
    { name: 'catalogue-api', port: config.ports.catalogueApi },
    { name: 'white-label-api', port: config.ports.whiteLabelApi },
    { name: 'credit-service', port: config.ports.creditService },
    { name: 'generation-worker', port: config.ports.generationWorker },
  ];
}

const say = (text: string) => process.stdout.write(`${text}\n`);

/** The demo eshop's content languages (`default` is the catalogue's own, not one to generate). */
const DEMO_LANGUAGES: Language[] = ['default', 'cs', 'sk', 'en', 'de'];

/** The demo page's tokens: the editor's, and the API token its own server calls the catalogue API with. */
interface DemoTokens {
  whiteLabelToken: string;
  apiToken: string;
}

async function prepareLocalDatabase(config: Config): Promise<DemoTokens | undefined> {
  await ensureDatabase(config.database.url);
  const db = createKnex({ ...config.database, poolMin: 0, poolMax: 2, applicationName: 'catalogue-start' });
  try {
    const applied = await prepareDatabase(db);
    say(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database schema is up to date.');
    if ((await eshopsRepository.count(db)) > 0) {
      const token = await demoToken(db, demoOrigin(config));
      say(await tokensHint(db));
      return token;
    }
    const licence = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    const demo = await adminService(db).createEshop({
      name: DEMO_ESHOP,
      languages: DEMO_LANGUAGES,
      origins: [demoOrigin(config), `http://localhost:${config.ports.whiteLabelApi}`],
      credits: 1000,
      enableSiteLink: true,
      enableRichSnippet: true,
      reviewRequired: false,
      licenceValidUntil: licence,
    });
    say(
      [
        '',
        '┌ Demo eshop created — these tokens are shown only now:',
        `│ eshop id           ${demo.eshop.id}`,
        `│ API token          ${demo.apiToken}`,
        `│ white-label token  ${demo.whiteLabelToken}`,
        `│ allowed origins    ${demoOrigin(config)}, http://localhost:${config.ports.whiteLabelApi}`,
        `│ try: curl -H "Authorization: Bearer ${demo.apiToken}" http://localhost:${config.ports.catalogueApi}/api/v2/rest/whoami`,
        '└ More tokens: npm run --silent admin -- token create ' + demo.eshop.id + ' --kind api',
        '',
      ].join('\n'),
    );
    const tokens = { whiteLabelToken: demo.whiteLabelToken, apiToken: demo.apiToken };
    await saveDemoTokens(tokens);
    // The demo page's product, with content to edit (composed from its texts).
    await seedDemoProduct(db, demo.eshop.id);
    return tokens;
  } finally {
    await db.destroy();
  }
}

const demoOrigin = (config: Config): string => `http://localhost:${config.ports.demoHost}`;

/**
 * A database made by an earlier start: its tokens were printed then (they are stored hashed, so
 * never again). Says how to get new ones.
 */
async function tokensHint(db: Knex): Promise<string> {
  const demo = (await eshopsRepository.list(db)).find((e) => e.name === DEMO_ESHOP);
  const id = demo?.id ?? '<eshop id>';
  return [
    `Existing database${demo ? ` (demo eshop id ${demo.id})` : ''}: its tokens were shown when it was created and are stored hashed.`,
    `  New API token:          npm run --silent admin -- token create ${id} --kind api`,
    `  New white-label token:  npm run --silent admin -- token create ${id} --kind white-label`,
    '  Every eshop:            npm run --silent admin -- eshop list',
  ].join('\n');
}

async function saveDemoTokens(tokens: DemoTokens): Promise<void> {
  await mkdir(DEMO_DIR, { recursive: true });
  await writeFile(DEMO_TOKEN_FILE, JSON.stringify(tokens), { mode: 0o600 });
}

/**
 * The demo page needs a white-label token of the demo eshop, and its server an API token (the
 * bulk generation form): the ones saved when it was made, or (a database from before, a revoked
 * token) new ones. Undefined when there is no demo eshop.
 */
async function demoToken(db: Knex, origin: string): Promise<DemoTokens | undefined> {
  const saved = await readFile(DEMO_TOKEN_FILE, 'utf8').then(
    (text) => JSON.parse(text) as Partial<DemoTokens>,
    (): Partial<DemoTokens> => ({}),
  );
  const owner = saved.whiteLabelToken
    ? await tokensRepository.findEshopByTokenHash(db, 'white-label', hashToken(saved.whiteLabelToken))
    : undefined;
  const demo = owner ?? (await eshopsRepository.list(db)).find((e) => e.name === DEMO_ESHOP);
  if (!demo) return undefined;
  // DEMO_HOST_PORT may have changed since the eshop was made: its page must stay allowed.
  await adminService(db).addOrigin(demo.id, origin);
  // A demo eshop made before the demo product was seeded gets it (one it has stays as it is).
  await seedDemoProduct(db, demo.id);
  const apiOwner = saved.apiToken
    ? await tokensRepository.findEshopByTokenHash(db, 'api', hashToken(saved.apiToken))
    : undefined;
  const tokens: DemoTokens = {
    whiteLabelToken:
      owner && saved.whiteLabelToken
        ? saved.whiteLabelToken
        : (await adminService(db).createToken(demo.id, 'white-label')).token,
    apiToken:
      apiOwner?.id === demo.id && saved.apiToken
        ? saved.apiToken
        : (await adminService(db).createToken(demo.id, 'api')).token,
  };
  if (tokens.whiteLabelToken !== saved.whiteLabelToken || tokens.apiToken !== saved.apiToken)
    await saveDemoTokens(tokens);
  return tokens;
}

/**
 * The NODE_OPTIONS the image runs every process with (docker/Dockerfile's `ENV NODE_OPTIONS`, the
 * one home of the heap settings): `npm start` runs the services with them too, so that a
 * developer's processes are bounded as a pod's are, unless NODE_OPTIONS is set.
 */
async function imageNodeOptions(): Promise<string | undefined> {
  const dockerfile = await readFile(join(ROOT, 'docker', 'Dockerfile'), 'utf8').catch(() => '');
  const match = /^ENV NODE_OPTIONS=(?:"([^"]*)"|(\S+))\s*$/m.exec(dockerfile);
  return match?.[1] ?? match?.[2];
}

function run(service: Service, index: number, nodeOptions: string | undefined): ChildProcess {
  const child = spawn(process.execPath, [join(ROOT, 'services', service.name, 'dist', 'main.js')], {
    cwd: ROOT,
    env: {
      ...(nodeOptions !== undefined && { NODE_OPTIONS: nodeOptions }),
      ...process.env,
      LOG_PRETTY: process.env.LOG_PRETTY ?? (process.stdout.isTTY ? '1' : '0'),
      // A receiver on this machine may be registered (README, "Webhooks"); a deployment allows
      // public hosts only unless WEBHOOK_ALLOW_PRIVATE says otherwise.
      WEBHOOK_ALLOW_PRIVATE: process.env.WEBHOOK_ALLOW_PRIVATE ?? LOCAL_WEBHOOK_RECEIVERS,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Own process group: Ctrl-C reaches only this launcher, which then stops each service
    // exactly once (a service treats a second signal as "exit now").
    detached: true,
  });
  const label = process.stdout.isTTY
    ? `${COLOURS[index % COLOURS.length]}${service.name.padEnd(17)}${RESET} | `
    : `${service.name.padEnd(17)} | `;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream! }).on('line', (line) => process.stdout.write(label + line + '\n'));
  }
  return child;
}

async function waitUntilReady(list: Service[]): Promise<boolean> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const states = await Promise.all(
      list.map((s) =>
        fetch(`http://127.0.0.1:${s.port}/readyz`, { signal: AbortSignal.timeout(1_000) }).then(
          (r) => r.ok,
          () => false,
        ),
      ),
    );
    if (states.every(Boolean)) return true;
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

async function main(): Promise<void> {
  const config = loadConfigOrExit(process.env);
  const problems = await checkDependencies(config.database.url, config.redis);
  if (problems.length) {
    process.stderr.write(`Cannot start:\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
    process.exit(1);
  }
  const demoTokens = await prepareLocalDatabase(config);

  const list = services(config);
  const nodeOptions = await imageNodeOptions();
  const children = list.map((service, i) => ({ service, index: i, child: run(service, i, nodeOptions) }));
  let stopping = false;
  const timers = new Set<NodeJS.Timeout>();
  const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

  const stopAll = () => {
    stopping = true;
    for (const timer of timers) clearTimeout(timer);
    for (const { child } of children) if (alive(child)) child.kill('SIGTERM');
    if (children.every(({ child }) => !alive(child))) process.exit(0);
  };
  // A service that stops on its own is started again, the others keep running: after 1 s, then
  // doubling up to 30 s while it keeps stopping soon after its start.
  const supervise = (entry: (typeof children)[number], delayMs: number) => {
    const started = Date.now();
    entry.child.once('exit', (code, signal) => {
      if (stopping) {
        if (children.every(({ child }) => !alive(child))) process.exit(0);
        return;
      }
      const wait = Date.now() - started >= RESTART_RESET_AFTER_MS ? RESTART_FIRST_MS : delayMs;
      process.stderr.write(
        `${entry.service.name} stopped unexpectedly (${signal ?? `exit code ${code}`}); starting it again in ${wait / 1000} s (the other services keep running)\n`,
      );
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (stopping) return;
        entry.child = run(entry.service, entry.index, nodeOptions);
        supervise(entry, Math.min(wait * 2, RESTART_MAX_MS));
      }, wait);
      timers.add(timer);
    });
  };
  for (const entry of children) supervise(entry, RESTART_FIRST_MS);
  process.on('SIGINT', () => (stopping ? undefined : (say('\nStopping…'), stopAll())));
  process.on('SIGTERM', () => (stopping ? undefined : stopAll()));
  // If this launcher dies some other way, take the services with it.
  process.on('exit', () => {
    for (const { child } of children) if (alive(child)) child.kill('SIGTERM');
  });

  if (await waitUntilReady(list)) {
    const demo = demoTokens
      ? await startDemoHost({
          port: config.ports.demoHost,
          apiBase: `http://localhost:${config.ports.whiteLabelApi}`,
          whiteLabelToken: demoTokens.whiteLabelToken,
          // The bulk generation form: this process calls the catalogue API with the API token.
          bulk: {
            catalogueApi: `http://127.0.0.1:${config.ports.catalogueApi}`,
            apiToken: demoTokens.apiToken,
            languages: DEMO_LANGUAGES.filter((lang) => lang !== 'default'),
          },
        }).then(
          (server) => {
            process.on('exit', () => server.close());
            return `  ${'demo host page'.padEnd(17)} http://localhost:${config.ports.demoHost}/  (the editor, embedded)`;
          },
          (err: Error) => `  demo host page not started: ${err.message}`,
        )
      : `  demo host page not started: no "${DEMO_ESHOP}" in this database`;
    say(
      '\nReady:\n' +
        list
          .map((s) => `  ${s.name.padEnd(17)} http://localhost:${s.port}  (/healthz /readyz /metrics)`)
          .join('\n') +
        `\n${demo}` +
        '\nPress Ctrl-C to stop.\n',
    );
  } else if (!stopping) {
    process.stderr.write('Some services did not become ready within 30 s; see their logs above.\n');
  }
}

main().catch((err: Error) => {
  process.stderr.write(`npm start failed: ${err.message}\n`);
  process.exit(1);
});
