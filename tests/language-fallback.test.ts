// An item imported with `default` texts only, rendered for an eshop with cs and de pages under
// each fallback policy the eshop can choose, as the v2 list serves it and as it is stored. Its
// parameter (name and value) is language-neutral data: every page's own, never marked.
import { bearerCaller, makeEshop, serveServiceForTests } from '@catalogue/testing';
import { contentRepository, eshopsRepository, type EshopInput } from '@catalogue/db';
import { renderContent } from '@catalogue/content-store';
import { catalogueApi } from '../services/catalogue-api/src/service';

const VOID = new Set(['img', 'br', 'hr', 'source']);
/** The parameter's name and value: one string for every language (no multilingual support). */
const NEUTRAL = new Set(['Weight', '280 g']);
const prose = (texts: Array<{ text: string; lang: string | null }>) =>
  texts.filter((t) => !NEUTRAL.has(t.text));

/**
 * Every text of an HTML fragment with the language its nearest element declares (null: the
 * page's own). The renderer's output is balanced and escaped, so a tag scanner is enough.
 */
function textLanguages(html: string): Array<{ text: string; lang: string | null }> {
  const found: Array<{ text: string; lang: string | null }> = [];
  const stack: Array<string | null> = [];
  for (const [, close, tag, attrs, text] of html.matchAll(/<(\/?)([a-z0-9]+)([^>]*)>|([^<]+)/g)) {
    if (text !== undefined) {
      if (text.trim() !== '')
        found.push({ text: text.trim(), lang: stack.findLast((l) => l !== null) ?? null });
    } else if (close) stack.pop();
    else if (!VOID.has(tag!) && !attrs!.endsWith('/'))
      stack.push(/\slang="([^"]+)"/.exec(attrs!)?.[1] ?? null);
  }
  return found;
}

describe('storefront pages in a language without its own texts', () => {
  const api = serveServiceForTests(catalogueApi);

  async function renderedShop(settings: Partial<EshopInput>) {
    const created = await makeEshop(api.deps.db, {
      languages: ['default', 'cs', 'de'],
      enableSiteLink: true,
    });
    await eshopsRepository.update(api.deps.db, created.eshop.id, settings);
    const call = bearerCaller(api.url, created.apiToken);
    const imported = await call('POST', '/api/v2/rest/multi-import', {
      parameters: [{ id: 7, name: 'Weight', values: [{ id: 1, value: '280 g' }] }],
      brands: [{ id: 'B1', name: { default: 'Peak' } }],
      products: [
        {
          id: 'P1',
          name: { default: 'Trail shoe' },
          description: { default: '<p>Light and <strong>grippy</strong>.</p>' },
          images: ['https://shop.test/p1.jpg'],
          brand_id: 'B1',
          parameters_ids: [7],
        },
      ],
    });
    expect(imported.body.success).toBe(true);
    // The render job itself, run here rather than by a worker.
    await renderContent(api.deps.db, {
      eshop_id: created.eshop.id,
      entity_type: 'product',
      external_id: 'P1',
    });
    const stored = await contentRepository.find(api.deps.db, {
      eshopId: created.eshop.id,
      entityType: 'product',
      externalId: 'P1',
    });
    const listed = await call(
      'GET',
      '/api/v2/rest/products?lang=all&include=marketplace,site_link,languages_complete',
    );
    expect(listed.status).toBe(200);
    return { stored: stored!, item: listed.body.data[0]! };
  }

  test('when the policy is fallback, then every text of the cs and de pages is marked with the default language', async () => {
    const { stored, item } = await renderedShop({ defaultLanguage: 'en' });

    for (const lang of ['cs', 'de']) {
      const texts = textLanguages(item.content.html[lang]!);
      expect(texts.map((t) => t.text)).toEqual(
        expect.arrayContaining(['Trail shoe', 'grippy', 'Weight', '280 g']),
      );
      expect(prose(texts).filter((t) => t.lang !== 'en')).toEqual([]);
      expect(texts.filter((t) => NEUTRAL.has(t.text))).toEqual([
        { text: 'Weight', lang: null },
        { text: '280 g', lang: null },
      ]);
      expect(stored.html[lang]).toBe(item.content.html[lang]);
    }
    // The default page is the default language's own: nothing is marked.
    expect(item.content.html.default).toContain('Trail shoe');
    expect(item.content.html.default).not.toContain('lang=');
    expect(item.content.languages_complete).toEqual(['default']);
    expect(stored.languages_complete).toEqual(['default']);
  });

  test('when the eshop has not said which language default is, then the marker is und', async () => {
    const { item } = await renderedShop({});
    const texts = textLanguages(item.content.html.cs!);
    expect(texts.length).toBeGreaterThan(0);
    expect(prose(texts).filter((t) => t.lang !== 'und')).toEqual([]);
    expect(item.content.html.cs).not.toMatch(/<t[hd][^>]*\slang=/);
  });

  test('when the default texts are declared to be cs, then the cs page shows them as its own and cs is complete', async () => {
    const { item } = await renderedShop({ defaultLanguage: 'cs' });
    expect(item.content.html.cs).toContain('Trail shoe');
    expect(item.content.html.cs).not.toContain('lang=');
    expect(prose(textLanguages(item.content.html.de!)).filter((t) => t.lang !== 'cs')).toEqual([]);
    expect(item.content.languages_complete).toEqual(['default', 'cs']);
  });

  test('when the policy is omit, then the untranslated widgets are left out of the cs and de pages only, the parameters table stays', async () => {
    const { stored, item } = await renderedShop({ contentFallback: 'omit', defaultLanguage: 'en' });

    for (const lang of ['cs', 'de']) {
      expect(textLanguages(item.content.html[lang]!)).toEqual([
        { text: 'Weight', lang: null },
        { text: '280 g', lang: null },
      ]);
      // The gallery stays: its image, whose alt text is the default name, is marked.
      expect(item.content.html[lang]).toContain('src="https://shop.test/p1.jpg"');
      expect(item.content.html[lang]).not.toMatch(/<(?!img)[a-z0-9]+[^>]* lang=/);
      expect(item.content.marketplace?.[lang]).toBe(
        '<table><tbody><tr><th>Weight</th><td>280 g</td></tr></tbody></table>',
      );
      expect(item.site_link?.list[lang]).toEqual([]);
      expect(stored.html[lang]).toBe(item.content.html[lang]);
    }
    expect(item.content.html.default).toContain('Trail shoe');
    expect(item.content.html.default).toContain('280 g');
    expect(item.content.languages_complete).toEqual(['default']);
  });
});
