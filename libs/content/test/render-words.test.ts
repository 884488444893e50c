/** Published images and frames carry words: the given ones, else the item's name; icons none. */
import { renderAll, renderHtml, type ContentElement, type ContentWidget } from '@catalogue/content';

const el = (e: Partial<ContentElement> & Pick<ContentElement, 'id' | 'tag'>): ContentElement => ({
  parent_id: 0,
  child_id: e.id,
  class: '',
  is_editable: true,
  value: {},
  extension: [],
  ...e,
});

const widget = (children: ContentElement[]): ContentWidget => ({
  id: 1,
  key: 0,
  widget_id: 1,
  html: '',
  is_original: true,
  children: [el({ id: 1, tag: 'section', class: 'ccs-widget', is_editable: false }), ...children],
});

const ITEM = { type: 'product' as const, name: { default: 'Storm jacket', cs: 'Bunda Storm' } };

describe('words of published images and frames', () => {
  const tree = [
    widget([
      el({
        id: 2,
        parent_id: 1,
        tag: 'img',
        class: 'ccs-gallery__image',
        extension: { src: 'https://cdn.test/a.jpg' },
      }),
      el({
        id: 3,
        parent_id: 1,
        tag: 'img',
        class: 'ccs-gallery__image',
        extension: { src: 'https://cdn.test/b.jpg', alt: { default: 'Hood', cs: 'Kapuce' } },
      }),
      el({
        id: 4,
        parent_id: 1,
        tag: 'img',
        class: 'ccs-benefit__icon',
        extension: { src: 'https://cdn.test/i.svg', alt: 'Drop' },
      }),
      el({
        id: 5,
        parent_id: 1,
        tag: 'iframe',
        class: 'ccs-video__embed',
        extension: { src: 'https://youtu.be/aqz-KE-bpKQ' },
      }),
    ]),
  ];

  it('when an image has no alt text, then the page gives it the item name in the page language', () => {
    const { html } = renderAll(tree, ITEM, ['default', 'cs']);
    expect(html.cs).toContain('src="https://cdn.test/a.jpg" alt="Bunda Storm"');
    expect(html.default).toContain('src="https://cdn.test/a.jpg" alt="Storm jacket"');
    expect(html.cs).toContain('alt="Kapuce"');
  });

  it('when an image is an icon beside a text, then it is decorative (alt="")', () => {
    expect(renderAll(tree, ITEM, ['cs']).html.cs).toContain('src="https://cdn.test/i.svg" alt=""');
  });

  it('when a video has no title, then its frame is titled with the item name, else with its player', () => {
    expect(renderAll(tree, ITEM, ['cs']).html.cs).toMatch(/<iframe[^>]* title="Bunda Storm"/);
    expect(renderHtml(tree, 'cs')).toMatch(/<iframe[^>]* title="YouTube"/);
  });
});
