import {
  designPreviewTree,
  renderAll,
  renderHtml,
  renderMarketplace,
  renderNested,
  renderSiteLink,
  withWidgetHtml,
  type ContentWidget,
} from '@catalogue/content';
import { el, section, widget } from './trees';

const tree: ContentWidget[] = [
  section(1, 1, { default: 'Size guide', cs: 'Průvodce velikostí' }, { default: '<p>Pick <b>one</b>.</p>' }),
];

describe('renderHtml', () => {
  it('when a section is rendered, then the wrapper carries the widget class and id and the heading an id', () => {
    expect(renderHtml(tree, 'default')).toBe(
      '<section class="ccs-widget ccs-widget--section" data-widget-id="1">' +
        '<h2 class="ccs-section__heading" id="size-guide">Size guide</h2>' +
        '<div class="ccs-section__text"><p>Pick <b>one</b>.</p></div></section>',
    );
  });

  it('when a language has its own value, then it is used, and elements without one fall back to default', () => {
    expect(renderHtml(tree, 'cs')).toBe(
      '<section class="ccs-widget ccs-widget--section" data-widget-id="1">' +
        '<h2 class="ccs-section__heading" id="pruvodce-velikosti">Průvodce velikostí</h2>' +
        '<div class="ccs-section__text" lang="und"><p>Pick <b>one</b>.</p></div></section>',
    );
  });

  it('when a language value is blank, then default is used instead', () => {
    const blank = [section(1, 1, { default: 'Size', de: '  ' }, 'x')];
    expect(renderHtml(blank, 'de')).toContain('>Size</h2>');
  });

  it('when neither the language nor default has a value, then the element is left out', () => {
    const onlyCs = [section(1, 1, { cs: 'Jen česky' }, { cs: '<p>Text</p>' })];
    expect(renderHtml(onlyCs, 'en')).toBe('');
    expect(renderHtml(onlyCs, 'cs')).toContain('Jen česky');
  });

  it('when a widget has no single wrapper element, then the renderer wraps it in a plain ccs-widget div', () => {
    const bare = [widget(7, [el(1, 0, 'p', 'One'), el(2, 0, 'p', 'Two')])];
    expect(renderHtml(bare, 'default')).toBe(
      '<div class="ccs-widget" data-widget-id="7"><p>One</p><p>Two</p></div>',
    );
  });

  it('when elements are listed out of order, then siblings follow child_id and children their parent_id', () => {
    const shuffled = [
      widget(1, [
        el(3, 1, 'li', 'second', { child_id: 1 }),
        el(1, 0, 'ul', {}, { class: 'list' }),
        el(2, 1, 'li', 'first', { child_id: 0 }),
      ]),
    ];
    expect(renderHtml(shuffled, 'default')).toBe(
      '<div class="ccs-widget" data-widget-id="1"><ul class="list"><li>first</li><li>second</li></ul></div>',
    );
  });

  it('when an element points at a missing parent or at itself, then it is not rendered', () => {
    const broken = [widget(1, [el(1, 0, 'p', 'kept'), el(2, 99, 'p', 'orphan'), el(3, 3, 'p', 'loop')])];
    expect(renderHtml(broken, 'default')).toBe(
      '<div class="ccs-widget" data-widget-id="1"><p>kept</p></div>',
    );
  });

  it('when images, links and videos carry their extension attributes, then they render with safe values only', () => {
    const media = [
      widget(1, [
        el(1, 0, 'img', {}, { extension: { src: 'https://cdn.test/a.jpg', alt: { default: 'A', cs: 'Á' } } }),
        el(2, 0, 'a', 'Read more', { extension: { href: 'https://shop.test/more', title: 'More' } }),
        el(3, 0, 'iframe', {}, { extension: { src: 'https://youtu.be/aqz-KE-bpKQ', title: 'Clip' } }),
        el(4, 0, 'img', {}, { extension: { src: 'ftp://cdn.test/b.jpg' } }),
      ]),
    ];
    expect(renderHtml(media, 'cs')).toBe(
      '<div class="ccs-widget" data-widget-id="1">' +
        '<img src="https://cdn.test/a.jpg" alt="Á" loading="lazy" />' +
        '<a lang="und" href="https://shop.test/more" title="More">Read more</a>' +
        '<iframe src="https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ" title="Clip" loading="lazy" ' +
        'allowfullscreen referrerpolicy="strict-origin-when-cross-origin"></iframe></div>',
    );
  });

  it('when src and href are language maps (per-language URL fields), then each language renders its own, falling back to default', () => {
    const media = [
      widget(1, [
        el(
          1,
          0,
          'img',
          {},
          { extension: { src: { default: 'https://cdn.test/en.jpg', cs: 'https://cdn.test/cs.jpg' } } },
        ),
        el(2, 0, 'a', 'Buy', {
          extension: { href: { default: 'https://shop.test/buy', cs: 'javascript:alert(1)' } },
        }),
      ]),
    ];
    expect(renderHtml(media, 'cs')).toBe(
      '<div class="ccs-widget" data-widget-id="1">' +
        '<img src="https://cdn.test/cs.jpg" alt="" loading="lazy" /><span lang="und">Buy</span></div>',
    );
    expect(renderHtml(media, 'de')).toBe(
      '<div class="ccs-widget" data-widget-id="1">' +
        '<img src="https://cdn.test/en.jpg" alt="" loading="lazy" /><a lang="und" href="https://shop.test/buy">Buy</a></div>',
    );
  });

  it('when a link has no safe href, then its text stays without the link', () => {
    const link = [widget(1, [el(1, 0, 'a', 'Click', { extension: { href: 'javascript:alert(1)' } })])];
    expect(renderHtml(link, 'default')).toBe(
      '<div class="ccs-widget" data-widget-id="1"><span>Click</span></div>',
    );
  });

  it('when an element has an unknown tag or a tag outside the outline, then it is normalised', () => {
    const odd = [
      widget(1, [el(1, 0, 'marquee', 'Moving'), el(2, 0, 'h1', 'Title'), el(3, 0, 'h6', 'Small')]),
    ];
    expect(renderHtml(odd, 'default')).toBe(
      '<div class="ccs-widget" data-widget-id="1"><div>Moving</div><h2 id="title">Title</h2><h4>Small</h4></div>',
    );
  });

  it('when a table row has one empty cell, then the cell is kept so columns stay aligned', () => {
    const table = [
      widget(1, [
        el(1, 0, 'table'),
        el(2, 1, 'tbody'),
        el(3, 2, 'tr'),
        el(4, 3, 'th', '', { child_id: 0 }),
        el(5, 3, 'td', 'value', { child_id: 1 }),
        el(6, 2, 'tr'),
        el(7, 6, 'td', ''),
      ]),
    ];
    expect(renderHtml(table, 'default')).toBe(
      '<div class="ccs-widget" data-widget-id="1"><table><tbody><tr><th></th><td>value</td></tr></tbody></table></div>',
    );
  });

  it('when a stored tree is malformed, then the renderers skip what they cannot read instead of throwing', () => {
    const malformed = [
      null,
      { id: 2, key: 1, widget_id: 1, html: '', is_original: true },
      widget(3, [
        el(1, 0, 'p', 'b', { child_id: 'x' as unknown as number }),
        el(2, 0, 'p', 'a', { child_id: -1 }),
      ]),
    ] as unknown as ContentWidget[];
    expect(renderHtml(malformed, 'default')).toBe(
      '<div class="ccs-widget" data-widget-id="3"><p>a</p><p>b</p></div>',
    );
    expect(renderNested(malformed)).toHaveLength(2);
  });

  it('when the tree is empty, then the output is empty', () => {
    expect(renderHtml([], 'default')).toBe('');
  });

  it('when widget html is refreshed, then each widget carries its own rendering', () => {
    expect(withWidgetHtml(tree)[0]?.html).toBe(renderHtml(tree, 'default'));
  });
});

