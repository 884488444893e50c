// Texts that are not the owner's own in the language shown are marked, never shown silently:
// a language without its own text shows the default one marked "shown from default — not
// translated yet"; a catalogue sample (element `sample`) is marked "to fill".
import type { Page } from 'playwright-core';
import { expectNoViolations } from './axe';
import { apiOf, productWith, ROOT, setHeading } from './content';
import { editorHarness, shot, waitForEvent } from './harness';

jest.setTimeout(180_000);

const h = editorHarness('editor-marks');
const api = apiOf(
  () => h.wl.url,
  () => h.origin,
);

/** Each editable text of the first widget: its text and the note drawn after it ('' when none). */
const marks = (page: Page) =>
  page.evaluate(`[...${ROOT}.querySelectorAll('li.widget .ccs-editable')].map((n) => {
    const after = getComputedStyle(n, '::after').content;
    return [n.textContent.trim(), after === 'none' || after === 'normal' ? '' : after.replace(/^"|"$/g, ''), n.getAttribute('aria-describedby')];
  })`) as Promise<Array<[string, string, string]>>;

describe('<ccs-editor> marks', () => {
  test('when a language has no text of its own and an element is a catalogue sample, then each is marked visibly and described', async () => {
    const shop = await h.shop();
    await productWith(api, shop, 'MARK-1', ['section']);
    await setHeading(api, shop, 'MARK-1', 'Own heading');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'MARK-1' });
    await waitForEvent(page, 'ccs-ready');
    // Default: the owner's heading is unmarked; the catalogue's sample text is to fill.
    expect(await marks(page)).toEqual([
      ['Own heading', '', 'ccs-edit-hint'],
      [
        expect.stringMatching(/^A short introduction/),
        'to fill: sample text, never published',
        'ccs-edit-hint ccs-note-sample',
      ],
    ]);

    await page.evaluate(`document.querySelector('ccs-editor').setLanguage('cs')`);
    expect(await marks(page)).toEqual([
      ['Own heading', 'shown from default — not translated yet', 'ccs-edit-hint ccs-note-fallback'],
      [
        expect.stringMatching(/^A short introduction/),
        'to fill: sample text, never published',
        'ccs-edit-hint ccs-note-sample',
      ],
    ]);
    await expectNoViolations(page, 'marked');
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await shot(page, `marks-${width}`);
    }

    // The Czech heading written: its mark goes.
    await page.locator('ccs-editor li.widget .ccs-editable').first().focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Vlastní nadpis');
    await page.keyboard.press('Enter');
    await waitForEvent(page, 'ccs-change');
    await page.waitForFunction(
      `${ROOT}.querySelector('li.widget .ccs-editable')?.textContent === 'Vlastní nadpis'`,
    );
    expect((await marks(page))[0]).toEqual(['Vlastní nadpis', '', 'ccs-edit-hint']);
    await page.close();
  });
});
