// The host's refresh() while a person edits: a text being typed when the host asks for the
// read is saved first (then drawn from the server), and while the texts are read anew they are
// shown busy and cannot be edited, so nothing typed is drawn over unsaved.
import type { Page, Route } from 'playwright-core';
import { headingOf, productWith, ROOT, setHeading } from './content';
import { editorHarness, hostEvents, inPage, shot, waitForEvent } from './harness';

jest.setTimeout(120_000);

const h = editorHarness('editor-refresh');

/** Holds back the editor's reads of the product's content until `release()` is called. */
async function holdReads(page: Page, id: string): Promise<{ release: () => void; held: Promise<void> }> {
  let release!: () => void;
  let seen!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held = new Promise<void>((resolve) => (seen = resolve));
  await page.route(
    (url) => url.pathname.endsWith(`/content/${id}/type/product`),
    async (route: Route) => {
      if (route.request().method() === 'GET') {
        seen();
        await released;
      }
      await route.continue();
    },
  );
  return { release, held };
}

const HEADING = `${ROOT}.querySelector('li.widget .ccs-editable')`;
const EDITOR = `document.querySelector('ccs-editor')`;

describe('<ccs-editor> refresh() amid an edit', () => {
  test('when a text is being typed and the host calls refresh(), then the text is saved first and shown after the read, nothing lost', async () => {
    const shop = await h.shop();
    await productWith(shop, 'RF-1', ['section']);
    await setHeading(shop, 'RF-1', 'Built for trails');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'RF-1' });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');
    const { release, held } = await holdReads(page, 'RF-1');

    await editor.locator('li.widget .ccs-editable').first().click();
    await page.keyboard.press('End');
    await page.keyboard.type(' and roads');
    // The host reads everything again mid-edit (no Enter, no click elsewhere).
    await inPage(page, `void (window.refreshed = ${EDITOR}.refresh())`);
    await held;
    await shot(page, 'refresh-mid-edit');
    release();
    await inPage(page, 'window.refreshed');
    expect((await hostEvents(page)).filter((e) => e.name === 'ccs-change').map((e) => e.detail)).toEqual([
      expect.objectContaining({ action: 'edit', lang: 'default' }),
    ]);

    expect(headingOf((await shop.host('GET', '/content/RF-1/type/product')).body).value).toEqual({
      default: 'Built for trails and roads',
    });
    expect(await inPage(page, `${HEADING}.textContent`)).toBe('Built for trails and roads');
    expect(await editor.locator('ol.widgets').getAttribute('aria-busy')).toBe('false');
    expect(await editor.locator('[role="alert"]').count()).toBe(0);
    const events = await hostEvents(page);
    expect(events.filter((e) => e.name === 'ccs-error')).toEqual([]);
    expect(events.filter((e) => e.name === 'ccs-dirty').at(-1)?.detail).toMatchObject({ dirty: false });
    await page.close();
  });

  test('when the host called refresh() and the texts are on the way, then they are busy and cannot be edited; once drawn, editing saves', async () => {
    const shop = await h.shop();
    await productWith(shop, 'RF-2', ['section']);
    await setHeading(shop, 'RF-2', 'Built for trails');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'RF-2' });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');
    const { release, held } = await holdReads(page, 'RF-2');
    await inPage(page, `void (window.refreshed = ${EDITOR}.refresh())`);
    await held;
    await page.waitForFunction(`${ROOT}.querySelector('ol.widgets').hasAttribute('inert')`);
    expect(await editor.locator('ol.widgets').getAttribute('aria-busy')).toBe('true');

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

    release();
    await inPage(page, 'window.refreshed');
    expect(await editor.locator('ol.widgets').getAttribute('aria-busy')).toBe('false');
    expect((await hostEvents(page)).filter((e) => e.name === 'ccs-change')).toEqual([]);
    await editor.locator('li.widget .ccs-editable').first().click();
    await page.keyboard.press('End');
    await page.keyboard.type('!');
    await page.keyboard.press('Enter');
    expect(await waitForEvent(page, 'ccs-change')).toMatchObject({ action: 'edit' });
    expect(headingOf((await shop.host('GET', '/content/RF-2/type/product')).body).value).toEqual({
      default: 'Built for trails!',
    });
    await page.close();
  });
});