describe('renderMarketplace', () => {
  it('when a section is rendered for a marketplace, then only bare structural tags remain', () => {
    expect(renderMarketplace(tree, 'default')).toBe('<h2>Size guide</h2><p>Pick <strong>one</strong>.</p>');
  });

  it('when the content has images, links, tables and quotes, then images go, links become text and the rest stays bare', () => {
    const rich = [
      widget(1, [
        el(1, 0, 'section', {}, { class: 'ccs-widget ccs-widget--x' }),
        el(2, 1, 'h1', 'Main'),
        el(3, 1, 'img', {}, { extension: { src: 'https://cdn.test/a.jpg' } }),
        el(4, 1, 'p', 'See <a href="https://shop.test" class="x">shop</a> <i>now</i>'),
        el(5, 1, 'blockquote', 'Quoted'),
        el(6, 1, 'table', {}, { class: 't' }),
        el(7, 6, 'tbody'),
        el(8, 7, 'tr'),
        el(9, 8, 'th', 'Weight'),
        el(10, 8, 'td', '1 kg'),
      ]),
    ];
    expect(renderMarketplace(rich, 'default')).toBe(
      '<h2>Main</h2><p>See shop <em>now</em></p><p>Quoted</p>' +
        '<table><tbody><tr><th>Weight</th><td>1 kg</td></tr></tbody></table>',
    );
  });

  it('when a widget only has images, then nothing is left for the marketplace', () => {
    const gallery = [widget(1, [el(1, 0, 'img', {}, { extension: { src: 'https://cdn.test/a.jpg' } })])];
    expect(renderMarketplace(gallery, 'default')).toBe('');
  });
});

