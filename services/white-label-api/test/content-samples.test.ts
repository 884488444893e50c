// A widget added from the catalogue may start with the catalogue's sample texts and images (the
// editor shows them as "to fill"), but no storefront ever receives them: every public output —
// the v2 list (html, marketplace, nested, site link, rich snippet), the v1 list, the change feed,
// the white-label DOM and stored html — is rendered without them. Both services run in-process.
import { htmlToText, WIDGETS_BY_TYPE, type ContentWidget } from '@catalogue/content';
import { catalogueRepository } from '@catalogue/db';
import { bearerCaller, serveServiceForTests, type Method } from '@catalogue/testing';
import { catalogueApi } from '../../catalogue-api/src/service';
import { contentService, elementByClass } from './content-helpers';

/** Every string of the catalogue's samples, as a reader would see it (HTML samples as text). */
function sampleStrings(): string[] {
  const out = new Set<string>();
  const add = (text: unknown) => {
    const values = typeof text === 'string' ? [text] : Object.values((text ?? {}) as Record<string, string>);
    for (const v of values) {
      out.add(v);
      const plain = htmlToText(v).trim();
      if (plain !== '') out.add(plain);
    }
  };
  for (const definition of WIDGETS_BY_TYPE.values()) {
    const { fields = {}, items = [], images = [], icons = [] } = definition.sample;
    Object.values(fields).forEach(add);
    items.forEach((item) => Object.values(item).forEach(add));
    [...images, ...icons].forEach(add);
  }
  return [...out];
}

const SAMPLES = sampleStrings();
/** Hosts and ids of third-party placeholders: nothing of them may reach a storefront. */
const PLACEHOLDERS = ['placehold.co', 'example.com', 'aqz-KE-bpKQ', 'youtube.com/embed/aqz'];

const decode = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, '&');

/**
 * Every place a sample shows in one public output: a text of the HTML (between tags) or a JSON
 * string that is a sample, contains a longer one (so "2" or "Pro" match only as a whole text),
 * or any placeholder host anywhere.
 */
function samplesIn(output: unknown): string[] {
  const texts: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      texts.push(...value.split(/<[^>]*>/).map((t) => decode(t).trim()), decode(value));
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(walk);
  };
  walk(output);
  const raw = JSON.stringify(output);
  return [
    ...SAMPLES.filter((s) => texts.some((t) => t === s || (s.length >= 12 && t.includes(s)))),
    ...PLACEHOLDERS.filter((host) => raw.includes(host)),
  ];
}

