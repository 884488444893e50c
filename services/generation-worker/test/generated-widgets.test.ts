// What an appending generation leaves out (a widget whose texts and images the page already
// shows) and how a replacing one keeps the design's parameters table: pure, on seeded designs.
import { composeFromEntity, SEED_DESIGNS, type DesignStructure } from '@catalogue/content';
import { leaveOutRepeats, withDataWidgets } from '../src/services/generated-widgets';
import { design, STRUCTURES, TEMPLATES } from './providers-fixtures';

const classic = STRUCTURES[SEED_DESIGNS.indexOf(design('product-classic'))] as DesignStructure;
const idOf = (type: string) => classic.widget.find((w) => w.type === type)!.design_widget_id;
const IMAGE = 'https://cdn.shop.test/summit.jpg';
const ITEM = {
  type: 'product' as const,
  name: { en: 'Summit down jacket' },
  description: { en: '<p>800-fill goose down, 320 g.</p>' },
  images: [IMAGE],
  parameters: [{ name: 'Colour', value: ['Green'] }],
};
/** The page an import composes: a section, the parameters table, the gallery. */
const page = composeFromEntity(classic, TEMPLATES, ITEM, { htmlLanguage: null });

describe('generated widgets against the page', () => {
  test('when a generated widget only repeats texts and images the page shows, then it is left out as already_shown', () => {
    const { kept, repeated } = leaveOutRepeats(
      classic,
      [
        {
          design_widget_id: idOf('section'),
          fields: { heading: 'Summit Down Jacket', paragraph: '<p>800-fill goose down,  320 g.</p>' },
        },
        { design_widget_id: idOf('gallery'), image: [IMAGE] },
        {
          design_widget_id: idOf('benefit'),
          items: [{ benefit_title: 'Colour', benefit_text: 'The colour is Green.' }],
        },
      ],
      page,
      'en',
    );
    expect(repeated).toEqual([
      { design_widget_id: idOf('section'), type: 'section', reason: 'already_shown' },
      { design_widget_id: idOf('gallery'), type: 'gallery', reason: 'already_shown' },
    ]);
    expect(kept.map((w) => w.design_widget_id)).toEqual([idOf('benefit')]);
  });

  test('when a widget has one new text or one new image, then it is kept whole', () => {
    const { kept } = leaveOutRepeats(
      classic,
      [
        {
          design_widget_id: idOf('section'),
          fields: { heading: 'Summit down jacket', paragraph: '<p>Packs into its own pocket.</p>' },
        },
        { design_widget_id: idOf('gallery'), image: [IMAGE, 'https://cdn.shop.test/back.jpg'] },
      ],
      page,
      'en',
    );
    expect(kept.map((w) => w.design_widget_id)).toEqual([idOf('section'), idOf('gallery')]);
  });

  test("when the page shows a text only in another language, then it is no repeat in the job's", () => {
    const { kept } = leaveOutRepeats(
      classic,
      [{ design_widget_id: idOf('section'), fields: { paragraph: '<p>800-fill goose down, 320 g.</p>' } }],
      page,
      'cs',
    );
    expect(kept).toHaveLength(1);
  });

  test("when a replace's tree is made, then the design's parameters table is composed from the item's data at its place", () => {
    const generated = composeFromEntity(
      { ...classic, widget: classic.widget.filter((w) => w.type === 'section' || w.type === 'gallery') },
      TEMPLATES,
      ITEM,
      { htmlLanguage: null },
    );
    const tree = withDataWidgets(
      classic,
      TEMPLATES,
      [
        { design_widget_id: idOf('section'), fields: { heading: 'x' } },
        { design_widget_id: idOf('gallery'), image: [IMAGE] },
      ],
      generated,
      ITEM,
      'en',
    );
    const types = tree.map((w) => /ccs-widget--([a-z_]+)/.exec(w.children[0]!.class)?.[1]);
    expect(types).toEqual(['section', 'parameters', 'gallery']);
    expect(tree.map((w) => w.id)).toEqual([1, 2, 3]);
    expect(JSON.stringify(tree[1])).toContain('Green');
    // Without the item's data (no catalogue item), the generated widgets alone.
    expect(withDataWidgets(classic, TEMPLATES, [], generated, undefined, 'en')).toEqual(generated);
  });
});
