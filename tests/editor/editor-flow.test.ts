// The editor in a real browser (Debian's chromium) on the demo host page, against the real
// services: fill a design from its structure, edit a text in cs and find it in the API and the
// v2 catalogue list, reorder by keyboard and by drag and drop, add from the catalogue, delete
// and undo, generate with the builtin provider and resume a running job after a reload; the
// host page receives the ccs-* events; axe finds no serious or critical violation.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import type { Widget } from './content';
import {
  editorHarness,
  hostEvents,
  inPage,
  SCREENSHOTS,
  shot,
  waitForEvent,
  waitForWidgets,
} from './harness';

// A busy 2-core machine runs these; the browser steps wait on real services, not on timers.
jest.setTimeout(120_000);

const h = editorHarness('editor-flow');

async function expectNoSeriousViolations(page: Page, state: string): Promise<void> {
  const result = await new AxeBuilder({ page }).include('ccs-editor').analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect({
    state,
    violations: serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  }).toEqual({ state, violations: [] });
}

/** A widget's html without its own id (a copy is another widget with the same content). */
const bare = (html: string) => html.replace(/ data-widget-id="\d+"/g, '');

afterAll(() => process.stdout.write(`editor screenshots: ${SCREENSHOTS}\n`));

describe('<ccs-editor> on the demo host page', () => {
  test('when a shop owner fills, edits, reorders, adds and deletes, then the API and the v2 list serve it and the host hears of it', async () => {
    const shop = await h.shop();
    const imported = await shop.backOffice('POST', '/api/v2/rest/products', [
      { id: 'DEMO-1', name: { default: 'Trail shoe', cs: 'Trailová bota' } },
    ]);
    expect(imported.status).toBe(200);
    const page = await h.open({ token: shop.whiteLabelToken });
    const ready = await waitForEvent(page, 'ccs-ready');
    expect(ready).toEqual({
      entity_id: 'DEMO-1',
      languages: ['default', 'cs', 'en'],
      widgets: 0,
      lang: 'default',
    });
    await expectNoSeriousViolations(page, 'empty');

    // Fill a design from its structure, watching a live counter.
    const editor = page.locator('ccs-editor');
    await editor.getByRole('button', { name: 'Designs' }).click();
    await editor.getByRole('button', { name: 'Use this design' }).first().click();
    const heading = editor.locator('ccs-designs-panel input').first();
    await heading.fill('Built for trails');
    await expect(editor.locator('ccs-designs-panel .counter').first().textContent()).resolves.toBe(
      '16 / 120',
    );
    await editor.locator('ccs-designs-panel fieldset fieldset input').first().fill('Light');
    await expectNoSeriousViolations(page, 'design form');
    await shot(page, 'design-form');
    await editor.getByRole('button', { name: 'Fill the design' }).click();
    expect(await waitForEvent(page, 'ccs-change')).toMatchObject({ action: 'fill-design', widgets: 2 });
    await waitForWidgets(page, 2);

    // Edit the heading in Czech, in place.
    // The Czech texts are read anew: until they are drawn the default ones stay (an edit there
    // is a default one, and the redraw would take the text being typed). The heading has no
    // Czech text yet, so the Czech view marks it as shown from the default language.
    await editor.getByLabel('Language').selectOption('cs');
    await page.waitForFunction(
      `document.querySelector('ccs-editor').shadowRoot.querySelector('li.widget .ccs-editable[aria-describedby~="ccs-note-fallback"]')`,
    );
    const title = editor.locator('li.widget').first().locator('.ccs-editable').first();
    await title.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Na horské stezky');
    await page.keyboard.press('Enter');
    expect(await waitForEvent(page, 'ccs-change', 2)).toMatchObject({ action: 'edit', lang: 'cs' });
    // Enter saved it; focus stays on that text (drawn anew from the answer), not at the page's top.
    await page.waitForFunction(
      `document.querySelector('ccs-editor').shadowRoot.activeElement?.textContent === 'Na horské stezky'`,
    );
    const html = (await shop.host('GET', '/entity/DEMO-1/type/product/html')).body;
    expect(html.html.cs).toContain('Na horské stezky');
    expect(html.html.default).toContain('Built for trails');
    const listed = (await shop.backOffice('GET', '/api/v2/rest/products?lang=all')).body;
    expect(listed.data[0]!.content.html.cs).toContain('Na horské stezky');
    await shot(page, 'edited-cs');
    await expectNoSeriousViolations(page, 'content');

    // Reorder with the keyboard only: focus "move down" of the first widget and press Enter.
    const before = (await shop.host('GET', '/content/DEMO-1/type/product')).body.map((w) => w.id);
    await editor.locator('li.widget').first().locator('button[data-move="down"]').focus();
    await page.keyboard.press('Enter');
    expect(await waitForEvent(page, 'ccs-change', 3)).toMatchObject({
      action: 'reorder',
      order: [...before].reverse(),
    });
    expect((await shop.host('GET', '/content/DEMO-1/type/product')).body.map((w) => w.id)).toEqual(
      [...before].reverse(),
    );
    // Focus stayed with the moved widget (now last: its "move up" button).
    expect(
      await inPage(
        page,
        `document.querySelector('ccs-editor').shadowRoot.activeElement?.getAttribute('data-move')`,
      ),
    ).toBe('up');

    // And back by drag and drop.
    await editor.locator('li.widget').nth(1).locator('.handle').dragTo(editor.locator('li.widget').first());
    expect(await waitForEvent(page, 'ccs-change', 4)).toMatchObject({ action: 'reorder', order: before });

    // Add a widget from the catalogue, at the end.
    await editor.getByRole('button', { name: 'Add widget' }).click();
    await expectNoSeriousViolations(page, 'add panel');
    await editor.locator('ccs-add-panel button.choice').first().click();
    expect(await waitForEvent(page, 'ccs-change', 5)).toMatchObject({ action: 'add', via: 'catalogue' });
    await waitForWidgets(page, 3);

    // Delete it, then undo.
    const added = (await shop.host('GET', '/content/DEMO-1/type/product')).body[2]!;
    await editor
      .locator('li.widget')
      .nth(2)
      .getByRole('button', { name: /^Delete/ })
      .click();
    expect(await waitForEvent(page, 'ccs-change', 6)).toMatchObject({
      action: 'delete',
      widget_id: added.id,
    });
    await waitForWidgets(page, 2);
    await shot(page, 'deleted-undo');
    await editor.getByRole('button', { name: 'Undo' }).click();
    expect(await waitForEvent(page, 'ccs-change', 7)).toMatchObject({ action: 'restore' });
    const restored = (await shop.host('GET', '/content/DEMO-1/type/product')).body;
    expect(restored).toHaveLength(3);
    expect(restored[2]!.html).toBe(added.html);

    // Save the first widget as a favourite, add it back from the favourites at the top.
    await editor
      .locator('li.widget')
      .first()
      .getByRole('button', { name: /^Save as a favourite/ })
      .click();
    expect(await waitForEvent(page, 'ccs-change', 8)).toMatchObject({ action: 'favourite' });
    const favourites = (await shop.host('GET', '/widget-favourite')).body;
    expect(favourites.data).toHaveLength(1);
    await editor.getByRole('button', { name: 'Add widget' }).click();
    await editor.getByLabel('Position').selectOption({ label: 'Before widget 1' });
    await editor.locator('ccs-add-panel button.choice', { hasText: favourites.data[0]!.name }).click();
    expect(await waitForEvent(page, 'ccs-change', 9)).toMatchObject({ action: 'add', via: 'favourite' });
    const withFavourite = (await shop.host('GET', '/content/DEMO-1/type/product?lang=cs')).body;
    expect(withFavourite).toHaveLength(4);
    expect(bare(withFavourite[0]!.html)).toBe(bare(withFavourite[1]!.html));

    // Copy a widget to another product (registered by its own editor elsewhere).
    await shop.host('POST', '/register-entity', { entity_id: 'DEMO-2', type: 'product' });
    await editor
      .locator('li.widget')
      .first()
      .getByRole('button', { name: /^Copy to another item/ })
      .click();
    await editor.getByLabel('Identifier of the item').fill('DEMO-2');
    await page.keyboard.press('Enter');
    expect(await waitForEvent(page, 'ccs-change', 10)).toMatchObject({
      action: 'copy',
      target_entity_id: 'DEMO-2',
    });
    const copied = (await shop.host('GET', '/content/DEMO-2/type/product?lang=cs')).body;
    expect(copied.map((w) => bare(w.html))).toEqual([bare(withFavourite[0]!.html)]);

    expect((await hostEvents(page)).filter((e) => e.name === 'ccs-error')).toEqual([]);
    await page.close();
  });

  test('when a shop owner duplicates and removes an entry of a widget with the keyboard, then element-copy stores it and focus stays in the list', async () => {
    const shop = await h.shop();
    await shop.host('POST', '/register-entity', { entity_id: 'FAQ-1', type: 'product' });
    const catalogue = (await shop.host('GET', '/widget')).body.data;
    const faq = catalogue.find((w) => w.type === 'faq')!;
    const section = catalogue.find((w) => w.type === 'section')!;
    await shop.host('POST', '/content/FAQ-1/type/product', { widget_id: faq.id });
    const original = (await shop.host('POST', '/content/FAQ-1/type/product', { widget_id: section.id }))
      .body[0]!;
    const list = original.children.find((e) => e.class === 'ccs-faq__list')!;
    const questions = (w: Widget) =>
      w.children
        .filter((e) => e.parent_id === list.id)
        .sort((a, b) => a.child_id - b.child_id)
        .map((item) => w.children.find((e) => e.parent_id === item.id)!.value.default);
    const before = questions(original);
    expect(before.length).toBeGreaterThan(1);

    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'FAQ-1' });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');
    // A section repeats nothing: it offers no entries.
    await expect(
      editor
        .locator('li.widget')
        .nth(1)
        .getByRole('button', { name: /^Entries/ })
        .count(),
    ).resolves.toBe(0);

    const toggle = editor
      .locator('li.widget')
      .first()
      .getByRole('button', { name: /^Entries/ });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const entries = editor.getByRole('list', { name: /^Entries of/ });
    await expect(entries.getByRole('listitem').count()).resolves.toBe(before.length);
    await expectNoSeriousViolations(page, 'entries');
    await entries.getByRole('button', { name: `Duplicate (Entry 1: ${before[0]})` }).focus();
    await page.keyboard.press('Enter');
    expect(await waitForEvent(page, 'ccs-change')).toMatchObject({
      action: 'entry-copy',
      widget_id: original.id,
    });
    const copied = (await shop.host('GET', '/content/FAQ-1/type/product')).body[0]!;
    expect(questions(copied)).toEqual([before[0], ...before]);
    // The questions are still the catalogue's samples: stored and shown in the editor (to fill),
    // never in the public html.
    const html = (await shop.host('GET', '/entity/FAQ-1/type/product/html')).body;
    expect(html.html.default).not.toContain(before[0]);
    // Focus went to the copy's row, so the keyboard user goes on from there.
    expect(
      await inPage(
        page,
        `document.querySelector('ccs-editor').shadowRoot.activeElement?.getAttribute('aria-label')`,
      ),
    ).toBe(`Duplicate (Entry 2: ${before[0]})`);
    await shot(page, 'entries');

    // Remove the second entry (the copy) with Tab from the focused "Duplicate" and Enter.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await waitForEvent(page, 'ccs-change', 2)).toMatchObject({ action: 'entry-remove' });
    const removed = (await shop.host('GET', '/content/FAQ-1/type/product')).body[0]!;
    expect(questions(removed)).toEqual(before);
    await expect(entries.getByRole('listitem').count()).resolves.toBe(before.length);

    // Down to one entry (elsewhere), then Reload: the last entry cannot be removed, only the widget.
    for (let n = before.length; n > 1; n--) {
      await shop.host('POST', '/content/element-copy/FAQ-1/type/product', {
        action: 'remove',
        index: 1,
        contentId: original.id,
        parent: String(list.id),
      });
    }
    await editor.getByRole('button', { name: 'Reload' }).click();
    await waitForEvent(page, 'ccs-ready', 2);
    await expect(entries.getByRole('listitem').count()).resolves.toBe(1);
    await expect(entries.getByRole('button', { name: /^Remove/ }).isDisabled()).resolves.toBe(true);
    await expect(entries.getByRole('button', { name: /^Duplicate/ }).isEnabled()).resolves.toBe(true);
    expect((await hostEvents(page)).filter((e) => e.name === 'ccs-error')).toEqual([]);
    await page.close();
  });

  test('when a generation runs and the page is reloaded, then the editor resumes it and reloads the content when done', async () => {
    const shop = await h.shop({ credits: 500 });
    // The host gives the title in each language: a cs job writes from cs text only.
    const page = await h.open({
      token: shop.whiteLabelToken,
      entityId: 'GEN-1',
      entityTitles: { default: 'Trail shoe', cs: 'Trailová bota' },
    });
    await waitForEvent(page, 'ccs-ready');
    const stored = await h.wl.deps
      .db('wl_entities')
      .where({ eshop_id: shop.eshop.id, entity_id: 'GEN-1' })
      .first('title');
    expect(stored?.title).toEqual({ default: 'Trail shoe', cs: 'Trailová bota' });
    const editor = page.locator('ccs-editor');
    await h.pauseGeneration();
    try {
      await editor.getByRole('button', { name: 'Generate content' }).click();
      await editor
        .locator('.estimate', { hasText: /Estimated cost: \d+ credits\. Remaining: 500 credits\./ })
        .waitFor();
      await editor.getByLabel('Language of the texts').selectOption('cs');
      await expectNoSeriousViolations(page, 'generate form');
      await shot(page, 'generate-form');
      await editor.getByRole('button', { name: 'Start' }).click();
      const started = await waitForEvent(page, 'ccs-generation');
      expect(started.job).toMatchObject({ status: 'pending', lang: 'cs' });

      await page.reload();
      const resumed = await waitForEvent(page, 'ccs-generation');
      expect(resumed.job).toMatchObject({ id: started.job.id, status: 'pending' });
      await expect(editor.locator('.progress').isVisible()).resolves.toBe(true);
      await shot(page, 'generation-resumed');
    } finally {
      await h.resumeGeneration();
    }
    expect(await waitForEvent(page, 'ccs-change')).toMatchObject({
      action: 'generate',
      job_id: expect.any(Number),
    });
    const done = (await hostEvents(page)).filter((e) => e.name === 'ccs-generation').at(-1)!.detail;
    expect(done.job.status).toBe('done');
    await waitForWidgets(page, done.job.widgets_created);
    expect(done.job.widgets_created).toBeGreaterThan(0);
    // The owner sees what was left out and why (the classic design's gallery: no images).
    expect(done.job.widgets_skipped).toContainEqual(
      expect.objectContaining({ type: 'gallery', reason: 'no_images' }),
    );
    await editor.getByText(/Left out, for want of material: .*Gallery \(no images\)/).waitFor();
    await shot(page, 'generated');
    await page.close();
  });
});
