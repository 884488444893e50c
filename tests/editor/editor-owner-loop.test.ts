// A shop owner's loop in the editor: a product opens where its texts are (and again after a
// reload); switching products mid-edit saves the first and leaves the second clean; the panels
// work from the keyboard; every message says what happened and goes when it no longer applies;
// a text written in a language is the owner's there, not a sample.
import type { Page } from 'playwright-core';
import { eshopsRepository } from '@catalogue/db';
import { authChangePublisher, seedDemoProduct } from '@catalogue/admin';
import { checkedFetch, eventually, testConfig } from '@catalogue/testing';
import { focused, headingOf, productWith, ROOT, setHeading, type Widget } from './content';
import { editorHarness, hostEvents, inPage, shot, waitForEvent, type Shop } from './harness';
import { cs } from '../../libs/editor/src/messages/cs';
import { de } from '../../libs/editor/src/messages/de';
import { en } from '../../libs/editor/src/messages/en';
import { hu } from '../../libs/editor/src/messages/hu';
import { pl } from '../../libs/editor/src/messages/pl';
import { sk } from '../../libs/editor/src/messages/sk';
import { uk } from '../../libs/editor/src/messages/uk';
import { catalogueDe } from '../../libs/editor/src/messages/catalogue-de';
import { catalogueHu } from '../../libs/editor/src/messages/catalogue-hu';
import { cataloguePl } from '../../libs/editor/src/messages/catalogue-pl';
import { catalogueSk } from '../../libs/editor/src/messages/catalogue-sk';
import { catalogueUk } from '../../libs/editor/src/messages/catalogue-uk';

const CATALOGUES: Record<string, Record<string, string>> = {
  sk: catalogueSk,
  de: catalogueDe,
  pl: cataloguePl,
  hu: catalogueHu,
  uk: catalogueUk,
};

jest.setTimeout(240_000);

const h = editorHarness('editor-owner-loop');

/** The editor's alert texts (whitespace folded), [] when none. */
const alerts = (page: Page) =>
  inPage<string[]>(
    page,
    `[...${ROOT}.querySelectorAll('[role="alert"]')].map((n) => n.textContent.replace(/\\s+/g, ' ').trim())`,
  );

/** Waits until the editor shows this text first (15 s at most). */
async function waitForFirstText(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    `${ROOT}.querySelector('li.widget .ccs-editable')?.textContent === ${JSON.stringify(text)}`,
    undefined,
    { timeout: 15_000 },
  );
}

/** Waits until a product imported into the catalogue has its content composed. */
async function composed(shop: Shop, id: string): Promise<Widget[]> {
  let widgets: Widget[] = [];
  await eventually(async () => {
    widgets = (await shop.host('GET', `/content/${id}/type/product`)).body;
    if (!Array.isArray(widgets) || widgets.length === 0)
      throw new Error(`${id} was never composed: ${JSON.stringify(widgets)}`);
  }, 20_000);
  return widgets;
}

/** Replaces the first editable text (click, select all, type, Enter) and waits for its save. */
async function editFirst(page: Page, text: string, nth = 0): Promise<void> {
  const before = (await hostEvents(page)).filter((e) => e.name === 'ccs-change').length;
  await page.locator('ccs-editor li.widget .ccs-editable').nth(nth).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await waitForEvent(page, 'ccs-change', before + 1);
}

