// Every part of a widget is editable in the editor: an FAQ's question and answer (its details
// stay open), a parameters table's values (an empty one too), and the URLs and alt texts of
// images, links and videos, checked by the API's own URL rules before anything is sent.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { attributesOf, productWith, ROOT, type Widget } from './content';
import { editorHarness, hostEvents, shot, waitForEvent } from './harness';

jest.setTimeout(180_000);

const h = editorHarness('editor-parts');

async function expectNoViolations(page: Page, state: string): Promise<void> {
  // A video's iframe is the player's page (offline here: Chrome's error page, whose text is in
  // no landmark), not the editor: it is left out.
  const result = await new AxeBuilder({ page })
    .include('ccs-editor')
    .exclude({ fromShadowDom: ['ccs-editor', 'iframe'] })
    .analyze();
  expect({
    state,
    violations: result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  }).toEqual({ state, violations: [] });
}

/** Clicks a text, replaces it, presses Enter and waits for the save (the n-th ccs-change). */
async function replaceText(page: Page, selector: string, text: string, n: number): Promise<void> {
  await page.locator(`ccs-editor ${selector}`).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  expect(await waitForEvent(page, 'ccs-change', n)).toMatchObject({ action: 'edit' });
}

const valueOf = (widget: Widget, cls: string, k = 0): string =>
  widget.children.filter((e) => e.class === cls)[k]!.value.default ?? '';

describe('<ccs-editor> every part of a widget', () => {
  test('when an owner clicks an FAQ question, then its answer stays open and both are edited', async () => {
    const shop = await h.shop();
    await productWith(shop, 'FAQ-2', ['faq']);
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'FAQ-2' });
    await waitForEvent(page, 'ccs-ready');
    await replaceText(page, '.ccs-faq__question >> nth=0', 'Is it waterproof?', 1);
    expect(await page.evaluate(`${ROOT}.querySelector('details').open`)).toBe(true);
    await replaceText(page, '.ccs-faq__answer >> nth=0', 'Yes, to 10,000 mm.', 2);
    const faq = (await shop.host('GET', '/content/FAQ-2/type/product')).body[0]!;
    expect(valueOf(faq, 'ccs-faq__question')).toBe('Is it waterproof?');
    expect(valueOf(faq, 'ccs-faq__answer')).toBe('<p>Yes, to 10,000 mm.</p>');
    expect(await page.evaluate(`${ROOT}.querySelector('summary').getAttribute('role')`)).toBeNull();
    await expectNoViolations(page, 'faq edited');
    await shot(page, 'faq-open');
    await page.close();
  });

  test('when a parameters row has an empty value, then every value (the empty one too) is edited in place', async () => {
    const shop = await h.shop();
    const table = (await productWith(shop, 'PAR-1', ['parameters']))[0]!;
    const values = table.children.filter((e) => e.class === 'ccs-parameters__value');
    await shop.host('PUT', '/content/PAR-1/type/product', {
      [table.id]: { children: [{ id: values[1]!.id, value: { default: '' } }] },
    });
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'PAR-1' });
    await waitForEvent(page, 'ccs-ready');
    await replaceText(page, '.ccs-parameters__value >> nth=1', '42 mm', 1);
    await replaceText(page, '.ccs-parameters__value >> nth=0', 'Blue', 2);
    const after = (await shop.host('GET', '/content/PAR-1/type/product')).body[0]!;
    expect(valueOf(after, 'ccs-parameters__value', 1)).toBe('42 mm');
    expect(valueOf(after, 'ccs-parameters__value', 0)).toBe('Blue');
    await page.close();
  });

  test('when an owner edits the URLs and alt texts of images, links and videos, then unsafe URLs are refused before sending and the rest is stored', async () => {
    const shop = await h.shop();
    await productWith(shop, 'MED-1', ['image_text', 'cta', 'video']);
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'MED-1', width: 375 });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');
    const row = (n: number) => editor.locator('li.widget').nth(n);

    // The image: a javascript: URL is refused in the form, an https one is previewed and saved.
    await row(0)
      .getByRole('button', { name: /^Images and links/ })
      .click();
    const src = row(0).getByLabel('Image URL');
    await src.fill('javascript:alert(1)');
    await src.press('Enter');
    await row(0).getByText('Use an absolute http or https address.').waitFor();
    expect(await src.getAttribute('aria-invalid')).toBe('true');
    await src.fill('https://cdn.example.com/shoe.jpg');
    await row(0).getByLabel('Alternative text').fill('A trail shoe from the side');
    await expect(row(0).locator('.media-preview img').getAttribute('src')).resolves.toBe(
      'https://cdn.example.com/shoe.jpg',
    );
    await expectNoViolations(page, 'media form');
    await shot(page, 'media-form-375');
    await row(0).getByRole('button', { name: 'Save', exact: true }).click();
    expect(await waitForEvent(page, 'ccs-change', 1)).toMatchObject({ action: 'media' });
    const image = (await shop.host('GET', '/content/MED-1/type/product')).body[0]!.children.find(
      (e) => e.tag === 'img',
    )!;
    expect(image.extension).toMatchObject({
      src: 'https://cdn.example.com/shoe.jpg',
      alt: { default: 'A trail shoe from the side' },
    });

    // The button's link.
    await row(1)
      .getByRole('button', { name: /^Images and links/ })
      .click();
    await row(1).getByLabel('Link URL').fill('https://shop.example.com/sale');
    await row(1).getByRole('button', { name: 'Save', exact: true }).click();
    expect(await waitForEvent(page, 'ccs-change', 2)).toMatchObject({ action: 'media' });
    const link = (await shop.host('GET', '/content/MED-1/type/product')).body[1]!.children.find(
      (e) => e.tag === 'a',
    )!;
    expect(attributesOf(link).href).toBe('https://shop.example.com/sale');

    // The video: only a YouTube or Vimeo link is taken.
    await row(2)
      .getByRole('button', { name: /^Images and links/ })
      .click();
    const video = row(2).getByLabel('Video URL');
    await video.fill('https://evil.example.com/video.mp4');
    await video.press('Enter');
    await row(2).getByText('Use a YouTube or Vimeo link.').waitFor();
    await video.fill('https://youtu.be/dQw4w9WgXcQ');
    await row(2).getByRole('button', { name: 'Save', exact: true }).click();
    expect(await waitForEvent(page, 'ccs-change', 3)).toMatchObject({ action: 'media' });
    const frame = (await shop.host('GET', '/content/MED-1/type/product')).body[2]!.children.find(
      (e) => e.tag === 'iframe',
    )!;
    expect(attributesOf(frame).src).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    // The form shows what was stored (the canonical player address), not the draft.
    await expect(video.inputValue()).resolves.toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    await page.setViewportSize({ width: 1440, height: 900 });
    await shot(page, 'media-saved-1440');
    expect((await hostEvents(page)).filter((e) => e.name === 'ccs-error')).toEqual([]);
    await page.close();
  });
});
