// The README's examples, run as written against a test stack: every shell block of curl calls
// and admin commands that carries no not-run marker runs verbatim in bash, in the document's
// order, against catalogue-api, white-label-api and credit-service started as processes (as the
// image runs them) on a database of their own, which starts as `npm start` leaves it: the demo
// eshop 1 (origin http://localhost:5173). The documented placeholders are the only values
// given: $API_TOKEN and $WL_TOKEN (eshop 1's tokens). The documented URLs stay as written:
// curl reaches localhost:3000/3001/3002 on the test's ports through --connect-to, and the
// admin CLI runs built (tests/deploy/fixtures/doc-shell.sh). Webhook receivers on localhost are
// allowed as `npm start` allows them; the operators' example host resolves to loopback in those
// processes (fixtures/doc-hosts.cjs).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  freshSiblingDatabase,
  makeEshop,
  REPO_ROOT,
  runNodeScript,
  type SiblingDatabase,
} from '@catalogue/testing';
import { LOCAL_WEBHOOK_RECEIVERS } from '@catalogue/admin';
import { docBlocks, isStackBlock, type DocBlock } from './docs-commands';
import { startService, type RunningService } from './services';

const SETUP_TIMEOUT_MS = 240_000;
const BLOCK_TIMEOUT_MS = 120_000;
// The operators' example receiver host (an admin command); the README's own webhook example
// registers a receiver on localhost, which npm start allows (LOCAL_WEBHOOK_RECEIVERS) and so
// does this stack: nothing else of it resolves differently from a reader's machine.
const HOSTS = 'shop.example';
const FIXTURES = join(__dirname, 'fixtures');

const SHELL = new Set(['sh', 'bash', 'shell', 'console']);
const blocks: DocBlock[] = docBlocks(join(REPO_ROOT, 'README.md'))
  .filter((b) => SHELL.has(b.lang))
  .filter(isStackBlock);
const where = (b: DocBlock): string => `README.md:${b.line}`;

let database: SiblingDatabase;
let services: RunningService[] = [];
let env: NodeJS.ProcessEnv;
let dir: string;

beforeAll(async () => {
  database = await freshSiblingDatabase('docs_run');
  const migrated = await runNodeScript('libs/content-store/dist/cli/migrate.js', [], {
    DATABASE_URL: database.url,
  });
  expect(migrated.code).toBe(0);
  // What `npm start` creates: the demo eshop, id 1, allowing the demo host page's origin.
  const demo = await makeEshop(database.db, {
    name: 'Demo eshop',
    origins: ['http://localhost:5173'],
    languages: ['default', 'cs', 'en'],
    credits: 500,
  });
  expect(demo.eshop.id).toBe(1);
  const common = {
    databaseUrl: database.url,
    queuePrefix: `${process.env.TEST_QUEUE_PREFIX}-docs-run`,
    extra: {
      NODE_OPTIONS: `--require ${join(FIXTURES, 'doc-hosts.cjs')}`,
      DOC_HOSTS: HOSTS,
      WEBHOOK_ALLOW_PRIVATE: `${LOCAL_WEBHOOK_RECEIVERS},${HOSTS}`,
    },
  };
  services = await Promise.all([
    startService('catalogue-api', 'CATALOGUE_API_PORT', common),
    startService('white-label-api', 'WHITE_LABEL_API_PORT', common),
    startService('credit-service', 'CREDIT_SERVICE_PORT', common),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'docs-run-'));
  const port = (name: string) => new URL(services.find((s) => s.name === name)!.url).port;
  env = {
    PATH: process.env.PATH,
    HOME: dir,
    REPO_ROOT,
    DOC_LOG: join(dir, 'log.tsv'),
    CATALOGUE_PORT: port('catalogue-api'),
    WHITE_LABEL_PORT: port('white-label-api'),
    CREDIT_PORT: port('credit-service'),
    API_TOKEN: demo.apiToken,
    WL_TOKEN: demo.whiteLabelToken,
    DATABASE_URL: database.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: common.queuePrefix,
    LOG_LEVEL: 'silent',
    ...common.extra,
  };
  writeFileSync(env.DOC_LOG!, '');
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  await database?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function bash(script: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

interface Logged {
  program: string;
  result: string;
  command: string;
  answer: string;
}

function logged(): Logged[] {
  return readFileSync(env.DOC_LOG!, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [program = '', result = '', command = '', answer = ''] = line.split('\t');
      return { program, result, command, answer };
    });
}

describe("the README's curl and admin examples, run as written against a test stack", () => {
  test('when the README is read, then its API and admin examples are blocks that run (not marked not-run)', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    const text = blocks.map((b) => b.text).join('\n');
    expect(text).toContain('npm run --silent admin -- eshop create');
    expect(text).toContain('/api/v3/white-label');
    expect(text).toContain('/api/v2/rest/webhooks');
  });

  test(
    "when `npm run --silent admin` itself runs (the shell's stand-in skips its build), then it prints the same JSON as the built CLI",
    async () => {
      const real = await bash('npm run --silent admin -- eshop list');
      const built = await bash('node libs/admin/dist/cli.js eshop list');
      expect(real.code).toBe(0);
      expect(JSON.parse(real.output)).toEqual(JSON.parse(built.output));
    },
    BLOCK_TIMEOUT_MS,
  );

  test(
    'when every block runs in order, then every curl gets a 2xx answer and every admin command exits 0',
    async () => {
      const failures: string[] = [];
      const preamble = readFileSync(join(FIXTURES, 'doc-shell.sh'), 'utf8');
      for (const block of blocks) {
        const before = logged().length;
        const result = await bash(`${preamble}\n${block.text}\n`);
        const entries = logged().slice(before);
        if (result.code !== 0)
          failures.push(`${where(block)}: bash exited ${result.code}: ${result.output.slice(0, 500)}`);
        if (entries.length === 0) failures.push(`${where(block)}: ran nothing`);
        for (const e of entries) {
          const ok = e.program === 'curl' ? /^2\d\d$/.test(e.result) : e.result === 'exit-0';
          if (!ok) failures.push(`${where(block)}: ${e.program} ${e.command}\n    → ${e.result} ${e.answer}`);
        }
      }
      expect(failures).toEqual([]);
    },
    BLOCK_TIMEOUT_MS * 4,
  );
});
