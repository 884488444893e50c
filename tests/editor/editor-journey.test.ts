// The whole journey of a shop owner on a host page of another origin, in one browser session:
// open product A, edit, switch to B, edit, fill a design in cs and undo it, add a call to
// action and change its link, edit an FAQ answer, generate and undo the generation, reload;
// then A and B are read through the v3 API and the v2 catalogue list: every text is where the
// owner put it and nothing else changed. axe finds no violation (any impact) in any state.
import type { Page } from 'playwright-core';
import type { Schemas } from '@catalogue/client';
import { eventually } from '@catalogue/testing';
import { expectNoViolations as axeClean } from './axe';
import { attributesOf, productWith, ROOT, setHeading } from './content';
import { editorHarness, hostEvents, inPage, shot, waitForEvent, type Shop } from './harness';

jest.setTimeout(300_000);

const h = editorHarness('editor-journey');

/** axe, then screenshots at 375 and 1440 px of the same state (back to 1024 px after). */
async function state(page: Page, name: string): Promise<void> {
  await axeClean(page, name);
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `journey-${name}-${width}`);
    // Nothing of the editor reaches past the page's width (the page never scrolls sideways).
    expect({ name, width, scroll: await inPage(page, 'document.documentElement.scrollWidth') }).toEqual({
      name,
      width,
      scroll: width,
    });
  }
  await page.setViewportSize({ width: 1024, height: 900 });
}

/** Waits until the n-th ccs-change of this action. */
const changed = (page: Page, action: string, n = 1) =>
  page.waitForFunction(
    `window.ccsEvents.filter((e) => e.name === 'ccs-change' && e.detail.action === ${JSON.stringify(action)}).length >= ${n}`,
  );

/** Waits until the editor shows this text first (the product it should show). */
const showsFirst = (page: Page, text: string) =>
  page.waitForFunction(
    `${ROOT}.querySelector('li.widget .ccs-editable')?.textContent === ${JSON.stringify(text)}`,
  );

/** Clicks a text, replaces it, presses Enter and waits for its save. */
async function replaceText(page: Page, selector: string, text: string, n: number): Promise<void> {
  await page.locator(`ccs-editor ${selector}`).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await changed(page, 'edit', n);
}

/** What a product stores: its widgets (ids, elements and values) and its html in every language. */
async function stored(shop: Shop, id: string) {
  const widgets = (await shop.host('GET', `/content/${id}/type/product`)).body;
  const html = (await shop.host('GET', `/entity/${id}/type/product/html`)).body.html;
  return {
    widgets: widgets.map((w) => ({
      id: w.id,
      widget_id: w.widget_id,
      children: w.children.map((e) => ({ id: e.id, value: e.value, extension: e.extension })),
    })),
    html,
  };
}

