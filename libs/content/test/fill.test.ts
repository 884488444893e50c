import {
  designStructure,
  fillDesign,
  renderHtml,
  SEED_DESIGNS,
  type DesignDefinition,
  type DesignStructure,
  type FillRequest,
} from '@catalogue/content';
import { TEMPLATES } from './trees';

const design = (key: string): DesignDefinition => SEED_DESIGNS.find((d) => d.key === key)!;

/** product-compact: 10 section (paragraph ≤ 400), 20 benefit (3 items, 3 icons), 30 parameters (unfillable). */
const compact: DesignStructure = designStructure(design('product-compact'), {
  design_id: 4,
  design_widget_ids: [10, 20, 30],
});

const fill = (request: unknown) => fillDesign(compact, TEMPLATES, request as FillRequest);

describe('fillDesign validation', () => {
  it('when a paragraph is longer than its max_length, then the field is reported with the limit', () => {
    expect(
      fill({ widget: [{ design_widget_id: 10, fields: { paragraph: `<p>${'a'.repeat(401)}</p>` } }] }),
    ).toEqual({
      ok: false,
      errors: {
        'widget.0.fields.paragraph': [
          'The widget.0.fields.paragraph field must not be greater than 400 characters.',
        ],
      },
    });
  });

  it('when an html text is measured, then tags do not count and a block break counts as one space', () => {
    const paragraph = `<p><strong>${'a'.repeat(200)}</strong></p><ul><li>${'b'.repeat(200)}</li></ul>`;
    expect(fill({ widget: [{ design_widget_id: 10, fields: { paragraph } }] }).ok).toBe(false);
    const exact = `<p><strong>${'a'.repeat(200)}</strong>${'b'.repeat(200)}</p>`;
    expect(fill({ widget: [{ design_widget_id: 10, fields: { paragraph: exact } }] }).ok).toBe(true);
  });

  it('when one language of a language map is too long, then that language is reported', () => {
    const result = fill({
      widget: [{ design_widget_id: 10, fields: { heading: { default: 'ok', cs: 'č'.repeat(121) } } }],
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        'widget.0.fields.heading.cs': [
          'The widget.0.fields.heading.cs field must not be greater than 120 characters.',
        ],
      },
    });
  });

  it('when there are more items, icons or images than the structure allows, then each count is reported', () => {
    const item = { benefit_title: 'Fast' };
    const result = fill({
      widget: [
        {
          design_widget_id: 20,
          items: [item, item, item, item],
          icon: [
            'https://cdn.test/1.png',
            'https://cdn.test/2.png',
            'https://cdn.test/3.png',
            'https://cdn.test/4.png',
          ],
          image: ['https://cdn.test/a.jpg'],
        },
      ],
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        'widget.0.items': ['The widget.0.items field must not have more than 3 items.'],
        'widget.0.image': ['The widget.0.image field must not have more than 0 items.'],
        'widget.0.icon': ['The widget.0.icon field must not have more than 3 items.'],
      },
    });
  });

  it('when an image-text widget gets two images, then the image count is reported', () => {
    const story = designStructure(design('product-story'));
    const result = fillDesign(story, TEMPLATES, {
      widget: [{ design_widget_id: 2, image: ['https://cdn.test/a.jpg', 'https://cdn.test/b.jpg'] }],
    });
    expect(result).toEqual({
      ok: false,
      errors: { 'widget.0.image': ['The widget.0.image field must not have more than 1 items.'] },
    });
  });

  it('when ids are unknown, duplicated, missing or point at an unfillable widget, then each is reported', () => {
    const result = fill({
      widget: [
        { design_widget_id: 99, fields: { heading: 'x' } },
        { design_widget_id: 10, fields: { heading: 'x' } },
        { design_widget_id: 10, fields: { heading: 'y' } },
        { fields: { heading: 'x' } },
        { design_widget_id: 30 },
        { design_widget_id: '10' },
      ],
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        'widget.0.design_widget_id': ['The selected widget.0.design_widget_id is invalid.'],
        'widget.2.design_widget_id': ['The widget.2.design_widget_id field has a duplicate value.'],
        'widget.3.design_widget_id': ['The widget.3.design_widget_id field is required.'],
        'widget.4.design_widget_id': [
          'The widget.4.design_widget_id field refers to a widget that cannot be filled (filled_from_data).',
        ],
        'widget.5.design_widget_id': ['The widget.5.design_widget_id field must be an integer.'],
      },
    });
  });

  it('when roles, languages or keys are unknown, or texts have the wrong type or format, then each is reported', () => {
    const result = fill({
      widget: [
        {
          design_widget_id: 10,
          paragraph: 'flat role',
          fields: { subtitle: 'x', heading: 42, paragraph: { xx: 'x', cs: 5 } },
        },
        {
          design_widget_id: 20,
          fields: { heading: 'Fine <b>bold</b>' },
          items: [{ benefit_text: ['x'] }, 'item', {}],
        },
      ],
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        'widget.0.paragraph': ['The widget.0.paragraph field is prohibited.'],
        'widget.0.fields.subtitle': ['The widget.0.fields.subtitle field is prohibited.'],
        'widget.0.fields.heading': ['The widget.0.fields.heading field must be a string or a language map.'],
        'widget.0.fields.paragraph.xx': ['The widget.0.fields.paragraph.xx field is prohibited.'],
        'widget.0.fields.paragraph.cs': ['The widget.0.fields.paragraph.cs field must be a string.'],
        'widget.1.fields.heading': ['The widget.1.fields.heading field must not contain HTML.'],
        'widget.1.items.0.benefit_text': [
          'The widget.1.items.0.benefit_text field must be a string or a language map.',
        ],
        'widget.1.items.0': ['The widget.1.items.0 field must not be empty.'],
        'widget.1.items.1': ['The widget.1.items.1 field must be an object.'],
        'widget.1.items.2': ['The widget.1.items.2 field must not be empty.'],
      },
    });
  });

  it('when URLs are malformed, then the URL fields and images are reported', () => {
    const story = designStructure(design('product-story'));
    const result = fillDesign(story, TEMPLATES, {
      widget: [
        { design_widget_id: 2, image: ['not a url'] },
        { design_widget_id: 5, fields: { button_label: 'Go', button_href: 'javascript:alert(1)' } },
      ],
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        'widget.0.image.0': ['The widget.0.image.0 field must be a valid URL.'],
        'widget.1.fields.button_href': ['The widget.1.fields.button_href field must be a valid URL.'],
      },
    });
  });

  it('when the video URL is not YouTube or Vimeo, then it is reported', () => {
    const technical = designStructure(design('product-technical'));
    const result = fillDesign(technical, TEMPLATES, {
      widget: [{ design_widget_id: 4, fields: { video_url: 'https://evil.test/watch?v=abcdefgh' } }],
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        'widget.0.fields.video_url': [
          'The widget.0.fields.video_url field must be a YouTube or Vimeo video URL.',
        ],
      },
    });
  });

  it('when the widget list is missing, empty or not a list, then the request is refused', () => {
    expect(fill({})).toEqual({ ok: false, errors: { widget: ['The widget field is required.'] } });
    expect(fill({ widget: [] })).toEqual({
      ok: false,
      errors: { widget: ['The widget field is required.'] },
    });
    expect(fill({ widget: 'x' })).toEqual({
      ok: false,
      errors: { widget: ['The widget field must be an array.'] },
    });
  });

  it('when a widget entry has nothing to show, then it is reported', () => {
    expect(fill({ widget: [{ design_widget_id: 20, icon: ['https://cdn.test/1.png'] }] })).toEqual({
      ok: false,
      errors: { 'widget.0': ['The widget.0 field must contain at least one text or image.'] },
    });
  });
});

