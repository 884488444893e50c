// Draft, preview, publish: in an eshop whose edits wait as drafts, the owner edits, sees
// "Draft — not published", previews the draft as the storefront will show it, publishes with
// the keyboard, and History says which version the storefront serves. The storefront read (the
// v3 entity html) is checked at each step.
import { adminService } from '@catalogue/admin';
import type { Page } from 'playwright-core';
import { expectNoViolations } from './axe';
import { productWith, setHeading } from './content';
import { editorHarness, shot, waitForEvent, type Shop } from './harness';

jest.setTimeout(240_000);

const h = editorHarness('editor-publish');

const storefrontHtml = async (shop: Shop, id: string) =>
  (await shop.host('GET', `/entity/${id}/type/product/html`)).body.html.default;

/** The publish bar's text (inside the editor's shadow root, inside its own). */
const barText = (page: Page) =>
  page.evaluate(
    `document.querySelector('ccs-editor').shadowRoot.querySelector('ccs-publish-bar')?.shadowRoot?.textContent?.replace(/\\s+/g, ' ').trim() ?? ''`,
  ) as Promise<string>;

describe('<ccs-editor> drafts: preview and publish', () => {
  test('when an owner of a draft-mode eshop edits, previews and publishes with the keyboard, then the storefront changes only on publish and History marks what is published', async () => {
    const shop = await h.shop();
    await productWith(shop, 'PUB-1', ['section']);
    await setHeading(shop, 'PUB-1', 'Built for trails');
    await adminService(h.wl.deps.db).updateEshop(shop.eshop.id, { publishMode: 'draft' });
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'PUB-1' });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');
    const bar = editor.locator('ccs-publish-bar');
    await bar.getByText('Published — the storefront shows this content.').waitFor();

    // Edit the heading in place, as an owner does.
    await editor.locator('li.widget .ccs-editable').first().focus();
    await page.keyboard.press('Enter');
    await page.keyboard.type(' and rain');
    await page.keyboard.press('Enter');
    await bar.getByText('Draft — not published').waitFor();
    expect(await storefrontHtml(shop, 'PUB-1')).not.toContain('and rain');
    await shot(page, 'publish-draft-state');

    // Preview: keyboard to the button; the draft as the storefront will render it.
    await bar.getByRole('button', { name: 'Preview' }).focus();
    await page.keyboard.press('Enter');
    const preview = bar.locator('.storefront-preview');
    await preview.getByText('Built for trails and rain').waitFor();
    expect(await bar.getByRole('button', { name: 'Preview' }).getAttribute('aria-expanded')).toBe('true');
    await shot(page, 'publish-preview');
    await expectNoViolations(page, 'draft preview');

    // History: the newest is a draft, the one before it is on the storefront.
    await editor.getByRole('button', { name: 'History' }).click();
    const history = editor.locator('ccs-history-panel');
    await history.locator('ol.revisions li').first().waitFor();
    expect(await history.locator('ol.revisions li').first().textContent()).toContain('draft');
    expect(await history.locator('.badge.published').count()).toBe(1);
    await shot(page, 'publish-history-draft');
    await editor.getByRole('button', { name: 'History' }).click();
    await history.waitFor({ state: 'detached' });

    // Publish with the keyboard; the host hears of it (ccs-published).
    await page.evaluate(
      `window.published = []; document.querySelector('ccs-editor').addEventListener('ccs-published', (e) => window.published.push(e.detail))`,
    );
    await bar.getByRole('button', { name: 'Publish' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction('window.published.length === 1');
    await bar.getByText('Published. The storefront now shows this content.').waitFor();
    expect(await storefrontHtml(shop, 'PUB-1')).toContain('Built for trails and rain');
    // The state line follows once the draft state is read again after the publish.
    await bar.getByText('Published — the storefront shows this content.').waitFor();
    expect(await barText(page)).toContain('Published — the storefront shows this content.');
    await bar.getByRole('button', { name: 'Publish' }).waitFor({ state: 'detached' });

    await editor.getByRole('button', { name: 'History' }).click();
    await history.locator('ol.revisions li').first().waitFor();
    const newest = await history.locator('ol.revisions li').first().textContent();
    expect(newest).toContain('Published');
    expect(newest).toContain('on the storefront');
    expect(await history.locator('.badge.published').count()).toBe(1);
    await shot(page, 'publish-history-published');
    await expectNoViolations(page, 'published history');
    await page.close();
  });

  test('when a Czech owner on a phone has a draft, then the bar says so in Czech and discards it after a confirmation', async () => {
    const shop = await h.shop();
    await productWith(shop, 'PUB-3', ['section']);
    await setHeading(shop, 'PUB-3', 'Do hor');
    await adminService(h.wl.deps.db).updateEshop(shop.eshop.id, { publishMode: 'draft' });
    await setHeading(shop, 'PUB-3', 'Do hor i do deště');
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'PUB-3', uiLang: 'cs', width: 375 });
    await waitForEvent(page, 'ccs-ready');
    const bar = page.locator('ccs-editor').locator('ccs-publish-bar');
    await bar.getByText('Koncept — nezveřejněno').waitFor();
    await bar.getByRole('button', { name: 'Náhled' }).click();
    await bar.locator('.storefront-preview').getByText('Do hor i do deště').waitFor();
    await shot(page, 'publish-cs-375');
    await expectNoViolations(page, 'cs draft at 375 px');

    // From the keyboard: the question takes the focus, Enter confirms.
    await bar.getByRole('button', { name: 'Zahodit koncept' }).focus();
    await page.keyboard.press('Enter');
    await bar.getByText('Zahodit koncept? Zveřejněná verze zůstane.').waitFor();
    await page.keyboard.press('Enter');
    await bar.getByText('Koncept zahozen. Znovu se ukazuje zveřejněná verze.').waitFor();
    await page.locator('ccs-editor li.widget').getByText('Do hor', { exact: true }).waitFor();
    expect(await storefrontHtml(shop, 'PUB-3')).not.toContain('deště');
    await shot(page, 'publish-cs-discarded');
    await page.close();
  });

  test('when an eshop publishes at once, then the editor shows no publish bar', async () => {
    const shop = await h.shop();
    await productWith(shop, 'PUB-2', ['section']);
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'PUB-2' });
    await waitForEvent(page, 'ccs-ready');
    // The state is read after the widgets: once it is in and drawn, the bar stays empty.
    const bar = `document.querySelector('ccs-editor').shadowRoot.querySelector('ccs-publish-bar')`;
    await page.waitForFunction(`${bar}?.state != null`);
    await page.evaluate(`${bar}.updateComplete`);
    expect(await barText(page)).toBe('');
    await page.close();
  });
});
