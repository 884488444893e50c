// A rich text as in any editor: the formatting toolbar with the keyboard only (Tab to the text,
// Shift+Tab and Alt+F10 to the toolbar, arrow keys, a refused then an accepted link address,
// clear formatting, Ctrl+Enter in a list saves), and a paste from Word whose saved value — the
// `ccs-change` detail and what the API reads back — holds only what the field allows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expectNoViolations } from './axe';
import { focused, productWith, ROOT } from './content';
import { editorHarness, hostEvents, inPage, shot, waitForEvent } from './harness';

jest.setTimeout(180_000);

const h = editorHarness('editor-format');
const WORD = readFileSync(join(__dirname, '../../libs/content/test/fixtures/word-paste.html'), 'utf8');
const TEXT = `${ROOT}.querySelector('.ccs-section__text')`;

async function tabTo(page: Page, expression: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    const hit = await page.evaluate(
      `(() => { const el = ${ROOT}.activeElement; return !!el && (${expression}); })()`,
    );
    if (hit) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`no focusable element where ${expression}; focus is on ${await focused(page)}`);
}

const pressed = (page: Page, command: string) =>
  inPage<string>(page, `${ROOT}.querySelector('[data-format="${command}"]').getAttribute('aria-pressed')`);
const textHtml = (page: Page) => inPage<string>(page, `${TEXT}.innerHTML`);

