// What the editor's browser tests share: the whole stack of tests/full-stack.ts on a queue
// prefix of the file's own (white-label-api serving the bundle, catalogue-api, the generation
// worker with the builtin provider or a local model endpoint, credit settlement), a host page
// server that serves the demo host page (libs/admin demo-host) for any token, entity and UI
// language, and Debian's chromium.
import { createServer, type Server } from 'node:http';
import { copyFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { demoHostPage, type CreatedEshop } from '@catalogue/admin';
import type { Schemas } from '@catalogue/client';
import type { GenerationJobView } from '@catalogue/content/v3';
import {
  freePort,
  launchBrowser,
  makeEshop,
  startFakeLlm,
  type EshopFixture,
  type FakeLlm,
} from '@catalogue/testing';
import { shopCallers, useFullStack } from '../full-stack';

/** Where the screenshots go (printed once by the tests); one is committed for the README. */
export const SCREENSHOTS = process.env.EDITOR_SCREENSHOTS ?? join(tmpdir(), 'ccs-editor-screenshots');

/**
 * A test eshop and its two callers (shopCallers of tests/full-stack.ts: every answer checked
 * against docs/openapi.yaml, its body typed from it): `host` calls the white-label API as the
 * host page's server would (the eshop's token, from the harness's host page origin), `backOffice`
 * the catalogue API with the eshop's API token.
 */
export type Shop = CreatedEshop & ReturnType<typeof shopCallers>;

/** `ccs-change`, and `ccs-before-save` as it would carry it: the action and what it names. */
export interface ChangeDetail {
  action: string;
  entity_id: string;
  /** The language written (not named by `generate`, `favourite` and `copy`). */
  lang?: string;
  widget_id?: number;
  element_id?: number;
  /** An edit's value. */
  value?: string;
  /** A media save's attributes. */
  extension?: Record<string, unknown>;
  /** A reorder's widget ids, in the new order. */
  order?: number[];
  /** Where an added widget came from (`catalogue`, `favourite`). */
  via?: string;
  /** The widgets a design fill created. */
  widgets?: number;
  target_entity_id?: string;
  job_id?: number;
  revision_id?: number;
  version?: number;
}

/** `ccs-error`: what failed (libs/editor/README.md, "Error codes"). */
export interface ErrorDetail {
  status: number;
  code: string;
  message: string;
  api_code?: string;
  entity_id: string;
  /** csp_blocked: the directive and the URL it blocked. */
  directive?: string;
  blocked?: string;
}

/** The detail of each event of <ccs-editor> the host page hears (libs/editor/README.md, "Events"). */
export interface EditorEvents {
  'ccs-ready': { entity_id: string; lang: string; languages: string[]; widgets: number };
  'ccs-change': ChangeDetail;
  'ccs-before-save': ChangeDetail;
  'ccs-language-change': { lang: string; entity_id: string };
  'ccs-dirty': { dirty: boolean; entity_id: string };
  'ccs-generation': { job: GenerationJobView; entity_id: string };
  'ccs-published': { entity_id: string; entityPath: string };
  'ccs-draft-discarded': { entity_id: string; entityPath: string };
  'ccs-error': ErrorDetail;
}

/** One event the host page recorded: its name and its detail. */
export type EditorEvent<N extends keyof EditorEvents = keyof EditorEvents> = {
  [K in N]: { name: K; detail: EditorEvents[K] };
}[N];

/** What the host hears of <ccs-batch-progress> (`ccs-batch-progress`, `ccs-batch-finished`). */
export interface BatchEventDetail {
  batch_id: number;
  status: Schemas['GenerationBatch']['status'];
  counts: Schemas['GenerationBatch']['counts'];
  credits: Schemas['GenerationBatch']['credits'];
}

export interface BatchEvent {
  name: 'ccs-batch-progress' | 'ccs-batch-finished';
  detail: BatchEventDetail;
}

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

export interface HarnessOptions {
  /**
   * The generation worker writes with the OpenAI-compatible provider against a local model
   * endpoint answering in this many milliseconds (`startFakeLlm`), instead of the builtin
   * provider: a bulk generation then runs at a model's pace, as a shop's does.
   */
  modelDelayMs?: number;
}

export function editorHarness(prefix: string, options: HarnessOptions = {}) {
  let model: FakeLlm | undefined;
  const { modelDelayMs } = options;
  if (modelDelayMs !== undefined) {
    beforeAll(async () => void (model = await startFakeLlm({ delayMs: modelDelayMs })));
    afterAll(() => model?.close());
  }
  const stack = useFullStack(`${process.env.TEST_QUEUE_PREFIX}-${prefix}`, {
    ...(modelDelayMs !== undefined && {
      background: {
        queues: ['render-content', 'generate'],
        overrides: () => ({
          GENERATION_PROVIDER: 'openai',
          OPENAI_BASE_URL: model!.baseUrl,
          OPENAI_API_KEY: 'test',
        }),
      },
    }),
  });
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
  let pages: { server: Server; origin: string };
  let other: { server: Server; origin: string };

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    pages = await startHostPages(() => wl.url);
    other = await startHostPages(() => wl.url);
    browser = await launched();
  });
  afterAll(async () => {
    closing = true;
    await browser?.close();
    await new Promise((r) => pages?.server.close(r));
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
      return pages.origin;
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

    /**
     * A new eshop (allowing the host page's origin unless `fixture.origins` says otherwise) and
     * its callers, which call from the host page's origin.
     */
    async shop(fixture: EshopFixture = {}): Promise<Shop> {
      const made = await makeEshop(wl.deps.db, {
        origins: [pages.origin],
        languages: ['default', 'cs', 'en'],
        credits: 500,
        ...fixture,
      });
      return { ...made, ...shopCallers({ wl: wl.url, catalogue: catalogue.url }, made, pages.origin) };
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
      await page.goto(`${opts.origin ?? pages.origin}/?${q.toString()}`);
      return page;
    },
  };
}

/** The events of <ccs-editor> the host page has received so far (not those of <ccs-batch-progress>). */
export function hostEvents(page: Page): Promise<EditorEvent[]> {
  return inPage(page, `window.ccsEvents.filter((e) => !e.name.startsWith('ccs-batch-'))`);
}

/** The events of <ccs-batch-progress> the host page has received so far. */
export function batchEvents(page: Page): Promise<BatchEvent[]> {
  return inPage(page, `window.ccsEvents.filter((e) => e.name.startsWith('ccs-batch-'))`);
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
export async function waitForEvent<N extends keyof EditorEvents>(
  page: Page,
  name: N,
  count = 1,
): Promise<EditorEvents[N]> {
  const named = `window.ccsEvents.filter((e) => e.name === ${JSON.stringify(name)})`;
  await page.waitForFunction(`${named}.length >= ${count}`);
  return inPage(page, `${named}[${count - 1}].detail`);
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
