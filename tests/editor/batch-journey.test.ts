// The demo host page's bulk generation, as a shop owner goes through it by keyboard against the
// real services: the estimate (a dry run the page's own server asks of the catalogue API with the
// eshop's API token, which never reaches the browser) read and used as the budget, the start,
// the progress panel (<ccs-batch-progress>, read from white-label-api with the editor's token)
// moving, paused (nothing moves), resumed and finished with done and charged matching the items
// and the ledger; then a second batch cancelled while it runs, its reserved credits released and
// shown. Screenshots at 1024 and 390 px.
import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { demoHostHandler } from '@catalogue/admin';
import { creditsRepository } from '@catalogue/db';
import { eventually, freePort } from '@catalogue/testing';
import { batchEvents, editorHarness, shot, type BatchEventDetail, type Shop } from './harness';

/** Texts of the journey's batch (products × 2 languages); the panel's states, not speed, are under test. */
const ITEMS = Number(process.env.BULK_BROWSER_ITEMS ?? 200);
const PRODUCTS = Math.ceil(ITEMS / 2);
const LONG = Math.max(120_000, ITEMS * 3_000);
jest.setTimeout(LONG * 3);

// The items are written at a model's pace, about 20 s of answers for the batch whatever its size
// (400 ms each for 200 items in WORKER_CONCURRENCY lanes): with the builtin provider a batch of
// 200 ended within one of the panel's reads on a quiet machine, before it could be paused.
const h = editorHarness('batch-journey', { modelDelayMs: Math.max(20, Math.round(80_000 / ITEMS)) });
const ROOT = `document.querySelector('ccs-batch-progress').shadowRoot`;

let host: { server: Server; origin: string; port: number } | undefined;
afterAll(async () => {
  await new Promise((r) => host?.server.close(r));
});

