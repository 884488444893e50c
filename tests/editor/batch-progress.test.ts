// <ccs-batch-progress> against a small white-label v3 server of bulk generation batches that the
// test starts and steers (the bundle and its served texts are the built ones): the counts,
// credits, progress bar and first errors as the batch advances, its end heard once and polling
// stopped, reads failing backed off, Pause / Resume / Cancel (asked to confirm) by keyboard, the
// 7 UI languages, a phone's width, and axe.
import AxeBuilder from '@axe-core/playwright';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { eventually, freePort, launchBrowser } from '@catalogue/testing';
import type { Schemas } from '@catalogue/client';
import { SCREENSHOTS, type BatchEvent } from './harness';

jest.setTimeout(90_000);

const DIST = join(__dirname, '..', '..', 'libs', 'editor', 'dist');
const TOKEN = 'wl_batch-test';
const ROOT = `document.querySelector('ccs-batch-progress').shadowRoot`;

/** A batch as the white-label API answers it (and this fake serves it). */
type Batch = Schemas['GenerationBatch'];

/** The fake service's state: its batches, and what it does on the next reads. */
interface Fake {
  batches: Batch[];
  /** Items each read of a running batch moves from queued to done. */
  step: number;
  /** Items processed past which no read moves a batch (a read in flight cannot overshoot it). */
  upTo: number;
  /** A read of a cancelled batch settles its items under way (done, charged, nothing reserved). */
  settle: boolean;
  /** Reads to refuse with 503 before answering again. */
  failReads: number;
  /** While set, a read answers the batch as it was when asked, once this settles. */
  hold: Promise<void> | null;
  /** Milliseconds added to a held answer's `updated_at` (PostgreSQL stamps a write with its transaction's start). */
  heldLater: number;
  /** Reads asked while held. */
  held: number;
  /** Every request: method, path, when (ms) and whether it was refused as busy. */
  log: Array<{ method: string; path: string; at: number; refused?: boolean }>;
}

function batch(id: number, total: number, over: Partial<Batch> = {}): Batch {
  const now = new Date().toISOString();
  return {
    id,
    status: 'running',
    entity_type: 'product',
    languages: ['cs', 'en'],
    design_id: 3,
    prompt_id: null,
    counts: { total, queued: total, running: 0, done: 0, failed: 0, left_out: 0 },
    credits: { budget: total * 12, estimate: total * 10, reserved: 0, charged: 0 },
    errors: [],
    created_at: now,
    updated_at: now,
    finished_at: null,
    ...over,
  };
}

/** Moves a running batch on by `step` items: one in ten fails, the rest are done. */
function advance(b: Batch, step: number): void {
  if (b.status !== 'running' || step === 0) return;
  const c = b.counts;
  const n = Math.min(step, c.queued, Math.max(0, fake.upTo - (c.done + c.failed + c.left_out)));
  if (n === 0) return;
  c.queued -= n;
  for (let i = 0; i < n; i++) {
    const k = c.done + c.failed + c.left_out + 1;
    if (k % 10 === 7) {
      c.failed++;
      if (b.errors.length < 20)
        b.errors.push({ entity_id: `P-${k}`, code: 'generation_failed', message: 'The provider timed out.' });
    } else c.done++;
  }
  b.credits.charged = c.done * 10;
  b.credits.reserved = c.queued > 0 ? 10 : 0;
  b.updated_at = new Date(Date.parse(b.updated_at) + 1).toISOString();
  if (c.queued === 0) {
    b.status = 'finished';
    b.finished_at = b.updated_at;
  }
}

/** The service's reason for an item a cancel left out. */
const CANCELLED = 'The bulk generation was cancelled before this item started; nothing was charged.';

