// The editor never writes into the wrong product and never shows an unsaved edit as saved: the
// host switches the entity of a live <ccs-editor> (attribute or open()) amid edits, and a save
// the server refuses is still said to be unsaved after Reload.
import fc from 'fast-check';
import type { Page } from 'playwright-core';
import { firstText, focused, headingOf, productWith, ROOT, setHeading } from './content';
import { editorHarness, hostEvents, inPage, shot, waitForEvent } from './harness';

jest.setTimeout(240_000);

const h = editorHarness('editor-entity');

/** Waits until the editor shows this text first (the product it should show), 15 s at most. */
async function waitForFirstText(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    `${ROOT}.querySelector('li.widget .ccs-editable')?.textContent === ${JSON.stringify(text)}`,
    undefined,
    { timeout: 15_000 },
  );
}

/** Edits the first text in place: click, select all, type, Enter; waits for its ccs-change. */
async function editFirstText(page: Page, text: string): Promise<void> {
  const before = (await hostEvents(page)).filter((e) => e.name === 'ccs-change').length;
  await page.locator('ccs-editor li.widget .ccs-editable').first().click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await waitForEvent(page, 'ccs-change', before + 1);
}

type Step = { kind: 'attribute' | 'open'; id: string } | { kind: 'edit' } | { kind: 'refresh' };

describe('<ccs-editor> switching entity', () => {
  test('when the host switches the entity between two products amid edits, then each product holds only its own edits', async () => {
    const shop = await h.shop();
    const products = ['JKT-7', 'TENT-2'];
    const expected: Record<string, string> = {};
    for (const id of products) {
      await productWith(shop, id, ['section']);
      expected[id] = `${id} heading`;
      await setHeading(shop, id, expected[id]);
    }
    const page = await h.open({
      token: shop.whiteLabelToken,
      entityId: 'JKT-7',
      entityTitle: 'JKT-7 jacket',
    });
    await waitForEvent(page, 'ccs-ready');
    let shown = 'JKT-7';
    let n = 0;
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({
        kind: fc.constantFrom('attribute' as const, 'open' as const),
        id: fc.constantFrom(...products),
      }),
      fc.constant({ kind: 'edit' as const }),
      fc.constant({ kind: 'refresh' as const }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 6 }), async (steps) => {
        for (const s of steps) {
          if (s.kind === 'attribute') {
            // Not awaited: the next step may come while the previous product still loads.
            await inPage(
              page,
              `document.querySelector('ccs-editor').setAttribute('entity-id', ${JSON.stringify(s.id)})`,
            );
            shown = s.id;
          } else if (s.kind === 'open') {
            await inPage(page, `void document.querySelector('ccs-editor').open(${JSON.stringify(s.id)})`);
            shown = s.id;
          } else if (s.kind === 'refresh') {
            await inPage(page, `void document.querySelector('ccs-editor').refresh()`);
          } else {
            await waitForFirstText(page, expected[shown]!);
            const text = `${shown} edit ${++n}`;
            await editFirstText(page, text);
            expected[shown] = text;
          }
        }
        await waitForFirstText(page, expected[shown]!);
        expect(await inPage(page, `${ROOT}.querySelector('header h2').textContent`)).toContain(shown);
        for (const id of products) {
          expect(headingOf((await shop.host('GET', `/content/${id}/type/product`)).body).value.default).toBe(
            expected[id],
          );
        }
      }),
      { numRuns: 10 },
    );
    expect((await hostEvents(page)).filter((e) => e.name === 'ccs-error')).toEqual([]);
    await shot(page, 'switched-1024');
    await page.close();
  });

  test('when a save fails and the owner presses Reload, then the server text is shown and the edit is said to be unsaved', async () => {
    const shop = await h.shop();
    await productWith(shop, 'SAVE-1', ['section']);
    await setHeading(shop, 'SAVE-1', 'Server heading');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'SAVE-1' });
    await waitForEvent(page, 'ccs-ready');
    await page.route('**/api/v3/white-label/content/**', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' })
        : route.continue(),
    );
    await page.locator('ccs-editor li.widget .ccs-editable').first().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Local heading');
    await page.keyboard.press('Enter');
    await waitForEvent(page, 'ccs-error');
    expect(await waitForEvent(page, 'ccs-dirty')).toMatchObject({ dirty: true, entity_id: 'SAVE-1' });
    await expect(page.locator('ccs-editor [role="alert"]').first().textContent()).resolves.toMatch(
      /^Not saved: .* Press Enter in the text to try again, or Escape to put it back\.$/,
    );
    expect(await focused(page)).toBe('h2:Local heading');
    await page.setViewportSize({ width: 375, height: 900 });
    await shot(page, 'save-failed-375');
    await page.setViewportSize({ width: 1440, height: 900 });
    await shot(page, 'save-failed-1440');

    await page.locator('ccs-editor').getByRole('button', { name: 'Reload' }).click();
    await waitForFirstText(page, 'Server heading');
    expect(await waitForEvent(page, 'ccs-dirty', 2)).toMatchObject({ dirty: false, entity_id: 'SAVE-1' });
    await expect(page.locator('ccs-editor [role="alert"]').first().textContent()).resolves.toBe(
      'Your edit was not saved: the texts shown are the ones saved on the server. Write it again if you still need it.',
    );
    await shot(page, 'save-failed-reloaded-1440');
    await page.setViewportSize({ width: 375, height: 900 });
    await shot(page, 'save-failed-reloaded-375');
    expect(await firstText(page)).toBe('Server heading');
    expect(headingOf((await shop.host('GET', '/content/SAVE-1/type/product')).body).value.default).toBe(
      'Server heading',
    );
    await page.close();
  });

  test('when the host sets content-lang or another token on the live element, then the editor reads and writes in that language, with that token', async () => {
    const shop = await h.shop();
    const widgets = await productWith(shop, 'LANG-1', ['section']);
    await setHeading(shop, 'LANG-1', 'Default heading');
    await shop.host('PUT', '/content/LANG-1/type/product', {
      [widgets[0]!.id]: { children: [{ id: headingOf(widgets).id, value: { cs: 'Český nadpis' } }] },
    });
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'LANG-1' });
    await waitForEvent(page, 'ccs-ready');
    const editor = `document.querySelector('ccs-editor')`;
    await inPage(page, `${editor}.setAttribute('content-lang', 'cs')`);
    await waitForFirstText(page, 'Český nadpis');
    expect(await inPage(page, `${ROOT}.querySelector('select.lang').value`)).toBe('cs');
    await editFirstText(page, 'Nový nadpis');
    const stored = headingOf((await shop.host('GET', '/content/LANG-1/type/product')).body).value;
    expect(stored).toMatchObject({ default: 'Default heading', cs: 'Nový nadpis' });

    // Another token: the editor opens again with it (here refused), and shows nothing of before.
    await inPage(page, `${editor}.setAttribute('token', 'wl_not-a-token')`);
    expect(await waitForEvent(page, 'ccs-error')).toMatchObject({ status: 401 });
    expect(await inPage(page, `${ROOT}.querySelectorAll('li.widget').length`)).toBe(0);
    await inPage(page, `${editor}.setAttribute('token', ${JSON.stringify(shop.whiteLabelToken)})`);
    await waitForFirstText(page, 'Nový nadpis');
    await page.close();
  });
});