describe('<ccs-editor> rich texts', () => {
  test('when an owner formats a text with the toolbar by keyboard only, then bold, italic, clear, list and a checked link are saved clean', async () => {
    const shop = await h.shop();
    await productWith(shop, 'FMT-1', ['section']);
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'FMT-1' });
    await waitForEvent(page, 'ccs-ready');

    await tabTo(page, `el.classList.contains('ccs-section__text')`);
    expect(await inPage(page, `!!${ROOT}.querySelector('[role="toolbar"]')`)).toBe(false);
    await page.keyboard.press('Enter');
    await page.waitForFunction(`!!${ROOT}.querySelector('[role="toolbar"]')`);
    // The toolbar names itself and its shortcuts; one button is in the tab order.
    expect(await inPage(page, `${ROOT}.querySelector('[role="toolbar"]').getAttribute('aria-label')`)).toBe(
      'Text formatting',
    );
    expect(await inPage(page, `${ROOT}.querySelector('.ccs-format-keys').textContent`)).toContain(
      'Ctrl+B Bold, Ctrl+I Italic, Ctrl+K Link, Ctrl+Shift+8 Bulleted list, Ctrl+Shift+7 Numbered list',
    );
    expect(
      await inPage(page, `[...${ROOT}.querySelectorAll('.ccs-format-bar button')].map((b) => b.tabIndex)`),
    ).toEqual([0, -1, -1, -1, -1, -1]);
    await page.keyboard.press('Control+A');
    await expectNoViolations(page, 'editing with the toolbar');

    // Shift+Tab reaches the toolbar; Enter on Bold makes the selection bold and says so.
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toBe('button:Bold');
    await shot(page, 'format-toolbar-focus');
    await page.keyboard.press('Enter');
    expect(await pressed(page, 'bold')).toBe('true');
    expect(await focused(page)).toBe('button:Bold');
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toBe('button:Italic');
    await page.keyboard.press('Space');
    expect(await pressed(page, 'italic')).toBe('true');
    expect(await textHtml(page)).toMatch(/<(b|strong)>|<(i|em)>/);

    // Clear formatting (End), then bold again (Home).
    await page.keyboard.press('End');
    expect(await focused(page)).toBe('button:Clear formatting');
    await page.keyboard.press('Enter');
    expect(await textHtml(page)).not.toMatch(/<(b|strong|i|em)>/);
    expect(await pressed(page, 'bold')).toBe('false');
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    expect(await pressed(page, 'bold')).toBe('true');

    // A bulleted list: Escape back to the text, Alt+F10 back to the toolbar where it was.
    await page.keyboard.press('Escape');
    expect(await focused(page)).toMatch(/^div:/);
    await page.keyboard.press('Alt+F10');
    expect(await focused(page)).toBe('button:Bold');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toBe('button:Bulleted list');
    await page.keyboard.press('Enter');
    expect(await pressed(page, 'ul')).toBe('true');

    // A link: an address that is not a full one is refused and said why; a full one is applied.
    await page.keyboard.press('ArrowLeft');
    expect(await focused(page)).toBe('button:Link');
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('input:');
    await page.keyboard.type('shop.example/jacket');
    await page.keyboard.press('Enter');
    expect(await inPage(page, `${ROOT}.querySelector('.ccs-format-error').textContent`)).toContain(
      'Enter a full address starting with https://',
    );
    expect(
      await inPage(page, `${ROOT}.querySelector('.ccs-format-link input').getAttribute('aria-invalid')`),
    ).toBe('true');
    expect(await textHtml(page)).not.toContain('<a ');
    await shot(page, 'format-link-refused');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('https://shop.example/jacket');
    await page.keyboard.press('Enter');
    expect(await focused(page)).toMatch(/^div:/);
    expect(await textHtml(page)).toContain('href="https://shop.example/jacket"');
    await shot(page, 'format-toolbar-list-link');

    // In a list Enter would add an item: Ctrl+Enter saves.
    await page.keyboard.press('Control+Enter');
    const change = await waitForEvent(page, 'ccs-change');
    expect(change.action).toBe('edit');
    expect(change.value).toMatch(
      /^<ul><li><strong><a href="https:\/\/shop\.example\/jacket">[^<]+<\/a><\/strong><\/li><\/ul>$/,
    );
    const [widget] = (await shop.host('GET', '/content/FMT-1/type/product')).body;
    const stored = widget!.children.find((e) => e.class === 'ccs-section__text')!.value.default;
    expect(stored).toBe(change.value);
    expect(await inPage(page, `!!${ROOT}.querySelector('[role="toolbar"]')`)).toBe(false);
    expect((await hostEvents(page)).filter((e) => e.name === 'ccs-error')).toEqual([]);
    await page.close();
  });

  test('when Word HTML is pasted into a rich text and saved, then the field, the ccs-change detail and the API hold only what it allows', async () => {
    const shop = await h.shop();
    await productWith(shop, 'FMT-2', ['section']);
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'FMT-2' });
    await waitForEvent(page, 'ccs-ready');
    await tabTo(page, `el.classList.contains('ccs-section__text')`);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+A');
    // A paste as the browser delivers one from Word: text/html and text/plain.
    await page.evaluate(`(() => {
      const data = new DataTransfer();
      data.setData('text/html', ${JSON.stringify(WORD)});
      data.setData('text/plain', 'Bold Word text');
      ${TEXT}.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    })()`);
    const shown = await textHtml(page);
    expect(shown).not.toMatch(/<img|<table|Mso|mso-|style=|class=|o:p|cell|javascript/);
    await shot(page, 'paste-word-cleaned');
    await page.keyboard.press('Enter');
    const change = await waitForEvent(page, 'ccs-change');
    expect(change.value).toBe(
      '<p><strong>Bold Word</strong> text with <em>italic</em> words</p>' +
        // Word's list paragraphs are a list again (bullets: their marker is no number).
        '<ul><li>Waterproof to 20&nbsp;000 mm</li><li>Taped seams</li></ul>' +
        '<ol><li>Unfold the hood</li><li>Zip it up</li></ol><p>js link <a href="https://shop.example/storm-jacket">ok link</a> relative link ' +
        '<a href="tel:+420123456789">call us</a> bookmark</p>',
    );
    const [widget] = (await shop.host('GET', '/content/FMT-2/type/product')).body;
    const stored = widget!.children.find((e) => e.class === 'ccs-section__text')!.value.default;
    expect(stored).toBe(change.value?.replace('&nbsp;', '\u00a0'));
    await page.waitForFunction(`!${TEXT}.isContentEditable`);
    await shot(page, 'paste-word-saved');
    expect((await hostEvents(page)).filter((e) => e.name === 'ccs-error')).toEqual([]);
    await page.close();
  });

  test('when the UI is Czech, then the toolbar speaks Czech, Ctrl+K opens the link form, and a click keeps the text in editing', async () => {
    const shop = await h.shop();
    await productWith(shop, 'FMT-3', ['faq']);
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'FMT-3', uiLang: 'cs-CZ' });
    await waitForEvent(page, 'ccs-ready');
    await tabTo(page, `el.classList.contains('ccs-faq__answer')`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(`!!${ROOT}.querySelector('[role="toolbar"]')`);
    expect(
      await inPage(page, `[...${ROOT}.querySelectorAll('.ccs-format-bar button')].map((b) => b.textContent)`),
    ).toEqual(['Tučně', 'Kurzíva', 'Odkaz', 'Odrážky', 'Číslovaný seznam', 'Zrušit formátování']);
    expect(await inPage(page, `${ROOT}.querySelector('[role="toolbar"]').getAttribute('aria-label')`)).toBe(
      'Formátování textu',
    );
    // Ctrl+K: the address field; Escape: back in the text, nothing linked.
    await page.keyboard.press('Control+K');
    expect(await focused(page)).toBe('input:');
    await shot(page, 'format-toolbar-cs');
    await page.keyboard.press('Escape');
    expect(await focused(page)).toMatch(/^div:/);
    // Underline is no markup of a rich text: Ctrl+U does nothing.
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+U');
    expect(
      await inPage(page, `${TEXT.replace('ccs-section__text', 'ccs-faq__answer')}.innerHTML`),
    ).not.toContain('<u>');
    // A click on Italic formats and leaves the text being edited (focus stays in it).
    await page.locator('ccs-editor [data-format="italic"]').click();
    expect(await focused(page)).toMatch(/^div:/);
    expect(await pressed(page, 'italic')).toBe('true');
    expect((await hostEvents(page)).filter((e) => e.name === 'ccs-change')).toEqual([]);
    await page.keyboard.press('Enter');
    const change = await waitForEvent(page, 'ccs-change');
    expect(change.value).toMatch(/^<em>.+<\/em>$|^<p><em>.+<\/em><\/p>$/);
    await page.close();
  });
});
