import { applyValueEdits, newWidgetFromElements } from '../src/services/content-elements';
import { applyElementAction } from '../src/services/content-edit.service';
import { elementTag, formatsByClass, idsAfter, mergeValue, prepareExtension } from '@catalogue/content';
import type { ExtensionInput } from '../src/schemas/content.schema';
import { el, SECTION, TEMPLATES, tree, validationErrors } from './content-trees';

describe('editor values (pure)', () => {
  test('when a text-format value is sent back as read, then it is not escaped twice; markup stays text', () => {
    const formats = formatsByClass(SECTION);
    expect(formats.get('ccs-section__heading')).toBe('text');
    expect(formats.get('ccs-section__text')).toBe('html');
    expect(mergeValue({}, { default: 'Tom &amp; Jerry' }, 'text')).toEqual({ default: 'Tom &amp; Jerry' });
    expect(mergeValue({}, { default: '&lt;b&gt;x' }, 'text')).toEqual({ default: '&lt;b&gt;x' });
    expect(mergeValue({}, { default: '<b>bold</b> & co' }, 'text')).toEqual({ default: 'bold &amp; co' });
  });

  test('when languages are sent, then they replace those languages only and an empty one is removed', () => {
    const stored = { default: '<p>a</p>', cs: '<p>b</p>', en: '<p>c</p>' };
    expect(mergeValue(stored, { cs: '<p onclick="x()">B</p>', en: '' }, 'html')).toEqual({
      default: '<p>a</p>',
      cs: '<p>B</p>',
    });
  });

  test('when attributes carry unsafe URLs or markup, then they are reported; safe ones are normalised', () => {
    expect(prepareExtension('img', { src: 'javascript:alert(1)' }).problems).toEqual({
      src: 'must be a valid URL',
    });
    expect(prepareExtension('iframe', { src: 'https://evil.test/x' }).problems).toEqual({
      src: 'must be a YouTube or Vimeo video URL',
    });
    expect(prepareExtension('img', { alt: '<img src=x onerror=alert(1)>' }).problems).toEqual({
      alt: 'must not contain HTML',
    });
    expect(prepareExtension('a', { href: 'https://ok.test/a"b<c>' }).extension).toEqual({
      href: 'https://ok.test/a%22b%3Cc%3E',
    });
    expect(prepareExtension('iframe', { src: 'https://youtu.be/aqz-KE-bpKQ' }).extension).toEqual({
      src: 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ',
    });
  });

  test('when PUT names unknown widgets, unknown elements or changes a non-editable one, then every problem is reported', () => {
    const errors = validationErrors(() =>
      applyValueEdits(tree(), TEMPLATES, {
        '1': {
          children: [
            { id: 1, value: { default: 'x' } },
            { id: 99, value: { default: 'y' } },
          ],
        },
        '7': { children: [] },
      }),
    );
    expect(errors).toEqual({
      '1.children.0.id': ['The element 1 is not editable.'],
      '1.children.1.id': ['The selected 1.children.1.id is invalid.'],
      '7': ['The content widget 7 does not exist.'],
    });
  });

  test('when PUT sends back values unchanged, then the widget stays original; a change clears it', () => {
    const same = applyValueEdits(tree(), TEMPLATES, {
      '1': {
        children: [
          { id: 1, value: [] },
          { id: 2, value: { default: 'Tom &amp; Jerry' } },
        ],
      },
    });
    expect(same[0]!.is_original).toBe(true);
    const changed = applyValueEdits(tree(), TEMPLATES, {
      '1': { children: [{ id: 2, value: { cs: 'Ahoj' } }] },
    });
    expect(changed[0]!.is_original).toBe(false);
    expect(changed[0]!.children[1]!.value).toEqual({ default: 'Tom &amp; Jerry', cs: 'Ahoj' });
    expect(changed[1]).toEqual(tree()[1]);
  });

  test('when an attribute is sent back exactly as stored, then it is no change, even in a shape PUT would not accept new', () => {
    const stored = [
      {
        ...tree()[0]!,
        children: [
          el(1, 0, 0, { tag: 'section', is_editable: false }),
          el(2, 1, 0, {
            tag: 'a',
            extension: { href: { default: 'https://a.test/', cs: 'https://b.test/' } },
          }),
        ],
      },
    ];
    const same = applyValueEdits(stored, TEMPLATES, {
      '1': {
        children: stored[0]!.children.map(({ id, extension }) => ({
          id,
          extension: extension as ExtensionInput,
        })),
      },
    });
    expect(same).toEqual(stored);
    const errors = validationErrors(() =>
      applyValueEdits(stored, TEMPLATES, {
        '1': {
          children: [{ id: 2, extension: { href: { default: 'https://a.test/', cs: 'https://c.test/' } } }],
        },
      }),
    );
    expect(errors).toEqual({
      '1.children.0.extension.href': [
        'The 1.children.0.extension.href field must be one URL for every language.',
      ],
    });
  });

  test('when element-copy names an unknown widget, parent or index, or removes the only root, then it is 422', () => {
    const t = tree();
    const base = { action: 'copy' as const, index: 0, contentId: 1, parent: '1' };
    expect(Object.keys(validationErrors(() => applyElementAction(t, { ...base, contentId: 9 })))).toEqual([
      'contentId',
    ]);
    expect(Object.keys(validationErrors(() => applyElementAction(t, { ...base, parent: '6' })))).toEqual([
      'parent',
    ]);
    expect(Object.keys(validationErrors(() => applyElementAction(t, { ...base, index: 2 })))).toEqual([
      'index',
    ]);
    expect(Object.keys(validationErrors(() => applyElementAction(t, { ...base, parent: '4' })))).toEqual([
      'index',
    ]);
    expect(
      Object.keys(validationErrors(() => applyElementAction(t, { ...base, action: 'remove', parent: '0' }))),
    ).toEqual(['index']);
  });

  test('when new elements are sent for a widget, then ids are fresh, parents remapped and values prepared', () => {
    const widget = newWidgetFromElements(
      SECTION,
      [
        {
          id: 10,
          parent_id: 0,
          class: 'ccs-widget',
          is_editable: false,
          tag: 'SECTION',
          value: [],
          extension: [],
        },
        {
          id: 11,
          parent_id: 10,
          class: 'ccs-section__heading',
          is_editable: true,
          tag: 'h2',
          value: '<i>A</i> & B',
          extension: [],
        },
        {
          id: 12,
          parent_id: 10,
          class: '',
          is_editable: true,
          tag: 'div',
          value: { cs: '<script>x</script><p>P</p>' },
          extension: [],
        },
      ],
      5,
      idsAfter(20),
    );
    expect(widget.children.map((e) => [e.id, e.parent_id, e.child_id, e.tag, e.value])).toEqual([
      [21, 0, 0, 'section', {}],
      [22, 21, 1, 'h2', { default: 'A &amp; B' }],
      [23, 21, 2, 'div', { cs: '<p>P</p>' }],
    ]);
    expect(widget).toMatchObject({ id: 5, widget_id: SECTION.id, is_original: false });
    expect(['SCRIPT', 'object', 'h1', 'B', 'iframe'].map(elementTag)).toEqual([
      'div',
      'div',
      'h2',
      'strong',
      'iframe',
    ]);
  });
});