describe('<ccs-editor> opens where the texts are', () => {
  test('when a product has texts in en and cs only, then it opens in the first active language with texts, again after a reload, and in the eshop main language once named', async () => {
    const shop = await h.shop();
    const imported = await shop.backOffice('POST', '/api/v2/rest/products', [
      {
        id: 'J2-1',
        name: { en: 'Breeze windbreaker', cs: 'Větrovka Breeze' },
        description: { en: '<p>Light and windproof.</p>', cs: '<p>Lehká a větruodolná.</p>' },
      },
    ]);
    expect(imported.status).toBe(200);
    await shop.host('POST', '/register-entity', { entity_id: 'J2-1', type: 'product' });
    await composed(shop, 'J2-1');

    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'J2-1', entityTitle: 'Breeze' });
    expect(await waitForEvent(page, 'ccs-ready')).toMatchObject({ entity_id: 'J2-1', lang: 'cs' });
    expect(await inPage(page, `${ROOT}.querySelector('select.lang').value`)).toBe('cs');
    expect(await inPage(page, `${ROOT}.querySelector('li.widget .widget-body').textContent`)).toContain(
      'Lehká a větruodolná.',
    );
    await shot(page, 'open-j2-cs');

    await page.reload();
    expect(await waitForEvent(page, 'ccs-ready')).toMatchObject({ lang: 'cs' });
    expect(await inPage(page, `${ROOT}.querySelector('select.lang').value`)).toBe('cs');

    // The eshop names English its main language: that one, as it has texts.
    await eshopsRepository.update(h.wl.deps.db, shop.eshop.id, { defaultLanguage: 'en' });
    // As the admin CLI does: the APIs' auth caches (which keep the eshop) forget it.
    const changes = authChangePublisher(
      testConfig({ QUEUE_PREFIX: `${process.env.TEST_QUEUE_PREFIX}-editor-owner-loop` }),
      (text) => process.stderr.write(`${text}\n`),
    );
    await changes.authChanged('eshops');
    await changes.close();
    await page.reload();
    expect(await waitForEvent(page, 'ccs-ready')).toMatchObject({ lang: 'en' });
    expect(await inPage(page, `${ROOT}.querySelector('li.widget .widget-body').textContent`)).toContain(
      'Light and windproof.',
    );
    await shot(page, 'open-j2-en-main');

    // The host's language wins, even an empty one.
    await inPage(page, `document.querySelector('ccs-editor').setAttribute('content-lang', 'default')`);
    await page.waitForFunction(`${ROOT}.querySelector('select.lang').value === 'default'`);
    expect((await hostEvents(page)).filter((e) => e.name === 'ccs-error')).toEqual([]);
    await page.close();
  });

  test("when the demo eshop's product is seeded, then the demo page opens on its content", async () => {
    const shop = await h.shop();
    await seedDemoProduct(h.wl.deps.db, shop.eshop.id);
    const page = await h.open({ token: shop.whiteLabelToken });
    const ready = await waitForEvent(page, 'ccs-ready');
    expect(ready.widgets).toBeGreaterThan(0);
    expect(await inPage(page, `${ROOT}.textContent`)).not.toContain('No content yet');
    expect(await inPage(page, `${ROOT}.querySelector('li.widget .widget-body').textContent`)).toContain(
      'A grippy sole',
    );
    await shot(page, 'demo-seeded');
    await page.close();
  });
});

describe('<ccs-editor> switching products mid-edit', () => {
  test('when the host switches entity-id while a text of A is typed, then A has the edit, B shows nothing of it, and every event names its entity', async () => {
    const shop = await h.shop();
    await productWith(shop, 'SW-A', ['section']);
    await setHeading(shop, 'SW-A', 'A heading');
    await productWith(shop, 'SW-B', ['section']);
    await setHeading(shop, 'SW-B', 'B heading');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'SW-A' });
    await waitForEvent(page, 'ccs-ready');
    await page.locator('ccs-editor li.widget .ccs-editable').first().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('A typed');
    expect(await waitForEvent(page, 'ccs-dirty')).toEqual({ dirty: true, entity_id: 'SW-A' });

    await inPage(page, `document.querySelector('ccs-editor').setAttribute('entity-id', 'SW-B')`);
    await waitForFirstText(page, 'B heading');
    expect(await waitForEvent(page, 'ccs-change')).toMatchObject({ action: 'edit', entity_id: 'SW-A' });
    expect(await waitForEvent(page, 'ccs-dirty', 2)).toEqual({ dirty: false, entity_id: 'SW-A' });
    expect(headingOf((await shop.host('GET', '/content/SW-A/type/product')).body).value.default).toBe(
      'A typed',
    );
    expect(headingOf((await shop.host('GET', '/content/SW-B/type/product')).body).value.default).toBe(
      'B heading',
    );
    // B's view, once B is loaded and drawn (A's save has answered): no Saving…, no error.
    await waitForEvent(page, 'ccs-ready', 2);
    await inPage(page, `document.querySelector('ccs-editor').updateComplete.then(() => true)`);
    expect(await inPage(page, `${ROOT}.querySelector('.status').textContent.trim()`)).toBe('');
    expect(await alerts(page)).toEqual([]);
    const events = await hostEvents(page);
    expect(events.filter((e) => e.name === 'ccs-error')).toEqual([]);
    for (const e of events) expect(e.detail.entity_id).toMatch(/^SW-[AB]$/);
    expect(events.filter((e) => e.name === 'ccs-ready').map((e) => e.detail.entity_id)).toEqual([
      'SW-A',
      'SW-B',
    ]);
    await shot(page, 'switched-mid-edit');
    await page.close();
  });
});

