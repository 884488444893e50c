import { launchBrowser } from '@catalogue/testing';

describe('launchBrowser', () => {
  test('when a browser test starts, then Debian chromium runs a page headless', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.setContent('<p id="p">ready</p>');
      expect(await page.textContent('#p')).toBe('ready');
    } finally {
      await browser.close();
    }
  });
});
