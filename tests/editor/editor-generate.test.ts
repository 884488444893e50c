// "Generate content" for a shop whose catalogue is in en and cs only (no `default` texts), in
// Chromium: a replacing generation in cs is checked before the owner is asked to delete
// anything (the refusal names the language and what to add; no question, nothing started), it
// works when every language it writes again has texts; an appending generation adds no widget
// the page already shows and says so.
import type { Page } from 'playwright-core';
import { eventually } from '@catalogue/testing';
import { expectNoViolations } from './axe';
import { ROOT } from './content';
import { editorHarness, hostEvents, inPage, shot, waitForEvent, type Shop } from './harness';

jest.setTimeout(240_000);

const h = editorHarness('editor-generate');
const IMAGE = 'https://cdn.shop.test/summit.jpg';
const TITLES = { en: 'Summit down jacket', cs: 'Péřová bunda Summit' };

/** A shop (default, cs, en active) whose catalogue sent one jacket in en and cs only. */
async function jacketShop(id: string): Promise<Shop> {
  const shop = await h.shop();
  expect(
    (
      await shop.backOffice('POST', '/api/v2/rest/parameters', [
        { id: 1, name: 'Colour', values: [{ id: 11, value: 'Green' }] },
      ])
    ).status,
  ).toBe(200);
  const product = {
    id,
    name: TITLES,
    description: { en: '<p>800-fill goose down, 320 g.</p>', cs: '<p>Husí peří 800 cuin, 320 g.</p>' },
    images: [IMAGE],
    parameters_ids: [1],
  };
  expect((await shop.backOffice('POST', '/api/v2/rest/products', [product])).status).toBe(200);
  // The import's rendering composed the page (section, parameters table, gallery).
  await eventually(async () => {
    await shop.host('POST', '/register-entity', { entity_id: id, type: 'product', title: TITLES });
    const widgets = (await shop.host('GET', `/content/${id}/type/product`)).body;
    if (!Array.isArray(widgets) || widgets.length !== 3)
      throw new Error(`the import of ${id} was not rendered`);
  }, 15_000);
  return shop;
}

async function openGenerate(page: Page, lang: string, replace: boolean): Promise<void> {
  const editor = page.locator('ccs-editor');
  await editor.getByRole('button', { name: 'Generate content' }).click();
  await editor.locator('.estimate', { hasText: /Estimated cost/ }).waitFor();
  await editor.getByLabel('Language of the texts').selectOption(lang);
  if (replace) await editor.getByLabel('Replace the existing widgets').check();
}

const status = (page: Page) =>
  inPage<string>(page, `${ROOT}.querySelector('.status')?.textContent.trim() ?? ''`);