async function v2List(shop: Shop): Promise<Array<Schemas['ProductV2']>> {
  const res = await shop.backOffice('GET', '/api/v2/rest/products?lang=all');
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('<ccs-editor> a shop owner journey', () => {
  test('when an owner edits two products through every kind of action and reloads, then each text is where it was put and nothing else changed', async () => {
    const shop = await h.shop();
    // Both products are in the catalogue (the v2 list serves their content), with content.
    const imported = await shop.backOffice('POST', '/api/v2/rest/products', [
      { id: 'JRN-A', name: { default: 'Rain jacket', cs: 'Bunda do deště' } },
      { id: 'JRN-B', name: { default: 'Trail tent', cs: 'Stan na stezky' } },
    ]);
    expect(imported.status).toBe(200);
    await productWith(shop, 'JRN-A', ['section']);
    await setHeading(shop, 'JRN-A', 'A heading');
    await productWith(shop, 'JRN-B', ['section', 'faq']);
    await setHeading(shop, 'JRN-B', 'B heading');
    const initialA = await stored(shop, 'JRN-A');
    const initialB = await stored(shop, 'JRN-B');

    // Open A, edit its heading.
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'JRN-A', entityTitle: 'Rain jacket' });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');
    await state(page, 'a-opened');
    await replaceText(page, 'li.widget .ccs-editable >> nth=0', 'A by the owner', 1);
    await state(page, 'a-edited');
    const editedA = await stored(shop, 'JRN-A');

    // Switch to B by the attribute, edit its heading.
    await inPage(page, `document.querySelector('ccs-editor').setAttribute('entity-id', 'JRN-B')`);
    await showsFirst(page, 'B heading');
    await replaceText(page, 'li.widget .ccs-editable >> nth=0', 'B by the owner', 2);
    await state(page, 'b-edited');
    const editedB = await stored(shop, 'JRN-B');

    // Fill a design in cs (replacing B's widgets, after the question), then undo it.
    await editor.getByLabel('Language').selectOption('cs');
    await editor.getByRole('button', { name: 'Designs' }).click();
    await state(page, 'designs');
    await editor.getByRole('button', { name: 'Use this design' }).first().click();
    await editor.locator('ccs-designs-panel input').first().fill('Vyplněný nadpis');
    await state(page, 'design-form');
    await editor.getByRole('button', { name: 'Fill the design' }).click();
    await editor.getByRole('button', { name: 'Replace them and fill' }).waitFor();
    await state(page, 'fill-question');
    await editor.getByRole('button', { name: 'Replace them and fill' }).click();
    await changed(page, 'fill-design');
    expect((await shop.host('GET', '/entity/JRN-B/type/product/html')).body.html.cs).toContain(
      'Vyplněný nadpis',
    );
    await state(page, 'filled');
    await editor.getByRole('button', { name: 'Undo' }).click();
    await changed(page, 'undo');
    expect(await stored(shop, 'JRN-B')).toEqual(editedB);
    await editor.getByLabel('Language').selectOption('default');
    await showsFirst(page, 'B by the owner');

    // Add a call to action from the catalogue and change its link.
    await editor.getByRole('button', { name: 'Add widget' }).click();
    await state(page, 'add-panel');
    const catalogue = (await shop.host('GET', '/widget')).body.data;
    const cta = catalogue.find((w) => w.type === 'cta')!;
    await editor.getByLabel('Category').selectOption({ label: cta.category_name });
    await editor.locator('ccs-add-panel button.choice[data-widget-type="cta"]').click();
    await changed(page, 'add');
    const row = editor.locator('li.widget').nth(2);
    await row.getByRole('button', { name: /^Images and links/ }).click();
    await row.getByLabel('Link URL').fill('https://shop.example.com/tents');
    await state(page, 'media-form');
    await row.getByRole('button', { name: 'Save', exact: true }).click();
    await changed(page, 'media');

    // Edit the FAQ's first answer.
    await replaceText(page, '.ccs-faq__answer >> nth=0', 'Two people and their packs.', 3);
    await state(page, 'faq-edited');
    const beforeGeneration = await stored(shop, 'JRN-B');

    // Generate (builtin provider, widgets added), then undo the generation.
    await editor.getByRole('button', { name: 'Generate content' }).click();
    await editor.locator('.estimate', { hasText: /Estimated cost: \d+ credits/ }).waitFor();
    await state(page, 'generate-form');
    await editor.getByRole('button', { name: 'Start' }).click();
    await changed(page, 'generate');
    const generated = await stored(shop, 'JRN-B');
    expect(generated.widgets.length).toBeGreaterThan(beforeGeneration.widgets.length);
    await state(page, 'generated');
    await editor.getByRole('button', { name: 'Undo' }).click();
    await changed(page, 'undo', 2);
    await state(page, 'generation-undone');

    // Reload: the editor opens what the host page names (A) and B is what the owner left.
    await page.reload();
    await waitForEvent(page, 'ccs-ready');
    await showsFirst(page, 'A by the owner');
    await state(page, 'reloaded');

    // v3: A holds only its edit; B holds its edit, the link and the answer, and no fill or generation.
    const finalA = await stored(shop, 'JRN-A');
    const finalB = await stored(shop, 'JRN-B');
    expect(finalA).toEqual(editedA);
    expect(finalB).toEqual(beforeGeneration);
    expect(finalA.widgets.map((w) => w.id)).toEqual(initialA.widgets.map((w) => w.id));
    const sectionA = finalA.widgets[0]!;
    const changedA = sectionA.children.filter(
      (e, k) => JSON.stringify(e) !== JSON.stringify(initialA.widgets[0]!.children[k]),
    );
    expect(changedA.map((e) => e.value.default)).toEqual(['A by the owner']);

    const b = finalB.widgets;
    const typeOf = (widgetId: number) => catalogue.find((w) => w.id === widgetId)?.type;
    expect(b.map((w) => typeOf(w.widget_id))).toEqual(['section', 'faq', 'cta']);
    expect(b.slice(0, 2).map((w) => w.id)).toEqual(initialB.widgets.map((w) => w.id));
    const differing = (k: number) =>
      b[k]!.children.filter((e, i) => JSON.stringify(e) !== JSON.stringify(initialB.widgets[k]!.children[i]));
    expect(differing(0).map((e) => e.value.default)).toEqual(['B by the owner']);
    expect(differing(1).map((e) => e.value.default)).toEqual(['<p>Two people and their packs.</p>']);
    const link = b[2]!.children.find((e) => attributesOf(e).href)!;
    expect(attributesOf(link).href).toBe('https://shop.example.com/tents');
    expect(finalB.html.cs ?? '').not.toContain('Vyplněný nadpis');
    expect(finalA.html.default).not.toContain('B by the owner');
    expect(finalB.html.default).not.toContain('A by the owner');

    // v2: after the render, the catalogue list serves the same html for both products.
    let listed: Array<Schemas['ProductV2']> = [];
    await eventually(async () => {
      listed = await v2List(shop);
      expect(listed.find((p) => p.id === 'JRN-A')?.content?.html?.default).toBe(finalA.html.default);
      expect(listed.find((p) => p.id === 'JRN-B')?.content?.html?.default).toBe(finalB.html.default);
    }, 10_000);
    const listedA = listed.find((p) => p.id === 'JRN-A')!;
    const listedB = listed.find((p) => p.id === 'JRN-B')!;
    expect(listedA.content.html).toEqual(finalA.html);
    expect(listedB.content.html).toEqual(finalB.html);
    expect(listedA.content.html.default).toContain('A by the owner');
    expect(listedB.content.html.default).toContain('B by the owner');
    expect(listedB.content.html.default).toContain('Two people and their packs.');
    // The call to action's texts are still the catalogue's samples: never public, link or not.
    expect(listedB.content.html.default).not.toContain('ccs-widget--cta');

    expect((await hostEvents(page)).filter((e) => e.name === 'ccs-error')).toEqual([]);
    await page.close();
  });
});

