// POST …/generate of a white-label entity that is a catalogue item (same external id and type):
// the job's context is what the host sends merged OVER what the catalogue stores in the job's
// language (name, descriptions, the product's own parameter values, brand, category names,
// images, page), and a job with nothing to write from is refused in words a shop owner can act
// on, before anything is reserved. Against the real Postgres and Redis; the catalogue is written
// through the catalogue API in the same process, as an eshop back office does.
import { serveServiceForTests } from '@catalogue/testing';
import { catalogueApi } from '../../catalogue-api/src/service';
import { designId, fillableWidgets, generateService, PRICE } from './generate-helpers';

const svc = generateService('wl-generate-material');
const catalogue = serveServiceForTests(catalogueApi, {
  QUEUE_PREFIX: `${process.env.TEST_QUEUE_PREFIX}-generate-material`,
});

let counter = 0;
const nextId = () => `MAT-${process.pid}-${++counter}`;
const path = (entityId: string, type = 'product') => `/content/${entityId}/type/${type}/generate` as const;

async function backOffice(token: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${catalogue.url}${url}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('white-label-api: generation writes from what the catalogue knows', () => {
  let classic: number;
  beforeAll(async () => {
    classic = await designId(svc.deps.db, 'product-classic');
  });

  async function arrange(product: Record<string, unknown>, opts: { title?: Record<string, string> } = {}) {
    const s = await svc.shop({ topUp: 100, languages: ['default', 'cs', 'en'] });
    const api = async (method: string, url: string, body?: unknown) => {
      const res = await backOffice(s.apiToken, method, url, body);
      expect(res.body).toMatchObject({ errors: [] });
      return res;
    };
    expect(
      (await api('POST', '/api/v2/rest/brands', [{ id: 'B1', name: { default: 'Veltra', cs: 'Veltra CZ' } }]))
        .status,
    ).toBe(200);
    expect(
      (
        await api('POST', '/api/v2/rest/categories', [
          { id: 'C1', name: { default: 'Trail shoes', cs: 'Trailové boty' } },
          { id: 'C2', name: { en: 'Running' } },
        ])
      ).status,
    ).toBe(200);
    expect(
      (
        await api('POST', '/api/v2/rest/parameters', [
          { id: 7, name: 'Drop', values: [{ id: 1, value: '6 mm' }] },
        ])
      ).status,
    ).toBe(200);
    const id = nextId();
    expect((await api('POST', '/api/v2/rest/products', [{ id, ...product }])).status).toBe(200);
    await s.register(id, 'product', opts.title ?? {});
    return { s, id };
  }

  const PRODUCT = {
    name: { default: 'Veltra Ridge', cs: 'Veltra Ridge CZ', en: 'Veltra Ridge EN' },
    short_description: { cs: 'Lehká bota do terénu.' },
    description: { cs: '<p>Drží i na mokré skále.</p>', en: '<p>Grips on wet rock.</p>' },
    url: { cs: 'https://shop.test/cs/ridge' },
    images: ['https://cdn.shop.test/ridge-1.jpg', 'https://cdn.shop.test/ridge-2.jpg'],
    brand_id: 'B1',
    categories_ids: ['C1', 'C2'],
    parameters_ids: [7],
  };

  test('when the editor registered only the title and the body is empty, then the job is planned from the catalogue item in the job language', async () => {
    const { s, id } = await arrange(PRODUCT);

    const res = await s.call('POST', path(id), { design_id: classic, lang: 'cs' });

    expect(res.status).toBe(200);
    const [job] = await s.jobs();
    expect(job!.context).toMatchObject({
      name: 'Veltra Ridge CZ',
      short_description: 'Lehká bota do terénu.',
      old_description: '<p>Drží i na mokré skále.</p>',
      parameter: 'Drop: 6 mm',
      brand: 'Veltra CZ',
      // C2 has no Czech name: no other language's words stand in for it.
      categories: ['Trailové boty'],
      images: PRODUCT.images,
      url: 'https://shop.test/cs/ridge',
    });
    expect(job!.estimated_cost).toBe(fillableWidgets('product-classic') * PRICE.widget);
  });

  test('when the body sends some fields, then each sent field wins and the others come from the catalogue', async () => {
    const { s, id } = await arrange(PRODUCT, { title: { cs: 'Registrovaný název' } });

    const res = await s.call('POST', path(id), {
      design_id: classic,
      lang: 'cs',
      short_description: 'Poslaný popis.',
      parameter: 'Hmotnost: 280 g',
    });

    expect(res.status).toBe(200);
    const [job] = await s.jobs();
    expect(job!.context).toMatchObject({
      // The registered title is the host's word for the entity: over the catalogue's name.
      name: 'Registrovaný název',
      short_description: 'Poslaný popis.',
      old_description: '<p>Drží i na mokré skále.</p>',
      parameter: 'Hmotnost: 280 g',
      brand: 'Veltra CZ',
    });
  });

  test('when neither the catalogue, the registration nor the body has a word in the job language, then 422 says so in words and nothing is reserved', async () => {
    const { s, id } = await arrange({ name: { en: 'Ridge' }, parameters_ids: [7], images: PRODUCT.images });
    const before = await s.account();

    const res = await s.call('POST', path(id), { design_id: classic, lang: 'cs' });

    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      code: 'generation_material_missing',
      languages: ['cs'],
      error:
        'There is nothing in Czech to write from: add a name or description in Czech to the product, or send them with the request.',
      errors: { lang: [expect.stringMatching(/^There is nothing in Czech to write from/)] },
    });
    expect(await s.jobs()).toEqual([]);
    expect(await s.account()).toEqual(before);
    expect(await s.ledger()).toEqual([expect.objectContaining({ kind: 'topup' })]);
  });

  test("when a replacing job must write another language again, then that language's catalogue data is planned for it", async () => {
    const { s, id } = await arrange(PRODUCT);
    const structure = (await s.call('GET', `/design/${classic}/structure`)).body.widget as Array<{
      design_widget_id: number;
      type: string;
      fillable: boolean;
    }>;
    const section = structure.find((w) => w.fillable && w.type === 'section')!;
    const filled = await s.call('POST', `/entity/${id}/type/product/design`, {
      design_id: classic,
      widget: [{ design_widget_id: section.design_widget_id, fields: { heading: { en: 'Own English' } } }],
    });
    expect(filled.status).toBe(200);

    const res = await s.call('POST', path(id), { design_id: classic, lang: 'cs', remove_exist_widget: true });

    expect(res.status).toBe(200);
    const [job] = await s.jobs();
    expect(job!.context.other_languages).toEqual({
      en: {
        name: 'Veltra Ridge EN',
        old_description: '<p>Grips on wet rock.</p>',
        parameter: 'Drop: 6 mm',
        // The brand has no English name; C2 alone is named in English.
        categories: ['Running'],
      },
    });
    expect(job!.estimated_cost).toBe(2 * fillableWidgets('product-classic') * PRICE.widget);
  });

  test("when a page has no words in the shop's main language, then the refusal names the page and that language", async () => {
    const s = await svc.shop({ topUp: 100 });
    const id = nextId();
    await s.register(id, 'page', { cs: 'Stránka' });
    const landing = await designId(svc.deps.db, 'page-landing');

    const res = await s.call('POST', path(id, 'page'), { design_id: landing });

    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'generation_material_missing',
      languages: ['default'],
      error:
        // The page has a Czech title: the shop saying its main language is Czech also fixes it.
        "There is nothing in the shop's main language to write from: add a name or description in the shop's main language to the page, or have the shop's main language set (the eshop's default_language setting) to a language the texts are in, or send them with the request.",
    });
    expect(await s.jobs()).toEqual([]);
  });

  test("when another eshop's catalogue has an item of the same id, then its data is not used", async () => {
    const { id } = await arrange(PRODUCT);
    const other = await svc.shop({ topUp: 100, languages: ['default', 'cs'] });
    await other.register(id, 'product', {});

    const res = await other.call('POST', path(id), { design_id: classic, lang: 'cs' });

    expect(res.status).toBe(422);
    expect(res.body.code).toBe('generation_material_missing');
    expect(await other.jobs()).toEqual([]);
  });
});