describe('white-label-api: no sample content reaches a storefront', () => {
  const wl = contentService();
  const catalogue = serveServiceForTests(catalogueApi, {
    QUEUE_PREFIX: `${process.env.TEST_QUEUE_PREFIX}-samples`,
  });

  /** A catalogue API call of the eshop's back office, which must answer 200. */
  async function api<M extends Method, P extends string>(token: string, method: M, path: P, body?: unknown) {
    const res = await bearerCaller(catalogue.url, token)(method, path, body);
    expect([method, path, res.status]).toEqual([method, path, 200]);
    return res.body;
  }

  /** A shop with one product that has data (parameters, images, pages) and one that has none. */
  async function catalogueShop() {
    const shop = await wl.shop({
      languages: ['default', 'cs'],
      enableRichSnippet: true,
      enableSiteLink: true,
    });
    const token = shop.apiToken;
    await api(token, 'POST', '/api/v2/rest/parameters', [
      { id: 1, name: 'Sole material', values: [{ id: 10, value: 'Vibram rubber' }] },
    ]);
    await api(token, 'POST', '/api/v2/rest/products', [
      {
        id: 'RICH',
        name: { default: 'Trail shoe', cs: 'Trailová bota' },
        description: { default: '<p>Light and grippy.</p>' },
        url: { default: 'https://shop.test/trail-shoe', cs: 'https://shop.test/cs/trailova-bota' },
        images: ['https://cdn.shop.test/shoe-1.jpg', 'https://cdn.shop.test/shoe-2.jpg'],
        parameters_ids: [1],
      },
      { id: 'BARE', name: { default: 'Plain sock' } },
    ]);
    // What the render worker does once it has rendered the import (none runs here).
    for (const id of ['RICH', 'BARE']) {
      await wl.deps.db.transaction((trx) =>
        catalogueRepository.markRendered(trx, 'product', shop.id, id, 'ready'),
      );
      await shop.register(id);
    }
    return shop;
  }

  /** Every public output of the shop's products, keyed by where it was read. */
  async function publicOutputs(shop: Awaited<ReturnType<typeof catalogueShop>>) {
    const token = shop.apiToken;
    const v2 = await api(
      token,
      'GET',
      '/api/v2/rest/products?lang=all&include=marketplace,nested,site_link,rich_snippet',
    );
    const v1 = await api(token, 'GET', '/api/v1/products/list');
    const feed = await api(token, 'GET', '/api/v2/rest/changes');
    const outputs: Record<string, unknown> = { v2: v2.data, v1, feed: feed.data };
    for (const id of ['RICH', 'BARE']) {
      for (const lang of ['default', 'cs']) {
        const dom = await shop.call('POST', `/content/dom/${id}/type/product?lang=${lang}`);
        expect(dom.status).toBe(200);
        outputs[`dom ${id} ${lang}`] = dom.body.data.html;
      }
      const html = await shop.call('GET', `/entity/${id}/type/product/html`);
      expect(html.status).toBe(200);
      outputs[`entity html ${id}`] = html.body;
      const stored = await shop.stored(id);
      const { tree: _editorsTree, ...rendered } = stored ?? {};
      outputs[`stored outputs ${id}`] = rendered;
    }
    return { outputs, v2: v2.data };
  }

  test('when every widget of the catalogue is added to a product with data and to one without, then no public output holds a sample text, sample URL or placeholder host', async () => {
    const shop = await catalogueShop();
    const catalogueWidgets = (await shop.call('GET', '/widget')).body.data;
    expect(catalogueWidgets.map((w) => w.type).sort()).toEqual([...WIDGETS_BY_TYPE.keys()].sort());

    for (const widget of catalogueWidgets) {
      for (const id of ['RICH', 'BARE']) {
        const added = await shop.call('POST', `/content/${id}/type/product`, { widget_id: widget.id });
        expect([widget.type, id, added.status]).toEqual([widget.type, id, 200]);
      }
    }
    const { outputs, v2 } = await publicOutputs(shop);
    for (const [where, output] of Object.entries(outputs)) {
      expect([where, samplesIn(output)]).toEqual([where, []]);
    }
    // The item's own data is shown: the parameters table, the gallery and the cta's link.
    const rich = v2.find((p) => p.id === 'RICH')!;
    expect(rich.content.html.default).toContain('Sole material');
    expect(rich.content.html.default).toContain('Vibram rubber');
    expect(rich.content.html.default).toContain('https://cdn.shop.test/shoe-1.jpg');
    // The rich snippet is the item's (it never came from the tree).
    expect(rich.rich_snippet?.json.cs).toMatchObject({ '@type': 'Product', name: 'Trailová bota' });
  });

  test('when a widget is added from the catalogue, then the editor reads the sample marked as to fill and the item data unmarked', async () => {
    const shop = await catalogueShop();
    const add = async (type: string) =>
      ((await shop.add('RICH', type)) as ContentWidget[]).at(-1)! as ContentWidget;

    const parameters = await add('parameters');
    expect(parameters.children.some((e) => e.sample !== undefined)).toBe(false);
    expect(elementByClass(parameters, 'ccs-parameters__name').value).toEqual({ default: 'Sole material' });

    const gallery = await add('gallery');
    const sources = gallery.children
      .filter((e) => e.tag === 'img')
      .map((e) => (Array.isArray(e.extension) ? undefined : e.extension.src));
    expect(sources).toEqual(['https://cdn.shop.test/shoe-1.jpg', 'https://cdn.shop.test/shoe-2.jpg']);
    expect(gallery.children.some((e) => e.sample !== undefined)).toBe(false);

    const cta = await add('cta');
    const button = elementByClass(cta, 'ccs-cta__button');
    expect(button.extension).toEqual({
      href: { default: 'https://shop.test/trail-shoe', cs: 'https://shop.test/cs/trailova-bota' },
    });
    expect(button.sample).toEqual(['value']);
    expect(elementByClass(cta, 'ccs-cta__heading')).toMatchObject({
      value: { default: 'Ready to order?' },
      sample: ['value'],
    });
    // The editor's answer still shows the sample (html included) so the owner sees what to fill.
    expect(cta.html).toContain('Ready to order?');

    const video = await add('video');
    expect(elementByClass(video, 'ccs-video__embed').sample).toEqual(['src', 'title']);

    // For a product without data, the parameters table and gallery are samples to fill.
    const bare = ((await shop.add('BARE', 'gallery')) as ContentWidget[])[0]!;
    expect(bare.children.filter((e) => e.tag === 'img').every((e) => e.sample?.includes('src'))).toBe(true);
  });

  test('when the owner writes over a sample, then what they wrote is public and the samples left stay out', async () => {
    const shop = await catalogueShop();
    const [cta] = (await shop.add('BARE', 'cta')) as ContentWidget[];
    const heading = elementByClass(cta!, 'ccs-cta__heading');
    const text = elementByClass(cta!, 'ccs-cta__text');
    const button = elementByClass(cta!, 'ccs-cta__button');
    const edited = await shop.call('PUT', '/content/BARE/type/product', {
      [cta!.id]: {
        children: [
          { id: heading.id, value: { default: 'Warm feet all winter' } },
          // Only Czech: the sample stays the `default`, to fill, and out of every other language.
          { id: text.id, value: { cs: 'Ponožky do zimy.' } },
          { id: button.id, extension: { href: 'https://shop.test/socks' } },
        ],
      },
    });
    expect(edited.status).toBe(200);
    const after = (edited.body as ContentWidget[])[0]!;
    expect(elementByClass(after, 'ccs-cta__heading').sample).toBeUndefined();
    expect(elementByClass(after, 'ccs-cta__text').sample).toEqual(['value']);
    expect(elementByClass(after, 'ccs-cta__button').sample).toEqual(['value']);

    const stored = await shop.stored('BARE');
    expect(stored?.html.default).toContain('Warm feet all winter');
    expect(stored?.html.cs).toContain('Ponožky do zimy.');
    expect(stored?.html.default).not.toContain('ccs-cta__text');
    // The button's label is still the sample: a link without text is no link, so it is left out.
    expect(stored?.html.default).not.toContain('shop.test/socks');
    expect(samplesIn(stored?.html)).toEqual([]);
    expect(samplesIn(stored?.marketplace)).toEqual([]);
  });

  test('when the owner writes a sample element in cs, then cs reads it as theirs, default keeps it to fill, and sent back it stays out of the lists', async () => {
    const shop = await catalogueShop();
    const [cta] = (await shop.add('BARE', 'cta')) as ContentWidget[];
    const text = elementByClass(cta!, 'ccs-cta__text');
    const sampleText = (text.value as Record<string, string>).default!;
    expect(
      (
        await shop.call('PUT', '/content/BARE/type/product', {
          [cta!.id]: { children: [{ id: text.id, value: { cs: 'Ponožky do zimy.' } }] },
        })
      ).status,
    ).toBe(200);
    const inCs = (await shop.call('GET', '/content/BARE/type/product?lang=cs')).body as ContentWidget[];
    expect(elementByClass(inCs[0]!, 'ccs-cta__text').sample).toBeUndefined();
    const inDefault = (await shop.call('GET', '/content/BARE/type/product?lang=default'))
      .body as ContentWidget[];
    expect(elementByClass(inDefault[0]!, 'ccs-cta__text').sample).toEqual(['value']);

    // The widget as read in cs, added again: its default is the catalogue's sample, marked again.
    const added = await shop.call('POST', '/content/BARE/type/product?lang=cs', {
      widget_id: inCs[0]!.widget_id,
      json: inCs[0]!.children,
    });
    expect(added.status).toBe(200);
    const again = (await shop.call('GET', '/content/BARE/type/product?lang=default')).body as ContentWidget[];
    expect(elementByClass(again.at(-1)!, 'ccs-cta__text').sample).toEqual(['value']);
    const stored = await shop.stored('BARE');
    expect(stored?.html.cs).toContain('Ponožky do zimy.');
    expect(stored?.html.default).not.toContain(sampleText);
    expect(samplesIn(stored?.html)).toEqual([]);
  });

  test('when a widget with nothing but samples is added, then the lists serve nothing of it and the nested structure leaves it out', async () => {
    const shop = await catalogueShop();
    await shop.add('BARE', 'testimonial');
    await shop.add('BARE', 'divider');
    const stored = await shop.stored('BARE');
    expect((stored?.tree as ContentWidget[]).map((w) => w.id)).toEqual([1, 2]);
    // Only the divider's rule is public.
    expect(stored?.html.default).toBe(
      '<section class="ccs-widget ccs-widget--divider" data-widget-id="2"><hr class="ccs-divider__rule" /></section>',
    );
    expect(stored?.nested).toHaveLength(1);
  });

  test('when a widget still to fill is saved as a favourite and added again from it, then its samples stay marked and out of the lists', async () => {
    const shop = await catalogueShop();
    const [cta] = (await shop.add('BARE', 'cta')) as ContentWidget[];
    const saved = await shop.call('POST', '/widget-favourite', {
      name: 'My call to action',
      widget_id: cta!.widget_id,
      children: cta!.children,
    });
    expect(saved.status).toBe(201);
    const favourite = saved.body.data;
    expect(favourite.children.map((e) => e.sample)).toEqual(cta!.children.map((e) => e.sample));

    const added = await shop.call('POST', '/content/RICH/type/product', {
      widget_id: favourite.widget_id,
      json: favourite.children,
    });
    expect(added.status).toBe(200);
    const widget = (added.body as ContentWidget[]).at(-1)!;
    expect(elementByClass(widget, 'ccs-cta__heading').sample).toEqual(['value']);
    const stored = await shop.stored('RICH');
    expect(stored?.html).toEqual({ default: '', cs: '' });
    expect(samplesIn(stored?.marketplace)).toEqual([]);
  });
});
