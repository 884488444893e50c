// What a shop owner sees when the editor cannot do what was asked: the licence, the token or
// the page's origin refused, not enough credits for a generation; Czech UI texts; a 360 px
// wide admin. Every refusal reaches the host page as a ccs-error event with its status.
import AxeBuilder from '@axe-core/playwright';
import { editorHarness, hostEvents, inPage, shot, waitForEvent } from './harness';

// A busy 2-core machine runs these; the browser steps wait on real services, not on timers.
jest.setTimeout(120_000);

const h = editorHarness('editor-errors');

const alertText = (page: import('playwright-core').Page) =>
  page.locator('ccs-editor [role="alert"]').first().textContent();

describe('<ccs-editor> refusals', () => {
  test('when the licence has expired, then the editor says so and tells the host (403)', async () => {
    const shop = await h.shop({ licenceValidUntil: '2020-01-01' });
    const page = await h.open({ token: shop.whiteLabelToken });
    expect(await waitForEvent(page, 'ccs-error')).toMatchObject({ status: 403 });
    expect(await alertText(page)).toBe(
      'The white-label licence of this eshop is not valid. Contact your provider.',
    );
    await shot(page, 'licence-refused');
    await page.close();
  });

  test('when the token is not valid, then the editor says it is not authorised (401)', async () => {
    await h.shop();
    const page = await h.open({ token: 'wl_not-a-token' });
    expect(await waitForEvent(page, 'ccs-error')).toMatchObject({ status: 401 });
    expect(await alertText(page)).toBe(
      'The editor is not authorised: its access token is missing, expired or revoked. Reload the page; if it happens again, ask whoever runs your shop admin.',
    );
    await page.close();
  });

  test('when the page origin is allowed for another eshop only, then the editor names the origin (403)', async () => {
    const shop = await h.shop();
    await h.shop({ origins: [h.otherOrigin] });
    const page = await h.open({ token: shop.whiteLabelToken, origin: h.otherOrigin });
    expect(await waitForEvent(page, 'ccs-error')).toMatchObject({ status: 403 });
    expect(await alertText(page)).toBe(
      `This page (${h.otherOrigin}) is not allowed to use the editor of this eshop. Ask whoever runs your shop admin to allow it.`,
    );
    await page.close();
  });

  test('when the credits do not cover the estimate, then the start is refused in the form', async () => {
    const shop = await h.shop({ credits: 0 });
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'POOR-1' });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');
    await editor.getByRole('button', { name: 'Generate content' }).click();
    await editor
      .locator('.estimate', { hasText: /Not enough credits for this generation \(\d+ needed, 0 left\)\./ })
      .waitFor();
    expect(await editor.getByRole('button', { name: 'Start' }).isDisabled()).toBe(true);
    await shot(page, 'insufficient-credits');
    await page.close();
  });

  test('when the UI language is cs, then the editor speaks Czech, and at 360 px nothing scrolls sideways', async () => {
    const shop = await h.shop();
    const page = await h.open({ token: shop.whiteLabelToken, uiLang: 'cs', width: 360, entityId: 'CS-1' });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');
    await editor.getByRole('button', { name: 'Přidat widget' }).click();
    await editor.locator('ccs-add-panel button.choice').first().click();
    await waitForEvent(page, 'ccs-change');
    expect(await editor.getByRole('button', { name: /^Smazat/ }).count()).toBe(1);
    expect(await inPage(page, 'document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    const axe = await new AxeBuilder({ page }).include('ccs-editor').analyze();
    expect(
      axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
    ).toEqual([]);
    await shot(page, 'czech-360px');
    expect((await hostEvents(page)).filter((e) => e.name === 'ccs-error')).toEqual([]);
    await page.close();
  });
});