describe('<ccs-editor> generating content for a shop that writes no default texts', () => {
  test('when a replace in cs would remove a text the main language cannot write again, then the refusal says so before any question, naming the language and the fix', async () => {
    const shop = await jacketShop('GEN-REFUSED');
    // The owner once wrote a heading in the main language (a fill without a language is `default`'s).
    const designs = (await shop.host('GET', '/design?type=product')).body.data;
    const classic = designs.find((d) => d.name === 'Classic product')!;
    const structure = (await shop.host('GET', `/design/${classic.id}/structure`)).body.widget;
    const section = structure.find((w) => w.fillable && w.type === 'section')!;
    await shop.host('POST', `/entity/GEN-REFUSED/type/product/design`, {
      design_id: classic.id,
      widget: [{ design_widget_id: section.design_widget_id, fields: { heading: 'Warm for the summit' } }],
    });
    const before = (await shop.host('GET', '/content/GEN-REFUSED/type/product')).body;
    const page = await h.open({
      token: shop.whiteLabelToken,
      entityId: 'GEN-REFUSED',
      entityTitles: TITLES,
      width: 1280,
    });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');

    await openGenerate(page, 'cs', true);
    await editor.getByRole('button', { name: 'Start' }).click();

    const alert = editor.locator('ccs-generate-panel .error');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toBe(
      "Replacing would remove the text in the shop's main language, and there is nothing in the shop's main language to write it again from: add a name or description in the shop's main language to this item in your catalogue, or untick “Replace the existing widgets” to add the new content to the widgets shown now. Or have the shop's main language set (its default_language setting) to a language your catalogue writes in.",
    );
    // No question was asked, nothing started, nothing changed; the refusal has focus.
    expect(await editor.locator('ccs-generate-panel .confirm').count()).toBe(0);
    expect(
      await inPage(page, `${ROOT}.querySelector('ccs-generate-panel').shadowRoot.activeElement?.className`),
    ).toBe('error');
    expect((await hostEvents(page)).filter((e) => e.name === 'ccs-generation')).toEqual([]);
    expect((await shop.host('GET', '/content/GEN-REFUSED/type/product')).body).toEqual(before);
    await expectNoViolations(page, 'generate refused');
    await shot(page, 'generate-cs-replace-refused');

    // Unticking "replace" clears the refusal: it was about the replace.
    await editor.getByLabel('Replace the existing widgets').uncheck();
    expect(await editor.locator('ccs-generate-panel .error').count()).toBe(0);
    await page.close();
  });

  test('when the owner replaces the widgets in cs, then the question lists them, and once confirmed cs and en are written again and the parameters stay', async () => {
    const shop = await jacketShop('GEN-REPLACE');
    const page = await h.open({
      token: shop.whiteLabelToken,
      entityId: 'GEN-REPLACE',
      entityTitles: TITLES,
      width: 1280,
    });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');

    await openGenerate(page, 'cs', true);
    await editor.getByRole('button', { name: 'Start' }).click();
    const question = editor.locator('ccs-generate-panel .confirm');
    await question.waitFor();
    await expect(question.locator('li').count()).resolves.toBe(3);
    // The estimate is now the service's: cs and en are written (3 text widgets × 2 languages × 2).
    await expect(editor.locator('ccs-generate-panel .estimate').textContent()).resolves.toMatch(
      /Estimated cost: 12 credits\. Remaining: 500 credits\./,
    );
    expect(await editor.locator('ccs-generate-panel .error').count()).toBe(0);
    await shot(page, 'generate-cs-replace-confirm');
    await editor.getByRole('button', { name: 'Replace them and generate' }).click();
    expect(await waitForEvent(page, 'ccs-change')).toMatchObject({ action: 'generate' });

    const html = (await shop.host('GET', '/entity/GEN-REPLACE/type/product/html')).body.html;
    expect(html.cs).toContain('Husí peří 800 cuin');
    expect(html.cs).not.toContain('goose down');
    expect(html.en).toContain('800-fill goose down');
    for (const lang of ['default', 'cs', 'en']) expect(html[lang]).toMatch(/Colour[\s\S]*Green/);
    await shot(page, 'generated-cs-replace');
    await page.close();
  });

  test('when the owner appends a generation to a page that shows the description, then no widget repeats it and the editor says what was left out', async () => {
    const shop = await jacketShop('GEN-APPEND');
    const page = await h.open({
      token: shop.whiteLabelToken,
      entityId: 'GEN-APPEND',
      entityTitles: TITLES,
      width: 1280,
    });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');

    await openGenerate(page, 'en', false);
    await editor.getByRole('button', { name: 'Start' }).click();
    expect(await waitForEvent(page, 'ccs-change')).toMatchObject({ action: 'generate' });

    await page.waitForFunction(`${ROOT}.querySelectorAll('li.widget').length === 4`);
    const widgets = (await shop.host('GET', '/content/GEN-APPEND/type/product')).body;
    const html = (await shop.host('GET', '/entity/GEN-APPEND/type/product/html')).body.html;
    expect((html.en!.match(/800-fill goose down/g) ?? []).length).toBe(1);
    // The one widget added: benefits, each a sentence of the item's facts.
    const added = widgets[3]!.children.map((e) => e.value?.en).filter(Boolean);
    expect(added).toEqual(['Colour', 'The colour is Green.']);
    await expect(status(page)).resolves.toMatch(
      /^Generation finished: 1 widget written\. .*Left out, already on the page \(not charged\): Section, .*Gallery/,
    );
    await shot(page, 'generated-append-en');
    await page.close();
  });
});
