import {
  SEED_WIDGETS,
  type ContentElement,
  type ContentWidget,
  type WidgetTemplate,
} from '@catalogue/content';
import { ValidationError } from '@catalogue/http';
import { applyValueEdits, newWidgetFromElements } from '../src/services/content-elements';
import { applyElementAction } from '../src/services/content-edit.service';
import { formatsByClass, mergeValue, prepareExtension } from '../src/services/content-values';
import {
  childrenOf,
  copyElement,
  copyWidgets,
  elementGraphProblems,
  idsAfter,
  insertWidget,
  isPermutation,
  maxElementId,
  removeElement,
  removeWidget,
  reorderWidgets,
} from '../src/services/tree-ops';

const TEMPLATES: WidgetTemplate[] = SEED_WIDGETS.map((w, i) => ({ ...w, id: i + 1 }));
const SECTION = TEMPLATES.find((t) => t.type === 'section')!;

const el = (
  id: number,
  parent_id: number,
  child_id: number,
  more: Partial<ContentElement> = {},
): ContentElement => ({
  id,
  parent_id,
  child_id,
  class: '',
  is_editable: true,
  tag: 'div',
  value: {},
  extension: [],
  ...more,
});

/** Widget 1: wrapper 1 > [2, 3 > [4]]; widget 2: wrapper 5 > [6]. */
function tree(): ContentWidget[] {
  return [
    {
      id: 1,
      key: 0,
      widget_id: SECTION.id,
      html: '',
      is_original: true,
      children: [
        el(1, 0, 0, { tag: 'section', is_editable: false }),
        el(2, 1, 0, { tag: 'h2', class: 'ccs-section__heading', value: { default: 'Tom &amp; Jerry' } }),
        el(3, 1, 1, { class: 'ccs-section__text', value: { default: '<p>Hi</p>' } }),
        el(4, 3, 0, { tag: 'p', value: { default: 'inner' } }),
      ],
    },
    {
      id: 2,
      key: 1,
      widget_id: SECTION.id,
      html: '',
      is_original: true,
      children: [
        el(5, 0, 0, { tag: 'section', is_editable: false }),
        el(6, 5, 0, { value: { default: 'x' } }),
      ],
    },
  ];
}

function allIds(t: ContentWidget[]): number[] {
  return t.flatMap((w) => w.children.map((e) => e.id));
}

function validationErrors(fn: () => unknown): Record<string, string[]> {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.errors;
    throw err;
  }
  throw new Error('expected a ValidationError');
}

describe('tree operations (pure)', () => {
  test('when a widget is inserted at a position, then it lands there and keys are renumbered', () => {
    const added = { ...tree()[1]!, id: 9 };
    expect(insertWidget(tree(), added, 0).map((w) => [w.id, w.key])).toEqual([
      [9, 0],
      [1, 1],
      [2, 2],
    ]);
    expect(insertWidget(tree(), added, 2).map((w) => w.id)).toEqual([1, 2, 9]);
  });

  test('when ord is a permutation, then the widgets follow it; otherwise it is refused', () => {
    expect(isPermutation(tree(), [2, 1])).toBe(true);
    expect(isPermutation(tree(), [2])).toBe(false);
    expect(isPermutation(tree(), [2, 2])).toBe(false);
    expect(isPermutation(tree(), [2, 3])).toBe(false);
    expect(reorderWidgets(tree(), [2, 1]).map((w) => [w.id, w.key])).toEqual([
      [2, 0],
      [1, 1],
    ]);
  });

  test('when a widget is removed, then the rest keep their ids; an unknown id gives undefined', () => {
    expect(removeWidget(tree(), 1)?.map((w) => [w.id, w.key])).toEqual([[2, 0]]);
    expect(removeWidget(tree(), 7)).toBeUndefined();
  });

  test('when an element with descendants is copied, then the copy follows it with fresh ids and the same shape', () => {
    const t = tree();
    const copied = copyElement(t[0]!, 1, 1, idsAfter(maxElementId(t)))!;
    expect(childrenOf(copied, 1).map((e) => [e.id, e.child_id])).toEqual([
      [2, 0],
      [3, 1],
      [7, 2],
    ]);
    expect(childrenOf(copied, 7).map((e) => [e.id, e.value])).toEqual([[8, { default: 'inner' }]]);
    expect(copied.is_original).toBe(false);
    const ids = allIds([copied, t[1]!]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('when an element is copied before a later sibling, then the sibling moves after the copy', () => {
    const t = tree();
    const copied = copyElement(t[0]!, 1, 0, idsAfter(maxElementId(t)))!;
    expect(childrenOf(copied, 1).map((e) => e.id)).toEqual([2, 7, 3]);
  });

  test('when an element is removed, then its descendants go with it and siblings are renumbered', () => {
    const removed = removeElement(tree()[0]!, 1, 1)!;
    expect(removed.children.map((e) => e.id)).toEqual([1, 2]);
    const first = removeElement(tree()[0]!, 1, 0)!;
    expect(childrenOf(first, 1).map((e) => [e.id, e.child_id])).toEqual([[3, 0]]);
    expect(removeElement(tree()[0]!, 1, 5)).toBeUndefined();
  });

  test('when widgets are copied into another tree, then widget and element ids continue after its largest', () => {
    const target = [tree()[1]!];
    const copies = copyWidgets(tree(), 2, idsAfter(maxElementId(target)));
    expect(copies.map((w) => w.id)).toEqual([3, 4]);
    expect(allIds(copies)).toEqual([7, 8, 9, 10, 11, 12]);
    expect(copies[0]!.children.find((e) => e.id === 10)!.parent_id).toBe(9);
    expect(copies[0]!.children.find((e) => e.id === 7)!.parent_id).toBe(0);
  });

  test('when new elements point at a missing parent or form a cycle, then each is reported', () => {
    expect([
      ...elementGraphProblems([
        { id: 1, parent_id: 0 },
        { id: 2, parent_id: 1 },
      ]),
    ]).toEqual([]);
    expect([...elementGraphProblems([{ id: 1, parent_id: 9 }])].map(([i]) => i)).toEqual([0]);
    const cycle = elementGraphProblems([
      { id: 1, parent_id: 2 },
      { id: 2, parent_id: 1 },
      { id: 3, parent_id: 3 },
    ]);
    expect([...cycle.keys()]).toEqual([0, 1, 2]);
  });
});

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
  });
});
