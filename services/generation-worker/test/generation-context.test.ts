import type { GenerateJobContext } from '@catalogue/db';
import { readContext } from '../src/services/generation-context';

// The stored snapshot is JSON from the database and outlives the code that wrote it: read
// defensively, a wrong type or a blank text counts as not sent.
describe('readContext', () => {
  test('when the planned material is stored, then brand, categories, images and page are read', () => {
    const context = readContext({
      name: 'Bota',
      brand: 'Veltra',
      categories: ['Boty', ' ', 7],
      images: ['https://cdn.test/a.jpg', 3],
      url: 'https://shop.test/cs/bota',
      other_languages: {
        en: { name: 'Shoe', parameter: 'Drop: 6 mm', categories: ['Shoes'] },
        de: { parameter: 'Drop: 6 mm' },
      },
    } as unknown as GenerateJobContext);

    expect(context).toMatchObject({
      name: 'Bota',
      brand: 'Veltra',
      categories: ['Boty'],
      images: ['https://cdn.test/a.jpg'],
      url: 'https://shop.test/cs/bota',
      // A language is written again only from its own words: parameters alone are not.
      other_languages: { en: { name: 'Shoe', parameter: 'Drop: 6 mm', categories: ['Shoes'] } },
    });
  });

  test('when a row was planned before the material was stored, then images are absent (read at run time), not empty', () => {
    const context = readContext({
      name: 'Bota',
      brand: 4,
      categories: 'Boty',
    } as unknown as GenerateJobContext);

    expect(context.images).toBeUndefined();
    expect(context.brand).toBeUndefined();
    expect(context.categories).toEqual([]);
    expect(context.other_languages).toEqual({});
  });
});
