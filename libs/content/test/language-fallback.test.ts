import {
  completeLanguages,
  renderAll,
  renderHtml,
  renderSiteLink,
  type ContentWidget,
  type FallbackPolicy,
} from '@catalogue/content';
import { el, section, widget } from './trees';

const FALLBACK: FallbackPolicy = { mode: 'fallback', defaultLanguage: 'en' };
const OMIT: FallbackPolicy = { mode: 'omit', defaultLanguage: 'en' };

/** Widget 1 translated into cs, widget 2 only in default, widget 3 images only. */
const tree: ContentWidget[] = [
  section(
    1,
    1,
    { default: 'Size guide', cs: 'Průvodce velikostí' },
    { default: 'Pick one.', cs: 'Vyberte.' },
  ),
  section(2, 4, { default: 'Care' }, { default: 'Wash cold.' }),
  widget(3, [el(7, 0, 'img', {}, { extension: { src: 'https://cdn.test/a.jpg' } })]),
];

/** Every opening tag with text inside it, with its lang attribute (or null). */
const textTags = (html: string) =>
  [...html.matchAll(/<(h2|h3|div|p|span|a|li|th|td)\b([^>]*)>([^<]+)</g)].map(([, tag, attrs, text]) => ({
    tag,
    text,
    lang: /\slang="([^"]+)"/.exec(attrs!)?.[1] ?? null,
  }));

describe('language fallback policy', () => {
  it('when policy is fallback, then every fallback text carries lang of the default language and own texts none', () => {
    const html = renderHtml(tree, 'cs', FALLBACK);
    expect(textTags(html)).toEqual([
      { tag: 'h2', text: 'Průvodce velikostí', lang: null },
      { tag: 'div', text: 'Vyberte.', lang: null },
      { tag: 'h2', text: 'Care', lang: 'en' },
      { tag: 'div', text: 'Wash cold.', lang: 'en' },
    ]);
    expect(html).toContain('src="https://cdn.test/a.jpg"');
  });

  it('when the eshop has not said which language default is, then fallbacks are marked und', () => {
    const html = renderHtml(tree, 'de', { mode: 'fallback', defaultLanguage: null });
    expect(textTags(html).map((t) => t.lang)).toEqual(['und', 'und', 'und', 'und']);
  });

  it('when the page is default or the language default is written in, then nothing is marked or omitted', () => {
    for (const lang of ['default', 'en']) {
      for (const policy of [FALLBACK, OMIT]) {
        const html = renderHtml(tree, lang, policy);
        expect(html).not.toContain('lang=');
        expect(textTags(html).map((t) => t.text)).toEqual(['Size guide', 'Pick one.', 'Care', 'Wash cold.']);
      }
    }
  });

  it('when policy is omit, then widgets with a fallback text are left out of the page, its site links and marketplace', () => {
    const out = renderAll(tree, null, ['default', 'cs'], OMIT);
    expect(textTags(out.html.cs!).map((t) => t.text)).toEqual(['Průvodce velikostí', 'Vyberte.']);
    expect(out.html.cs).not.toContain('lang=');
    // The image-only widget has no text to translate: it stays.
    expect(out.html.cs).toContain('src="https://cdn.test/a.jpg"');
    expect(out.marketplace.cs).not.toContain('Care');
    expect(out.site_link.list.cs!.map((l) => l.heading)).toEqual(['Průvodce velikostí']);
    expect(renderSiteLink(tree, 'cs')).toBeDefined();
    expect(out.html.default).toContain('Care');
  });

  it('when a text of the page language sits inside a fallback element, then it is marked back with the page language', () => {
    const nested = [
      widget(1, [
        el(1, 0, 'div', { default: 'Intro ' }, { class: 'box' }),
        el(2, 1, 'span', { default: 'x', cs: 'Nové' }),
      ]),
    ];
    const html = renderHtml(nested, 'cs', FALLBACK);
    expect(html).toContain('<div class="box" lang="en">Intro <span lang="cs">Nové</span></div>');
  });

  it('when an image alt text falls back, then the image carries the marker', () => {
    const img = [
      widget(1, [
        el(1, 0, 'img', {}, { extension: { src: 'https://cdn.test/a.jpg', alt: { default: 'Shoe' } } }),
      ]),
    ];
    expect(renderHtml(img, 'cs', FALLBACK)).toContain(
      '<img lang="en" src="https://cdn.test/a.jpg" alt="Shoe"',
    );
    expect(completeLanguages(img, ['default', 'cs', 'en'], FALLBACK)).toEqual(['default', 'en']);
    // Under omit the image stays (images are the same in every language), still marked.
    expect(renderHtml(img, 'cs', OMIT)).toContain('<img lang="en" src="https://cdn.test/a.jpg" alt="Shoe"');
  });

  it('when languages_complete is computed, then it lists the languages whose every text is their own', () => {
    expect(renderAll(tree, null, ['default', 'cs', 'en', 'de'], FALLBACK).languages_complete).toEqual([
      'default',
      'en',
    ]);
    const full = [section(1, 1, { default: 'A', cs: 'B', de: 'C' }, { default: 'x', cs: 'y', de: 'z' })];
    expect(completeLanguages(full, ['default', 'cs', 'de', 'sk'])).toEqual(['default', 'cs', 'de']);
    // Text only in cs: default lacks it too.
    const csOnly = [section(1, 1, { cs: 'Jen česky' }, {})];
    expect(completeLanguages(csOnly, ['default', 'cs', 'en'])).toEqual(['cs']);
    expect(completeLanguages([], ['default', 'cs'])).toEqual(['default', 'cs']);
  });
});