/** The settlements of a cancelled batch's items under way: each done and charged, the batch ended. */
function settleCancelled(b: Batch): void {
  if (b.status !== 'cancelled' || b.finished_at !== null) return;
  b.counts.done += b.counts.running;
  b.credits.charged += b.counts.running * 10;
  b.counts.running = 0;
  b.credits.reserved = 0;
  b.updated_at = new Date(Date.parse(b.updated_at) + 1).toISOString();
  b.finished_at = b.updated_at;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

async function startFake(fake: Fake): Promise<{ server: Server; origin: string }> {
  const port = await freePort();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    const entry: Fake['log'][number] = { method: req.method ?? 'GET', path, at: Date.now() };
    fake.log.push(entry);
    if (path === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(hostPage(url.searchParams));
      return;
    }
    if (path === '/editor/v1/ccs-batch-progress.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' });
      res.end(readFileSync(join(DIST, 'ccs-batch-progress.js')));
      return;
    }
    const messages = /^\/editor\/v1\/messages\/(\w+)\.json$/.exec(path);
    if (messages) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(readFileSync(join(DIST, 'messages', `${messages[1]}.json`)));
      return;
    }
    const m = /^\/api\/v3\/white-label\/generation-batch(?:\/(\d+)(?:\/(pause|resume|cancel))?)?$/.exec(path);
    if (!m) return send(res, 404, { error: 'Not found', code: 'not_found' });
    if (req.headers['service-white-label-token'] !== TOKEN)
      return send(res, 401, { error: 'Invalid token', code: 'token_invalid' });
    if (req.method === 'GET' && fake.failReads > 0) {
      fake.failReads--;
      entry.refused = true;
      return send(res, 503, { error: 'Busy', code: 'service_unavailable' });
    }
    if (!m[1]) {
      for (const b of fake.batches) advance(b, fake.step);
      return send(res, 200, { batches: [...fake.batches].reverse() });
    }
    const b = fake.batches.find((x) => x.id === Number(m[1]));
    if (!b) return send(res, 404, { error: 'Batch not found', code: 'not_found' });
    if (req.method === 'GET') {
      advance(b, fake.step);
      if (fake.settle) settleCancelled(b);
      if (!fake.hold) return send(res, 200, b);
      const asked = structuredClone(b);
      asked.updated_at = new Date(Date.parse(asked.updated_at) + fake.heldLater).toISOString();
      fake.held++;
      void fake.hold.then(() => send(res, 200, asked));
      return;
    }
    if (b.status === 'finished' || b.status === 'cancelled')
      return send(res, 409, { error: 'The batch is over', code: 'batch_finished' });
    b.status = ({ pause: 'paused', resume: 'running', cancel: 'cancelled' } as const)[
      m[2] as 'pause' | 'resume' | 'cancel'
    ];
    b.updated_at = new Date(Date.parse(b.updated_at) + 1).toISOString();
    if (b.status === 'cancelled') {
      // As the service: the queued items are left out (each named among the first errors);
      // those under way end (and the batch with them) when their settlements commit.
      const next = b.counts.done + b.counts.failed + b.counts.left_out + b.counts.running + 1;
      for (let k = 0; k < b.counts.queued && b.errors.length < 20; k++) {
        b.errors.push({ entity_id: `P-${next + k}`, code: 'cancelled', message: CANCELLED });
      }
      b.counts.left_out += b.counts.queued;
      b.counts.queued = 0;
      b.credits.reserved = b.counts.running * 10;
      if (b.counts.running === 0) b.finished_at = b.updated_at;
    }
    return send(res, 200, b);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${port}` };
}

/** A host page with the panel (batch, language and interval from the query) and an event log. */
function hostPage(q: URLSearchParams): string {
  const attr = (name: string, value: string | null) =>
    value === null ? '' : ` ${name}="${value.replace(/[^\w.-]/g, '')}"`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" /><title>Bulk generation</title>
<script type="module" src="/editor/v1/ccs-batch-progress.js"></script>
<style>body { font-family: system-ui, sans-serif; margin: 0; padding: 1rem; background: #f9fafb; }
ccs-batch-progress { display: block; background: #fff; border: 1px solid #e5e7eb; border-radius: 8px; padding: 1rem; }</style>
</head><body><h1>Demo eshop admin</h1>
<ccs-batch-progress token="${TOKEN}"${attr('batch-id', q.get('batch'))}${attr('ui-lang', q.get('lang'))}${attr(
    'interval',
    q.get('interval') ?? '100',
  )}></ccs-batch-progress>
<script>
  window.ccsEvents = [];
  for (const name of ['ccs-batch-progress', 'ccs-batch-finished'])
    document.addEventListener(name, (e) => window.ccsEvents.push({ name, detail: e.detail }));
</script></body></html>`;
}