/** Presses Tab (or Shift+Tab) until `expression` holds for the editor's focused element. */
async function tabTo(page: Page, expression: string, back = false): Promise<void> {
  for (let i = 0; i < 80; i++) {
    const hit = await page.evaluate(
      `(() => { const el = ${ROOT}.activeElement; return !!el && (${expression}); })()`,
    );
    if (hit) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`no focusable element where ${expression}`);
}

describe('<ccs-editor> the journey with the keyboard only', () => {
  test('when an owner opens A, edits, the host switches to B, the owner edits and presses Ctrl+Z, then A keeps its edit and B is back to its own text', async () => {
    const shop = await h.shop();
    await productWith(shop, 'KJ-A', ['section']);
    await setHeading(shop, 'KJ-A', 'A heading');
    await productWith(shop, 'KJ-B', ['section']);
    await setHeading(shop, 'KJ-B', 'B heading');
    const initialB = await stored(shop, 'KJ-B');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'KJ-A' });
    await waitForEvent(page, 'ccs-ready');

    await tabTo(page, `el.tagName === 'H2' && el.textContent === 'A heading'`);
    await page.keyboard.press('Enter');
    await page.keyboard.type(' by keys');
    await page.keyboard.press('Enter');
    await changed(page, 'edit', 1);
    await axeClean(page, 'keyboard a-edited');
    const editedA = await stored(shop, 'KJ-A');

    await inPage(page, `document.querySelector('ccs-editor').setAttribute('entity-id', 'KJ-B')`);
    await showsFirst(page, 'B heading');
    await tabTo(page, `el.tagName === 'H2' && el.textContent === 'B heading'`);
    await page.keyboard.press('Enter');
    await page.keyboard.type(' by keys');
    await page.keyboard.press('Enter');
    await changed(page, 'edit', 2);
    expect((await stored(shop, 'KJ-B')).html.default).toContain('B heading by keys');

    // Out of the text, to the History button, then Ctrl+Z.
    await tabTo(page, `el.matches('[data-history]')`, true);
    await page.keyboard.press('Control+z');
    await changed(page, 'undo');
    await showsFirst(page, 'B heading');
    expect(await stored(shop, 'KJ-B')).toEqual(initialB);
    expect(await stored(shop, 'KJ-A')).toEqual(editedA);
    expect(await inPage(page, `!!${ROOT}.activeElement`)).toBe(true);
    await axeClean(page, 'keyboard b-undone');
    await shot(page, 'journey-keyboard-undone-1024');
    await page.close();
  });
});

describe('<ccs-editor> fatal states', () => {
  test('when the licence, the token or the origin is refused, then each state has a Try again button and no axe violation', async () => {
    const expired = await h.shop({ licenceValidUntil: '2020-01-01' });
    const allowed = await h.shop();
    await h.shop({ origins: [h.otherOrigin] });
    const cases = [
      { name: 'licence', opts: { token: expired.whiteLabelToken } },
      { name: 'token', opts: { token: 'wl_not-a-token' } },
      { name: 'origin', opts: { token: allowed.whiteLabelToken, origin: h.otherOrigin } },
    ];
    for (const c of cases) {
      const page = await h.open(c.opts);
      await waitForEvent(page, 'ccs-error');
      await page.locator('ccs-editor').getByRole('button', { name: 'Try again' }).waitFor();
      await state(page, `fatal-${c.name}`);
      await page.close();
    }
  });
});
