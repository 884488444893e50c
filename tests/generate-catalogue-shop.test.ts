// Generation for a shop whose catalogue is sent in `en` and `cs` only (no `default` texts), end
// to end: the white-label API checks and plans the job, the real generation worker (builtin
// provider) writes it, the credit-service settles it. A replace in `cs` works, its pre-check
// (`POST …/generate/check`) refuses before anything is asked or written when a language would
// lose its text, naming the language and the fix; an appending job never writes again what the
// page already shows, and is not charged for it; benefits are sentences; the catalogue's image
// fills every image widget.
import { adminService, authChangePublisher, type AuthChangePublisher } from '@catalogue/admin';
import type { ContentWidget } from '@catalogue/content';
import { contentRepository, creditsRepository, generationJobsRepository } from '@catalogue/db';
import { eventually, makeEshop, testConfig } from '@catalogue/testing';
import { shopCallers, useFullStack } from './full-stack';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-gen-catalogue-shop`;
const ORIGIN = 'https://admin.catalogue-shop.test';
/** Seeded price of a widget written in one language. */
const WIDGET_PRICE = 2;
const IMAGE = 'https://cdn.shop.test/summit.jpg';

const JACKET = {
  id: 'J3',
  name: { en: 'Summit down jacket', cs: 'Péřová bunda Summit' },
  description: { en: '<p>800-fill goose down, 320 g.</p>', cs: '<p>Husí peří 800 cuin, 320 g.</p>' },
  images: [IMAGE],
  parameters_ids: [1],
};

describe('generation in a shop that writes no default texts', () => {
  const { wl, catalogue } = useFullStack(PREFIX);
  // The operator's `eshop set` path: the APIs' auth caches learn of the change.
  let changes: AuthChangePublisher;
  beforeAll(() => {
    changes = authChangePublisher(testConfig({ QUEUE_PREFIX: PREFIX }), (text) => {
      throw new Error(text);
    });
  });
  afterAll(() => changes.close());

  async function shop() {
    const made = await makeEshop(wl.deps.db, {
      origins: [ORIGIN],
      languages: ['default', 'cs', 'en'],
      credits: 500,
    });
    const { host, backOffice } = shopCallers({ wl: wl.url, catalogue: catalogue.url }, made, ORIGIN);
    const eshopId = made.eshop.id;
    const key = { eshopId, entityType: 'product' as const, externalId: JACKET.id };

    expect(
      (
        await backOffice('POST', '/api/v2/rest/parameters', [
          { id: 1, name: 'Colour', values: [{ id: 11, value: 'Green' }] },
        ])
      ).status,
    ).toBe(200);
    expect((await backOffice('POST', '/api/v2/rest/products', [JACKET])).status).toBe(200);
    // The import's rendering composes the page: a section, the parameters table, the gallery.
    await eventually(async () => {
      expect(await contentRepository.find(wl.deps.db, key)).toBeDefined();
    }, 15_000);
    // What the editor registers: the title in the language it shows.
    expect(
      (
        await host('POST', '/register-entity', {
          entity_id: JACKET.id,
          type: 'product',
          title: { en: JACKET.name.en },
        })
      ).status,
    ).toBe(201);
    const designs = (await host('GET', '/design?type=product')).body.data;
    const classic = designs.find((d) => d.name === 'Classic product')!.id as number;
    return {
      eshopId,
      host,
      classic,
      content: async () => (await contentRepository.find(wl.deps.db, key))!,
      account: () => creditsRepository.getAccount(wl.deps.db, eshopId),
      jobs: () => wl.deps.db('generation_jobs').where({ eshop_id: eshopId }).select('id'),
    };
  }

  async function generate(host: Awaited<ReturnType<typeof shop>>['host'], body: Record<string, unknown>) {
    const started = await host('POST', `/content/${JACKET.id}/type/product/generate`, body);
    expect(started.status).toBe(200);
    const read = async () => (await host('GET', `/generate/${started.body.data.id}`)).body.data;
    let job: Awaited<ReturnType<typeof read>> | undefined;
    await eventually(async () => {
      job = await read();
      expect(['done', 'failed']).toContain(job.status);
    }, 20_000);
    if (!job) throw new Error('the job was never read');
    return job;
  }

  const imagesOf = (tree: ContentWidget[], type: string): string[] =>
    tree
      .filter((w) => w.children.some((e) => e.parent_id === 0 && e.class.includes(`ccs-widget--${type}`)))
      .flatMap((w) =>
        w.children.map((e) => (e.extension as { src?: string }).src).filter((s) => s !== undefined),
      );

  test('when the shop replaces its content in cs, then the pre-check accepts it and cs and en are written again from their own texts, the parameters table kept from the data', async () => {
    const { eshopId, host, classic, content } = await shop();
    const body = { design_id: classic, lang: 'cs', remove_exist_widget: true };

    const check = await host('POST', `/content/${JACKET.id}/type/product/generate/check`, body);

    expect(check.status).toBe(200);
    expect(check.body.data).toMatchObject({ lang: 'cs', languages: ['cs', 'en'] });
    const job = await generate(host, body);
    expect(job).toMatchObject({ status: 'done', error_message: null });
    const after = await content();
    expect(after.html.cs).toContain('Péřová bunda Summit');
    expect(after.html.cs).toContain('Husí peří 800 cuin');
    expect(after.html.cs).not.toContain('goose down');
    expect(after.html.en).toContain('800-fill goose down');
    expect(after.html.en).not.toContain('Husí');
    // The catalogue's parameter (sent without a language) is composed again: every page shows it.
    for (const lang of ['default', 'cs', 'en']) expect(after.html[lang]).toMatch(/Colour[\s\S]*Green/);
    // The one catalogue image fills the image and text widget and the gallery.
    const tree = after.tree as ContentWidget[];
    expect(imagesOf(tree, 'gallery')).toEqual([IMAGE]);
    expect(imagesOf(tree, 'image_text')).toEqual([IMAGE]);
    const row = (await generationJobsRepository.find(wl.deps.db, eshopId, job.id))!;
    expect(row.chargedCost).toBeLessThanOrEqual(row.estimatedCost);
  }, 60_000);

  test('when a replace would remove a language that has nothing to write it again from, then the pre-check refuses before anything is written, naming the language and the fix', async () => {
    const { eshopId, host, classic, account, jobs, content } = await shop();
    // The owner wrote a heading in the shop's main language (a fill without ?lang= is `default`).
    const structure = (await host('GET', `/design/${classic}/structure`)).body.widget;
    const section = structure.find((w) => w.fillable && w.type === 'section')!;
    const filled = await host('POST', `/entity/${JACKET.id}/type/product/design`, {
      design_id: classic,
      widget: [{ design_widget_id: section.design_widget_id, fields: { heading: 'Warm for the summit' } }],
    });
    expect(filled.status).toBe(200);
    const before = await account();
    const body = { design_id: classic, lang: 'cs', remove_exist_widget: true };

    const check = await host('POST', `/content/${JACKET.id}/type/product/generate/check`, body);

    expect(check.status).toBe(422);
    expect(check.body).toMatchObject({ code: 'replaced_language_missing', languages: ['default'] });
    expect(check.body.error).toBe(
      "Replacing the content would remove its text in the shop's main language, and there is nothing in the shop's main language to write it again from: add a name or description in the shop's main language to the product, or have the shop's main language set (the eshop's default_language setting) to a language the texts are in, or add the new text to the existing content instead of replacing it.",
    );
    expect(await jobs()).toEqual([]);
    expect(await account()).toEqual(before);
    // The start answers the same refusal.
    const start = await host('POST', `/content/${JACKET.id}/type/product/generate`, body);
    expect(start.status).toBe(422);
    expect(start.body).toEqual(check.body);

    // The eshop setting fixes it: the main language's texts are English.
    await adminService(wl.deps.db, { authChanged: changes.authChanged }).updateEshop(eshopId, {
      defaultLanguage: 'en',
    });
    await eventually(async () => {
      const fixed = await host('POST', `/content/${JACKET.id}/type/product/generate/check`, body);
      expect(fixed.status).toBe(200);
      expect(fixed.body.data.languages).toEqual(['cs', 'en', 'default']);
    }, 5_000);
    expect(await jobs()).toEqual([]);
    // And the replace runs: the main language is written again from the English texts.
    const job = await generate(host, body);
    expect(job).toMatchObject({ status: 'done', error_message: null });
    const after = await content();
    expect(after.html.default).toContain('800-fill goose down');
    expect(after.html.default).not.toContain('Warm for the summit');
    expect(after.html.cs).toContain('Husí peří 800 cuin');
  }, 60_000);

  test('when a job language has no words at all, then the pre-check names it and says what to add', async () => {
    const { host, classic } = await shop();

    const check = await host('POST', `/content/${JACKET.id}/type/product/generate/check`, {
      design_id: classic,
      lang: 'default',
    });

    expect(check.status).toBe(422);
    expect(check.body).toMatchObject({ code: 'generation_material_missing', languages: ['default'] });
    expect(check.body.error).toMatch(
      /^There is nothing in the shop's main language to write from: add a name or description in the shop's main language to the product, or have the shop's main language set \(the eshop's default_language setting\)/,
    );
  }, 60_000);

  test('when an appending job would repeat what the page shows, then those widgets are left out, reported and not charged; the benefits are sentences', async () => {
    const { eshopId, host, classic, content } = await shop();
    const before = (await content()).tree as ContentWidget[];

    const job = await generate(host, { design_id: classic, lang: 'en', remove_exist_widget: false });

    expect(job.status).toBe('done');
    // The page shows the heading, the description and the image already.
    expect(job.widgets_skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'section', reason: 'already_shown' }),
        expect.objectContaining({ type: 'gallery', reason: 'already_shown' }),
      ]),
    );
    expect(job.widgets_created).toBe(1);
    const after = await content();
    expect((after.html.en?.match(/800-fill goose down/g) ?? []).length).toBe(1);
    const added = (after.tree as ContentWidget[]).slice(before.length);
    expect(added).toHaveLength(1);
    const texts = added[0]!.children.map((e) => (e.value as Record<string, string>).en).filter(Boolean);
    // A benefit is a sentence stating the fact, not the parameter's name over its value.
    expect(texts).toEqual(['Colour', 'The colour is Green.']);
    const row = (await generationJobsRepository.find(wl.deps.db, eshopId, job.id))!;
    expect(row.chargedCost).toBe(WIDGET_PRICE);
  }, 60_000);

  test('when everything an appending job would write is on the page already, then nothing is written or charged and the job says why', async () => {
    const { eshopId, host, classic, content } = await shop();
    expect((await generate(host, { design_id: classic, lang: 'en' })).status).toBe('done');
    const before = await content();

    const job = await generate(host, { design_id: classic, lang: 'en' });

    expect(job).toMatchObject({ status: 'done', widgets_created: 0 });
    expect(job.widgets_skipped?.filter((s) => s.reason === 'already_shown').length).toBeGreaterThan(0);
    expect((await content()).tree).toEqual(before.tree);
    expect((await generationJobsRepository.find(wl.deps.db, eshopId, job.id))!.chargedCost).toBe(0);
  }, 60_000);
});
