// Language safety of generation, end to end: the white-label API plans the job, the
// real generation worker (builtin provider) writes it, the credit-service settles it and the v1
// list serves the result. The rule (docs/decisions/0024-generation-across-languages.md, "Generation across languages"): a job
// writes its own language from that language's data only; replacing the widgets
// (`remove_exist_widget: true`) also writes again every other language that had text of its own,
// from the entity's texts in that language, and is refused when one of them has none — so no
// active language is left emptier or in another language's words.
import { contentRepository, creditsRepository, generationJobsRepository } from '@catalogue/db';
import { eventually, makeEshop } from '@catalogue/testing';

import { shopCallers, useFullStack } from './full-stack';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-gen-lang`;
const ORIGIN = 'https://admin.languages.test';

/** Each language's own source texts, written so that a leak shows: no sentence is shared. */
const TITLE = { default: 'Trail shoe', en: 'Trail runner shoe' };
const OLD = {
  default: '<p>Made for wet mountain paths. It weighs 280 g per shoe.</p>',
  en: '<p>Built for muddy forest trails. The sole grips on wet rock.</p>',
};
const CS = {
  name: 'Trailová bota',
  short_description: 'Lehká bota do terénu s přilnavou podrážkou. Rychle schne.',
  parameter: 'Hmotnost: 280 g\nDrop: 6 mm',
};
const DEFAULT_WORDS = ['Made for wet mountain paths', 'Trail shoe'];
const EN_WORDS = ['Built for muddy forest trails', 'Trail runner shoe'];
const CS_WORDS = ['Lehká bota do terénu', 'Trailová bota'];

describe('generation across languages: a job never empties another language nor borrows its words', () => {
  const { wl, catalogue } = useFullStack(PREFIX);

  async function shop(
    entity: { title: Record<string, string>; old_description: Record<string, string> },
    catalogueName: Record<string, string> = TITLE,
  ) {
    const made = await makeEshop(wl.deps.db, {
      origins: [ORIGIN],
      languages: ['default', 'cs', 'en'],
      credits: 500,
    });
    const { host, backOffice } = shopCallers({ wl: wl.url, catalogue: catalogue.url }, made, ORIGIN);

    expect(
      (await backOffice('POST', '/api/v2/rest/products', [{ id: 'P1', name: catalogueName }])).status,
    ).toBe(200);
    await eventually(async () => {
      expect((await backOffice('GET', '/api/v2/rest/products')).body.data).toHaveLength(1);
    }, 15_000);
    expect(
      (await host('POST', '/register-entity', { entity_id: 'P1', type: 'product', ...entity })).status,
    ).toBe(201);
    const designs = (await host('GET', '/design?type=product')).body.data;
    const design = designs.find((d) => d.category === 'product')!;
    return { eshopId: made.eshop.id, host, backOffice, designId: design.id as number };
  }

  /** Generates and waits for the job's end; the job as the API shows it. */
  async function generate(host: Awaited<ReturnType<typeof shop>>['host'], body: Record<string, unknown>) {
    const started = await host('POST', '/content/P1/type/product/generate', body);
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

  const html = async (eshopId: number) =>
    (await contentRepository.find(wl.deps.db, { eshopId, entityType: 'product', externalId: 'P1' }))!.html;

  test('when a cs job replaces widgets that default and en have text in, then default and en are written again from their own texts and cs holds only Czech', async () => {
    const { eshopId, host, backOffice, designId } = await shop({ title: TITLE, old_description: OLD });
    // default and en first, each from its own texts (a default job, then an en job appending).
    expect((await generate(host, { design_id: designId, lang: 'default' })).status).toBe('done');
    expect(
      (await generate(host, { design_id: designId, lang: 'en', remove_exist_widget: false })).status,
    ).toBe('done');
    const before = await html(eshopId);
    for (const words of DEFAULT_WORDS) expect(before.default).toContain(words);
    for (const words of EN_WORDS) expect(before.en).toContain(words);

    const job = await generate(host, { design_id: designId, lang: 'cs', remove_exist_widget: true, ...CS });

    expect(job).toMatchObject({ status: 'done', error_message: null });
    const after = await html(eshopId);
    for (const words of CS_WORDS) expect(after.cs).toContain(words);
    for (const words of [...DEFAULT_WORDS, ...EN_WORDS]) expect(after.cs).not.toContain(words);
    for (const words of DEFAULT_WORDS) expect(after.default).toContain(words);
    for (const words of EN_WORDS) expect(after.en).toContain(words);
    for (const words of [...CS_WORDS, ...DEFAULT_WORDS.slice(0, 1)]) expect(after.en).not.toContain(words);
    for (const words of [...CS_WORDS, ...EN_WORDS.slice(0, 1)]) expect(after.default).not.toContain(words);

    // Charged what was written: every language's widgets, within the reservation.
    const row = (await generationJobsRepository.find(wl.deps.db, eshopId, job.id))!;
    expect(row.chargedCost).toBeGreaterThan(job.widgets_created);
    expect(row.chargedCost).toBeLessThanOrEqual(row.estimatedCost);
    await eventually(async () => {
      expect((await creditsRepository.getAccount(wl.deps.db, eshopId)).reserved).toBe(0);
    }, 15_000);

    // The v1 list (default, cs, en) still serves content in each language.
    const listed = await backOffice('GET', '/api/v1/products/list');
    expect(listed.status).toBe(200);
    const p1 = listed.body.products[0]!;
    expect(p1.content.html.default).toContain(DEFAULT_WORDS[0]);
    expect(p1.content.html.en).toContain(EN_WORDS[0]);
    expect(p1.content.html.cs).toContain(CS_WORDS[0]);
  }, 90_000);

  test('when replacing would empty a language that has text but no source of its own, then the request is refused and nothing is reserved', async () => {
    // The catalogue item of the same id has no en name either: en has no words anywhere.
    const { eshopId, host, designId } = await shop(
      { title: { default: TITLE.default }, old_description: { default: OLD.default } },
      { default: TITLE.default },
    );
    // en gets text of its own from the host's fill; the entity has no en title or description.
    const structure = (await host('GET', `/design/${designId}/structure`)).body.widget;
    const section = structure.find((w) => w.fillable && w.type === 'section')!;
    const filled = await host('POST', '/entity/P1/type/product/design', {
      design_id: designId,
      widget: [
        {
          design_widget_id: section.design_widget_id,
          fields: { heading: { default: 'Trail shoe', en: 'Runner' } },
        },
      ],
    });
    expect(filled.status).toBe(200);
    const account = await creditsRepository.getAccount(wl.deps.db, eshopId);

    const refused = await host('POST', '/content/P1/type/product/generate', {
      design_id: designId,
      lang: 'cs',
      remove_exist_widget: true,
      ...CS,
    });

    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('replaced_language_missing');
    expect(refused.body.languages).toEqual(['en']);
    expect(refused.body.errors?.remove_exist_widget?.[0]).toMatch(/\bEnglish\b/);
    expect(await creditsRepository.getAccount(wl.deps.db, eshopId)).toEqual(account);
    expect((await html(eshopId)).en).toContain('Runner');
  }, 60_000);

  test('when a cs job has no Czech text at all, then it is refused before anything is reserved', async () => {
    const { eshopId, host, designId } = await shop({ title: TITLE, old_description: OLD });
    const account = await creditsRepository.getAccount(wl.deps.db, eshopId);

    const refused = await host('POST', '/content/P1/type/product/generate', {
      design_id: designId,
      lang: 'cs',
    });

    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('generation_material_missing');
    expect(refused.body.errors?.lang?.[0]).toMatch(/^There is nothing in Czech to write from/);
    expect(await creditsRepository.getAccount(wl.deps.db, eshopId)).toEqual(account);
  }, 60_000);

  test("when a cs job has no Czech name or description, then no other language's text is written into cs", async () => {
    const { eshopId, host, designId } = await shop({ title: TITLE, old_description: OLD });

    const job = await generate(host, { design_id: designId, lang: 'cs', parameter: CS.parameter });

    expect(job.status).toBe('done');
    const after = await html(eshopId);
    expect(after.cs).toContain('Hmotnost');
    for (const words of [...DEFAULT_WORDS, ...EN_WORDS]) expect(after.cs).not.toContain(words);
  }, 60_000);
});
