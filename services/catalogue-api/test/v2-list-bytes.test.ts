import { CATALOGUE_API_LANGUAGES, type CatalogueEntityType } from '@catalogue/config';
import {
  catalogueRepository,
  contentListJson,
  contentRepository,
  decodeFragments,
  entityListJson,
  entityPiecesSql,
  contentPiecesSql,
  wantedSlots,
  type ListOptions,
  type PiecesWanted,
  type StoredContent,
} from '@catalogue/db';
import { PATH, TABLE, item, v2ListService } from './v2-list-fixtures';

/**
 * v2 list items put together from their stored pieces (`list_json`, docs/decisions/0070-pre-serialised-list-items.md,
 * "Pre-serialised list items") against the same items read from their JSONB columns: the same
 * bytes, and never a stale piece.
 */
describe('catalogue-api: v2 lists from pre-serialised pieces', () => {
  const { svc, importItems, publish } = v2ListService();

  /** Texts that JSON escapes, or that a careless concatenation would break. */
  const TRICKY = [
    'plain',
    'quote " backslash \\ slash / tab \t newline \n return \r',
    'controls \u0001\u0008\u000c\u001f and del \u007f',
    'unicode: Židle žluťoučká 椅子 🪑 \u2028\u2029 </script><script>',
    '',
    '{"looks":"like json"}',
    'separator-like \\u0001',
  ];

  async function bodyOf(token: string, path: string): Promise<string> {
    const res = await fetch(`${svc.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return res.text();
  }

  /** What the render worker stores for an item (the repository write it uses). */
  async function render(
    eshopId: number,
    type: CatalogueEntityType,
    externalId: string,
    content: Partial<StoredContent>,
  ) {
    await svc.deps.db.transaction((trx) =>
      contentRepository.save(
        trx,
        { eshopId, entityType: type, externalId },
        {
          origin: 'composed',
          tree: [],
          html: {},
          marketplace: {},
          nested: [],
          site_link: { html: {}, list: {} },
          rich_snippet: { html: {}, json: {} },
          languages_complete: null,
          ...content,
        },
      ),
    );
  }

  function contentOf(n: number, langs: readonly string[]): Partial<StoredContent> {
    const text = (lang: string) => `${TRICKY[n % TRICKY.length]!} ${lang} ${n}`;
    const map = (suffix: string, skip?: string) =>
      Object.fromEntries(langs.filter((l) => l !== skip).map((l) => [l, `<p>${text(l)}${suffix}</p>`]));
    return {
      html: map(''),
      marketplace: map(' market', langs[1]),
      // Keys in an order JSONB does not keep (it puts shorter keys first).
      nested: [
        [
          {
            children: [{ children: [], tag: 'b', class: 'cc-b"', id: n + 1 }],
            tag: 'p',
            class: 'cc-text',
            id: n,
          },
        ],
      ],
      site_link: {
        html: map(' links'),
        list: Object.fromEntries(langs.map((l) => [l, [{ slug: `s-${l}`, heading: text(l) }]])),
      },
      rich_snippet: {
        html: map(' ld'),
        json: Object.fromEntries(
          langs
            .filter((l) => l !== langs[0])
            .map((l) => [
              l,
              // Keys JSONB reorders: by length, then by UTF-8 bytes (ž is 2 bytes, zz too).
              {
                name: text(l),
                '@type': 'Product',
                offers: { price: n, list: [1.5, -0, 1e21, null] },
                ž: 1,
                zz: 2,
                zy: 3,
              },
            ]),
        ),
      },
      languages_complete: n % 3 === 0 ? null : langs.filter((_, i) => i % 2 === 0),
    };
  }

  function writeItem(
    type: CatalogueEntityType,
    n: number,
    langs: readonly string[],
  ): Record<string, unknown> {
    const text = (lang: string) => `${TRICKY[(n + 3) % TRICKY.length]!} ${lang}`;
    // Not every language of every field: an item lists the languages it has.
    const map = (field: string) =>
      Object.fromEntries(langs.filter((_, i) => (i + n) % 3 !== 2).map((l) => [l, `${field} ${text(l)}`]));
    return item(type, `${type}-${n}-${TRICKY[n % TRICKY.length]!.slice(0, 5)}`, {
      name: { default: `name ${text('default')}`, ...map('name') },
      description: map('description'),
      url: map('url'),
      seo_title: map('seo'),
      ...(n % 2 === 0 && { seo_description: map('seo description') }),
      ...(type === 'product' && {
        short_description: map('short'),
        images: n % 4 === 0 ? [] : [`https://example.com/${n}.png?q=%22x%22`],
        variant:
          n % 3 === 0
            ? []
            : [{ code: `V-${n}-ž ${TRICKY[(n + 1) % TRICKY.length]!}`, ean: n % 2 ? '8590000000001' : null }],
      }),
      ...(type === 'brand' && n % 2 === 0 && { image_preview: `https://example.com/brand-${n}.png` }),
      ...(type === 'blog' && n % 2 === 0 && { category: `Novinky ${text('cs')}` }),
    });
  }

  /** Every type listed under several languages and includes: from pieces, then from the columns. */
  test('when items have stored pieces, then the list has exactly the bytes of the same items served from their columns', async () => {
    // Arrange
    const langs = ['default', 'cs', 'en', 'de'] as const;
    const { eshop, api, apiToken } = await svc.eshop({
      languages: [...langs],
      enableSiteLink: true,
      enableRichSnippet: true,
    });
    const types: CatalogueEntityType[] = ['brand', 'category', 'product', 'blog'];
    for (const type of types) {
      const items = Array.from({ length: 9 }, (_, n) => writeItem(type, n, langs));
      await importItems(api, type, items);
      const ids = items.map((i) => i.id as string);
      await publish(eshop.id, type, ids);
      // The last item has no content row at all.
      for (let n = 0; n < 8; n++) await render(eshop.id, type, ids[n]!, contentOf(n, langs));
    }
    const queries = [
      '?per_page=100&lang=all&include=nested,marketplace,variant',
      '?per_page=100&lang=all&include=nested,marketplace,site_link,rich_snippet,variant,languages_complete',
      '?per_page=100',
      '?per_page=100&lang=cs,de&include=languages_complete',
      '?per_page=100&lang=cs,de',
      '?per_page=100&lang=de,default&include=marketplace,rich_snippet',
      '?per_page=4&page=2&lang=en&include=site_link,nested',
    ];
    const allowed = (type: CatalogueEntityType, query: string) =>
      query.replace(/include=([^&]*)/, (_m, list: string) => {
        const ok: Record<CatalogueEntityType, string[]> = {
          product: ['nested', 'marketplace', 'site_link', 'rich_snippet', 'variant', 'languages_complete'],
          category: ['nested', 'marketplace', 'rich_snippet', 'languages_complete'],
          brand: ['nested', 'marketplace', 'site_link', 'rich_snippet', 'languages_complete'],
          blog: ['nested', 'marketplace', 'site_link', 'rich_snippet', 'languages_complete'],
        };
        return `include=${list
          .split(',')
          .filter((i) => ok[type].includes(i))
          .join(',')}`;
      });
    const paths = types.flatMap((type) =>
      queries.map((q) => `/api/v2/rest/${PATH[type]}${allowed(type, q)}`),
    );
    for (const type of types) {
      const stored = await svc.deps.db(TABLE[type]).where({ eshop_id: eshop.id }).whereNull('list_json');
      expect(stored).toEqual([]);
    }
    expect(
      await svc.deps.db('content').where({ eshop_id: eshop.id }).whereNull('list_json').count('* as n'),
    ).toEqual([{ n: 0 }]);
    // The contract holds for the pieces' answer.
    for (const path of paths.slice(0, 7)) expect((await api.get(path)).status).toBe(200);

    // Act
    const fromPieces = new Map<string, string>();
    for (const path of paths) fromPieces.set(path, await bodyOf(apiToken, path));
    for (const type of types)
      await svc.deps.db(TABLE[type]).where({ eshop_id: eshop.id }).update({ list_json: null });
    await svc.deps.db('content').where({ eshop_id: eshop.id }).update({ list_json: null });
    const fromColumns = new Map<string, string>();
    for (const path of paths) fromColumns.set(path, await bodyOf(apiToken, path));

    // Assert
    for (const path of paths) {
      expect({ path, body: fromPieces.get(path) }).toEqual({ path, body: fromColumns.get(path) });
    }
    const sample = JSON.parse(fromPieces.get(paths[15]!)!) as { data: { content: { nested: unknown } }[] };
    expect(sample.data.length).toBe(9);
  });

  test('when a request leaves out outputs and languages, then the pieces it reads hold none of theirs', async () => {
    // Arrange
    const langs = ['default', 'cs', 'en'] as const;
    const { eshop, api } = await svc.eshop({
      languages: [...langs],
      enableSiteLink: true,
      enableRichSnippet: true,
    });
    const items = [0, 1].map((n) => writeItem('product', n, langs));
    await importItems(api, 'product', items);
    const ids = items.map((i) => i.id as string);
    await publish(eshop.id, 'product', ids);
    for (let n = 0; n < 2; n++) await render(eshop.id, 'product', ids[n]!, contentOf(n, langs));
    const read = (outputs: ListOptions['outputs'], languages: string[]) =>
      catalogueRepository.listPieces(svc.deps.db, 'product', eshop.id, {
        page: 1,
        perPage: 10,
        outputs,
        listJson: true,
        languages,
      });

    // Act
    const narrow = (await read({ nested: true }, ['cs']))!.rows;
    const all = { marketplace: true, nested: true, siteLink: true, richSnippet: true };
    const wide = (await read(all, [...langs]))!.rows;

    // Assert
    expect(narrow).toHaveLength(2);
    for (const row of narrow) {
      const content = row.content!.toString();
      expect(content).toMatch(/ cs \d<\/p>/);
      expect(content).not.toMatch(/ (default|en) \d/);
      expect(content).not.toMatch(/ market| links| ld|"slug"|@type/);
      expect(row.entity.toString()).not.toMatch(/ (default|en)"/);
    }
    const wideContent = wide.map((row) => row.content!.toString()).join('');
    expect(wideContent).toMatch(/ market/);
    expect(wideContent).toMatch(/ links/);
    expect(wideContent).toMatch(/@type/);
    expect(wideContent).toMatch(/ en 1/);
    expect(narrow.reduce((n, row) => n + row.content!.length, 0)).toBeLessThan(wideContent.length / 4);
  });

  test('when a request sends every piece its rows can hold, then the stored text is read as it is, and the SEO column only when it is sent', () => {
    type Outputs = PiecesWanted['outputs'];
    const all: Outputs = { marketplace: true, nested: true, siteLink: true, richSnippet: true };
    const wanted = (
      languages: readonly string[],
      outputs: Outputs,
      stored?: readonly string[],
    ): PiecesWanted => ({
      languages,
      outputs,
      ...(stored && { stored }),
    });
    const every = CATALOGUE_API_LANGUAGES;
    const slotsOf = (text: string) => decodeFragments(text).map((_piece, slot) => slot);
    const content = contentListJson({});
    const noSeo = { marketplace: true, nested: true };

    // Every language the lists show: every slot of the column.
    expect(wantedSlots('entity', wanted(every, {}))).toEqual(slotsOf(entityListJson('product', {})));
    expect(entityPiecesSql('x', wanted(every, {}))).toBe('x.list_json');
    expect(wantedSlots('content', wanted(every, { ...noSeo, languagesComplete: true }))).toEqual(
      slotsOf(content.listJson),
    );
    expect(contentPiecesSql('x', wanted(every, noSeo))).toBe('x.list_json');
    expect(wantedSlots('content', wanted(every, { ...all, languagesComplete: true }))).toEqual(
      slotsOf(`${content.listJson}\u0001${content.listJsonSeo}`),
    );
    expect(contentPiecesSql('x', wanted(every, all))).toMatch(
      /^\(x\.list_json \|\| chr\(1\) \|\| coalesce\(x\.list_json_seo, /,
    );

    // The eshop's languages, every one of them: as it is (the other languages' slots are empty).
    const shop = ['default', 'cs'];
    expect(entityPiecesSql('x', wanted(shop, {}, shop))).toBe('x.list_json');
    expect(contentPiecesSql('x', wanted(shop, noSeo, shop))).toBe('x.list_json');

    // Narrower: split, and list_json_seo never named without an SEO output.
    const split = /^case when .* string_to_array\(/;
    expect(entityPiecesSql('x', wanted(['cs'], {}, shop))).toMatch(split);
    expect(contentPiecesSql('x', wanted(['cs'], noSeo, shop))).toMatch(split);
    expect(contentPiecesSql('x', wanted(shop, { nested: true }, shop))).toMatch(split);
    expect(contentPiecesSql('x', wanted(shop, { marketplace: true }, shop))).toMatch(split);
    expect(contentPiecesSql('x', wanted(every, { nested: true }))).not.toMatch(/list_json_seo/);
    expect(contentPiecesSql('x', wanted(every, { ...noSeo, richSnippet: true }))).toMatch(
      /string_to_array\(\(x\.list_json \|\|/,
    );
  });

  test('when only some rows of a page have pieces of this layout, then pieces and columns mix on the page with the bytes of either alone', async () => {
    // Arrange
    const langs = ['default', 'cs'] as const;
    const { eshop, api, apiToken } = await svc.eshop({ languages: [...langs] });
    const items = Array.from({ length: 6 }, (_, n) => writeItem('product', n, langs));
    await importItems(api, 'product', items);
    const ids = items.map((i) => i.id as string);
    await publish(eshop.id, 'product', ids);
    for (let n = 0; n < 6; n++) await render(eshop.id, 'product', ids[n]!, contentOf(n, langs));
    const path = '/api/v2/rest/products?lang=all&include=nested,marketplace,variant';
    const whole = await bodyOf(apiToken, path);

    // Act: one entity row and one content row lose their pieces
    await svc.deps
      .db('products')
      .where({ eshop_id: eshop.id, external_id: ids[1] })
      .update({ list_json: null });
    await svc.deps
      .db('content')
      .where({ eshop_id: eshop.id, external_id: ids[4] })
      .update({ list_json: null });
    // Pieces of another layout (as if written before a field or a language was added; here they
    // also say something else) are not read
    await svc.deps
      .db('products')
      .where({ eshop_id: eshop.id, external_id: ids[2] })
      .update({
        list_json: svc.deps.db.raw(`replace(replace(list_json, 'entity/', 'entity/0'), 'name', 'NAME')`),
      });
    const mixed = await bodyOf(apiToken, path);

    // Assert
    expect(mixed).toBe(whole);
  });

  test('when an import, a render or a writer that knows nothing of the pieces changes an item, then the next list shows the change', async () => {
    // Arrange
    const { eshop, api } = await svc.eshop({ languages: ['default', 'cs'] });
    await importItems(api, 'product', [item('product', 'P1', { name: { default: 'Chair', cs: 'Židle' } })]);
    await publish(eshop.id, 'product', ['P1']);
    await render(eshop.id, 'product', 'P1', { html: { default: '<p>first</p>' } });
    const list = async () => (await api.get('/api/v2/rest/products?lang=all')).body.data[0]!;
    const pieces = async () =>
      (await svc.deps.db('products').where({ eshop_id: eshop.id, external_id: 'P1' }).first())!.list_json;
    expect((await list()).name).toEqual({ default: 'Chair', cs: 'Židle' });

    // Act + Assert: an import of a change writes new pieces with the fields
    await importItems(api, 'product', [{ id: 'P1', name: { cs: 'Křeslo' }, is_visible: false }]);
    await publish(eshop.id, 'product', ['P1']);
    expect(await list()).toMatchObject({ name: { default: 'Chair', cs: 'Křeslo' }, is_visible: false });
    expect(await pieces()).toContain('Křeslo');

    // A render writes new pieces with the outputs
    await render(eshop.id, 'product', 'P1', { html: { default: '<p>second</p>', cs: '<p>druhý</p>' } });
    expect((await list()).content.html).toEqual({ default: '<p>second</p>', cs: '<p>druhý</p>' });

    // A writer that changes the columns without the pieces: the guard drops them, the columns serve
    await svc.deps
      .db('products')
      .where({ eshop_id: eshop.id, external_id: 'P1' })
      .update({ name: JSON.stringify({ default: 'Stool' }) });
    expect(await pieces()).toBeNull();
    expect((await list()).name).toEqual({ default: 'Stool' });
    await svc.deps
      .db('content')
      .where({ eshop_id: eshop.id, external_id: 'P1' })
      .update({ html: JSON.stringify({ default: '<p>third</p>' }) });
    expect((await list()).content.html).toEqual({ default: '<p>third</p>', cs: '' });

    // A writer that changes nothing the pieces hold keeps them
    await importItems(api, 'product', [{ id: 'P1', name: { default: 'Chair' } }]);
    await svc.deps
      .db('products')
      .where({ eshop_id: eshop.id, external_id: 'P1' })
      .update({ is_loaded: false });
    expect(await pieces()).toContain('Chair');
  });
});
