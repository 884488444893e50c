// Undo and redo on the content's revisions: an edit undone and redone (the API reads each
// state), a design fill undone in every language, undo going on after a reload, the History
// panel restoring an older version, and Ctrl/Cmd+Z outside a text being edited.
import type { Page } from 'playwright-core';
import { expectNoViolations } from './axe';
import { focused, headingOf, productWith, ROOT, setHeading } from './content';
import { editorHarness, shot, waitForEvent, type Shop } from './harness';

jest.setTimeout(240_000);

const h = editorHarness('editor-undo');

const heading = async (shop: Shop, id: string) =>
  headingOf((await shop.host('GET', `/content/${id}/type/product`)).body).value.default;
const shownText = (page: Page) =>
  page.evaluate(`${ROOT}.querySelector('li.widget .ccs-editable')?.textContent`) as Promise<string>;

async function editFirstText(page: Page, typed: string): Promise<void> {
  await page.locator('ccs-editor li.widget .ccs-editable').first().focus();
  await page.keyboard.press('Enter');
  await page.keyboard.type(typed);
  await page.keyboard.press('Enter');
}

/** Waits until the n-th ccs-change of this action. */
const changed = (page: Page, action: string, n = 1) =>
  page.waitForFunction(
    `window.ccsEvents.filter((e) => e.name === 'ccs-change' && e.detail.action === ${JSON.stringify(action)}).length >= ${n}`,
  );

describe('<ccs-editor> undo and redo', () => {
  test('when an owner edits, undoes and redoes, then the server holds each state in turn, and Ctrl+Z works outside a text', async () => {
    const shop = await h.shop();
    await productWith(shop, 'UNDO-1', ['section']);
    await setHeading(shop, 'UNDO-1', 'Before');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'UNDO-1' });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');
    expect(await editor.getByRole('button', { name: 'Redo' }).isDisabled()).toBe(true);

    await editFirstText(page, ' edited');
    await changed(page, 'edit');
    expect(await heading(shop, 'UNDO-1')).toBe('Before edited');

    await editor.getByRole('button', { name: 'Undo' }).click();
    await changed(page, 'undo');
    expect(await heading(shop, 'UNDO-1')).toBe('Before');
    expect(await shownText(page)).toBe('Before');
    await expectNoViolations(page, 'undone');

    await editor.getByRole('button', { name: 'Redo' }).click();
    await changed(page, 'redo');
    expect(await heading(shop, 'UNDO-1')).toBe('Before edited');
    expect(await editor.getByRole('button', { name: 'Redo' }).isDisabled()).toBe(true);

    // Ctrl+Z in a text being edited is the browser's own undo: the editor writes nothing.
    await page.locator('ccs-editor li.widget .ccs-editable').first().focus();
    await page.keyboard.press('Enter');
    await page.keyboard.type('!');
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Escape');
    expect(await heading(shop, 'UNDO-1')).toBe('Before edited');

    // Outside a text: Ctrl+Z undoes, Shift+Ctrl+Z redoes.
    await editor.getByRole('button', { name: 'History' }).focus();
    await page.keyboard.press('Control+z');
    await changed(page, 'undo', 2);
    expect(await heading(shop, 'UNDO-1')).toBe('Before');
    await page.keyboard.press('Control+Shift+z');
    await changed(page, 'redo', 2);
    expect(await heading(shop, 'UNDO-1')).toBe('Before edited');
    expect(await focused(page)).not.toBe('body');

    // A new action clears what could be redone.
    await page.keyboard.press('Control+z');
    await changed(page, 'undo', 3);
    await editFirstText(page, ' again');
    await changed(page, 'edit', 2);
    expect(await editor.getByRole('button', { name: 'Redo' }).isDisabled()).toBe(true);
    expect(await heading(shop, 'UNDO-1')).toBe('Before again');

    // History lists the writes; restoring one makes it the content.
    await editor.getByRole('button', { name: 'History' }).click();
    const panel = editor.locator('ccs-history-panel');
    await panel.locator('ol.revisions li').first().waitFor();
    expect(await panel.locator('ol.revisions li').first().textContent()).toMatch(/Edited ·.*shown now/s);
    await expectNoViolations(page, 'history');
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await shot(page, `history-${width}`);
    }
    const revisions = (await shop.host('GET', '/content/UNDO-1/type/product/revisions')).body.data;
    const index = revisions.findIndex((r) => r.version === revisions[0]!.version - 1);
    await panel.locator('ol.revisions li').nth(index).getByRole('button').click();
    await changed(page, 'restore-revision');
    expect(await heading(shop, 'UNDO-1')).toBe('Before');
    await page.waitForFunction(`${ROOT}.activeElement?.matches('[data-history]')`);
    await page.close();
  });

  test('when an owner undoes a design fill, then the widgets it replaced come back in every language', async () => {
    const shop = await h.shop();
    const widgets = await productWith(shop, 'UNDO-FILL', ['section']);
    await shop.host('PUT', '/content/UNDO-FILL/type/product', {
      [widgets[0]!.id]: {
        children: [
          { id: headingOf(widgets).id, value: { default: 'Original', cs: 'Původní', en: 'Original EN' } },
        ],
      },
    });
    const before = (await shop.host('GET', '/entity/UNDO-FILL/type/product/html')).body.html;
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'UNDO-FILL' });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');
    await editor.getByRole('button', { name: 'Designs' }).click();
    await editor.getByRole('button', { name: 'Use this design' }).first().click();
    await editor.locator('ccs-designs-panel input').first().fill('Filled heading');
    await editor.getByRole('button', { name: 'Fill the design' }).click();
    await editor.getByRole('button', { name: 'Replace them and fill' }).click();
    await changed(page, 'fill-design');
    expect((await shop.host('GET', '/entity/UNDO-FILL/type/product/html')).body.html.default).toContain(
      'Filled heading',
    );

    await editor.getByRole('button', { name: 'Undo' }).click();
    await changed(page, 'undo');
    const after = (await shop.host('GET', '/entity/UNDO-FILL/type/product/html')).body.html;
    expect(after).toEqual(before);
    expect(after.cs).toContain('Původní');
    await page.close();
  });

  test('when the page is reloaded after an edit and an undo, then undo and redo go on from there', async () => {
    const shop = await h.shop();
    await productWith(shop, 'UNDO-RL', ['section']);
    await setHeading(shop, 'UNDO-RL', 'One');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'UNDO-RL' });
    await waitForEvent(page, 'ccs-ready');
    await editFirstText(page, ' two');
    await changed(page, 'edit');
    await editFirstText(page, ' three');
    await changed(page, 'edit', 2);

    await page.reload();
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');
    await editor.getByRole('button', { name: 'Undo' }).click();
    await changed(page, 'undo');
    expect(await heading(shop, 'UNDO-RL')).toBe('One two');

    await page.reload();
    await waitForEvent(page, 'ccs-ready');
    // The undo goes on (not back to what was undone), and what was undone can be redone.
    await editor.getByRole('button', { name: 'Undo' }).click();
    await changed(page, 'undo');
    expect(await heading(shop, 'UNDO-RL')).toBe('One');
    await editor.getByRole('button', { name: 'Redo' }).click();
    await changed(page, 'redo');
    expect(await heading(shop, 'UNDO-RL')).toBe('One two');
    await page.close();
  });
});
