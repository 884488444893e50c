import {
  designStructure,
  fillDesign,
  SEED_DESIGNS,
  SEED_WIDGETS,
  appendWidgets,
  type ContentWidget,
} from '@catalogue/content';

const TEMPLATES = SEED_WIDGETS.map((w, index) => ({ ...w, id: index + 1 }));
const STRUCTURE = designStructure(
  SEED_DESIGNS.find((d) => d.key === 'product-classic')!,
  { widgets: TEMPLATES },
);

function tree(heading: string): ContentWidget[] {
  const filled = fillDesign(STRUCTURE, TEMPLATES, {
    widget: [
      { design_widget_id: 1, fields: { heading, paragraph: '<p>Text.</p>' } },
      { design_widget_id: 3, fields: { heading: 'Why' }, items: [{ benefit_title: 'A', benefit_text: 'B' }] },
    ],
  });
  if (!filled.ok) throw new Error(JSON.stringify(filled.errors));
  return filled.tree;
}

describe('appendWidgets', () => {
  it('keeps the existing widgets and gives the added ones ids, keys and element ids of their own', () => {
    const existing = tree('First');
    const added = tree('Second');

    const result = appendWidgets(existing, added, 'default');

    expect(result.slice(0, existing.length)).toEqual(existing);
    expect(result.map((w) => w.id)).toEqual([1, 2, 3, 4]);
    expect(result.map((w) => w.key)).toEqual([0, 1, 2, 3]);
    const elements = result.flatMap((w) => w.children.map((e) => e.id));
    expect(new Set(elements).size).toBe(elements.length);
    expect(result[2]!.html).toContain('data-widget-id="3"');
    expect(result[2]!.html).toContain('Second');
  });

  it('maps parent references along with the element ids', () => {
    const existing = tree('First');
    const added = tree('Second');

    const result = appendWidgets(existing, added, 'default');

    for (const [index, widget] of result.slice(existing.length).entries()) {
      const original = added[index]!;
      const ids = new Map(original.children.map((e, i) => [e.id, widget.children[i]!.id]));
      widget.children.forEach((element, i) => {
        const parent = original.children[i]!.parent_id;
        expect(element.parent_id).toBe(parent === 0 ? 0 : ids.get(parent));
      });
    }
  });

  it('continues after the largest ids of an edited tree, whatever their order', () => {
    const existing = tree('First').map((w, i) => ({ ...w, id: i === 0 ? 40 : 7, key: i === 0 ? 9 : 3 }));
    existing[1]!.children = existing[1]!.children.map((e) => ({ ...e, id: e.id + 500 }));
    const maxElement = Math.max(...existing.flatMap((w) => w.children.map((e) => e.id)));

    const result = appendWidgets(existing, tree('Second'), 'cs');

    expect(result.slice(2).map((w) => w.id)).toEqual([41, 42]);
    expect(result.slice(2).map((w) => w.key)).toEqual([10, 11]);
    expect(Math.min(...result.slice(2).flatMap((w) => w.children.map((e) => e.id)))).toBe(maxElement + 1);
  });

  it('appends to an empty tree from id 1 and key 0', () => {
    const result = appendWidgets([], tree('Only'), 'default');

    expect(result.map((w) => [w.id, w.key])).toEqual([
      [1, 0],
      [2, 1],
    ]);
  });
});
