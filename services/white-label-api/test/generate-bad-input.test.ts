// Every field of the generate body (specification rule 5) refused with a 422 naming it, and
// nothing written or queued for any of them.
import { customDesign, designId, generateService, MAX_URLS } from './generate-helpers';

const svc = generateService('wl-generate-bad');

let counter = 0;
const nextEntity = () => `BAD-${process.pid}-${++counter}`;

describe('white-label-api: POST …/generate with bad input', () => {
  let classic: number;
  let categoryDesign: number;
  let otherShopsDesign: number;
  let otherShopsPrompt: number;
  let shop: Awaited<ReturnType<typeof svc.shop>>;
  let entity: string;

  beforeAll(async () => {
    const db = svc.deps.db;
    classic = await designId(db, 'product-classic');
    categoryDesign = await designId(db, 'category-intro');
    const other = await svc.shop();
    otherShopsDesign = await customDesign(db, other.id, 'product-classic');
    const [prompt] = await db('prompts')
      .insert({ eshop_id: other.id, name: 'Theirs', prompt: 'Secret instructions.' })
      .returning<{ id: number }[]>('id');
    otherShopsPrompt = prompt!.id;
    shop = await svc.shop({ topUp: 1_000, languages: ['default', 'cs'] });
    entity = nextEntity();
    await shop.register(entity);
  });

  const post = (body: unknown) => shop.call('POST', `/content/${entity}/type/product/generate`, body);

  const url = (i: number) => `https://maker.test/${i}`;
  const cases: Array<[string, () => Record<string, unknown>, string, RegExp]> = [
    ['design_id is a string', () => ({ design_id: String(classic) }), 'design_id', /must be an integer/],
    ['design_id is 0', () => ({ design_id: 0 }), 'design_id', /at least 1/],
    [
      'design_id does not exist',
      () => ({ design_id: 2_000_000_000 }),
      'design_id',
      /selected design_id is invalid/,
    ],
    [
      'design_id is another eshop’s custom design',
      () => ({ design_id: otherShopsDesign }),
      'design_id',
      /invalid/,
    ],
    [
      'design_id is a category design',
      () => ({ design_id: categoryDesign }),
      'design_id',
      /category design, not a product design/,
    ],
    ['prompt_id is not an integer', () => ({ design_id: classic, prompt_id: 'x' }), 'prompt_id', /integer/],
    [
      'prompt_id is another eshop’s prompt',
      () => ({ design_id: classic, prompt_id: otherShopsPrompt }),
      'prompt_id',
      /invalid/,
    ],
    ['lang is unknown', () => ({ design_id: classic, lang: 'xx' }), 'lang', /selected lang is invalid/],
    [
      'lang is not active for the eshop',
      () => ({ design_id: classic, lang: 'en' }),
      'lang',
      /not an active language/,
    ],
    [
      'remove_exist_widget is a string',
      () => ({ design_id: classic, remove_exist_widget: 'true' }),
      'remove_exist_widget',
      /true or false/,
    ],
    ['name is a number', () => ({ design_id: classic, name: 5 }), 'name', /must be a string/],
    ['name is too long', () => ({ design_id: classic, name: 'n'.repeat(256) }), 'name', /255 characters/],
    [
      'name holds a NUL character',
      () => ({ design_id: classic, name: 'a\u0000b' }),
      'name',
      /must be valid text/,
    ],
    [
      'short_description is too long',
      () => ({ design_id: classic, short_description: 's'.repeat(10_001) }),
      'short_description',
      /10000/,
    ],
    [
      'old_description is an object',
      () => ({ design_id: classic, old_description: { default: 'x' } }),
      'old_description',
      /string/,
    ],
    [
      'parameter is an array',
      () => ({ design_id: classic, parameter: ['Weight: 1 kg'] }),
      'parameter',
      /string/,
    ],
    ['ean is too long', () => ({ design_id: classic, ean: '1'.repeat(65) }), 'ean', /64 characters/],
    [
      'ean holds an unpaired surrogate',
      () => ({ design_id: classic, ean: '\ud800' }),
      'ean',
      /must be valid text/,
    ],
    [
      'search_model holds a NUL character',
      () => ({ design_id: classic, search_model: ['\u0000'] }),
      'search_model.0',
      /must be valid text/,
    ],
    [
      'use_serp_context is 1',
      () => ({ design_id: classic, use_serp_context: 1 }),
      'use_serp_context',
      /true or false/,
    ],
    [
      'use_web_research is "yes"',
      () => ({ design_id: classic, use_web_research: 'yes' }),
      'use_web_research',
      /true or false/,
    ],
    [
      'search_web is a string',
      () => ({ design_id: classic, search_web: url(1) }),
      'search_web',
      /must be an array/,
    ],
    [
      'search_web holds an ftp URL',
      () => ({ design_id: classic, search_web: ['ftp://maker.test/a'] }),
      'search_web.0',
      /valid URL/,
    ],
    [
      'search_web holds a javascript: URL',
      () => ({ design_id: classic, search_web: ['javascript:alert(1)'] }),
      'search_web.0',
      /valid URL/,
    ],
    [
      'search_web is over WEB_RESEARCH_MAX_URLS with research on',
      () => ({
        design_id: classic,
        use_web_research: true,
        search_web: Array.from({ length: MAX_URLS + 1 }, (_, i) => url(i)),
      }),
      'search_web',
      new RegExp(`more than ${MAX_URLS} items`),
    ],
    [
      'search_model holds a number',
      () => ({ design_id: classic, search_model: [1] }),
      'search_model.0',
      /string/,
    ],
    [
      'search_model holds an empty string',
      () => ({ design_id: classic, search_model: [''] }),
      'search_model.0',
      /required/,
    ],
    [
      'paragraph_length is negative',
      () => ({ design_id: classic, paragraph_length: -1 }),
      'paragraph_length',
      /at least 0/,
    ],
    [
      'paragraph_length is a fraction',
      () => ({ design_id: classic, paragraph_length: 1.5 }),
      'paragraph_length',
      /integer/,
    ],
    [
      'use_ai_profile is "no"',
      () => ({ design_id: classic, use_ai_profile: 'no' }),
      'use_ai_profile',
      /true or false/,
    ],
    [
      'an unknown field is sent',
      () => ({ design_id: classic, remove_existing_widget: true }),
      'remove_existing_widget',
      /not allowed/,
    ],
  ];

  test.each(cases)(
    'when %s, then 422 names the field and nothing is written',
    async (_, body, field, message) => {
      const before = { ledger: await shop.ledger(), account: await shop.account() };

      const res = await post(body());

      expect(res.status).toBe(422);
      expect(res.body.errors?.[field]).toEqual([expect.stringMatching(message)]);
      expect(await shop.jobs()).toEqual([]);
      expect(await shop.ledger()).toEqual(before.ledger);
      expect(await shop.account()).toEqual(before.account);
    },
  );

  test('when no design is sent and the entity has none, then 422 asks for design_id', async () => {
    const res = await post({});

    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      design_id: ['The design_id field is required (the entity has no design yet).'],
    });
    expect(await shop.jobs()).toEqual([]);
  });

  test('when several fields are bad, then each is named at once', async () => {
    const res = await post({ design_id: 'x', lang: 1, search_web: ['nope'] });

    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors ?? {}).sort()).toEqual(['design_id', 'lang', 'search_web.0']);
  });

  test('when the body is not JSON, then 400 and nothing is written', async () => {
    const res = await post('{"design_id":');

    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Malformed JSON in request body', code: 'malformed_json' });
    expect(await shop.jobs()).toEqual([]);
  });

  test('when the entity type in the path is unknown, then 422', async () => {
    const res = await shop.call('POST', `/content/${entity}/type/brand/generate`, { design_id: classic });

    expect(res.status).toBe(422);
    expect(res.body.errors?.entity_type).toEqual(['The selected entity_type is invalid.']);
  });

  test('when the eshop’s own custom design of the right type is sent, then it is accepted', async () => {
    const own = await customDesign(svc.deps.db, shop.id, 'product-classic');
    const other = nextEntity();
    await shop.register(other);

    const res = await shop.call('POST', `/content/${other}/type/product/generate`, { design_id: own });

    expect(res.status).toBe(200);
    expect(res.body.data.design_id).toBe(own);
  });
});
