// The scorers of `npm run eval:content` catch what they exist to catch: a made-up number or
// name, a widget filled without material, a text over its limit, a snippet value not in the data
// (language detection runs in the script itself: franc is an ES module Jest cannot load).
import { designStructure, SEED_DESIGNS } from '@catalogue/content';
import {
  inventedFacts,
  inventedSnippetValues,
  overLimit,
  widgetsWithMaterial,
  type EvalInput,
} from './eval/metrics';

const INPUT: EvalInput = {
  name: 'Veltra Ridge 2 GTX',
  short_description: 'A light trail shoe with a grippy sole.',
  old_description: '<p>It weighs 280 g per shoe. Is it waterproof? Yes, the membrane keeps water out.</p>',
  parameter: 'Weight: 280 g\nDrop: 6 mm',
  ean: '8590000000427',
  images: ['https://cdn.example/a.jpg'],
  url: 'https://shop.example/en/ridge',
};
const story = designStructure(
  SEED_DESIGNS.find((d) => d.key === 'product-story')!,
  {
    design_id: 2,
    design_widget_ids: [11, 12, 13, 14, 15],
  },
);

describe('eval:content scorers', () => {
  test('when an output has a number or a name its input lacks, then it is an invented fact', () => {
    expect(inventedFacts('It weighs 280 g and has a 6 mm drop.', INPUT)).toEqual([]);
    expect(inventedFacts('It weighs 250 g, says Gore.', INPUT)).toEqual(['250', 'Gore']);
  });

  test('when the data has a page, images and an answered question, then those widgets have material and a testimonial never does', () => {
    expect([...widgetsWithMaterial(story, INPUT)].sort()).toEqual([11, 12, 14, 15]);
    // The section takes all the text; without images nothing is left for the image and text.
    expect([...widgetsWithMaterial(story, { ...INPUT, url: undefined, images: [] })].sort()).toEqual([
      11, 14,
    ]);
  });

  test('when a text is longer than its field, then it is over the limit', () => {
    expect(overLimit([{ design_widget_id: 15, fields: { button_label: 'x'.repeat(41) } }], story)).toEqual([
      'button_label: 41 > 40',
    ]);
  });

  test('when a snippet holds a value the data does not, then it is reported', () => {
    expect(inventedSnippetValues({ '@type': 'Product', name: 'Veltra Ridge 2 GTX' }, INPUT)).toEqual([]);
    expect(
      inventedSnippetValues(
        { '@type': 'Product', name: 'Veltra Ridge 2 GTX', offers: { price: '99' } },
        INPUT,
      ),
    ).toEqual(['price: 99']);
  });
});
