// What the editor's browser tests share: the whole stack of tests/full-stack.ts on a queue
// prefix of the file's own (white-label-api serving the bundle, catalogue-api, the generation
// worker with the builtin provider, credit settlement), a host page server that serves the demo
// host page (libs/admin demo-host) for any token, entity and UI language, and Debian's chromium.
import { createServer, type Server } from 'node:http';
import { copyFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { demoHostPage } from '@catalogue/admin';
import { freePort, launchBrowser, makeEshop, type EshopFixture } from '@catalogue/testing';
import { useFullStack } from '../full-stack';

/** Where the screenshots go (printed once by the tests); one is committed for the README. */
export const SCREENSHOTS = process.env.EDITOR_SCREENSHOTS ?? join(tmpdir(), 'ccs-editor-screenshots');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API answers are read field by field
export type Body = any;

export interface HostPageOptions {
  token: string;
  entityId?: string;
  entityTitle?: string;
  /** The title per language (`entity-titles`). */
  entityTitles?: Record<string, string>;
  uiLang?: string;
}

/** A server of the demo host page on its own origin; the query names token, entity and language. */
async function startHostPages(apiBase: () => string): Promise<{ server: Server; origin: string }> {
  const port = await freePort();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://host');
    if (url.pathname !== '/') {
      res.writeHead(404).end();
      return;
    }
    const q = url.searchParams;
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      demoHostPage({
        port,
        apiBase: apiBase(),
        whiteLabelToken: q.get('token') ?? '',
        entityId: q.get('entity') ?? 'DEMO-1',
        entityTitle: q.get('title') ?? 'Trail shoe',
        ...(q.get('titles') && { entityTitles: JSON.parse(q.get('titles')!) as Record<string, string> }),
        uiLang: q.get('lang') ?? 'en',
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${port}` };
}

export function editorHarness(prefix: string) {
  const stack = useFullStack(`${process.env.TEST_QUEUE_PREFIX}-${prefix}`);
  const { wl, catalogue } = stack;
  let browser: Browser;
  let closing = false;
  /**
   * A Chromium that says when it goes away. In CI a whole file's browser has been seen closed
   * before its first page ("Target page, context or browser has been closed"), with no test of
   * the file at fault; open() then starts another instead of failing every test of the file.
   */
  const launched = async (): Promise<Browser> => {
    const started = await launchBrowser();
    started.on('disconnected', () => {
      if (!closing) process.stderr.write(`${prefix}: chromium disconnected before the file ended\n`);
    });
    return started;
  };
  let host: { server: Server; origin: string };
  let other: { server: Server; origin: string };

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    host = await startHostPages(() => wl.url);
    other = await startHostPages(() => wl.url);
    browser = await launched();
  });
  afterAll(async () => {
    closing = true;
    await browser?.close();
    await new Promise((r) => host?.server.close(r));
    await new Promise((r) => other?.server.close(r));
  });

  return {
    get wl() {
      return wl;
    },
    get catalogue() {
      return catalogue;
    },
    /** The page origin every test eshop allows. */
    get origin() {
      return host.origin;
    },
    /** Another page origin (allowed by no eshop unless a test says so). */
    get otherOrigin() {
      return other.origin;
    },
    /**
     * Holds generation jobs in the queue (to see a running job resumed), then lets them run.
     * The queue is paused, not the workers: a worker already waiting for a job when it is
     * paused may still take the next one.
     */
    pauseGeneration: () => stack.worker.queues.generate.pause(),
    resumeGeneration: () => stack.worker.queues.generate.resume(),

    async shop(fixture: EshopFixture = {}) {
      return makeEshop(wl.deps.db, {
        origins: [host.origin],
        languages: ['default', 'cs', 'en'],
        credits: 500,
        ...fixture,
      });
    },

    /** A new page (360 px wide when asked) on the host page of `origin`, with the editor opened. */
    async open(opts: HostPageOptions & { origin?: string; width?: number }): Promise<Page> {
      if (!browser.isConnected()) browser = await launched();
      // A context of its own per page: axe needs one, and no state leaks between tests. A browser
      // closing but still connected (seen right after a launch in CI) fails the first context:
      // a fresh one is launched once.
      const viewport = { viewport: { width: opts.width ?? 1024, height: 900 } };
      const context = await browser.newContext(viewport).catch(async (err: unknown) => {
        if (!(err instanceof Error && err.message.includes('has been closed'))) throw err;
        process.stderr.write(`${prefix}: chromium was closed; launching it again\n`);
        browser = await launched();
        return browser.newContext(viewport);
      });
      const page = await context.newPage();
      // A page still open when afterAll closes the browser closes its context on a closing browser,
      // which rejects ("Target page, context or browser has been closed"); left unhandled, that
      // rejection failed whichever test Jest held it against.
      page.on('close', () => void context.close().catch(() => undefined));
      page.on('pageerror', (err) => process.stderr.write(`page error: ${err.message}\n`));
      const q = new URLSearchParams({
        token: opts.token,
        entity: opts.entityId ?? 'DEMO-1',
        title: opts.entityTitle ?? 'Trail shoe',
        lang: opts.uiLang ?? 'en',
        ...(opts.entityTitles && { titles: JSON.stringify(opts.entityTitles) }),
      });
      await page.goto(`${opts.origin ?? host.origin}/?${q.toString()}`);
      return page;
    },
  };
}

/** The `ccs-*` events the host page has received so far. */
export function hostEvents(page: Page): Promise<Array<{ name: string; detail: Body }>> {
  return page.evaluate('window.ccsEvents');
}

/** Evaluates an expression in the page (a string: these tests are compiled without DOM types). */
export function inPage<T>(page: Page, expression: string): Promise<T> {
  return page.evaluate(expression) as Promise<T>;
}

/** Waits until the editor shows `n` widgets. */
export async function waitForWidgets(page: Page, n: number): Promise<void> {
  await page.waitForFunction(
    `document.querySelector('ccs-editor').shadowRoot.querySelectorAll('li.widget').length === ${n}`,
  );
}

/** Waits until the host page has received an event of this name (and returns its detail). */
export async function waitForEvent(page: Page, name: string, count = 1): Promise<Body> {
  await page.waitForFunction(
    `window.ccsEvents.filter((e) => e.name === ${JSON.stringify(name)}).length >= ${count}`,
  );
  const events = await hostEvents(page);
  return events.filter((e) => e.name === name)[count - 1]!.detail;
}

/** The state the README shows (docs/images/editor-demo.png), copied there with UPDATE_EDITOR_DOCS=1. */
const README_SHOT = 'deleted-undo';

export async function shot(page: Page, name: string): Promise<string> {
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  if (name === README_SHOT && process.env.UPDATE_EDITOR_DOCS === '1') {
    copyFileSync(path, join(__dirname, '..', '..', 'docs', 'images', 'editor-demo.png'));
  }
  return path;
}