describe('fillDesign success', () => {
  const request: FillRequest = {
    design_id: 4,
    widget: [
      {
        design_widget_id: 20,
        fields: { heading: { default: 'Why it', cs: 'Proč' } },
        items: [{ benefit_title: 'Light', benefit_text: 'Only 200 g & small' }, { benefit_title: 'Strong' }],
        icon: ['https://cdn.test/1.png'],
      },
      {
        design_widget_id: 10,
        fields: { heading: 'Intro', paragraph: '<p>Hello <script>x</script>world</p>' },
      },
    ],
  };

  it('when a valid request is filled, then widgets follow the design order with sequential ids', () => {
    const result = fillDesign(compact, TEMPLATES, request);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.widgetsCreated).toBe(2);
    expect(result.tree.map((w) => [w.id, w.key, w.widget_id, w.is_original])).toEqual([
      [1, 0, 1, true],
      [2, 1, 2, true],
    ]);
    expect(result.tree.flatMap((w) => w.children.map((c) => c.id))).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    ]);
    expect(result.tree[0]?.children).toEqual([
      {
        id: 1,
        parent_id: 0,
        child_id: 0,
        class: 'ccs-widget ccs-widget--section',
        is_editable: false,
        tag: 'section',
        value: {},
        extension: [],
      },
      {
        id: 2,
        parent_id: 1,
        child_id: 0,
        class: 'ccs-section__heading',
        is_editable: true,
        tag: 'h2',
        value: { default: 'Intro' },
        extension: [],
      },
      {
        id: 3,
        parent_id: 1,
        child_id: 1,
        class: 'ccs-section__text',
        is_editable: true,
        tag: 'div',
        value: { default: '<p>Hello world</p>' },
        extension: [],
      },
    ]);
  });

  it('when a filled tree is rendered, then texts are escaped, html is sanitised and languages fall back (marked)', () => {
    const result = fillDesign(compact, TEMPLATES, request);
    if (!result.ok) throw new Error('fill failed');
    expect(renderHtml(result.tree, 'cs')).toBe(
      '<section class="ccs-widget ccs-widget--section" data-widget-id="1">' +
        '<h2 class="ccs-section__heading" id="intro" lang="und">Intro</h2>' +
        '<div class="ccs-section__text" lang="und"><p>Hello world</p></div></section>' +
        '<section class="ccs-widget ccs-widget--benefit" data-widget-id="2">' +
        '<h2 class="ccs-benefit__heading" id="proc">Proč</h2><ul class="ccs-benefit__list">' +
        '<li class="ccs-benefit__item"><img class="ccs-benefit__icon" src="https://cdn.test/1.png" alt="" loading="lazy" />' +
        '<h3 class="ccs-benefit__title" id="light" lang="und">Light</h3><p class="ccs-benefit__text" lang="und">Only 200 g &amp; small</p></li>' +
        '<li class="ccs-benefit__item"><h3 class="ccs-benefit__title" id="strong" lang="und">Strong</h3></li></ul></section>',
    );
    expect(result.tree[0]?.html).toBe(renderHtml([result.tree[0]!], 'default'));
  });

  it('when the same request is filled twice, then the trees are identical', () => {
    expect(fillDesign(compact, TEMPLATES, request)).toEqual(fillDesign(compact, TEMPLATES, request));
  });

  it('when a video link is filled, then the tree stores its privacy-friendly embed URL', () => {
    const technical = designStructure(design('product-technical'));
    const result = fillDesign(technical, TEMPLATES, {
      widget: [
        { design_widget_id: 4, fields: { heading: 'Watch', video_url: 'https://vimeo.com/76979871' } },
      ],
    });
    if (!result.ok) throw new Error('fill failed');
    const iframe = result.tree[0]?.children.find((c) => c.tag === 'iframe');
    expect(iframe?.extension).toEqual({ src: 'https://player.vimeo.com/video/76979871', title: 'Watch' });
  });

  it('when a template for a widget type is missing, then filling fails loudly', () => {
    expect(() =>
      fillDesign(compact, [], { widget: [{ design_widget_id: 10, fields: { heading: 'x' } }] }),
    ).toThrow('no widget template for type "section"');
  });
});
