import {
  composeFromEntity,
  designStructure,
  fillDesign,
  renderAll,
  renderHtml,
  renderMarketplace,
  renderSiteLink,
  sanitizeHtml,
  SEED_DESIGNS,
  SEED_WIDGETS,
  type ContentWidget,
  type DesignStructure,
  type FillWidgetInput,
  type SnippetEntity,
} from '@catalogue/content';
import { dangers, marketplaceDangers, snippetDangers, XSS_PAYLOADS as PAYLOADS } from './inspect';
import { el, TEMPLATES, widget } from './trees';

function expectSafe(tree: ContentWidget[], entity: SnippetEntity | null = null): void {
  const languages = ['default', 'cs'];
  const all = renderAll(tree, entity, languages);
  for (const lang of languages) {
    expect(dangers(renderHtml(tree, lang))).toEqual([]);
    expect(dangers(all.html[lang] ?? '')).toEqual([]);
    expect(marketplaceDangers(renderMarketplace(tree, lang))).toEqual([]);
    expect(marketplaceDangers(all.marketplace[lang] ?? '')).toEqual([]);
    expect(dangers(renderSiteLink(tree, lang).html)).toEqual([]);
    expect(dangers(all.site_link.html[lang] ?? '')).toEqual([]);
    expect(snippetDangers(all.rich_snippet.html[lang] ?? '')).toEqual([]);
    for (const item of all.site_link.list[lang] ?? []) expect(item.slug).toMatch(/^[a-z0-9-]+$/);
  }
}

/** Three designs that together hold every widget type of the catalogue except the divider. */
const productStructures: DesignStructure[] = ['product-classic', 'product-story', 'product-technical'].map(
  (key) => designStructure(SEED_DESIGNS.find((d) => d.key === key)!),
);

it('when the XSS designs are chosen, then together they cover every widget type that holds content', () => {
  const covered = new Set(productStructures.flatMap((s) => s.widget.map((w) => w.type)));
  expect(SEED_WIDGETS.map((w) => w.type).filter((type) => !covered.has(type))).toEqual(['divider']);
});

/** A fill request that puts `html` into every html field and `text` into every other text field. */
function fillEverything(structure: DesignStructure, html: string, text: string): FillWidgetInput[] {
  return structure.widget.flatMap((w) => {
    if (!w.fillable) return [];
    const value = (format: string) => (format === 'html' ? { default: html, cs: html } : text);
    const fields = Object.fromEntries(
      w.field
        .filter((f) => f.format !== 'url' && f.format !== 'video_url')
        .map((f) => [f.role, value(f.format)]),
    );
    const item = Object.fromEntries(w.item_field.map((f) => [f.role, value(f.format)]));
    return [
      {
        design_widget_id: w.design_widget_id,
        fields,
        items: w.item_count > 0 ? [item] : undefined,
        image: w.image_slot > 0 ? ['https://cdn.test/a.jpg'] : undefined,
        icon: w.icon_slot > 0 ? ['https://cdn.test/i.png'] : undefined,
      },
    ];
  });
}

/** Payloads without tags, which text fields accept (and must escape). */
const TEXT_PAYLOADS = [
  '" onmouseover="alert(1)',
  "' onmouseover='alert(1)",
  '&lt;script&gt;',
  'javascript:alert(1)',
  'a & b',
];

describe('XSS through fillDesign', () => {
  it.each(PAYLOADS)('when html fields carry %s, then no renderer output carries it', (payload) => {
    for (const structure of productStructures) {
      const text = TEXT_PAYLOADS[PAYLOADS.indexOf(payload) % TEXT_PAYLOADS.length] ?? 'x';
      const result = fillDesign(structure, TEMPLATES, {
        widget: fillEverything(structure, `ok ${payload}`, text),
      });
      expect(result).toMatchObject({ ok: true });
      if (result.ok)
        expectSafe(result.tree, { type: 'product', name: payload, description: payload, brand: payload });
    }
  });

  it('when a text field carries markup, then the request is refused', () => {
    const structure = designStructure(SEED_DESIGNS[0]!);
    const result = fillDesign(structure, TEMPLATES, {
      widget: [{ design_widget_id: 1, fields: { heading: '<img src=x onerror=alert(1)>' } }],
    });
    expect(result).toEqual({
      ok: false,
      errors: { 'widget.0.fields.heading': ['The widget.0.fields.heading field must not contain HTML.'] },
    });
  });

  it.each(['javascript:alert(1)', 'jav\tascript:alert(1)', 'data:text/html,x', '//evil.test/x'])(
    'when a URL field or image carries %s, then the request is refused',
    (url) => {
      const structure = designStructure(SEED_DESIGNS[1]!);
      const cta = structure.widget.find((w) => w.type === 'cta')!;
      const imageText = structure.widget.find((w) => w.type === 'image_text')!;
      const result = fillDesign(structure, TEMPLATES, {
        widget: [
          { design_widget_id: cta.design_widget_id, fields: { button_label: 'Go', button_href: url } },
          { design_widget_id: imageText.design_widget_id, image: [url] },
        ],
      });
      expect(result.ok).toBe(false);
    },
  );
});

describe('XSS through direct trees', () => {
  it.each(PAYLOADS)(
    'when every part of an element carries %s, then no renderer output carries it',
    (payload) => {
      const attack = { default: payload, cs: `x ${payload}` };
      const ext = {
        src: payload,
        href: payload,
        alt: payload,
        title: attack,
        onerror: 'alert(1)',
        style: 'x',
      };
      const tree = [
        widget(1, [
          el(1, 0, 'section', {}, { class: `ccs-widget ${payload}` }),
          el(2, 1, 'h2', attack, { class: payload, extension: ext }),
          el(3, 1, 'h3', attack),
          el(4, 1, 'p', attack, { extension: ext }),
          el(5, 1, 'div', attack),
          el(6, 1, 'a', attack, { extension: ext }),
          el(7, 1, 'img', attack, { extension: ext }),
          el(8, 1, 'iframe', attack, { extension: ext }),
          el(9, 1, payload, attack, { extension: ext }),
          el(10, 1, 'script', attack),
          el(11, 1, 'svg', attack),
          el(12, 1, 'td', attack),
        ]),
      ];
      expectSafe(tree, {
        type: 'product',
        name: attack,
        description: attack,
        images: [payload],
        brand: attack,
        url: payload,
        category: attack,
        variants: [
          { code: payload, ean: payload },
          { code: 'x', ean: null },
        ],
      });
    },
  );
});

describe('XSS through composition', () => {
  it.each(PAYLOADS)('when the catalogue data carries %s, then no renderer output carries it', (payload) => {
    for (const structure of productStructures) {
      const tree = composeFromEntity(structure, TEMPLATES, {
        type: 'product',
        name: payload,
        description: { default: payload, cs: payload },
        images: ['https://cdn.test/1.jpg', payload],
        brand: { name: payload, description: payload, image: payload },
        parameters: [{ name: payload, value: [payload, 'ok'] }],
      });
      expectSafe(tree);
    }
  });
});

describe('sanitizeHtml', () => {
  it.each(PAYLOADS)('when %s is sanitised, then nothing dangerous is left', (payload) => {
    expect(dangers(sanitizeHtml(payload))).toEqual([]);
  });
});
