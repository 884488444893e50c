import { defaultDesign } from '@catalogue/content-store';
import { contentRepository, wlEntitiesRepository, type WlEntityType } from '@catalogue/db';
import { insertDesign } from './design-fixtures';
import { BASE, editorService, EXPIRED, LICENCE_ERROR, ORIGIN } from './editor-client';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;

describe('white-label-api: entities (register-entity, GET entity, GET …/html)', () => {
  const service = editorService();
  const stored = (eshopId: number, type: WlEntityType, entityId: string) =>
    wlEntitiesRepository.find(service.deps.db, eshopId, type, entityId);
  /** The eshop's default design of a type (what registration gives an entity). */
  const defaultOf = async (eshopId: number, type: WlEntityType) =>
    (await defaultDesign(service.deps.db, eshopId, type))?.design.id;

  describe('POST /register-entity', () => {
    test('when a new entity is registered, then 201 answers it with texts as strings and it is stored as language maps', async () => {
      const shop = await service.shop();
      const design = await defaultOf(shop.id, 'product');
      const res = await shop.post('/register-entity', {
        entity_id: 'P-1',
        type: 'product',
        title: { cs: 'Bota', default: 'Shoe' },
        old_description: '<p>Light <strong>shoe</strong></p>',
      });
      expect(res.status).toBe(201);
      expect(design).toEqual(expect.any(Number));
      expect(res.body).toEqual({
        data: {
          id: expect.any(Number),
          entity_id: 'P-1',
          type: 'product',
          design_id: design,
          old_description: '<p>Light <strong>shoe</strong></p>',
          title: 'Shoe',
          created_at: expect.stringMatching(TIMESTAMP),
          updated_at: expect.stringMatching(TIMESTAMP),
        },
        message: 'Entity created',
      });
      const entity = await stored(shop.id, 'product', 'P-1');
      expect(entity).toMatchObject({
        id: res.body.data.id,
        designId: design,
        title: { default: 'Shoe', cs: 'Bota' },
        oldDescription: { default: '<p>Light <strong>shoe</strong></p>' },
      });
    });

    test('when the same entity_id and type are registered again, then 200 updates the same row and keeps texts not sent', async () => {
      const shop = await service.shop();
      const first = await shop.post('/register-entity', {
        entity_id: 'P-2',
        type: 'product',
        title: 'Old title',
        old_description: '<p>Kept</p>',
      });
      const second = await shop.post('/register-entity', {
        entity_id: 'P-2',
        type: 'product',
        title: { cs: 'Nový' },
      });
      expect(second.status).toBe(200);
      expect(second.body.message).toBe('Entity updated');
      expect(second.body.data).toMatchObject({
        id: first.body.data.id,
        title: 'Nový',
        old_description: '<p>Kept</p>',
        created_at: first.body.data.created_at,
      });
      expect(second.body.data.updated_at > first.body.data.updated_at).toBe(true);
      expect(await stored(shop.id, 'product', 'P-2')).toMatchObject({
        title: { cs: 'Nový' },
        oldDescription: { default: '<p>Kept</p>' },
      });
      expect(await wlEntitiesRepository.count(service.deps.db, shop.id)).toBe(1);
    });

    test('when the same id is registered with another type, then it is another entity', async () => {
      const shop = await service.shop();
      const product = await shop.post('/register-entity', { entity_id: 'X', type: 'product' });
      const page = await shop.post('/register-entity', { entity_id: 'X', type: 'page' });
      expect([product.status, page.status]).toEqual([201, 201]);
      expect(page.body.data.id).not.toBe(product.body.data.id);
      expect(page.body.data).toMatchObject({ title: '', old_description: '' });
    });

    test("when an entity is registered, then it starts with the default design of its type (the one its catalogue items are composed with), never another eshop's", async () => {
      const shop = await service.shop();
      const other = await service.shop();
      const foreign = await insertDesign(service.deps.db, {
        eshopId: other.id,
        category: 'blog',
        position: -1000,
      });
      for (const type of ['product', 'category', 'blog', 'page'] as const) {
        const res = await shop.post('/register-entity', { entity_id: `D-${type}`, type });
        const design = await defaultOf(shop.id, type);
        expect(design).toEqual(expect.any(Number));
        expect([type, res.status, res.body.data.design_id]).toEqual([type, 201, design]);
        expect((await stored(shop.id, type, `D-${type}`))?.designId).toBe(design);
      }
      expect((await stored(shop.id, 'blog', 'D-blog'))?.designId).not.toBe(foreign);
    });

    test('when an entity with a design is registered again, then its design is kept; one without a design gets the default', async () => {
      const shop = await service.shop();
      const first = await shop.post('/register-entity', { entity_id: 'K', type: 'page' });
      const chosen = await insertDesign(service.deps.db, {
        eshopId: shop.id,
        category: 'page',
        position: 1000,
      });
      await wlEntitiesRepository.setDesign(service.deps.db, shop.id, first.body.data.id, chosen);
      const again = await shop.post('/register-entity', { entity_id: 'K', type: 'page', title: 'New' });
      expect(again.body.data.design_id).toBe(chosen);

      // Registered before entities got a design (or its design was removed): null until now.
      await service.deps
        .db('wl_entities')
        .where({ id: first.body.data.id })
        .update({ design_id: null, design_owner: null });
      const healed = await shop.post('/register-entity', { entity_id: 'K', type: 'page' });
      expect(healed.body.data.design_id).toBe(await defaultOf(shop.id, 'page'));
      const list = await shop.get('/entity?type=page');
      expect(list.body.data.map((e: { design_id: unknown }) => e.design_id)).toEqual([
        healed.body.data.design_id,
      ]);
    });

    test('when null is sent for a text, then the stored text is cleared', async () => {
      const shop = await service.shop();
      await shop.post('/register-entity', { entity_id: 'N', type: 'page', title: 'T', old_description: 'D' });
      const res = await shop.post('/register-entity', { entity_id: 'N', type: 'page', title: null });
      expect(res.body.data).toMatchObject({ title: '', old_description: 'D' });
      expect((await stored(shop.id, 'page', 'N'))?.title).toEqual({});
    });

    test('when the body carries fields the API does not store, then they are ignored', async () => {
      const shop = await service.shop();
      const res = await shop.post('/register-entity', {
        entity_id: 'U',
        type: 'page',
        url: 'https://shop.test/u',
        extra: { x: 1 },
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ entity_id: 'U', title: '', old_description: '' });
    });

    test('when old_description carries script, handlers or javascript: links, then only safe HTML is stored and answered', async () => {
      const shop = await service.shop();
      const res = await shop.post('/register-entity', {
        entity_id: 'XSS',
        type: 'product',
        old_description: {
          default:
            '<p onclick="alert(1)">Hi<script>alert(1)</script></p><a href="javascript:alert(1)">x</a><img src=x onerror=alert(1)>',
          cs: '<iframe src="https://evil.test"></iframe><b>ok</b>',
        },
      });
      expect(res.status).toBe(201);
      const entity = await stored(shop.id, 'product', 'XSS');
      for (const html of [res.body.data.old_description, ...Object.values(entity!.oldDescription)]) {
        expect(html).not.toMatch(/script|onclick|onerror|javascript:|iframe/i);
      }
      expect(entity!.oldDescription.default).toContain('Hi');
      expect(entity!.oldDescription.cs).toContain('ok');
    });

    test.each([
      [{ type: 'product' }, 'entity_id', 'The entity_id field is required.'],
      [{ entity_id: 'A' }, 'type', 'The type field is required.'],
      [{ entity_id: 'A', type: 'brand' }, 'type', 'The selected type is invalid.'],
      [
        { entity_id: 'A', type: 'page', title: 'x'.repeat(256) },
        'title',
        'The title field must not be greater than 255 characters.',
      ],
      [
        { entity_id: 'A', type: 'page', title: { xx: 'Hi' } },
        'title.xx',
        'The title.xx field is not allowed.',
      ],
      [
        { entity_id: 'A', type: 'page', title: 5 },
        'title',
        'The title field must be a string or a language map (an object keyed by language code).',
      ],
      [
        { entity_id: 'A', type: 'page', title: ['Garden chair'] },
        'title',
        'The title field must be a string or a language map (an object keyed by language code).',
      ],
      [
        { entity_id: 'A', type: 'page', old_description: ['<p>Old</p>'] },
        'old_description',
        'The old_description field must be a string or a language map (an object keyed by language code).',
      ],
      [{ entity_id: '', type: 'page' }, 'entity_id', 'The entity_id field is required.'],
      [
        { entity_id: 'A', type: 'page', title: 'a\u0000b' },
        'title',
        'The title field must be valid text (no NUL characters or unpaired surrogates).',
      ],
      [
        { entity_id: 'A', type: 'page', old_description: { cs: '\ud800' } },
        'old_description.cs',
        'The old_description.cs field must be valid text (no NUL characters or unpaired surrogates).',
      ],
    ])('when the body is %j, then 422 names %s and nothing is stored', async (body, field, message) => {
      const shop = await service.shop();
      const res = await shop.post('/register-entity', body);
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('The given data was invalid.');
      expect(res.body.errors?.[field]).toBeDefined();
      if (message) expect(res.body.errors?.[field]).toContain(message);
      expect(await wlEntitiesRepository.count(service.deps.db, shop.id)).toBe(0);
    });

    test('when the body is not JSON, then 400 and nothing is stored', async () => {
      const shop = await service.shop();
      const res = await shop.post('/register-entity', '{"entity_id":');
      expect(res.status).toBe(400);
      expect(await wlEntitiesRepository.count(service.deps.db, shop.id)).toBe(0);
    });
  });

  describe('GET /entity', () => {
    test('when the eshop registered entities, then it lists its own only, in registration order, with the total', async () => {
      const shop = await service.shop();
      const other = await service.shop();
      await other.post('/register-entity', { entity_id: 'OTHER', type: 'product' });
      for (const [entity_id, type] of [
        ['A', 'product'],
        ['B', 'page'],
        ['C', 'product'],
      ]) {
        await shop.post('/register-entity', { entity_id, type });
      }
      const res = await shop.get('/entity');
      expect(res.status).toBe(200);
      expect(res.body.data.map((e: { entity_id: string }) => e.entity_id)).toEqual(['A', 'B', 'C']);
      expect(res.body.meta).toEqual({ total: 3, current_page: 1, per_page: 100 });
    });

    test('when type, page and per_page are given, then they filter and page the list and total counts the filter', async () => {
      const shop = await service.shop();
      for (const [entity_id, type] of [
        ['A', 'product'],
        ['B', 'page'],
        ['C', 'product'],
        ['D', 'product'],
      ]) {
        await shop.post('/register-entity', { entity_id, type });
      }
      const res = await shop.get('/entity?type=product&page=2&per_page=2');
      expect(res.body.data.map((e: { entity_id: string }) => e.entity_id)).toEqual(['D']);
      expect(res.body.meta).toEqual({ total: 3, current_page: 2, per_page: 2 });
    });

    test('when the query is invalid, then 422 names each parameter', async () => {
      const shop = await service.shop();
      const res = await shop.get('/entity?type=brand&per_page=101&page=0');
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors ?? {}).sort()).toEqual(['page', 'per_page', 'type']);
    });
  });

  describe('GET /entity/{entity_id}/type/{entity_type}/html', () => {
    test('when the entity has no content yet, then every eshop language is an empty string', async () => {
      const shop = await service.shop({ languages: ['default', 'cs', 'uk'] });
      await shop.post('/register-entity', { entity_id: 'H1', type: 'product' });
      const res = await shop.get('/entity/H1/type/product/html');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ html: { default: '', cs: '', uk: '' } });
    });

    test('when content is stored, then its rendered html is answered for every eshop language', async () => {
      const shop = await service.shop({ languages: ['default', 'en'] });
      await shop.post('/register-entity', { entity_id: 'H2', type: 'page' });
      await contentRepository.save(
        service.deps.db,
        { eshopId: shop.id, entityType: 'page', externalId: 'H2' },
        {
          origin: 'editor',
          tree: [],
          html: { default: '<p>Hello</p>' },
          marketplace: {},
          nested: [],
          site_link: { html: {}, list: {} },
          languages_complete: ['default'],
          rich_snippet: { html: {}, json: {} },
        },
      );
      const res = await shop.get('/entity/H2/type/page/html');
      expect(res.body).toEqual({ html: { default: '<p>Hello</p>', en: '' } });
    });

    test('when the entity is not registered, or is registered by another eshop, then 404', async () => {
      const shop = await service.shop();
      const other = await service.shop();
      await other.post('/register-entity', { entity_id: 'THEIRS', type: 'product' });
      expect((await shop.get('/entity/NOPE/type/product/html')).status).toBe(404);
      const res = await shop.get('/entity/THEIRS/type/product/html');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Entity product "THEIRS" is not registered', code: 'not_found' });
    });

    test('when the entity_id in the path holds a NUL character, then 422 instead of a database error', async () => {
      const shop = await service.shop();
      const res = await shop.get('/entity/a%00b/type/product/html');
      expect(res.status).toBe(422);
      expect(res.body.errors?.entity_id).toEqual(['The entity_id field is invalid.']);
      const fill = await shop.post('/entity/a%00b/type/product/design', { design_id: 1, widget: [{}] });
      expect(fill.status).toBe(422);
      expect(fill.body.errors?.entity_id).toEqual(['The entity_id field is invalid.']);
      for (const path of ['/content/a%00b/type/product', '/content/a%00b/type/product/generate'] as const) {
        const res = await shop.get(path);
        expect(res.status).toBe(422);
        expect(res.body.errors?.entity_id).toEqual(['The entity_id field is invalid.']);
      }
      const copy = await shop.post('/content/copy-widget', {
        source_entity_id: 'a\u0000b',
        target_entity_id: 'c',
        type: 'product',
      });
      expect(copy.status).toBe(422);
    });

    test('when the type is unknown, then 422', async () => {
      const shop = await service.shop();
      const res = await shop.get('/entity/A/type/brand/html');
      expect(res.status).toBe(422);
      expect(res.body.errors?.entity_type).toEqual(['The selected entity_type is invalid.']);
    });
  });

  describe('licence and origin', () => {
    test('when the licence is not valid, then every entity operation answers 403 and registers nothing', async () => {
      const shop = await service.shop(EXPIRED);
      const replies = [
        await shop.post('/register-entity', { entity_id: 'L', type: 'product' }),
        await shop.get('/entity'),
        await shop.get('/entity/L/type/product/html'),
      ];
      for (const res of replies) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(LICENCE_ERROR);
      }
      expect(await wlEntitiesRepository.count(service.deps.db, shop.id)).toBe(0);
    });

    test('when the Origin is not allowed, then 403 without CORS headers and nothing is registered', async () => {
      const shop = await service.shop();
      const res = await shop.post(
        '/register-entity',
        { entity_id: 'O', type: 'product' },
        { origin: 'https://evil.test' },
      );
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'Origin not allowed', code: 'origin_forbidden' });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect((await shop.get('/entity', { origin: null })).status).toBe(403);
      expect(await wlEntitiesRepository.count(service.deps.db, shop.id)).toBe(0);
    });

    test('when an allowed origin sends a preflight, then it gets CORS headers for that origin only', async () => {
      await service.shop();
      const preflight = (origin: string) =>
        fetch(`${service.url}${BASE}/register-entity`, {
          method: 'OPTIONS',
          headers: {
            Origin: origin,
            'Access-Control-Request-Method': 'POST',
            'Access-Control-Request-Headers': 'content-type,service-white-label-token',
          },
        });
      const allowed = await preflight(ORIGIN);
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(allowed.headers.get('access-control-allow-headers')).toContain('service-white-label-token');
      const refused = await preflight('https://evil.test');
      expect(refused.status).toBe(403);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    });

    test('when a real request comes from an allowed origin, then the answer carries its CORS header', async () => {
      const shop = await service.shop();
      const res = await shop.get('/entity');
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    });
  });

  test('when a registration is retried with the same Idempotency-Key, then the first 201 is replayed and the entity is stored once', async () => {
    const shop = await service.shop();
    const body = { entity_id: 'P-IDEM', type: 'product', title: 'Shoe' };
    const headers = { 'Idempotency-Key': `reg-${process.pid}-${Date.now()}` };

    const first = await shop.post('/register-entity', body, { headers });
    const storedFirst = await stored(shop.id, 'product', 'P-IDEM');
    const retry = await shop.post('/register-entity', body, { headers });

    expect(first.status).toBe(201);
    // Run again, the registration would answer 200 "Entity updated".
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await stored(shop.id, 'product', 'P-IDEM')).toEqual(storedFirst);
  });
});