/** The demo host page of `shop`, with its bulk form, on an origin of its own the shop allows. */
async function demoPage(shop: Shop, port: number): Promise<{ server: Server; origin: string; port: number }> {
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

/**
 * Products written straight to the table, without content: a generation of text the page shows
 * already writes nothing and is charged nothing, and the journey follows charged items.
 */
async function seedProducts(eshopId: number, count: number): Promise<void> {
  await h.wl.deps.db('products').insert(
    Array.from({ length: count }, (_, k) => ({
      eshop_id: eshopId,
      external_id: `BULK-${k + 1}`,
      name: JSON.stringify({ en: `Trail shoe ${k + 1}`, cs: `Trailová bota ${k + 1}` }),
      description: JSON.stringify({
        en: `<p>Light trail shoe ${k + 1} with a grippy sole, ${250 + (k % 40)} g.</p>`,
        cs: `<p>Lehká trailová bota ${k + 1} s přilnavou podrážkou, ${250 + (k % 40)} g.</p>`,
      }),
    })),
  );
}

const inRoot = <T>(page: Page, expression: string): Promise<T> =>
  page.evaluate(`(() => { const root = ${ROOT}; return ${expression}; })()`) as Promise<T>;
const waitInRoot = (page: Page, condition: string, timeout = LONG) =>
  page.waitForFunction(`(() => { const root = ${ROOT}; return root && (${condition}); })()`, undefined, {
    timeout,
  });
const badge = (page: Page) => inRoot<string | undefined>(page, `root.querySelector('.badge')?.textContent`);
/** The panel's figures by their label (Waiting, Done, Reserved, Charged, …), as numbers. */
const figures = async (page: Page): Promise<Record<string, number>> =>
  Object.fromEntries(
    (
      await inRoot<string[][]>(
        page,
        `[...root.querySelectorAll('dl > div')].map((d) => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])`,
      )
    ).map(([k, v]) => [k, Number(v!.replace(/\D/g, ''))]),
  );
const processedNow = async (page: Page) =>
  Number(await page.locator('ccs-batch-progress [role="progressbar"]').getAttribute('aria-valuenow'));
/** The focused element (in the panel's shadow root when it has focus): its text and outline. */
const focused = (page: Page) =>
  page.evaluate(`(() => {
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    const style = el ? getComputedStyle(el) : null;
    return { id: el?.id ?? '', text: (el?.textContent ?? '').trim(), outline: style ? style.outlineStyle + ' ' + style.outlineWidth : '' };
  })()`) as Promise<{ id: string; text: string; outline: string }>;
async function tabTo(page: Page, text: string): Promise<void> {
  for (let i = 0; i < 12 && (await focused(page)).text !== text; i++) await page.keyboard.press('Tab');
  expect(await focused(page)).toMatchObject({ text, outline: 'solid 3px' });
}

/** Reads of batch `id` the panel has had answered. */
function countReads(page: Page, id: () => number): () => number {
  let n = 0;
  page.on('response', (res) => {
    if (res.request().method() === 'GET' && res.url().endsWith(`/generation-batch/${id()}`)) n++;
  });
  return () => n;
}

/**
 * Estimates with a budget of 1 credit, reads the estimate, types it as the budget, estimates
 * again (within it now) and starts, all by keyboard; the batch's id and budget.
 */
async function startFromEstimate(page: Page): Promise<{ id: number; budget: number }> {
  const said = page.locator('#bulk-said');
  await page.getByLabel('Budget (credits)').focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('1');
  await page.keyboard.press('Enter');
  await said.filter({ hasText: /over the budget/ }).waitFor();
  const [, items, credits, each] =
    /^(\d+) texts to generate \(each product in each language\), about (\d+) credits \((\d+) each\)/.exec(
      (await said.textContent()) ?? '',
    ) ?? [];
  expect(Number(items)).toBe(ITEMS);
  expect(Number(credits)).toBe(Number(each) * ITEMS);
  await page.getByLabel('Budget (credits)').focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(credits!);
  await page.keyboard.press('Enter');
  await said.filter({ hasText: /within the budget\.$/ }).waitFor();
  await tabTo(page, 'Start generating');
  await page.keyboard.press('Enter');
  await said.filter({ hasText: /started\.$/ }).waitFor();
  // The button is gone; focus is on what it did, visibly.
  expect(await focused(page)).toMatchObject({ id: 'bulk-said', outline: 'solid 3px' });
  const id = Number(/#(\d+)/.exec((await said.textContent()) ?? '')?.[1]);
  await waitInRoot(page, `root.querySelector('h2')?.textContent === 'Bulk generation #${id}'`);
  return { id, budget: Number(credits) };
}

/** Waits (as long as a batch may take) until the page has heard `count` ends; the last one's detail. */
async function waitForEnd(page: Page, count: number): Promise<BatchEventDetail> {
  await page.waitForFunction(
    `window.ccsEvents.filter((e) => e.name === 'ccs-batch-finished').length >= ${count}`,
    undefined,
    { timeout: LONG },
  );
  return (await batchEvents(page)).filter((e) => e.name === 'ccs-batch-finished')[count - 1]!.detail;
}

/** A charge of an item in the credit ledger (its amount negative; bigint read as a number). */
interface LedgerCharge {
  job_id: number;
  amount: number;
}

/** What the database holds for the batch: its row, and its items' charges in the ledger. */
async function stored(eshopId: number, batchId: number) {
  const db = h.wl.deps.db;
  const batch = await db('generation_batches').where({ eshop_id: eshopId, id: batchId }).first();
  const charges: LedgerCharge[] = await db('credit_ledger as l')
    .join('generation_batch_items as i', (j) =>
      j.on('i.eshop_id', 'l.eshop_id').andOn('i.job_id', 'l.job_id'),
    )
    .where({ 'l.eshop_id': eshopId, 'i.batch_id': batchId, 'l.kind': 'charge' })
    .select('l.job_id', 'l.amount');
  return {
    charged: Number(batch!.charged),
    reserved: Number(batch!.reserved),
    charges: charges.length,
    chargedJobs: new Set(charges.map((c) => c.job_id)).size,
    ledgerCharged: charges.reduce((sum: number, c) => sum - Number(c.amount), 0),
  };
}

describe('bulk generation on the demo host page', () => {
  test('when the owner starts a batch from its estimate by keyboard, pauses, resumes and lets it finish, then cancels another as it runs, then the panel shows each state, the charges of the items and the credits released', async () => {
    const port = await freePort();
    const shop = await h.shop({ credits: 1_000_000, origins: [`http://127.0.0.1:${port}`] });
    const eshopId = shop.eshop.id;
    host = await demoPage(shop, port);
    await seedProducts(eshopId, PRODUCTS);

    const page = await h.open({ token: shop.whiteLabelToken, origin: host.origin });
    let following = 0;
    const reads = countReads(page, () => following);
    // The API token is the page server's only.
    expect(await page.content()).not.toContain(shop.apiToken);
    await waitInRoot(
      page,
      `root.querySelector('.hint')?.textContent === 'No bulk generation has been started yet.'`,
    );

    // 1. Started from the estimate; the progress moves.
    const first = await startFromEstimate(page);
    following = first.id;
    expect((await figures(page)).Budget).toBe(first.budget);
    expect(await page.locator('ccs-batch-progress [role="progressbar"]').getAttribute('aria-valuemax')).toBe(
      String(ITEMS),
    );
    await waitInRoot(
      page,
      `Number(root.querySelector('[role=progressbar]').getAttribute('aria-valuenow')) > 0`,
    );
    const moved = await processedNow(page);
    await waitInRoot(
      page,
      `Number(root.querySelector('[role=progressbar]').getAttribute('aria-valuenow')) > ${moved}`,
    );
    await shot(page, 'batch-journey-running-1024');

    // 2. Paused by keyboard: the items under way end, then the progress stops.
    await page.locator('ccs-batch-progress button[data-toggle]').focus();
    expect(await focused(page)).toMatchObject({ text: 'Pause', outline: 'solid 3px' });
    await page.keyboard.press('Enter');
    await waitInRoot(page, `root.querySelector('.badge').textContent === 'Paused'`);
    expect((await focused(page)).text).toBe('Resume');
    await waitInRoot(
      page,
      `[...root.querySelectorAll('dl > div')].some((d) => d.querySelector('dt').textContent === 'Being generated' && d.querySelector('dd').textContent === '0')`,
    );
    const stopped = await processedNow(page);
    expect(stopped).toBeLessThan(ITEMS);
    expect((await figures(page)).Reserved).toBe(0);
    const readsThen = reads();
    // Two more reads answered (the panel reads every 2 s), and nothing moved.
    await eventually(() => expect(reads()).toBeGreaterThanOrEqual(readsThen + 2), 15_000);
    expect(await processedNow(page)).toBe(stopped);
    expect(await badge(page)).toBe('Paused');
    await shot(page, 'batch-journey-paused-1024');

    // 3. Resumed (Enter again, focus stayed): it moves on and finishes.
    await page.keyboard.press('Enter');
    await waitInRoot(page, `root.querySelector('.badge').textContent !== 'Paused'`);
    const finished = await waitForEnd(page, 1);
    expect(finished).toMatchObject({
      batch_id: first.id,
      status: 'finished',
      counts: { total: ITEMS, done: ITEMS, queued: 0, running: 0, failed: 0, left_out: 0 },
    });
    await waitInRoot(page, `root.querySelector('.badge').textContent === 'Finished'`);
    expect(await processedNow(page)).toBe(ITEMS);
    const firstStored = await stored(eshopId, first.id);
    // One charge per item, the panel's charge the ledger's, within the budget.
    expect([firstStored.charges, firstStored.chargedJobs]).toEqual([ITEMS, ITEMS]);
    expect(firstStored.ledgerCharged).toBe(firstStored.charged);
    expect(firstStored.charged).toBeLessThanOrEqual(first.budget);
    expect(await figures(page)).toMatchObject({
      Done: ITEMS,
      Reserved: 0,
      Charged: firstStored.charged,
      Budget: first.budget,
    });
    expect(finished.credits).toMatchObject({ reserved: 0, charged: firstStored.charged });
    await shot(page, 'batch-journey-finished-1024');
    await page.setViewportSize({ width: 390, height: 900 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await shot(page, 'batch-journey-finished-390');

    // 4. Another batch of every product (they all have content now), cancelled as it runs.
    await page.getByLabel('Only products without generated content').focus();
    await page.keyboard.press('Space');
    const second = await startFromEstimate(page);
    following = second.id;
    expect(second.id).not.toBe(first.id);
    await waitInRoot(
      page,
      `Number(root.querySelector('[role=progressbar]').getAttribute('aria-valuenow')) > 0`,
    );
    await page.locator('ccs-batch-progress button[data-cancel]').focus();
    expect(await focused(page)).toMatchObject({ text: 'Cancel the generation', outline: 'solid 3px' });
    await page.keyboard.press('Enter');
    await waitInRoot(page, `root.querySelector('[role=group]')`);
    expect((await focused(page)).text).toBe('No, keep it');
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toMatchObject({ text: 'Yes, cancel it', outline: 'solid 3px' });
    await page.keyboard.press('Enter');
    await waitInRoot(page, `root.querySelector('.badge').textContent === 'Cancelled'`);
    await shot(page, 'batch-journey-cancelled-390');
    const ended = await waitForEnd(page, 2);
    expect(ended).toMatchObject({ batch_id: second.id, status: 'cancelled', credits: { reserved: 0 } });
    expect(ended.counts.left_out).toBeGreaterThan(0);
    expect(ended.counts.queued + ended.counts.running).toBe(0);
    const secondStored = await stored(eshopId, second.id);
    expect(secondStored).toMatchObject({ reserved: 0, charges: secondStored.chargedJobs });
    expect(secondStored.ledgerCharged).toBe(secondStored.charged);
    await waitInRoot(page, `!root.querySelector('.settling')`);
    expect(await figures(page)).toMatchObject({
      Reserved: 0,
      Charged: secondStored.charged,
      'Left out': ended.counts.left_out,
    });
    // Nothing of the shop's credits stays held.
    expect((await creditsRepository.getAccount(h.wl.deps.db, eshopId)).reserved).toBe(0);
    expect((await batchEvents(page)).filter((e) => e.name === 'ccs-batch-finished')).toHaveLength(2);
    await shot(page, 'batch-journey-cancelled-ended-390');
    await page.setViewportSize({ width: 1024, height: 900 });
    await shot(page, 'batch-journey-cancelled-ended-1024');
    await page.close();
  });
});
