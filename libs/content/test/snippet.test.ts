import { buildRichSnippet, jsonForScript, type SnippetEntity } from '@catalogue/content';

const product: SnippetEntity = {
  type: 'product',
  name: { default: 'Trail shoe', cs: 'Trailová bota' },
  description: { default: '<p>Light <strong>and</strong> grippy.</p>' },
  images: ['https://cdn.test/1.jpg', 'https://cdn.test/2.jpg'],
  brand: 'Acme',
  url: { default: 'https://shop.test/trail-shoe' },
};

describe('buildRichSnippet', () => {
  it('when a product has one variant, then sku and gtin13 sit on the Product itself', () => {
    const { json, html } = buildRichSnippet(
      { ...product, variants: [{ code: 'TS-42', ean: '8594000000019' }] },
      'cs',
    );
    expect(json).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Trailová bota',
      description: 'Light and grippy.',
      image: ['https://cdn.test/1.jpg', 'https://cdn.test/2.jpg'],
      url: 'https://shop.test/trail-shoe',
      brand: { '@type': 'Brand', name: 'Acme' },
      sku: 'TS-42',
      gtin13: '8594000000019',
    });
    expect(html).toBe(`<script type="application/ld+json">${JSON.stringify(json)}</script>`);
  });

  it('when a product has several variants, then it becomes a ProductGroup whose variants carry sku and valid gtin13 only', () => {
    const { json } = buildRichSnippet(
      {
        ...product,
        variants: [
          { code: 'TS-41', ean: '8594000000019' },
          { code: 'TS-42', ean: '12345' },
          { code: 'TS-43', ean: null },
        ],
      },
      'default',
    );
    expect(json).toMatchObject({ '@type': 'ProductGroup', name: 'Trail shoe' });
    expect(json?.hasVariant).toEqual([
      { '@type': 'Product', sku: 'TS-41', gtin13: '8594000000019' },
      { '@type': 'Product', sku: 'TS-42' },
      { '@type': 'Product', sku: 'TS-43' },
    ]);
    expect(json).not.toHaveProperty('sku');
  });

  it('when a product has no variants and no optional data, then only what was given appears', () => {
    expect(buildRichSnippet({ type: 'product', name: 'Plain' }, 'en').json).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Plain',
    });
  });

  it('when images or the url are not absolute http(s) URLs, then they are left out rather than guessed', () => {
    const { json } = buildRichSnippet(
      { type: 'product', name: 'X', images: ['/relative.jpg', 'javascript:alert(1)'], url: 'shoe-x' },
      'default',
    );
    expect(json).toEqual({ '@context': 'https://schema.org', '@type': 'Product', name: 'X' });
  });

  it('when a category is described, then it is a CollectionPage', () => {
    expect(
      buildRichSnippet(
        { type: 'category', name: { cs: 'Boty', default: 'Shoes' }, description: 'All <b>shoes</b>' },
        'cs',
      ).json,
    ).toEqual({
      '@context': 'https://schema.org',
      '@type': 'CollectionPage',
      name: 'Boty',
      description: 'All shoes',
    });
  });

  it('when a brand has an image, then it is its logo', () => {
    expect(
      buildRichSnippet(
        { type: 'brand', name: 'Acme', description: 'Since 1900.', images: ['https://cdn.test/logo.png'] },
        'de',
      ).json,
    ).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Brand',
      name: 'Acme',
      description: 'Since 1900.',
      logo: 'https://cdn.test/logo.png',
      image: ['https://cdn.test/logo.png'],
    });
  });

  it('when a blog post is described, then it is a BlogPosting with headline and articleSection', () => {
    expect(
      buildRichSnippet(
        {
          type: 'blog',
          name: 'How to lace',
          description: '<p>Step by step.</p>',
          category: { default: 'Guides' },
        },
        'default',
      ).json,
    ).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: 'How to lace',
      description: 'Step by step.',
      articleSection: 'Guides',
    });
  });

  it('when a page is described, then it is a WebPage', () => {
    expect(buildRichSnippet({ type: 'page', name: 'About' }, 'default').json).toEqual({
      '@context': 'https://schema.org',
      '@type': 'WebPage',
      name: 'About',
    });
  });

  it('when the entity has no name in the language nor in default, then there is no snippet', () => {
    expect(buildRichSnippet({ type: 'product', name: { cs: 'Jen česky' }, brand: 'Acme' }, 'en')).toEqual({
      html: '',
      json: null,
    });
  });

  it('when data contains </script> and <!--, then the script tag cannot be closed early and the JSON still parses', () => {
    const name = '</script><script>alert(1)</script><!-- & x';
    const { html, json } = buildRichSnippet({ type: 'page', name }, 'default');
    const body = html.slice('<script type="application/ld+json">'.length, -'</script>'.length);
    expect(body).not.toMatch(/[<>&]/);
    expect(html.match(/<\/script/gi)).toHaveLength(1);
    expect(JSON.parse(body)).toEqual(json);
    expect(json?.name).toBe(name);
  });
});

describe("buildRichSnippet: a product's parameters", () => {
  it('when a product has parameters, then each of its values is a PropertyValue named in the page language, else the default', () => {
    const { json } = buildRichSnippet(
      {
        ...product,
        parameters: [
          { name: { default: 'Weight', cs: 'Hmotnost' }, values: ['280 g'] },
          { name: 'Colour', values: ['Red', ' ', 'Green'] },
          { name: { cs: 'Jen česky' }, values: ['x'] },
          { name: 'Season', values: [] },
        ],
      },
      'cs',
    );
    expect(json?.additionalProperty).toEqual([
      { '@type': 'PropertyValue', name: 'Hmotnost', value: '280 g' },
      { '@type': 'PropertyValue', name: 'Colour', value: 'Red' },
      { '@type': 'PropertyValue', name: 'Colour', value: 'Green' },
      { '@type': 'PropertyValue', name: 'Jen česky', value: 'x' },
    ]);
    expect(buildRichSnippet({ ...product, parameters: [] }, 'cs').json).not.toHaveProperty(
      'additionalProperty',
    );
  });
});

describe('jsonForScript', () => {
  it('when a value holds line and paragraph separators, then they are escaped too', () => {
    const text = jsonForScript({ a: 'x\u2028y\u2029z' });
    expect(text).toBe('{"a":"x\\u2028y\\u2029z"}');
    expect(JSON.parse(text)).toEqual({ a: 'x\u2028y\u2029z' });
  });
});