const fake: Fake = {
  batches: [],
  step: 0,
  upTo: Infinity,
  settle: false,
  failReads: 0,
  hold: null,
  heldLater: 0,
  held: 0,
  log: [],
};
let server: { server: Server; origin: string };
/** Launched by the first open(). */
let browser: Browser | undefined;
// A test that loses its browser anyway runs again, on a browser open() launches anew, its first
// error logged.
jest.retryTimes(2, { logErrorsBeforeRetry: true });

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  server = await startFake(fake);
});
afterAll(async () => {
  await browser?.close();
  await new Promise((r) => server?.server.close(r));
});
beforeEach(() => {
  fake.batches = [];
  fake.step = 0;
  fake.upTo = Infinity;
  fake.settle = false;
  fake.failReads = 0;
  fake.hold = null;
  fake.heldLater = 0;
  fake.held = 0;
  fake.log = [];
});

async function open(query: Record<string, string>, width = 1024): Promise<Page> {
  // A Chromium lost under the whole suite's load (seen in CI, never alone: `<gracefully close
  // start>` right after its launch) is started again, once, so one lost browser does not fail
  // every test of the file.
  if (browser && !browser.isConnected()) {
    process.stderr.write('batch-progress: chromium was disconnected; launching it again\n');
    browser = undefined;
  }
  browser ??= await launchBrowser();
  const url = `${server.origin}/?${new URLSearchParams(query).toString()}`;
  const load = async (on: Browser): Promise<Page> => {
    const context = await on.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    // A page still open when afterAll closes the browser closes its context on a closing browser,
    // which rejects ("Target page, context or browser has been closed"); left unhandled, that
    // rejection failed whichever test Jest held it against.
    page.on('close', () => void context.close().catch(() => undefined));
    page.on('pageerror', (err) => process.stderr.write(`page error: ${err.message}\n`));
    await page.goto(url);
    return page;
  };
  return load(browser).catch(async (err: unknown) => {
    if (!(err instanceof Error && err.message.includes('has been closed'))) throw err;
    process.stderr.write('batch-progress: chromium was closed; launching it again\n');
    browser = await launchBrowser();
    return load(browser);
  });
}

const events = (page: Page, name?: BatchEvent['name']): Promise<BatchEvent[]> =>
  page.evaluate(
    `window.ccsEvents.filter((e) => ${JSON.stringify(name ?? null)} === null || e.name === ${JSON.stringify(name ?? null)})`,
  );
const inRoot = <T>(page: Page, expression: string): Promise<T> =>
  page.evaluate(`(() => { const root = ${ROOT}; return ${expression}; })()`) as Promise<T>;
const waitInRoot = (page: Page, condition: string) =>
  page.waitForFunction(`(() => { const root = ${ROOT}; return root && (${condition}); })()`);
const reads = (id: number) =>
  fake.log.filter((r) => r.method === 'GET' && r.path === `/api/v3/white-label/generation-batch/${id}`);
/**
 * Whether the panel could still read: a read scheduled (its timer) or due when the page shows
 * again. Without either, nothing more is read until the host asks.
 */
const readPending = (page: Page): Promise<boolean> =>
  page.evaluate(
    `(() => { const panel = document.querySelector('ccs-batch-progress'); return panel.timer !== undefined || panel.due; })()`,
  ) as Promise<boolean>;
const focusedText = (page: Page) =>
  inRoot<string | null>(page, `root.activeElement?.textContent.trim() ?? null`);

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

async function noAxeViolations(page: Page, state: string): Promise<void> {
  const result = await new AxeBuilder({ page }).include('ccs-batch-progress').analyze();
  expect({ state, violations: result.violations.map((v) => v.id) }).toEqual({ state, violations: [] });
}

