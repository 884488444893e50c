// The editor with the keyboard only: Tab to a text, Enter, type, Enter saves; Tab to the next
// text and do it again; delete a widget and undo; a refused Start. Focus never drops to the
// page's body, the texts keep their own roles, and axe finds no violation at all.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { focused, productWith, ROOT, setHeading } from './content';
import { editorHarness, hostEvents, shot, waitForEvent } from './harness';

jest.setTimeout(180_000);

const h = editorHarness('editor-keyboard');

/** Presses Tab (or Shift+Tab) until `expression` holds for the editor's focused element. */
async function tabTo(page: Page, expression: string, back = false): Promise<void> {
  for (let i = 0; i < 60; i++) {
    const hit = await page.evaluate(
      `(() => { const el = ${ROOT}.activeElement; return !!el && (${expression}); })()`,
    );
    if (hit) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`no focusable element where ${expression}; focus is on ${await focused(page)}`);
}

async function expectNoViolations(page: Page, state: string): Promise<void> {
  const result = await new AxeBuilder({ page }).include('ccs-editor').analyze();
  expect({
    state,
    violations: result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  }).toEqual({ state, violations: [] });
}

const changes = async (page: Page) => (await hostEvents(page)).filter((e) => e.name === 'ccs-change').length;

describe('<ccs-editor> with the keyboard only', () => {
  test('when an owner edits two texts one after the other, deletes and undoes, then every key lands and focus stays in the editor', async () => {
    const shop = await h.shop();
    await productWith(shop, 'KEY-1', ['section', 'section']);
    await setHeading(shop, 'KEY-1', 'First heading');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'KEY-1' });
    await waitForEvent(page, 'ccs-ready');

    // The heading stays a heading (no textbox role), described by how to edit it.
    await tabTo(page, `el.tagName === 'H2' && el.textContent === 'First heading'`);
    expect(await page.evaluate(`${ROOT}.activeElement.getAttribute('role')`)).toBeNull();
    await expectNoViolations(page, 'text focused');
    await page.keyboard.press('Enter');
    await page.keyboard.type(' now');
    await expectNoViolations(page, 'text edited');
    await page.keyboard.press('Enter');
    await waitForEvent(page, 'ccs-change', 1);
    await page.waitForFunction(`${ROOT}.activeElement?.textContent === 'First heading now'`);

    // The second text: Tab, Enter, type — the characters go into that text.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatch(/^div:A short introduction/);
    await page.keyboard.press('Enter');
    await page.keyboard.type(' again');
    await page.keyboard.press('Enter');
    await waitForEvent(page, 'ccs-change', 2);
    const [first] = (await shop.host('GET', '/content/KEY-1/type/product')).body;
    const value = (cls: string) => first!.children.find((e) => e.class === cls)!.value.default;
    expect(value('ccs-section__heading')).toBe('First heading now');
    expect(value('ccs-section__text')).toContain('why it is worth a look. again');
    await shot(page, 'keyboard-second-edit-1024');
    await page.setViewportSize({ width: 375, height: 900 });
    await shot(page, 'keyboard-second-edit-375');
    await page.setViewportSize({ width: 1440, height: 900 });

    // Delete the first widget, then Undo: focus goes back to the restored widget, not the body.
    await tabTo(page, `el.getAttribute('aria-label')?.startsWith('Delete (')`, true);
    await page.keyboard.press('Enter');
    await waitForEvent(page, 'ccs-change', 3);
    expect(await focused(page)).toMatch(/^button:Undo/);
    await page.keyboard.press('Enter');
    await waitForEvent(page, 'ccs-change', 4);
    await page.waitForFunction(`!${ROOT}.querySelector('.undo-button')`);
    expect(await focused(page)).toMatch(/^button:/);
    expect(await page.evaluate(`${ROOT}.activeElement.getAttribute('aria-label')`)).toMatch(
      /^Delete \(.*Widget 1 of 2\)$/,
    );
    await expectNoViolations(page, 'restored');
    expect(await changes(page)).toBe(4);
    expect((await hostEvents(page)).filter((e) => e.name === 'ccs-error')).toEqual([]);
    await page.close();
  });

  test('when a Start is refused, then focus stays in the form with the message', async () => {
    const shop = await h.shop({ credits: 500 });
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'KEY-2' });
    await waitForEvent(page, 'ccs-ready');
    await page.route('**/content/KEY-2/type/product/generate', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 402,
            contentType: 'application/json',
            body: '{"error":"Not enough credits","code":"insufficient_credits","required":90,"remaining":0}',
          })
        : route.continue(),
    );
    await tabTo(page, `el.textContent.trim() === 'Generate content'`);
    await page.keyboard.press('Enter');
    const panel = `${ROOT}.querySelector('ccs-generate-panel').shadowRoot`;
    await page.waitForFunction(`${panel}?.querySelector('.estimate')?.textContent.includes('Remaining')`);
    await page.evaluate(`${panel}.querySelector('button.primary').focus()`);
    await page.keyboard.press('Enter');
    await waitForEvent(page, 'ccs-error');
    await page.waitForFunction(`${panel}.querySelector('[role="alert"]')`);
    // Once the estimate says the credits do not cover it, Start is disabled: focus is then on
    // the message, whichever came first (a disabled button loses focus to the page's body).
    await page.waitForFunction(
      `${panel}.querySelector('.estimate').textContent.includes('Not enough credits')`,
    );
    expect(await page.evaluate(`${panel}.querySelector('button.primary').disabled`)).toBe(true);
    await page.waitForFunction(`${panel}.activeElement !== null`, undefined, { timeout: 5_000 });
    expect(await page.evaluate(`${panel}.activeElement.matches('.error[role="alert"]')`)).toBe(true);
    await expectNoViolations(page, 'start refused');
    await page.close();
  });
});