describe('renderNested', () => {
  it('when a tree is nested, then each widget gives its node hierarchy without values', () => {
    expect(renderNested([...tree, widget(2, [el(10, 0, 'p', 'x', { class: 'a  b"c' })])])).toEqual([
      [
        {
          id: 1,
          class: 'ccs-widget ccs-widget--section',
          tag: 'section',
          children: [
            { id: 2, class: 'ccs-section__heading', tag: 'h2', children: [] },
            { id: 3, class: 'ccs-section__text', tag: 'div', children: [] },
          ],
        },
      ],
      [{ id: 10, class: 'a', tag: 'p', children: [] }],
    ]);
  });
});

describe('renderSiteLink', () => {
  it('when headings repeat, then they get unique slugs that match the heading ids of renderHtml', () => {
    const twice = [section(1, 1, 'Size', '<p>a</p>'), section(2, 4, 'Size', '<p>b</p>')];
    const links = renderSiteLink(twice, 'default');
    expect(links.list).toEqual([
      { heading: 'Size', slug: 'size' },
      { heading: 'Size', slug: 'size-2' },
    ]);
    expect(links.html).toBe(
      '<nav class="ccs-site-link"><ul class="ccs-site-link__list">' +
        '<li class="ccs-site-link__item ccs-site-link__item--h2"><a href="#size">Size</a></li>' +
        '<li class="ccs-site-link__item ccs-site-link__item--h2"><a href="#size-2">Size</a></li></ul></nav>',
    );
    const html = renderHtml(twice, 'default');
    expect(html).toContain('id="size"');
    expect(html).toContain('id="size-2"');
  });

  it('when a heading holds markup and entities, then the list carries its plain text', () => {
    const marked = [section(1, 1, 'Tom &amp; <em>Jerry</em>', 'x')];
    expect(renderSiteLink(marked, 'default').list).toEqual([{ heading: 'Tom & Jerry', slug: 'tom-jerry' }]);
  });

  it('when the content has no h2 or h3, then the site link is empty', () => {
    expect(renderSiteLink([widget(1, [el(1, 0, 'p', 'x')])], 'default')).toEqual({ html: '', list: [] });
  });
});

describe('renderAll', () => {
  it('when every output is rendered, then each language has a key and the outputs equal the single renderers', () => {
    const out = renderAll(tree, { type: 'category', name: { default: 'Shoes', cs: 'Boty' } }, [
      'default',
      'cs',
      'sk',
    ]);
    expect(Object.keys(out.html)).toEqual(['default', 'cs', 'sk']);
    for (const lang of ['default', 'cs', 'sk']) {
      expect(out.html[lang]).toBe(renderHtml(tree, lang));
      expect(out.marketplace[lang]).toBe(renderMarketplace(tree, lang));
      expect(out.site_link.html[lang]).toBe(renderSiteLink(tree, lang).html);
      expect(out.site_link.list[lang]).toEqual(renderSiteLink(tree, lang).list);
    }
    expect(out.nested).toEqual(renderNested(tree));
    expect(out.rich_snippet.json.cs).toEqual({
      '@context': 'https://schema.org',
      '@type': 'CollectionPage',
      name: 'Boty',
    });
  });

  it('when nothing renders, then every language still has an empty string', () => {
    const out = renderAll([], null, ['default', 'de']);
    expect(out).toEqual({
      html: { default: '', de: '' },
      marketplace: { default: '', de: '' },
      nested: [],
      site_link: { html: { default: '', de: '' }, list: { default: [], de: [] } },
      rich_snippet: { html: { default: '', de: '' }, json: {} },
      languages_complete: ['default', 'de'],
    });
  });
});

describe('a FAQ as fill builds it', () => {
  const faq = designPreviewTree({
    key: 'f',
    name: 'f',
    name_translation: {},
    category: 'product',
    type: 'public',
    widgets: [{ widget: 'faq', item_count: 2 }],
  });

  it('when rendered, then each question is the summary of a native details (no script needed) and only the h2 is a site link', () => {
    const html = renderHtml(faq, 'default');
    expect(html).toContain(
      '<div class="ccs-faq__list"><details class="ccs-faq__item"><summary class="ccs-faq__question">How long does delivery take?</summary>' +
        '<div class="ccs-faq__answer"><p>Usually two to three working days.</p></div></details>',
    );
    expect(renderSiteLink(faq, 'default').list.map((l) => l.heading)).toEqual(['Questions and answers']);
  });

  it('when cut down for a marketplace, then the question stays a heading and details/summary disappear', () => {
    expect(renderMarketplace(faq, 'default')).toBe(
      '<h2>Questions and answers</h2><h3>How long does delivery take?</h3><p>Usually two to three working days.</p>' +
        '<h3>Can I return it?</h3><p>Yes, within 30 days of delivery.</p>',
    );
  });
});