describe('<ccs-batch-progress>', () => {
  test('when a batch runs to its end, then counts, credits, the bar and its first errors follow it, the host hears each change and the end once, and polling stops', async () => {
    fake.batches = [batch(12, 40)];
    const page = await open({ batch: '12' });
    await waitInRoot(page, `root.querySelector('[role=progressbar]')`);
    const bar = page.locator('ccs-batch-progress [role="progressbar"]');
    expect(await bar.getAttribute('aria-valuemax')).toBe('40');
    expect(await bar.getAttribute('aria-valuenow')).toBe('0');
    expect(await bar.getAttribute('aria-label')).toBe('Items processed');

    fake.step = 7;
    fake.upTo = 14;
    await waitInRoot(page, `root.querySelector('[role=progressbar]').getAttribute('aria-valuenow') === '14'`);
    fake.step = 0;
    fake.upTo = Infinity;
    await noAxeViolations(page, 'running');
    expect(await inRoot(page, `root.querySelector('h2').textContent`)).toBe('Bulk generation #12');
    expect(await inRoot(page, `root.querySelector('.badge').textContent`)).toBe('Running');
    expect(await inRoot(page, `root.querySelector('.progress-text').textContent`)).toBe(
      '14 of 40 items processed (35%)',
    );
    expect(await bar.getAttribute('aria-valuetext')).toBe('14 of 40 items processed (35%)');
    const pairs = await inRoot<string[]>(
      page,
      `[...root.querySelectorAll('dl > div')].map((d) => d.querySelector('dt').textContent + '=' + d.querySelector('dd').textContent)`,
    );
    expect(pairs).toEqual([
      'Waiting=26',
      'Being generated=0',
      'Done=13',
      'Failed=1',
      'Left out=0',
      'Budget=480',
      'Estimate=400',
      'Reserved=10',
      'Charged=130',
    ]);
    expect(
      await inRoot(page, `root.querySelector('.errors li').textContent.replace(/\\s+/g, ' ').trim()`),
    ).toBe('The provider timed out. generation_failed P-7');
    await shot(page, 'batch-running-1024');
    await page.setViewportSize({ width: 390, height: 900 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await shot(page, 'batch-running-390');

    fake.step = 10;
    const finished = await page.waitForFunction(
      `window.ccsEvents.find((e) => e.name === 'ccs-batch-finished')`,
    );
    expect(await finished.jsonValue()).toMatchObject({
      detail: { batch_id: 12, status: 'finished', counts: { total: 40, done: 36, failed: 4, queued: 0 } },
    });
    await waitInRoot(page, `root.querySelector('.badge').textContent === 'Finished'`);
    expect(await bar.getAttribute('aria-valuenow')).toBe('40');
    expect(await inRoot(page, `root.querySelectorAll('button').length`)).toBe(0);
    // The four failures of one reason read as one line naming the four items.
    expect(await inRoot(page, `root.querySelectorAll('.errors li').length`)).toBe(1);
    expect(
      await inRoot(page, `[...root.querySelectorAll('.errors .item')].map((e) => e.textContent)`),
    ).toEqual(['P-7', 'P-17', 'P-27', 'P-37']);
    await shot(page, 'batch-finished-390');

    // Each change was heard once, in order; nothing is read after the end.
    const progress = (await events(page, 'ccs-batch-progress')).map((e) => e.detail);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    const seen = progress.map((d) => d.counts.done + d.counts.failed);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(new Set(progress.map((d) => `${d.status}:${d.counts.done}:${d.counts.failed}`)).size).toBe(
      progress.length,
    );
    expect(await events(page, 'ccs-batch-finished')).toHaveLength(1);
    const count = reads(12).length;
    expect(await readPending(page)).toBe(false);
    expect(reads(12).length).toBe(count);
    await page.close();
  });

  test('when reads fail, then the panel says so and waits twice as long each time, and reads again until one answers', async () => {
    fake.batches = [batch(5, 10)];
    const page = await open({ batch: '5', interval: '100' });
    await waitInRoot(page, `root.querySelector('[role=progressbar]')`);
    fake.failReads = 3;
    await waitInRoot(page, `root.querySelector('[role=alert]')`);
    expect(await inRoot(page, `root.querySelector('[role=alert]').textContent`)).toMatch(
      /^The progress could not be read: The service is busy or unavailable right now\. .* Trying again in 1 s\.$/,
    );
    fake.step = 10;
    await page.waitForFunction(`window.ccsEvents.some((e) => e.name === 'ccs-batch-finished')`);
    expect(await inRoot(page, `root.querySelector('[role=alert]')`)).toBeNull();
    // Each wait after a refused read is twice the one before (100 ms × 2, 4, 8).
    const log = reads(5);
    const first = log.findIndex((r) => r.refused);
    const at = log.slice(first, first + 4).map((r) => r.at);
    expect(log.slice(first, first + 4).map((r) => Boolean(r.refused))).toEqual([true, true, true, false]);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(200);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(400);
    expect(at[3]! - at[2]!).toBeGreaterThanOrEqual(800);
    await page.close();
  });

  test('when the batch is not the eshop’s or the token is refused, then the panel says so and stops reading', async () => {
    fake.batches = [batch(5, 10)];
    const page = await open({ batch: '99' });
    await waitInRoot(page, `root.querySelector('[role=alert]')`);
    expect(await inRoot(page, `root.querySelector('[role=alert]').textContent`)).toMatch(/^Not found/);
    expect(await readPending(page)).toBe(false);
    expect(reads(99)).toHaveLength(1);
    await page.evaluate(`document.querySelector('ccs-batch-progress').setAttribute('token', 'wl_wrong')`);
    await page.evaluate(`document.querySelector('ccs-batch-progress').setAttribute('batch-id', '5')`);
    await waitInRoot(page, `root.querySelector('[role=alert]')?.textContent.includes('token')`);
    expect(reads(5)).toHaveLength(1);
    await page.close();
  });

  test('when the person pauses, resumes and cancels by keyboard, then each is sent once, focus stays where they are, and Cancel asks first (Escape keeps the batch)', async () => {
    fake.batches = [batch(7, 30)];
    const page = await open({ batch: '7' }, 390);
    await waitInRoot(page, `root.querySelector('button[data-toggle]')`);
    const posts = () => fake.log.filter((r) => r.method === 'POST').map((r) => r.path.split('/').pop());

    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Pause');
    expect(
      await inRoot(
        page,
        `getComputedStyle(root.activeElement).outlineStyle + ' ' + getComputedStyle(root.activeElement).outlineWidth`,
      ),
    ).toBe('solid 3px');
    await page.keyboard.press('Enter');
    await waitInRoot(page, `root.querySelector('.badge').textContent === 'Paused'`);
    expect(await focusedText(page)).toBe('Resume');
    expect(await inRoot(page, `root.querySelector('[role=status]').textContent`)).toBe(
      'Paused: items being generated now finish, no new one starts.',
    );
    await page.keyboard.press('Enter');
    await waitInRoot(page, `root.querySelector('.badge').textContent === 'Running'`);
    expect(await focusedText(page)).toBe('Pause');

    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Cancel the generation');
    await page.keyboard.press('Enter');
    await waitInRoot(page, `root.querySelector('[role=group]')`);
    expect(await focusedText(page)).toBe('No, keep it');
    expect(
      await inRoot(page, `root.querySelector('button[data-cancel]').getAttribute('aria-expanded')`),
    ).toBe('true');
    await noAxeViolations(page, 'asking to cancel');
    await shot(page, 'batch-cancel-ask-390');
    await page.keyboard.press('Escape');
    await waitInRoot(page, `!root.querySelector('[role=group]')`);
    expect(await focusedText(page)).toBe('Cancel the generation');
    expect(posts()).toEqual(['pause', 'resume']);

    await page.keyboard.press('Enter');
    await waitInRoot(page, `root.querySelector('[role=group]')`);
    await page.keyboard.press('Shift+Tab');
    expect(await focusedText(page)).toBe('Yes, cancel it');
    await page.keyboard.press('Enter');
    const finished = await page.waitForFunction(
      `window.ccsEvents.find((e) => e.name === 'ccs-batch-finished')`,
    );
    expect(await finished.jsonValue()).toMatchObject({ detail: { batch_id: 7, status: 'cancelled' } });
    await waitInRoot(page, `root.querySelector('.badge').textContent === 'Cancelled'`);
    expect(posts()).toEqual(['pause', 'resume', 'cancel']);
    expect(await inRoot(page, `root.activeElement?.className`)).toBe('said');
    expect(await inRoot(page, `root.querySelector('[role=status]').textContent`)).toBe('Cancelled.');
    expect(await inRoot(page, `root.querySelectorAll('button').length`)).toBe(0);
    // The items left out read as one line of their reason, after the failures' line.
    const lines = await inRoot<[string, number][]>(
      page,
      `[...root.querySelectorAll('.errors li')].map((li) => [li.querySelector('.code').textContent, li.querySelectorAll('.item').length])`,
    );
    expect(lines.map(([code]) => code)).toEqual(
      fake.batches[0]!.errors.some((e) => e.code === 'generation_failed')
        ? ['generation_failed', 'cancelled']
        : ['cancelled'],
    );
    expect(lines.reduce((sum, [, items]) => sum + items, 0)).toBe(fake.batches[0]!.errors.length);
    await shot(page, 'batch-cancelled-390');
    await page.close();
  });

  test('when a batch is cancelled with items under way, then the panel reads on until their charges settle and hears the end once, with them', async () => {
    fake.batches = [
      batch(9, 20, {
        counts: { total: 20, queued: 10, running: 4, done: 6, failed: 0, left_out: 0 },
        credits: { budget: 240, estimate: 200, reserved: 40, charged: 60 },
      }),
    ];
    const page = await open({ batch: '9', interval: '100' });
    const panel = page.locator('ccs-batch-progress');
    await panel.getByRole('button', { name: 'Cancel the generation' }).click();
    await panel.getByRole('button', { name: 'Yes, cancel it' }).click();
    await waitInRoot(page, `root.querySelector('.badge').textContent === 'Cancelled'`);
    const credits = () =>
      inRoot<string[]>(
        page,
        `[...root.querySelectorAll('dl > div')].slice(5).map((d) => d.querySelector('dt').textContent + '=' + d.querySelector('dd').textContent)`,
      );
    expect(await credits()).toEqual(['Budget=240', 'Estimate=200', 'Reserved=40', 'Charged=60']);
    expect(await inRoot(page, `root.querySelectorAll('button').length`)).toBe(0);
    expect(await inRoot(page, `root.querySelector('.settling')?.textContent`)).toBe(
      'Cancelled: the items being generated finish and are charged for what they wrote; the credits update until then.',
    );
    // Still reading while the four items settle; the end is not heard before they do.
    const asked = reads(9).length;
    await eventually(() => expect(reads(9).length).toBeGreaterThanOrEqual(asked + 2));
    expect(await events(page, 'ccs-batch-finished')).toHaveLength(0);
    await shot(page, 'batch-cancel-settling-1024');

    fake.settle = true;
    const finished = await page.waitForFunction(
      `window.ccsEvents.find((e) => e.name === 'ccs-batch-finished')`,
    );
    expect(await finished.jsonValue()).toMatchObject({
      detail: {
        batch_id: 9,
        status: 'cancelled',
        counts: { done: 10, running: 0, left_out: 10 },
        credits: { reserved: 0, charged: 100 },
      },
    });
    await waitInRoot(page, `!root.querySelector('.settling')`);
    expect(await credits()).toEqual(['Budget=240', 'Estimate=200', 'Reserved=0', 'Charged=100']);
    expect(await inRoot(page, `root.querySelector('.done, dl > div.ok dd')?.textContent`)).toBe('10');
    expect(await events(page, 'ccs-batch-finished')).toHaveLength(1);
    await page.close();
  });

  test('when a read asked before a pause answers after it, then the paused state stays shown', async () => {
    fake.batches = [batch(6, 10)];
    const page = await open({ batch: '6', interval: '100' });
    await waitInRoot(page, `root.querySelector('button[data-toggle]')`);
    let release!: () => void;
    fake.hold = new Promise<void>((resolve) => (release = resolve));
    await eventually(() => expect(fake.held).toBeGreaterThan(0));
    // The read is on its way with the running batch; the pause answers first.
    await page.locator('ccs-batch-progress button[data-toggle]').click();
    await waitInRoot(page, `root.querySelector('.badge').textContent === 'Paused'`);
    fake.hold = null;
    release();
    // The old answer is drawn over nothing; a read after it says paused too.
    const reads6 = reads(6).length;
    await eventually(() => expect(reads(6).length).toBeGreaterThanOrEqual(reads6 + 2));
    expect(await inRoot(page, `root.querySelector('.badge').textContent`)).toBe('Paused');
    expect((await events(page, 'ccs-batch-progress')).map((e) => e.detail.status)).toEqual([
      'running',
      'paused',
    ]);
    await page.close();
  });

  test('when a read asked before a cancel answers after it, stamped later, then the cancelled state stays shown', async () => {
    fake.batches = [
      batch(4, 10, {
        counts: { total: 10, queued: 6, running: 2, done: 2, failed: 0, left_out: 0 },
        credits: { budget: 120, estimate: 100, reserved: 20, charged: 20 },
      }),
    ];
    const page = await open({ batch: '4', interval: '100' });
    await waitInRoot(page, `root.querySelector('button[data-cancel]')`);
    let release!: () => void;
    fake.hold = new Promise<void>((resolve) => (release = resolve));
    fake.heldLater = 1000;
    await eventually(() => expect(fake.held).toBeGreaterThan(0));
    const panel = page.locator('ccs-batch-progress');
    await panel.getByRole('button', { name: 'Cancel the generation' }).click();
    await panel.getByRole('button', { name: 'Yes, cancel it' }).click();
    await waitInRoot(page, `root.querySelector('.badge').textContent === 'Cancelled'`);
    fake.hold = null;
    release();
    const reads4 = reads(4).length;
    await eventually(() => expect(reads(4).length).toBeGreaterThanOrEqual(reads4 + 2));
    expect(await inRoot(page, `root.querySelector('.badge').textContent`)).toBe('Cancelled');
    expect(await inRoot(page, `root.querySelectorAll('button').length`)).toBe(0);
    expect((await events(page, 'ccs-batch-progress')).map((e) => e.detail.status)).toEqual([
      'running',
      'cancelled',
    ]);
    await page.close();
  });

  test('when the batch ended meanwhile, then Pause says it is over and shows its end', async () => {
    const ended = batch(8, 10);
    fake.batches = [ended];
    const page = await open({ batch: '8', interval: '60000' });
    await waitInRoot(page, `root.querySelector('button[data-toggle]')`);
    ended.status = 'finished';
    ended.finished_at = new Date().toISOString();
    ended.updated_at = ended.finished_at;
    await page.locator('ccs-batch-progress button[data-toggle]').click();
    await waitInRoot(page, `root.querySelector('.badge').textContent === 'Finished'`);
    expect(await inRoot(page, `root.querySelector('[role=status]').textContent`)).toBe(
      'This bulk generation is over: it cannot be changed any more.',
    );
    expect(await events(page, 'ccs-batch-finished')).toHaveLength(1);
    await page.close();
  });

  test('when no batch is named, then the eshop’s newest is shown, or that none was started', async () => {
    const page = await open({});
    await waitInRoot(
      page,
      `root.querySelector('.hint')?.textContent === 'No bulk generation has been started yet.'`,
    );
    fake.batches = [batch(1, 5, { status: 'finished' }), batch(2, 5)];
    await page.evaluate(`document.querySelector('ccs-batch-progress').refresh()`);
    await waitInRoot(page, `root.querySelector('h2')?.textContent === 'Bulk generation #2'`);
    await page.close();
  });

  test.each([
    ['en', 'Bulk generation #3', 'Pause'],
    ['cs', 'Hromadné generování č. 3', 'Pozastavit'],
    ['sk', 'Hromadné generovanie č. 3', 'Pozastaviť'],
    ['de', 'Massengenerierung Nr. 3', 'Anhalten'],
    ['pl', 'Generowanie zbiorcze nr 3', 'Wstrzymaj'],
    ['hu', '3. tömeges generálás', 'Szüneteltetés'],
    ['uk', 'Масова генерація № 3', 'Призупинити'],
  ])('when the UI language is %s, then the panel speaks it', async (lang, title, pause) => {
    const big = batch(3, 2000);
    big.counts.done = 1234;
    big.counts.queued = 766;
    fake.batches = [big];
    const page = await open({ batch: '3', lang, interval: '60000' });
    await waitInRoot(page, `root.querySelector('h2')?.textContent === ${JSON.stringify(title)}`);
    expect(await inRoot(page, `root.querySelector('button[data-toggle]').textContent.trim()`)).toBe(pause);
    // Numbers in the language's own format (1,234 / 1 234 / 1.234).
    expect(await inRoot(page, `root.querySelector('.progress-text').textContent`)).toContain(
      new Intl.NumberFormat(lang).format(1234),
    );
    if (lang === 'de') await shot(page, 'batch-de-1024');
    await page.close();
  });
});