describe('<ccs-editor> panels from the keyboard', () => {
  test('when Add widget and History are opened with Enter, then focus is inside, and Escape closes them and returns focus to the button', async () => {
    const shop = await h.shop();
    await productWith(shop, 'KBD-1', ['section']);
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'KBD-1' });
    await waitForEvent(page, 'ccs-ready');
    for (const [panel, tag, name] of [
      ['add', 'CCS-ADD-PANEL', 'add'],
      ['history', 'CCS-HISTORY-PANEL', 'history'],
    ] as const) {
      await page.locator(`ccs-editor button[data-panel="${panel}"]`).focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction(`${ROOT}.activeElement?.tagName === '${tag}'`);
      expect(
        await inPage(page, `${ROOT}.activeElement.shadowRoot.activeElement?.classList.contains('panel')`),
      ).toBe(true);
      expect(
        await inPage(
          page,
          `${ROOT}.querySelector('button[data-panel="${panel}"]').getAttribute('aria-expanded')`,
        ),
      ).toBe('true');
      await shot(page, `panel-${name}-open`);
      // Tab goes on inside the panel.
      await page.keyboard.press('Tab');
      expect(await inPage(page, `${ROOT}.activeElement?.tagName`)).toBe(tag);
      await page.keyboard.press('Escape');
      await page.waitForFunction(`${ROOT}.querySelector('${tag.toLowerCase()}') === null`);
      expect(await inPage(page, `${ROOT}.activeElement?.dataset.panel`)).toBe(panel);
    }
    // Escape on the toolbar button of an open panel closes it too.
    await page.keyboard.press('Enter');
    await page.waitForFunction(`${ROOT}.querySelector('ccs-history-panel') !== null`);
    await page.locator('ccs-editor button[data-panel="history"]').focus();
    await page.keyboard.press('Escape');
    await page.waitForFunction(`${ROOT}.querySelector('ccs-history-panel') === null`);
    expect(await focused(page)).toBe('button:History');
    await page.close();
  });
});

describe('<ccs-editor> messages', () => {
  test('when an edit is refused as stale, then its text is kept over a reload of the page and can be applied again', async () => {
    const shop = await h.shop();
    await productWith(shop, 'CONF-1', ['section']);
    await setHeading(shop, 'CONF-1', 'Read by the editor');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'CONF-1' });
    await waitForEvent(page, 'ccs-ready');
    await setHeading(shop, 'CONF-1', 'Written elsewhere');
    await page.locator('ccs-editor li.widget .ccs-editable').first().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('My refused heading');
    await page.keyboard.press('Enter');
    expect(await waitForEvent(page, 'ccs-error')).toMatchObject({ status: 412, entity_id: 'CONF-1' });
    await shot(page, 'conflict-refused');

    await page.reload();
    await waitForEvent(page, 'ccs-ready');
    await waitForFirstText(page, 'Written elsewhere');
    const notice = page.locator('ccs-editor .refused');
    await notice.waitFor();
    expect((await notice.textContent())?.replace(/\s+/g, ' ')).toContain('“My refused heading”');
    await shot(page, 'conflict-kept-after-reload');
    await notice.getByRole('button', { name: 'Apply my text again' }).click();
    await waitForFirstText(page, 'My refused heading');
    expect(headingOf((await shop.host('GET', '/content/CONF-1/type/product')).body).value.default).toBe(
      'My refused heading',
    );
    await page.waitForFunction(`${ROOT}.querySelector('.refused') === null`);
    // Gone for good: a reload does not offer it again.
    await page.reload();
    await waitForEvent(page, 'ccs-ready');
    // The notice is read from the tab's session storage: nothing is kept there any more.
    expect(
      await inPage(page, `Object.keys(sessionStorage).filter((k) => k.startsWith('ccs-refused:'))`),
    ).toEqual([]);
    await inPage(page, `document.querySelector('ccs-editor').updateComplete.then(() => true)`);
    expect(await inPage(page, `${ROOT}.querySelector('.refused') === null`)).toBe(true);
    await page.close();
  });

  test('when an Undo is refused as stale, then the message says nothing was changed, not that an edit was lost', async () => {
    const shop = await h.shop();
    await productWith(shop, 'UNDO-1', ['section']);
    await setHeading(shop, 'UNDO-1', 'First');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'UNDO-1' });
    await waitForEvent(page, 'ccs-ready');
    await editFirst(page, 'Second');
    await setHeading(shop, 'UNDO-1', 'Third, elsewhere');
    await page.locator('ccs-editor button[data-undo]').click();
    await waitForEvent(page, 'ccs-error');
    const [message] = await alerts(page);
    expect(message).toContain('so nothing was changed');
    expect(message).not.toContain('Your edit was not saved');
    await shot(page, 'undo-refused');
    await page.close();
  });

  test('when a save is refused for a revoked token, then the message offers no retry; an error goes when the language changes', async () => {
    const shop = await h.shop();
    await productWith(shop, 'TOK-1', ['section']);
    await setHeading(shop, 'TOK-1', 'Heading');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'TOK-1' });
    await waitForEvent(page, 'ccs-ready');
    await page.route('**/api/v3/white-label/content/**', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 401,
            contentType: 'application/json',
            headers: { 'Access-Control-Allow-Origin': h.origin },
            body: '{"error":"Unauthenticated.","code":"token_invalid"}',
          })
        : route.continue(),
    );
    await page.locator('ccs-editor li.widget .ccs-editable').first().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Not to be saved');
    await page.keyboard.press('Enter');
    expect(await waitForEvent(page, 'ccs-error')).toMatchObject({ status: 401, entity_id: 'TOK-1' });
    const [message] = await alerts(page);
    expect(message).toMatch(/^Not saved: The editor is not authorised/);
    expect(message).toContain('Trying again cannot help');
    expect(message).not.toContain('try again');
    await shot(page, 'token-refused');
    await page.keyboard.press('Escape');
    await page.locator('ccs-editor select.lang').selectOption('cs');
    await page.waitForFunction(`${ROOT}.querySelectorAll('[role="alert"]').length === 0`);
    await page.close();
  });
});

