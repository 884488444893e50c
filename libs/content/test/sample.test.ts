import {
  adoptSample,
  publicTree,
  renderAll,
  renderHtml,
  SEED_WIDGETS,
  starterWidget,
  type ContentElement,
  type ContentWidget,
  type WidgetTemplate,
} from '../src';
import { idCounter } from '../src/build';

const templates: WidgetTemplate[] = SEED_WIDGETS.map((w, i) => ({ ...w, id: i + 1 }));
const template = (type: string) => templates.find((t) => t.type === type)!;
const starter = (type: string, data = {}) => starterWidget(template(type), data, 1, idCounter());

describe('libs/content: sample content never reaches public outputs', () => {
  it('when a tree has no sample marker, then publicTree answers the same array', () => {
    const tree = [starter('divider')];
    expect(publicTree(tree)).toBe(tree);
  });

  it.each(templates.map((t) => t.type).filter((t) => t !== 'divider'))(
    'when a %s is added with nothing of the item, then every output of it is empty',
    (type) => {
      const out = renderAll([starter(type)], null, ['default', 'cs']);
      expect(out.html).toEqual({ default: '', cs: '' });
      expect(out.marketplace).toEqual({ default: '', cs: '' });
      expect(out.nested).toEqual([]);
      expect(out.site_link.list).toEqual({ default: [], cs: [] });
    },
  );

  it('when the item has parameters, images and pages, then those widgets start from them unmarked', () => {
    const item = {
      type: 'product' as const,
      name: 'Shoe',
      images: ['https://cdn.test/a.jpg'],
      parameters: [{ name: 'Sole', value: ['Rubber'] }],
    };
    const parameters = starter('parameters', { item });
    const gallery = starter('gallery', { item });
    const cta = starter('cta', {
      item,
      url: { default: 'https://shop.test/shoe', cs: 'javascript:alert(1)' },
    });
    for (const w of [parameters, gallery]) expect(w.children.some((e) => e.sample)).toBe(false);
    expect(renderHtml([parameters], 'default')).toContain('<th class="ccs-parameters__name">Sole</th>');
    expect(renderHtml([gallery], 'default')).toContain('https://cdn.test/a.jpg');
    const button = cta.children.find((e) => e.tag === 'a')!;
    // An unsafe link of a language is left out, not stored.
    expect(button).toMatchObject({ extension: { href: 'https://shop.test/shoe' }, sample: ['value'] });
  });

  it('when an element keeps content of its own besides a sample part, then only the sample part is left out', () => {
    const cta = starter('cta');
    const button = cta.children.find((e) => e.tag === 'a')!;
    const written = adoptSample({ ...button, value: { default: 'Buy' } }, ['value']);
    expect(written.sample).toEqual(['href']);
    const tree = [{ ...cta, children: cta.children.map((e) => (e.id === button.id ? written : e)) }];
    // A label with a sample link: the text stays, the link goes.
    expect(renderHtml(publicTree(tree) as ContentWidget[], 'default')).toBe(
      '<section class="ccs-widget ccs-widget--cta" data-widget-id="1"><p class="ccs-cta__action"><span class="ccs-cta__button">Buy</span></p></section>',
    );
  });

  it('when a table row holds nothing but samples, then the row goes and rows of the owner stay', () => {
    const widget = starter('comparison');
    const rows = widget.children.filter((e) => e.class === 'ccs-comparison__row');
    const firstCells = widget.children.filter((e) => e.parent_id === rows[0]!.id);
    const children: ContentElement[] = widget.children.map((e) =>
      firstCells.includes(e) ? adoptSample({ ...e, value: { default: `own ${e.id}` } }, ['value']) : e,
    );
    const shown = publicTree([{ ...widget, children }])[0]!;
    expect(shown.children.filter((e) => e.class === 'ccs-comparison__row')).toHaveLength(1);
    expect(shown.children.some((e) => e.sample !== undefined)).toBe(false);
    expect(renderHtml([shown], 'default')).not.toContain('Capacity');
  });

  it('when a language has its own value over a sample default, then that language shows it and others show nothing', () => {
    const section = starter('section');
    const children = section.children.map((e) =>
      e.class === 'ccs-section__heading' ? { ...e, value: { ...e.value, cs: 'Nadpis' } } : e,
    );
    const out = renderAll([{ ...section, children }], null, ['default', 'cs']);
    expect(out.html.cs).toContain('Nadpis');
    expect(out.html.default).toBe('');
  });
});
