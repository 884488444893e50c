// What a host page does with the editor besides opening it: switches the content language,
// reads the widgets shown and an html, undoes and redoes, narrows what the person may do
// (`features`, `readonly`) and vetoes a write (`ccs-before-save`).
import type { Page } from 'playwright-core';
import type { ContentWidget } from '@catalogue/content/v3';
import { expectNoViolations } from './axe';
import { headingOf, productWith, ROOT, setHeading } from './content';
import { editorHarness, inPage, shot, waitForEvent } from './harness';

jest.setTimeout(240_000);

const h = editorHarness('editor-host-api');
const EDITOR = `document.querySelector('ccs-editor')`;

/** Records the events the demo page does not (language changes, before-save). */
const listen = (page: Page, name: string) =>
  page.evaluate(
    `${EDITOR}.addEventListener(${JSON.stringify(name)}, (e) => window.ccsEvents.push({ name: e.type, detail: e.detail }))`,
  );

const buttons = (page: Page) =>
  page.evaluate(
    `[...${ROOT}.querySelectorAll('button')].map((b) => b.textContent.trim() || b.getAttribute('aria-label'))`,
  ) as Promise<string[]>;

describe('<ccs-editor> host API', () => {
  test('when the host calls setLanguage, getContent, getHtml, undo and redo, then each does what it says', async () => {
    const shop = await h.shop();
    const widgets = await productWith(shop, 'HOST-API', ['section']);
    await shop.host('PUT', '/content/HOST-API/type/product', {
      [widgets[0]!.id]: {
        children: [{ id: headingOf(widgets).id, value: { default: 'Hello', cs: 'Ahoj' } }],
      },
    });
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'HOST-API' });
    await waitForEvent(page, 'ccs-ready');
    await listen(page, 'ccs-language-change');

    await page.evaluate(`${EDITOR}.setLanguage('cs')`);
    expect(await waitForEvent(page, 'ccs-language-change')).toEqual({ lang: 'cs', entity_id: 'HOST-API' });
    const shown = await inPage<ContentWidget[]>(page, `${EDITOR}.getContent()`);
    expect(shown).toHaveLength(1);
    expect(shown[0]!.html).toContain('Ahoj');
    expect(await page.evaluate(`${ROOT}.querySelector('select.lang').value`)).toBe('cs');
    expect(await page.evaluate(`${EDITOR}.getHtml('default')`)).toContain('Hello');

    await setHeading(shop, 'HOST-API', 'Hello again');
    await page.evaluate(`${EDITOR}.refresh()`);
    expect(await page.evaluate(`${EDITOR}.undo()`)).toBe(true);
    expect(headingOf((await shop.host('GET', '/content/HOST-API/type/product')).body).value.default).toBe(
      'Hello',
    );
    expect(await page.evaluate(`${EDITOR}.redo()`)).toBe(true);
    expect(headingOf((await shop.host('GET', '/content/HOST-API/type/product')).body).value.default).toBe(
      'Hello again',
    );
    expect(await page.evaluate(`${EDITOR}.redo()`)).toBe(false);
    await page.close();
  });

  test('when the host allows only editing, or nothing, then the other tools are not offered', async () => {
    const shop = await h.shop();
    await productWith(shop, 'HOST-FEAT', ['section']);
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'HOST-FEAT' });
    await waitForEvent(page, 'ccs-ready');
    await page.evaluate(`${EDITOR}.setAttribute('features', 'edit')`);
    await page.waitForFunction(`!${ROOT}.querySelector('button[data-panel="add"]')`);
    const only = await buttons(page);
    expect(only).not.toEqual(expect.arrayContaining(['Add widget']));
    expect(only.filter((b) => ['Designs', 'Generate content', 'Undo', 'History'].includes(b))).toEqual([]);
    expect(only).toEqual(expect.arrayContaining(['Reload', expect.stringMatching(/^Delete/)]));
    await expectNoViolations(page, 'features=edit');

    await page.evaluate(`${EDITOR}.readonly = true`);
    await page.evaluate(`${EDITOR}.refresh()`);
    await page.waitForFunction(`!${ROOT}.querySelector('li.widget button')`);
    expect(await buttons(page)).toEqual(['Reload']);
    expect(await page.evaluate(`${ROOT}.querySelectorAll('.ccs-editable').length`)).toBe(0);
    await expectNoViolations(page, 'readonly');
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await shot(page, `readonly-${width}`);
    }
    await page.close();
  });

  test('when the host vetoes a save, then nothing is written and the person is told', async () => {
    const shop = await h.shop();
    await productWith(shop, 'HOST-VETO', ['section']);
    await setHeading(shop, 'HOST-VETO', 'Kept');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'HOST-VETO' });
    await waitForEvent(page, 'ccs-ready');
    await page.evaluate(
      `${EDITOR}.addEventListener('ccs-before-save', (e) => { window.ccsEvents.push({ name: e.type, detail: e.detail }); e.preventDefault(); })`,
    );
    await page.locator('ccs-editor li.widget .ccs-editable').first().focus();
    await page.keyboard.press('Enter');
    await page.keyboard.type(' changed');
    await page.keyboard.press('Enter');
    expect(await waitForEvent(page, 'ccs-before-save')).toMatchObject({
      action: 'edit',
      entity_id: 'HOST-VETO',
      lang: 'default',
      element_id: expect.any(Number),
      value: 'Kept changed',
    });
    await page
      .locator('ccs-editor [role="alert"]', { hasText: 'The page did not let this change be saved.' })
      .waitFor();
    expect(headingOf((await shop.host('GET', '/content/HOST-VETO/type/product')).body).value.default).toBe(
      'Kept',
    );
    await expectNoViolations(page, 'vetoed');
    await page.close();
  });
});
