import type { ContentWidget } from '@catalogue/content';
import type { StoredContent } from '@catalogue/db';
// The inspectors of libs/content's own XSS tests: they parse HTML the way a browser reads tags
// and attributes, so the assertions look at real attributes, not at text that looks like one.
import {
  dangers,
  marketplaceDangers,
  snippetDangers,
  XSS_PAYLOADS as PAYLOADS,
} from '../../../libs/content/test/inspect';
import { contentService, elementByClass } from './content-helpers';

const LANGS = ['default', 'cs'] as const;

/** Every finding in what the service stored and in what it answered. */
function findings(stored: StoredContent | undefined, widgets: readonly ContentWidget[]): string[] {
  const found: string[] = [];
  if (stored === undefined) return ['nothing stored'];
  for (const lang of LANGS) {
    found.push(...dangers(stored.html[lang] ?? '').map((d) => `html.${lang}: ${d}`));
    found.push(...marketplaceDangers(stored.marketplace[lang] ?? '').map((d) => `marketplace.${lang}: ${d}`));
    found.push(...dangers(stored.site_link.html[lang] ?? '').map((d) => `site_link.${lang}: ${d}`));
    found.push(
      ...snippetDangers(stored.rich_snippet.html[lang] ?? '').map((d) => `rich_snippet.${lang}: ${d}`),
    );
    for (const item of stored.site_link.list[lang] ?? []) {
      if (!/^[a-z0-9-]+$/.test(item.slug)) found.push(`slug ${item.slug}`);
    }
  }
  if (/[<>]/.test(JSON.stringify(stored.nested))) found.push('markup in nested');
  for (const [where, tree] of [
    ['stored tree', stored.tree as ContentWidget[]],
    ['response', widgets],
  ] as const) {
    for (const widget of tree) {
      found.push(...dangers(widget.html).map((d) => `${where} widget ${widget.id} html: ${d}`));
      for (const element of widget.children) {
        if (['script', 'object', 'embed', 'style', 'svg'].includes(element.tag)) {
          found.push(`${where} element ${element.id} tag ${element.tag}`);
        }
        for (const value of Object.values(element.value as Record<string, string>)) {
          found.push(...dangers(value).map((d) => `${where} element ${element.id} value: ${d}`));
        }
        const attributes = Array.isArray(element.extension)
          ? {}
          : (element.extension as Record<string, unknown>);
        for (const value of Object.values(attributes).flatMap((v) =>
          typeof v === 'string' ? [v] : Object.values(v as Record<string, string>),
        )) {
          if (/[<>"]/.test(value)) found.push(`${where} element ${element.id} attribute ${value}`);
        }
      }
    }
  }
  return found;
}

describe('white-label-api: XSS payloads through the content operations', () => {
  const svc = contentService();

  test.each(PAYLOADS)(
    'when PUT, json and element copy carry %s, then no output or response carries it',
    async (payload) => {
      const shop = await svc.shop({
        languages: ['default', 'cs'],
        enableSiteLink: true,
        enableRichSnippet: true,
      });
      // The registered title is the rich snippet's name of an entity without a catalogue item.
      await shop.register('X', 'product', { default: payload });
      const [section] = await shop.add('X', 'section');
      const heading = elementByClass(section!, 'ccs-section__heading');
      const text = elementByClass(section!, 'ccs-section__text');

      const put = await shop.call('PUT', '/content/X/type/product', {
        '1': {
          children: [
            { id: heading.id, value: { default: payload, cs: `ok ${payload}` } },
            { id: text.id, value: { default: `<p>ok ${payload}</p>`, cs: payload } },
          ],
        },
      });
      expect(put.status).toBe(200);
      expect(findings(await shop.stored('X'), put.body)).toEqual([]);

      const added = await shop.call('POST', '/content/X/type/product?lang=cs', {
        widget_id: section!.widget_id,
        json: [
          { id: 1, tag: 'section', class: 'ccs-widget', is_editable: false },
          {
            id: 2,
            parent_id: 1,
            tag: 'h2',
            class: 'ccs-section__heading',
            value: { default: payload, cs: payload },
          },
          { id: 3, parent_id: 1, tag: 'div', value: { default: payload, cs: `<div>${payload}</div>` } },
          { id: 4, parent_id: 1, tag: 'script', value: payload },
          { id: 6, parent_id: 1, tag: 'object', value: payload },
          {
            id: 5,
            parent_id: 1,
            tag: 'a',
            value: payload,
            extension: { href: 'https://ok.test/', title: 'ok' },
          },
        ],
      });
      expect(added.status).toBe(200);
      expect(findings(await shop.stored('X'), added.body)).toEqual([]);

      const copied = await shop.call('POST', '/content/element-copy/X/type/product', {
        action: 'copy',
        index: 0,
        contentId: 2,
        parent: '0',
      });
      expect(copied.status).toBe(200);
      expect(findings(await shop.stored('X'), copied.body)).toEqual([]);
      const dom = await shop.call('POST', '/content/dom/X/type/product?lang=cs');
      expect(dangers(dom.body.data.html)).toEqual([]);
    },
  );

  test('when attributes carry script URLs or markup, then the request is 422 and nothing is written', async () => {
    const shop = await svc.shop();
    await shop.register('Y');
    const [widget] = await shop.add('Y', 'image_text');
    const image = widget!.children.find((e) => e.tag === 'img')!;
    const before = await shop.stored('Y');
    const attributes = [
      { src: 'javascript:alert(1)' },
      { src: 'data:image/svg+xml;base64,PHN2Zz4=' },
      { src: ' &#14; javascript:alert(1)' },
      { src: '//evil.test/x.png' },
      { href: 'jav\tascript:alert(1)' },
      { alt: '"><script>alert(1)</script>' },
      { title: "'><img src=x onerror=alert(1)>" },
    ];
    for (const extension of attributes) {
      const put = await shop.call('PUT', '/content/Y/type/product', {
        '1': { children: [{ id: image.id, extension }] },
      });
      expect([extension, put.status]).toEqual([extension, 422]);
      const post = await shop.call('POST', '/content/Y/type/product', {
        widget_id: widget!.widget_id,
        json: [{ id: 1, tag: 'img', extension }],
      });
      expect([extension, post.status]).toEqual([extension, 422]);
    }
    expect(await shop.stored('Y')).toEqual(before);
  });
});
