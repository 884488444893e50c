// Switching the content language while its texts are on the way: until they arrive the texts of
// the language left are shown busy and cannot be edited (a click and typing change nothing), the
// status says what is loading; afterwards editing works in the new language. A text being typed
// when the switch is asked for is saved in the language it was typed in, not lost.
import type { Page, Route } from 'playwright-core';
import { headingOf, productWith, ROOT, setHeading } from './content';
import { editorHarness, hostEvents, inPage, shot, waitForEvent } from './harness';

jest.setTimeout(120_000);

const h = editorHarness('editor-lang-switch');

/** Holds back the editor's read of the product's content in `lang` until `release()` is called. */
async function holdBack(page: Page, id: string, lang: string): Promise<{ release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.endsWith(`/content/${id}/type/product`) && url.searchParams.get('lang') === lang,
    async (route: Route) => {
      if (route.request().method() === 'GET') await released;
      await route.continue();
    },
  );
  return { release };
}

const HEADING = `${ROOT}.querySelector('li.widget .ccs-editable')`;

describe('<ccs-editor> switching the content language', () => {
  test('when the new language is still loading, then the list is busy, its texts cannot be edited and the status says so; once drawn, editing saves in the new language', async () => {
    const shop = await h.shop();
    await productWith(shop, 'LS-1', ['section']);
    await setHeading(shop, 'LS-1', 'Built for trails');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'LS-1' });
    expect(await waitForEvent(page, 'ccs-ready')).toMatchObject({ lang: 'default' });
    const editor = page.locator('ccs-editor');
    const { release } = await holdBack(page, 'LS-1', 'cs');

    await editor.getByLabel('Language').selectOption('cs');
    await page.waitForFunction(`${ROOT}.querySelector('[role="status"]').textContent.includes('Czech')`);
    expect((await editor.locator('.status[role="status"]').textContent())?.trim()).toBe(
      'Loading the texts: Czech (cs)…',
    );
    const list = editor.locator('ol.widgets');
    expect(await list.getAttribute('aria-busy')).toBe('true');

    // A person clicks the heading and types: nothing becomes editable, nothing changes.
    const box = (await editor.locator('li.widget .ccs-editable').first().boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.keyboard.type('Lost words');
    await page.keyboard.press('Enter');
    expect(
      await inPage(
        page,
        `(() => { const n = ${HEADING}; n.focus(); return {
        text: n.textContent, editable: n.isContentEditable, focused: ${ROOT}.activeElement === n };
      })()`,
      ),
    ).toEqual({ text: 'Built for trails', editable: false, focused: false });
    await shot(page, 'lang-switch-loading');

    release();
    await page.waitForFunction(`${ROOT}.querySelector('ol.widgets').getAttribute('aria-busy') === 'false'`);
    expect((await editor.locator('.status[role="status"]').textContent())?.trim()).toBe('');
    // Nothing of what was typed during the wait was sent.
    expect((await hostEvents(page)).filter((e) => e.name === 'ccs-change')).toEqual([]);

    // The Czech view shows the default text until it has its own; editing now writes Czech.
    const heading = editor.locator('li.widget .ccs-editable').first();
    await heading.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' (CZ)');
    await page.keyboard.press('Enter');
    expect(await waitForEvent(page, 'ccs-change')).toMatchObject({ action: 'edit', lang: 'cs' });
    const stored = headingOf((await shop.host('GET', '/content/LS-1/type/product')).body);
    expect(stored.value).toEqual({ default: 'Built for trails', cs: 'Built for trails (CZ)' });
    await shot(page, 'lang-switch-edited-cs');
    await page.close();
  });

  test('when the person switches back before the new language arrived, then the texts shown are editable again', async () => {
    const shop = await h.shop();
    await productWith(shop, 'LS-3', ['section']);
    await setHeading(shop, 'LS-3', 'Built for trails');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'LS-3' });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');
    const { release } = await holdBack(page, 'LS-3', 'cs');
    await editor.getByLabel('Language').selectOption('cs');
    await page.waitForFunction(`${ROOT}.querySelector('ol.widgets').getAttribute('aria-busy') === 'true'`);
    await editor.getByLabel('Language').selectOption('default');
    await page.waitForFunction(`${ROOT}.querySelector('ol.widgets').getAttribute('aria-busy') === 'false'`);
    release();
    await editor.locator('li.widget .ccs-editable').first().click();
    await page.keyboard.press('End');
    await page.keyboard.type('!');
    await page.keyboard.press('Enter');
    expect(await waitForEvent(page, 'ccs-change')).toMatchObject({ action: 'edit', lang: 'default' });
    expect(headingOf((await shop.host('GET', '/content/LS-3/type/product')).body).value).toEqual({
      default: 'Built for trails!',
    });
    expect(await inPage(page, `${HEADING}.textContent`)).toBe('Built for trails!');
    await page.close();
  });

  test('when a text is being typed and the host switches the language, then the text is saved in the language it was typed in and nothing is lost', async () => {
    const shop = await h.shop();
    await productWith(shop, 'LS-2', ['section']);
    await setHeading(shop, 'LS-2', 'Built for trails');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'LS-2' });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');
    const { release } = await holdBack(page, 'LS-2', 'cs');

    const heading = editor.locator('li.widget .ccs-editable').first();
    await heading.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' and roads');
    // The host switches mid-edit (no Enter, no click elsewhere).
    await inPage(page, `void document.querySelector('ccs-editor').setLanguage('cs')`);
    expect(await waitForEvent(page, 'ccs-change')).toMatchObject({ action: 'edit', lang: 'default' });
    await shot(page, 'lang-switch-mid-edit');
    release();
    await page.waitForFunction(`${ROOT}.querySelector('ol.widgets').getAttribute('aria-busy') === 'false'`);

    const stored = headingOf((await shop.host('GET', '/content/LS-2/type/product')).body);
    expect(stored.value).toEqual({ default: 'Built for trails and roads' });
    // The Czech view shows it (from the default language), and no "not saved" is said.
    expect(await inPage(page, `${HEADING}.textContent`)).toBe('Built for trails and roads');
    expect(await editor.locator('[role="alert"]').count()).toBe(0);
    const events = await hostEvents(page);
    expect(events.filter((e) => e.name === 'ccs-error')).toEqual([]);
    expect(events.filter((e) => e.name === 'ccs-dirty').at(-1)?.detail).toMatchObject({ dirty: false });
    await shot(page, 'lang-switch-after-mid-edit');
    await page.close();
  });
});
