import {
  composeFromEntity,
  designStructure,
  renderHtml,
  SEED_DESIGNS,
  type ComposeEntity,
  type DesignDefinition,
} from '@catalogue/content';
import { TEMPLATES } from './trees';

const design = (key: string): DesignDefinition => SEED_DESIGNS.find((d) => d.key === key)!;
const classic = designStructure(design('product-classic')); // section, image_text, benefit, parameters, gallery(4)

const shoe: ComposeEntity = {
  type: 'product',
  name: { default: 'Trail shoe', cs: 'Trailová bota' },
  description: { default: '<p>Grippy &amp; light.</p>' },
  images: ['https://cdn.test/1.jpg', 'https://cdn.test/2.jpg', 'https://cdn.test/3.jpg'],
  brand: { name: 'Acme', description: '<p>Since 1900.</p>', image: 'https://cdn.test/acme.png' },
  parameters: [
    { name: { default: 'Weight', cs: 'Hmotnost' }, value: '280 g' },
    { name: 'Sizes', value: ['40', '41', ' '] },
    { name: 'Empty', value: '' },
  ],
};

describe('composeFromEntity', () => {
  it('when a product has all its data, then each piece lands once in the design widgets it fits', () => {
    const tree = composeFromEntity(classic, TEMPLATES, shoe);
    expect(tree.map((w) => w.children[0]?.class)).toEqual([
      'ccs-widget ccs-widget--section',
      'ccs-widget ccs-widget--image_text',
      'ccs-widget ccs-widget--parameters',
      'ccs-widget ccs-widget--gallery',
    ]);
    expect(renderHtml(tree, 'cs')).toBe(
      '<section class="ccs-widget ccs-widget--section" data-widget-id="1">' +
        '<h2 class="ccs-section__heading" id="trailova-bota">Trailová bota</h2>' +
        '<div class="ccs-section__text" lang="und"><p>Grippy &amp; light.</p></div></section>' +
        '<section class="ccs-widget ccs-widget--image_text" data-widget-id="2">' +
        '<figure class="ccs-image-text__media"><img class="ccs-image-text__image" src="https://cdn.test/acme.png" alt="Acme" loading="lazy" /></figure>' +
        '<div class="ccs-image-text__body"><h2 class="ccs-image-text__heading" id="acme" lang="und">Acme</h2>' +
        '<div class="ccs-image-text__text" lang="und"><p>Since 1900.</p></div></div></section>' +
        '<section class="ccs-widget ccs-widget--parameters" data-widget-id="3"><table class="ccs-parameters__table"><tbody>' +
        '<tr class="ccs-parameters__row"><th class="ccs-parameters__name">Hmotnost</th><td class="ccs-parameters__value">280 g</td></tr>' +
        '<tr class="ccs-parameters__row"><th class="ccs-parameters__name">Sizes</th><td class="ccs-parameters__value">40, 41</td></tr>' +
        '</tbody></table></section>' +
        '<section class="ccs-widget ccs-widget--gallery" data-widget-id="4"><ul class="ccs-gallery__list">' +
        '<li class="ccs-gallery__item"><img class="ccs-gallery__image" src="https://cdn.test/1.jpg" alt="Trailová bota" loading="lazy" /></li>' +
        '<li class="ccs-gallery__item"><img class="ccs-gallery__image" src="https://cdn.test/2.jpg" alt="Trailová bota" loading="lazy" /></li>' +
        '<li class="ccs-gallery__item"><img class="ccs-gallery__image" src="https://cdn.test/3.jpg" alt="Trailová bota" loading="lazy" /></li>' +
        '</ul></section>',
    );
  });

  it('when there is no brand, then image_text shows the first image with the intro only if the section did not take it', () => {
    const imageFirst = designStructure({
      ...design('product-classic'),
      widgets: [{ widget: 'image_text' }, { widget: 'gallery' }],
    });
    const tree = composeFromEntity(imageFirst, TEMPLATES, { ...shoe, brand: null });
    const html = renderHtml(tree, 'default');
    expect(html).toContain('src="https://cdn.test/1.jpg" alt="Trail shoe"');
    expect(html.match(/cdn\.test\/1\.jpg/g)).toHaveLength(1);
    expect(html).toContain('<p>Grippy &amp; light.</p>');
  });

  it('when the item has only a name, then nothing is composed (a heading alone is not content)', () => {
    expect(composeFromEntity(classic, TEMPLATES, { type: 'product', name: 'Bare' })).toEqual([]);
  });

  it('when there is no description, then the short description is the paragraph', () => {
    const tree = composeFromEntity(classic, TEMPLATES, {
      type: 'product',
      name: 'X',
      short_description: 'Short.',
    });
    expect(renderHtml(tree, 'default')).toContain('<div class="ccs-section__text">Short.</div>');
  });

  it('when widgets have no matching data, then they are skipped and no text is invented', () => {
    const story = designStructure(design('product-story')); // section, image_text, testimonial, faq, cta
    const tree = composeFromEntity(story, TEMPLATES, { type: 'product', name: 'X', description: '<p>D</p>' });
    expect(tree).toHaveLength(1);
    const texts = tree.flatMap((w) => w.children.flatMap((c) => Object.values(c.value)));
    expect(texts).toEqual(['X', '<p>D</p>']);
  });

  it('when a gallery has fewer slots than images, then only that many are shown', () => {
    const images = Array.from({ length: 8 }, (_, i) => `https://cdn.test/${i}.jpg`);
    const gallery = designStructure({
      ...design('product-classic'),
      widgets: [{ widget: 'gallery', image_slot: 2 }],
    });
    const tree = composeFromEntity(gallery, TEMPLATES, { type: 'product', images });
    expect(tree[0]?.children.filter((c) => c.tag === 'img')).toHaveLength(2);
  });

  it('when the same item is composed twice, then the trees are identical', () => {
    expect(composeFromEntity(classic, TEMPLATES, shoe)).toEqual(composeFromEntity(classic, TEMPLATES, shoe));
  });

  it('when a brand itself is composed, then its own description is the intro and not repeated as brand', () => {
    const tree = composeFromEntity(classic, TEMPLATES, {
      type: 'brand',
      name: 'Acme',
      description: '<p>Since 1900.</p>',
      brand: { name: 'Acme', description: '<p>Since 1900.</p>' },
      images: ['https://cdn.test/acme.png'],
    });
    expect(renderHtml(tree, 'default').match(/Since 1900/g)).toHaveLength(1);
  });
});
