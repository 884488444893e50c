// The demo host page's bulk generation, as a shop owner uses it against the real services: an
// estimate (a dry run the page's own server asks of the catalogue API with the eshop's API token,
// which never reaches the browser), a start, the progress panel (<ccs-batch-progress>, read from
// white-label-api with the editor's token) paused, resumed and cancelled, and a batch that runs
// to its end with the generation worker.
import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { demoHostHandler } from '@catalogue/admin';
import { freePort } from '@catalogue/testing';
import { editorHarness, hostEvents, shot, waitForEvent, type Body } from './harness';

jest.setTimeout(240_000);

const h = editorHarness('batch-journey');
const ROOT = `document.querySelector('ccs-batch-progress').shadowRoot`;

let host: { server: Server; origin: string; port: number } | undefined;
afterAll(async () => {
  await new Promise((r) => host?.server.close(r));
});

/** The demo host page of `shop`, with its bulk form, on an origin of its own the shop allows. */
async function demoPage(shop: Body, port: number): Promise<{ server: Server; origin: string; port: number }> {
  const server = createServer(
    demoHostHandler({
      port,
      apiBase: h.wl.url,
      whiteLabelToken: shop.whiteLabelToken,
      entityId: 'BULK-1',
      entityTitle: 'Trail shoe',
      bulk: { catalogueApi: h.catalogue.url, apiToken: shop.apiToken, languages: ['cs', 'en'] },
    }),
  );
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${port}`, port };
}

async function importProducts(shop: Body, ids: string[]): Promise<void> {
  const res = await fetch(`${h.catalogue.url}/api/v2/rest/products`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${shop.apiToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(
      ids.map((id, i) => ({
        id,
        name: { en: `Trail shoe ${i + 1}`, cs: `Trailová bota ${i + 1}` },
        description: {
          en: `<p>Light trail shoe ${i + 1} with a grippy sole, 280 g.</p>`,
          cs: `<p>Lehká trailová bota ${i + 1} s přilnavou podrážkou, 280 g.</p>`,
        },
      })),
    ),
  });
  expect(res.status).toBe(200);
}

const inRoot = <T>(page: Page, expression: string): Promise<T> =>
  page.evaluate(`(() => { const root = ${ROOT}; return ${expression}; })()`) as Promise<T>;
const waitInRoot = (page: Page, condition: string, timeout = 30_000) =>
  page.waitForFunction(`(() => { const root = ${ROOT}; return root && (${condition}); })()`, undefined, {
    timeout,
  });
const badge = (page: Page) => inRoot<string | undefined>(page, `root.querySelector('.badge')?.textContent`);

/** Asks the estimate and starts the batch; its id. */
async function estimateAndStart(page: Page): Promise<number> {
  await page.getByLabel('Budget (credits)').fill('400');
  await page.getByRole('button', { name: 'Estimate' }).click();
  await page.locator('#bulk-said', { hasText: /about \d+ credits/ }).waitFor();
  // Three products in two languages.
  expect(await page.locator('#bulk-said').textContent()).toMatch(
    /^6 texts to generate \(each product in each language\), about \d+ credits \(\d+ each\): within the budget\.$/,
  );
  const before = (await hostEvents(page)).filter((e) => e.name === 'ccs-batch-progress').length;
  await page.getByRole('button', { name: 'Start generating' }).click();
  await page.locator('#bulk-said', { hasText: /started\.$/ }).waitFor();
  const id = Number(/#(\d+)/.exec((await page.locator('#bulk-said').textContent()) ?? '')?.[1]);
  const detail = await waitForEvent(page, 'ccs-batch-progress', before + 1);
  expect(detail).toMatchObject({ batch_id: id, counts: { total: 6 } });
  return id;
}

describe('bulk generation on the demo host page', () => {
  test('when the owner estimates, starts, pauses, resumes and cancels a batch, then starts another that runs, then the panel follows each step and hears the end', async () => {
    const port = await freePort();
    const shop = await h.shop({ credits: 500, origins: [`http://127.0.0.1:${port}`] });
    host = await demoPage(shop, port);
    await importProducts(shop, ['BULK-1', 'BULK-2', 'BULK-3']);

    // The generations wait in the queue until the last step: the batch can be seen paused.
    await h.pauseGeneration();
    const page = await h.open({ token: shop.whiteLabelToken, origin: host.origin });
    // The API token is the page server's only.
    expect(await page.content()).not.toContain(shop.apiToken);
    await waitInRoot(
      page,
      `root.querySelector('.hint')?.textContent === 'No bulk generation has been started yet.'`,
    );

    const first = await estimateAndStart(page);
    await waitInRoot(page, `root.querySelector('h2')?.textContent === 'Bulk generation #${first}'`);
    expect(['Queued', 'Running']).toContain(await badge(page));
    const bar = page.locator('ccs-batch-progress [role="progressbar"]');
    expect(await bar.getAttribute('aria-valuemax')).toBe('6');
    await shot(page, 'batch-journey-started-1024');

    const panel = page.locator('ccs-batch-progress');
    await panel.getByRole('button', { name: 'Pause' }).click();
    await waitInRoot(page, `root.querySelector('.badge').textContent === 'Paused'`);
    await panel.getByRole('button', { name: 'Resume' }).focus();
    await page.keyboard.press('Enter');
    await waitInRoot(page, `root.querySelector('.badge').textContent !== 'Paused'`);

    await panel.getByRole('button', { name: 'Cancel the generation' }).click();
    await panel.getByRole('button', { name: 'Yes, cancel it' }).click();
    const cancelled = await waitForEvent(page, 'ccs-batch-finished');
    expect(cancelled).toMatchObject({ batch_id: first, status: 'cancelled' });
    await waitInRoot(page, `root.querySelector('.badge').textContent === 'Cancelled'`);
    await page.setViewportSize({ width: 390, height: 900 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await shot(page, 'batch-journey-cancelled-390');

    // Another batch, and the worker lets the generations run: the batch finishes.
    await page.setViewportSize({ width: 1024, height: 900 });
    const second = await estimateAndStart(page);
    expect(second).not.toBe(first);
    await h.resumeGeneration();
    const finished = await waitForEvent(page, 'ccs-batch-finished', 2);
    expect(finished).toMatchObject({ batch_id: second, status: 'finished' });
    expect(finished.counts.done + finished.counts.failed + finished.counts.left_out).toBe(6);
    expect(finished.counts.done).toBeGreaterThan(0);
    await waitInRoot(page, `root.querySelector('.badge').textContent === 'Finished'`);
    expect(await bar.getAttribute('aria-valuenow')).toBe('6');
    await shot(page, 'batch-journey-finished-1024');
    await page.setViewportSize({ width: 390, height: 900 });
    await shot(page, 'batch-journey-finished-390');
    await page.close();
  });
});