describe('<ccs-editor> a refusal about one language', () => {
  test('when a generation is refused for Slovak and the owner picks Czech, then the Slovak refusal goes', async () => {
    const shop = await h.shop({ languages: ['default', 'cs', 'sk', 'en'] });
    await productWith(shop, 'GEN-SK', ['section']);
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'GEN-SK' });
    await waitForEvent(page, 'ccs-ready');
    await page.locator('ccs-editor button[data-panel="generate"]').click();
    const panel = page.locator('ccs-editor ccs-generate-panel');
    await panel.locator('#g-lang').selectOption('sk');
    await panel.locator('.estimate').filter({ hasNotText: 'Loading' }).waitFor();
    await panel.getByRole('button', { name: 'Start' }).click();
    expect(await waitForEvent(page, 'ccs-error')).toMatchObject({ status: 422, entity_id: 'GEN-SK' });
    await panel.locator('[role="alert"]').waitFor();
    await shot(page, 'generate-refused-sk');
    await panel.locator('#g-lang').selectOption('cs');
    await page.waitForFunction(
      `${ROOT}.querySelector('ccs-generate-panel').shadowRoot.querySelector('[role="alert"]') === null`,
    );
    expect(await alerts(page)).toEqual([]);
    await page.close();
  });
});

describe('<ccs-editor> samples', () => {
  test('when an FAQ question and answer are written in en, then after a reload they are the owner’s in en (editor and API) and still to fill in default', async () => {
    const shop = await h.shop();
    await productWith(shop, 'FAQ-1', ['faq']);
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'FAQ-1' });
    await waitForEvent(page, 'ccs-ready');
    await inPage(page, `document.querySelector('ccs-editor').setLanguage('en')`);
    await page.waitForFunction(`${ROOT}.querySelector('select.lang').value === 'en'`);
    const texts = page.locator('ccs-editor li.widget .ccs-editable');
    // The widget's heading, then the first question and its answer.
    await editFirst(page, 'How fast is delivery?', 1);
    await editFirst(page, 'Next working day.', 2);

    await page.reload();
    // The owner's texts are in en only: the editor opens there.
    expect(await waitForEvent(page, 'ccs-ready')).toMatchObject({ lang: 'en' });
    await page.waitForFunction(`${ROOT}.querySelectorAll('li.widget .ccs-editable').length > 2`);
    const notes = await inPage<Array<[string, string | null]>>(
      page,
      `[...${ROOT}.querySelectorAll('li.widget .ccs-editable')].slice(0, 3).map((n) => [n.textContent.trim(), n.dataset.ccsNote ?? null])`,
    );
    expect(notes[1]).toEqual(['How fast is delivery?', null]);
    expect(notes[2]).toEqual(['Next working day.', null]);
    expect(notes[0]![1]).toBe('to fill: sample text, never published');
    await shot(page, 'faq-edited-en');

    const en = (await shop.host('GET', '/content/FAQ-1/type/product?lang=en')).body;
    const question = en[0]!.children.find((e) => e.value.en === 'How fast is delivery?')!;
    expect(question.sample ?? []).not.toContain('value');
    const byDefault = (await shop.host('GET', '/content/FAQ-1/type/product?lang=default')).body;
    expect(byDefault[0]!.children.find((e) => e.id === question.id)!.sample).toContain('value');
    const published = (await shop.host('GET', '/entity/FAQ-1/type/product/html')).body;
    expect(published.html.en).toContain('How fast is delivery?');
    expect(await texts.count()).toBeGreaterThan(2);
    await page.close();
  });
});

