/**
 * The API is the guard of published HTML: a rich text sent in Word's HTML (by the editor of an
 * older page, or any other client) is stored, answered and rendered with only the markup the
 * field allows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sanitizeRich } from '@catalogue/content';
import { contentService, elementByClass } from './content-helpers';

const WORD = readFileSync(join(__dirname, '../../../libs/content/test/fixtures/word-paste.html'), 'utf8');
const CLEAN =
  '<p><strong>Bold Word</strong> text with <em>italic</em> words</p>' +
  '<p>Waterproof to 20\u00a0000 mm</p><p>Taped seams</p><p>Unfold the hood</p><p>Zip it up</p>' +
  '<p>js link <a href="https://shop.example/storm-jacket">ok link</a> relative link ' +
  '<a href="tel:+420123456789">call us</a> bookmark</p>';

const OFFICE = /MsoNormal|mso-|style=|class="Mso|o:p|<img|<table|clip_image|javascript:|href="storm/;

describe('white-label-api: a Word paste through the content operations', () => {
  const svc = contentService();

  test('when PUT sends Word HTML into a rich text, then the stored, answered and published value is clean', async () => {
    const shop = await svc.shop({ languages: ['default', 'cs'] });
    await shop.register('W', 'product');
    const [section] = await shop.add('W', 'section');
    const text = elementByClass(section!, 'ccs-section__text');

    const put = await shop.call('PUT', '/content/W/type/product?lang=cs', {
      [section!.id]: { children: [{ id: text.id, value: { cs: WORD } }] },
    });

    expect(put.status).toBe(200);
    expect(sanitizeRich(WORD)).toBe(CLEAN);
    const answered = put.body[0]!.children.find((e) => e.id === text.id)!;
    expect((answered.value as Record<string, string>).cs).toBe(CLEAN);
    const read = await shop.call('GET', '/content/W/type/product?lang=cs');
    const readBack = read.body[0]!.children.find((e) => e.id === text.id)!;
    expect((readBack.value as Record<string, string>).cs).toBe(CLEAN);
    const stored = await shop.stored('W');
    expect(stored!.html.cs).toContain(CLEAN);
    expect(stored!.html.cs).not.toMatch(OFFICE);
    expect(stored!.marketplace.cs).not.toMatch(OFFICE);
  });

  test('when POST adds a widget whose rich text is Word HTML, then it is stored clean', async () => {
    const shop = await svc.shop();
    await shop.register('V', 'product');
    const [section] = await shop.add('V', 'section');

    const added = await shop.call('POST', '/content/V/type/product', {
      widget_id: section!.widget_id,
      json: [
        { id: 1, tag: 'section', class: 'ccs-widget ccs-widget--section', is_editable: false },
        { id: 2, parent_id: 1, tag: 'h2', class: 'ccs-section__heading', value: 'Storm jacket' },
        { id: 3, parent_id: 1, tag: 'div', class: 'ccs-section__text', value: { default: WORD } },
      ],
    });

    expect(added.status).toBe(200);
    const widgets = added.body;
    const text = widgets[widgets.length - 1]!.children.find((e) => e.class === 'ccs-section__text')!;
    expect(text.value).toEqual({ default: CLEAN });
    const stored = await shop.stored('V');
    expect(stored!.html.default).toContain(CLEAN);
    expect(stored!.html.default).not.toMatch(OFFICE);
  });
});
