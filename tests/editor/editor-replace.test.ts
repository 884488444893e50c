// Destructive actions ask first: filling a design and a generation that replaces the widgets
// say which widgets go and in which languages, send nothing until confirmed, and "keep them"
// leaves the content as it was.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { saveEditorContent } from '@catalogue/content-store';
import { makeGenerationJob } from '@catalogue/testing';
import { productWith, ROOT, setHeading } from './content';
import { editorHarness, hostEvents, shot, waitForEvent } from './harness';

jest.setTimeout(180_000);

const h = editorHarness('editor-replace');

const ids = (widgets: ReadonlyArray<{ id: number }>) => widgets.map((w) => w.id);
const activeText = (page: Page, root: string) =>
  page.evaluate(`(${root}).activeElement?.textContent.trim() ?? null`) as Promise<string | null>;

async function expectNoViolations(page: Page, state: string): Promise<void> {
  const result = await new AxeBuilder({ page }).include('ccs-editor').analyze();
  expect({
    state,
    violations: result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  }).toEqual({ state, violations: [] });
}

describe('<ccs-editor> replacing widgets', () => {
  test('when an owner fills a design over imported widgets, then the editor lists what goes and fills only once confirmed', async () => {
    const shop = await h.shop();
    await productWith(shop, 'REP-1', ['section', 'parameters']);
    await setHeading(shop, 'REP-1', 'Imported description');
    // A generation already wrote this content and was charged 6 credits.
    const db = h.wl.deps.db;
    const jobId = await makeGenerationJob(db, shop.eshop.id, { entityId: 'REP-1' });
    await db('generation_jobs').where({ id: jobId }).update({ status: 'done', charged_cost: 6 });
    await db.transaction((trx) =>
      saveEditorContent(
        trx,
        {
          eshop: shop.eshop,
          entityType: 'product',
          externalId: 'REP-1',
          source: { kind: 'generation', jobId },
        },
        (current) => current ?? [],
      ),
    );
    const before = (await shop.host('GET', '/content/REP-1/type/product')).body;
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'REP-1', width: 1440 });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');
    await editor.getByRole('button', { name: 'Designs' }).click();
    await editor.getByRole('button', { name: 'Use this design' }).first().click();
    await editor.locator('ccs-designs-panel input').first().fill('Built for trails');
    await editor.getByRole('button', { name: 'Fill the design' }).click();

    const question = editor.locator('ccs-designs-panel .confirm');
    await question.waitFor();
    await expect(question.locator('#confirm-title').textContent()).resolves.toContain(
      'This deletes the 2 widgets shown now, in every language (Default, Czech (cs), English (en))',
    );
    await expect(
      question.locator('p.hint:not(#confirm-title)').textContent({ timeout: 5_000 }),
    ).resolves.toBe(
      'Generations already cost 6 credits for this content; replacing it refunds nothing (Undo brings it back).',
    );
    await expect(question.locator('li').allTextContents()).resolves.toEqual([
      expect.stringMatching(/^Section — Imported description A short/),
      expect.stringMatching(/^Parameters table — Weight 1.2 kg Dimensions/),
    ]);
    const panel = `${ROOT}.querySelector('ccs-designs-panel').shadowRoot`;
    expect(await activeText(page, panel)).toMatch(/^This deletes/);
    await expectNoViolations(page, 'fill question');
    await shot(page, 'fill-confirm-1440');
    await page.setViewportSize({ width: 375, height: 900 });
    await shot(page, 'fill-confirm-375');

    // Keep them: nothing was sent, focus goes back to "Fill the design".
    await editor.getByRole('button', { name: 'Keep them (go back)' }).click();
    expect(ids((await shop.host('GET', '/content/REP-1/type/product')).body)).toEqual(ids(before));
    expect(await activeText(page, panel)).toBe('Fill the design');

    await editor.getByRole('button', { name: 'Fill the design' }).click();
    await editor.getByRole('button', { name: 'Replace them and fill' }).click();
    expect(await waitForEvent(page, 'ccs-change')).toMatchObject({ action: 'fill-design' });
    const after = (await shop.host('GET', '/content/REP-1/type/product')).body;
    expect(ids(after)).not.toEqual(ids(before));
    expect(JSON.stringify(after)).toContain('Built for trails');
    await page.close();
  });

  test('when an owner fills a design while the editor shows Czech, then only the Czech page gets the Czech words', async () => {
    const shop = await h.shop();
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'REP-CS', width: 1440 });
    await waitForEvent(page, 'ccs-ready');
    await page.evaluate(`document.querySelector('ccs-editor').setAttribute('content-lang', 'cs')`);
    await page.waitForFunction(`${ROOT}.querySelector('select.lang')?.value === 'cs'`);
    const editor = page.locator('ccs-editor');
    await editor.getByRole('button', { name: 'Designs' }).click();
    await editor.getByRole('button', { name: 'Use this design' }).first().click();
    await editor.locator('ccs-designs-panel input').first().fill('Stan, který postavíte za tři minuty');
    await editor.getByRole('button', { name: 'Fill the design' }).click();
    expect(await waitForEvent(page, 'ccs-change')).toMatchObject({ action: 'fill-design' });

    const html = (await shop.host('GET', '/entity/REP-CS/type/product/html')).body.html;
    expect(html.cs).toContain('Stan, který postavíte za tři minuty');
    expect(html.en).not.toContain('Stan');
    expect(html.default).not.toContain('Stan');
    await page.close();
  });

  test('when an owner starts a generation that replaces the widgets, then nothing starts until the list is confirmed', async () => {
    const shop = await h.shop({ credits: 500 });
    await productWith(shop, 'REP-2', ['faq']);
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'REP-2' });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');
    await h.pauseGeneration();
    try {
      await editor.getByRole('button', { name: 'Generate content' }).click();
      await editor.locator('.estimate', { hasText: /Estimated cost/ }).waitFor();
      await editor.getByLabel('Replace the existing widgets').check();
      await editor.getByRole('button', { name: 'Start' }).click();
      const question = editor.locator('ccs-generate-panel .confirm');
      // Asked once the start's pre-check passed.
      await question.waitFor();
      await expect(question.locator('li').allTextContents()).resolves.toEqual([
        expect.stringMatching(/^Questions and answers — /),
      ]);
      await expectNoViolations(page, 'generate question');
      await shot(page, 'generate-confirm');
      await editor.getByRole('button', { name: 'Keep them (go back)' }).click();
      // Nothing was started.
      expect((await hostEvents(page)).filter((e) => e.name === 'ccs-generation')).toEqual([]);
      // Nothing is running for the product: 404, no job.
      const running = await shop.host('GET', '/content/REP-2/type/product/generate');
      expect(running.status).toBe(404);
      expect(running.body.data).toBeUndefined();
      await editor.getByRole('button', { name: 'Start' }).click();
      await editor.getByRole('button', { name: 'Replace them and generate' }).click();
      expect((await waitForEvent(page, 'ccs-generation')).job).toMatchObject({ status: 'pending' });
    } finally {
      await h.resumeGeneration();
    }
    await waitForEvent(page, 'ccs-change');
    await page.close();
  });
});