describe('<ccs-editor> in every UI language', () => {
  const LANGUAGES: Record<string, Record<string, string>> = { en, cs, sk, de, pl, hu, uk };

  test.each(Object.keys(LANGUAGES))(
    'when ui-lang is %s, then the editor speaks it (texts read from the API where not built in)',
    async (lang) => {
      const texts = LANGUAGES[lang]!;
      const shop = await h.shop();
      await productWith(shop, `UI-${lang}`, ['section']);
      await setHeading(shop, `UI-${lang}`, 'Heading');
      if (lang !== 'en' && lang !== 'cs') {
        const served = await checkedFetch(`${h.wl.url}/editor/v1/messages/${lang}.json`);
        expect(served.status).toBe(200);
        expect(served.body).toEqual({ messages: texts, catalogue: CATALOGUES[lang] });
      }
      const page = await h.open({ token: shop.whiteLabelToken, entityId: `UI-${lang}`, uiLang: lang });
      await waitForEvent(page, 'ccs-ready');
      await page.waitForFunction(
        `${ROOT}.querySelector('button[data-panel="add"]')?.textContent.trim() === ${JSON.stringify(texts.add)}`,
      );
      const shown = await inPage<Record<string, string>>(
        page,
        `(() => { const root = ${ROOT}; return {
          hint: root.querySelector('#ccs-edit-hint').textContent.trim(),
          history: root.querySelector('button[data-history]').textContent.trim(),
          language: [...root.querySelector('.toolbar label').childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim(),
          note: root.querySelector('.ccs-marked')?.dataset.ccsNote ?? '',
          widget: root.querySelector('.widget-bar .name').textContent.split('·')[0].trim(),
        }; })()`,
      );
      expect(shown).toEqual({
        hint: texts.editHint,
        history: texts.history,
        language: texts.language,
        note: texts.toFill,
        widget: CATALOGUES[lang]?.['widget.section'] ?? (lang === 'cs' ? 'Sekce' : 'Section'),
      });
      await shot(page, `ui-${lang}`);
      await page.close();
    },
  );

  test('when the host changes ui-lang after the texts are drawn, then their marks and the formatting toolbar speak the new language', async () => {
    const shop = await h.shop();
    await productWith(shop, 'UI-SWITCH', ['section']);
    await setHeading(shop, 'UI-SWITCH', 'Heading');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'UI-SWITCH', uiLang: 'en' });
    await waitForEvent(page, 'ccs-ready');
    const note = () => inPage<string>(page, `${ROOT}.querySelector('.ccs-marked')?.dataset.ccsNote ?? ''`);
    expect(await note()).toBe(en.toFill);

    // Slovak is served beside the bundle: its texts arrive after the marked nodes were wired.
    await inPage(page, `document.querySelector('ccs-editor').setAttribute('ui-lang', 'sk')`);
    await page.waitForFunction(
      `${ROOT}.querySelector('button[data-panel="add"]')?.textContent.trim() === ${JSON.stringify(sk.add)}`,
    );
    expect(await note()).toBe(sk.toFill);
    await page.locator('ccs-editor .ccs-section__text').first().click();
    await page.waitForFunction(`!!${ROOT}.querySelector('[role="toolbar"]')`);
    expect(await inPage(page, `${ROOT}.querySelector('[role="toolbar"]').getAttribute('aria-label')`)).toBe(
      sk.formatting,
    );
    await shot(page, 'ui-switched-sk');
    await page.close();
  });
});
