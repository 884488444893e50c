import {
  canonicalJson,
  designPreviewHtml,
  designStructure,
  fillDesign,
  SEED_DESIGNS,
  SEED_WIDGET_CATEGORIES,
  SEED_WIDGETS,
  structureHash,
  type DesignDefinition,
} from '@catalogue/content';
import { dangers } from './inspect';
import { TEMPLATES } from './trees';

const WIDGET_TYPES = [
  'section',
  'benefit',
  'image_text',
  'parameters',
  'faq',
  'cta',
  'gallery',
  'video',
  'comparison',
  'testimonial',
];

describe('widget catalogue', () => {
  it('when the catalogue is seeded, then it has the ten required widget types with unique keys in known categories', () => {
    const types = SEED_WIDGETS.map((w) => w.type);
    expect(types).toEqual(expect.arrayContaining(WIDGET_TYPES));
    expect(new Set(types).size).toBe(types.length);
    const categories = new Set(SEED_WIDGET_CATEGORIES.map((c) => c.key));
    for (const widget of SEED_WIDGETS) expect(categories.has(widget.category)).toBe(true);
  });

  it('when a widget is fillable, then every role its template uses is declared, and unfillable ones give a reason', () => {
    for (const widget of SEED_WIDGETS) {
      const roles = JSON.stringify(widget.template).match(/"(field|item)":"[a-z_]+"/g) ?? [];
      for (const binding of roles) {
        const [kind, role] = binding.replace(/"/g, '').split(':');
        const specs = kind === 'field' ? widget.field : widget.item_field;
        expect(specs.map((s) => s.role)).toContain(role);
      }
      if (!widget.fillable) expect(['no_content_field', 'filled_from_data']).toContain(widget.reason);
    }
  });

  it('when the parameters widget is in a structure, then it is unfillable because it is filled from data', () => {
    const structure = designStructure(SEED_DESIGNS.find((d) => d.key === 'product-compact')!);
    expect(structure.widget[2]).toEqual({
      design_widget_id: 3,
      position: 3,
      type: 'parameters',
      widget_name: 'Parameters table',
      fillable: false,
      reason: 'filled_from_data',
    });
  });
});

describe('designs', () => {
  it('when designs are seeded, then there are enough per category and every key is unique', () => {
    const count = (category: string) => SEED_DESIGNS.filter((d) => d.category === category).length;
    expect(count('product')).toBeGreaterThanOrEqual(4);
    expect(count('category')).toBeGreaterThanOrEqual(2);
    expect(count('blog')).toBeGreaterThanOrEqual(2);
    expect(count('page')).toBeGreaterThanOrEqual(2);
    expect(new Set(SEED_DESIGNS.map((d) => d.key)).size).toBe(SEED_DESIGNS.length);
  });

  it('when the structure of a design is built, then it has the specification shape with the overrides applied', () => {
    const compact = SEED_DESIGNS.find((d) => d.key === 'product-compact')!;
    const structure = designStructure(compact, { design_id: 7, design_widget_ids: [70, 71, 72] });
    expect(structure).toMatchObject({ design_id: 7, design_name: 'Compact product', category: 'product' });
    expect(structure.widget[0]).toEqual({
      design_widget_id: 70,
      position: 1,
      type: 'section',
      widget_name: 'Section',
      widget_description: 'A heading with a paragraph of text.',
      fillable: true,
      item_count: 0,
      field: [
        { role: 'heading', format: 'text', max_length: 120, hint: 'Heading of the widget, plain text.' },
        {
          role: 'paragraph',
          format: 'html',
          max_length: 400,
          hint: 'Body text; paragraphs, lists, bold and italics.',
        },
      ],
      item_field: [],
      image_slot: 0,
      icon_slot: 0,
    });
    expect(structure.widget[1]).toMatchObject({ type: 'benefit', item_count: 3, icon_slot: 3 });
    expect(structure.widget[1]?.fillable && structure.widget[1].item_field[1]).toMatchObject({
      role: 'benefit_text',
      max_length: 150,
    });
  });

  it('when a design changes the item count of a widget with one icon per item, then the icon slots follow', () => {
    const landing = designStructure(SEED_DESIGNS.find((d) => d.key === 'page-landing')!);
    expect(landing.widget[1]).toMatchObject({ type: 'benefit', item_count: 6, icon_slot: 6 });
  });

  it('when a design refers to an unknown widget or role, then building its structure fails', () => {
    const broken: DesignDefinition = { ...SEED_DESIGNS[0]!, widgets: [{ widget: 'nope' }] };
    expect(() => designStructure(broken)).toThrow('unknown widget type "nope"');
    const badRole: DesignDefinition = {
      ...SEED_DESIGNS[0]!,
      widgets: [{ widget: 'section', max_length: { x: 1 } }],
    };
    expect(() => designStructure(badRole)).toThrow('overrides unknown roles: x');
  });

  it('when every seeded design is previewed, then it renders safe HTML for every widget that has samples', () => {
    for (const design of SEED_DESIGNS) {
      const html = designPreviewHtml(design);
      expect(dangers(html)).toEqual([]);
      for (const w of design.widgets) {
        if (w.widget !== 'divider') expect(html).toContain(`ccs-widget--${w.widget}`);
      }
    }
  });

  it('when each design is filled with its own samples through fillDesign, then the samples are valid input', () => {
    for (const design of SEED_DESIGNS) {
      const structure = designStructure(design);
      const widget = structure.widget.flatMap((w) => {
        if (!w.fillable) return [];
        const sample = SEED_WIDGETS.find((d) => d.type === w.type)!.sample;
        return [
          {
            design_widget_id: w.design_widget_id,
            fields: sample.fields,
            items: sample.items?.slice(0, w.item_count),
            image: sample.images?.slice(0, w.image_slot),
            icon: sample.icons?.slice(0, w.icon_slot),
          },
        ];
      });
      const result = fillDesign(structure, TEMPLATES, { widget });
      expect(result.ok ? 'ok' : result.errors).toBe('ok');
    }
  });
});

describe('structureHash', () => {
  it('when the same structure is hashed, then the hash is a stable sha256 hex', () => {
    const structure = designStructure(SEED_DESIGNS[0]!);
    expect(structureHash(structure)).toMatch(/^[0-9a-f]{64}$/);
    expect(structureHash(structure)).toBe(structureHash(designStructure(SEED_DESIGNS[0]!)));
  });

  it('when only the key order differs, then the hash is the same; when a value differs, then it changes', () => {
    const structure = designStructure(SEED_DESIGNS[0]!);
    const reordered = JSON.parse(
      JSON.stringify({
        widget: structure.widget,
        category: structure.category,
        design_name: structure.design_name,
        design_id: structure.design_id,
      }),
    );
    expect(structureHash(reordered)).toBe(structureHash(structure));
    expect(structureHash({ ...structure, design_id: 1 })).not.toBe(structureHash(structure));
  });

  it('when canonical JSON is written, then keys are sorted at every level', () => {
    expect(canonicalJson({ b: [{ z: 1, a: 2 }], a: 'x', u: undefined })).toBe(
      '{"a":"x","b":[{"a":2,"z":1}]}',
    );
  });
});
