// Texts that are not the owner's own in the language shown are marked, never shown silently:
// a language without its own text shows the default one marked "shown from default — not
// translated yet"; a catalogue sample (element `sample`) is marked "to fill". Parameter names and
// values are language-neutral data (one string for every language): never marked.
import type { Page } from 'playwright-core';
import { expectNoViolations } from './axe';
import { productWith, ROOT, setHeading } from './content';
import { eventually } from '@catalogue/testing';
import { editorHarness, shot, waitForEvent } from './harness';

jest.setTimeout(180_000);

const h = editorHarness('editor-marks');

/** Each editable text of the first widget: its text and the note drawn after it ('' when none). */
const marks = (page: Page) =>
  page.evaluate(`[...${ROOT}.querySelectorAll('li.widget .ccs-editable')].map((n) => {
    const after = getComputedStyle(n, '::after').content;
    return [n.textContent.trim(), after === 'none' || after === 'normal' ? '' : after.replace(/^"|"$/g, ''), n.getAttribute('aria-describedby')];
  })`) as Promise<Array<[string, string, string]>>;

describe('<ccs-editor> marks', () => {
  test('when a language has no text of its own and an element is a catalogue sample, then each is marked visibly and described', async () => {
    const shop = await h.shop();
    await productWith(shop, 'MARK-1', ['section']);
    await setHeading(shop, 'MARK-1', 'Own heading');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'MARK-1' });
    await waitForEvent(page, 'ccs-ready');
    // Default: the owner's heading is unmarked; the catalogue's sample text is to fill.
    expect(await marks(page)).toEqual([
      ['Own heading', '', 'ccs-edit-hint'],
      [
        expect.stringMatching(/^A short introduction/),
        'to fill: sample text, never published',
        'ccs-edit-hint ccs-note-sample',
      ],
    ]);

    await page.evaluate(`document.querySelector('ccs-editor').setLanguage('cs')`);
    expect(await marks(page)).toEqual([
      ['Own heading', 'shown from default — not translated yet', 'ccs-edit-hint ccs-note-fallback'],
      [
        expect.stringMatching(/^A short introduction/),
        'to fill: sample text, never published',
        'ccs-edit-hint ccs-note-sample',
      ],
    ]);
    await expectNoViolations(page, 'marked');
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await shot(page, `marks-${width}`);
    }

    // The Czech heading written: its mark goes.
    await page.locator('ccs-editor li.widget .ccs-editable').first().focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Vlastní nadpis');
    await page.keyboard.press('Enter');
    await waitForEvent(page, 'ccs-change');
    await page.waitForFunction(
      `${ROOT}.querySelector('li.widget .ccs-editable')?.textContent === 'Vlastní nadpis'`,
    );
    expect((await marks(page))[0]).toEqual(['Vlastní nadpis', '', 'ccs-edit-hint']);
    await page.close();
  });

  test('when a product with parameters is shown in cs, then its parameter names and values are not marked, its untranslated prose is', async () => {
    const shop = await h.shop();
    // The catalogue item: texts in default and cs, one parameter with one value (one string each).
    const imported = await shop.backOffice('POST', '/api/v2/rest/multi-import', {
      parameters: [{ id: 7, name: 'Colour', values: [{ id: 1, value: 'Green' }] }],
      products: [
        {
          id: 'PARAM-1',
          name: { default: 'Trail shoe', cs: 'Trailová bota' },
          description: { default: '<p>Light and grippy.</p>' },
          parameters_ids: [7],
        },
      ],
    });
    expect(imported.status).toBe(200);
    // Rendered by the worker: composed from the product's own data (its name and description in
    // a section, its parameters in the table).
    await eventually(async () => {
      const listed = await shop.backOffice('GET', '/api/v2/rest/products');
      expect(listed.body.data.map((p) => p.id)).toEqual(['PARAM-1']);
    }, 20_000);
    await shop.host('POST', '/register-entity', {
      entity_id: 'PARAM-1',
      type: 'product',
      title: 'Trail shoe',
    });
    const widgets = (await shop.host('GET', '/content/PARAM-1/type/product')).body;
    expect(widgets.some((w) => w.children.some((e) => e.class === 'ccs-parameters__value'))).toBe(true);
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'PARAM-1' });
    await waitForEvent(page, 'ccs-ready');
    await page.evaluate(`document.querySelector('ccs-editor').setLanguage('cs')`);
    const cells =
      (await page.evaluate(`[...${ROOT}.querySelectorAll('li.widget th, li.widget td')].map((n) => {
      const after = getComputedStyle(n, '::after').content;
      return [n.textContent.trim(), after === 'none' || after === 'normal' ? '' : after.replace(/^"|"$/g, '')];
    })`)) as Array<[string, string]>;
    expect(cells).toEqual([
      ['Colour', ''],
      ['Green', ''],
    ]);
    // The description has no Czech text: it is still marked.
    expect(await marks(page)).toContainEqual([
      'Light and grippy.',
      'shown from default — not translated yet',
      'ccs-edit-hint ccs-note-fallback',
    ]);
    await shot(page, 'marks-parameters-cs');
    await page.close();
  });
});
