// Two writers of one product: the editor shows a version of the content and writes with it
// (If-Match); when an API client changed the content meanwhile, the editor's next edit is
// refused (412), the person is told and offered a reload, and the server keeps the other
// writer's change.
import { focused, headingOf, productWith, ROOT, setHeading } from './content';
import { expectNoViolations } from './axe';
import { editorHarness, shot, waitForEvent } from './harness';

jest.setTimeout(180_000);

const h = editorHarness('editor-concurrent');

const STALE = 'This content was changed elsewhere (another tab, person or program). Your edit was not saved.';

describe('<ccs-editor> and another writer', () => {
  test('when an API client changed the content after the editor read it, then the next edit is refused, said, and the reload shows the other change', async () => {
    const shop = await h.shop();
    await productWith(shop, 'CONC-1', ['section']);
    await setHeading(shop, 'CONC-1', 'Read by the editor');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'CONC-1' });
    await waitForEvent(page, 'ccs-ready');

    // Another program writes meanwhile.
    await setHeading(shop, 'CONC-1', 'Written elsewhere');

    const heading = page.locator('ccs-editor li.widget .ccs-editable').first();
    await heading.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.type(' and edited');
    await page.keyboard.press('Enter');
    const error = await waitForEvent(page, 'ccs-error');
    expect(error).toMatchObject({
      status: 412,
      code: 'content_changed',
      api_code: 'content_version_mismatch',
    });
    const alert = page.locator('ccs-editor [role="alert"]');
    expect((await alert.textContent())?.replace(/\s+/g, ' ').trim()).toBe(
      `${STALE} Reload to see the current content`,
    );
    // Nothing was written: the other writer's text stays.
    expect(headingOf((await shop.host('GET', '/content/CONC-1/type/product')).body).value.default).toBe(
      'Written elsewhere',
    );
    // Focus went to the offered reload (Enter had left the text).
    expect(await focused(page)).toBe('button:Reload to see the current content');
    await expectNoViolations(page, 'stale');
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await shot(page, `stale-${width}`);
    }

    await page.keyboard.press('Enter');
    await page.waitForFunction(
      `${ROOT}.querySelector('li.widget .ccs-editable')?.textContent === 'Written elsewhere'`,
    );
    await page.waitForFunction(`${ROOT}.activeElement?.matches('button[data-refresh]')`);
    // The view is current again: an edit now is saved.
    await heading.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.type(' too');
    await page.keyboard.press('Enter');
    await waitForEvent(page, 'ccs-change');
    expect(headingOf((await shop.host('GET', '/content/CONC-1/type/product')).body).value.default).toBe(
      'Written elsewhere too',
    );
    await page.close();
  });
});

describe('<ccs-editor> filling a design over a changed content', () => {
  test('when the content changed elsewhere before a fill, then the fill is refused, nothing is written, and a reload is offered', async () => {
    const shop = await h.shop();
    await productWith(shop, 'CONC-FILL', ['section']);
    await setHeading(shop, 'CONC-FILL', 'Read by the editor');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'CONC-FILL' });
    await waitForEvent(page, 'ccs-ready');
    await setHeading(shop, 'CONC-FILL', 'Written elsewhere');
    const before = (await shop.host('GET', '/content/CONC-FILL/type/product')).body;

    const editor = page.locator('ccs-editor');
    await editor.getByRole('button', { name: 'Designs' }).click();
    await editor.getByRole('button', { name: 'Use this design' }).first().click();
    await editor.locator('ccs-designs-panel input').first().fill('Filled heading');
    await editor.getByRole('button', { name: 'Fill the design' }).click();
    await editor.getByRole('button', { name: 'Replace them and fill' }).click();
    expect(await waitForEvent(page, 'ccs-error')).toMatchObject({ status: 412, code: 'content_changed' });
    await editor.getByRole('button', { name: 'Reload to see the current content' }).waitFor();
    expect((await shop.host('GET', '/content/CONC-FILL/type/product')).body).toEqual(before);
    await page.close();
  });
});
