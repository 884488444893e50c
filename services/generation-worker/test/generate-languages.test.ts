// A replacing job across languages, at the worker (the request side and the whole flow are in
// tests/generate-languages.test.ts): other languages written from their own texts into the job
// language's widgets, charged per language written, and nothing replaced when a language would
// lose its text.
import type { ContentWidget } from '@catalogue/content';
import { runGeneration } from '../src/services/generate.service';
import {
  contentOf,
  createJob,
  deps,
  nextEntity,
  payload,
  reload,
  settlementsOf,
  shop,
  useGenerateDeps,
  widgetPrice,
} from './generate-fixtures';

useGenerateDeps('languages');

const valuesIn = (tree: ContentWidget[], lang: string): string =>
  tree.flatMap((w) => w.children.map((e) => e.value[lang] ?? '')).join(' ');

describe('runGeneration: a replacing job and the other languages', () => {
  /** An entity whose content has text in default (a default job's). */
  async function withDefaultContent(eshopId: number) {
    const entityId = nextEntity();
    const first = (await createJob({ eshopId, entityId, context: { name: 'Trail shoe' } })).job;
    await runGeneration(deps, payload(first));
    expect((await reload(first)).status).toBe('done');
    return { entityId, before: (await contentOf(first))! };
  }

  test('when a cs job replaces and default is to be written again, then each language gets its own words and each is charged', async () => {
    const eshopId = await shop();
    const { entityId } = await withDefaultContent(eshopId);
    const { job } = await createJob({
      eshopId,
      entityId,
      lang: 'cs',
      context: {
        name: 'Trailová bota',
        short_description: 'Lehká bota do terénu.',
        old_description: '',
        parameter: 'Hmotnost: 280 g',
        remove_exist_widget: true,
        other_languages: { default: { name: 'Trail shoe', old_description: '<p>Made for wet paths.</p>' } },
      },
    });

    const result = await runGeneration(deps, payload(job));

    expect(result.outcome).toBe('done');
    const tree = (await contentOf(job))!.tree as ContentWidget[];
    expect(valuesIn(tree, 'cs')).toContain('Trailová bota');
    expect(valuesIn(tree, 'cs')).toContain('Hmotnost');
    expect(valuesIn(tree, 'default')).toContain('Trail shoe');
    expect(valuesIn(tree, 'default')).toContain('Made for wet paths.');
    expect(valuesIn(tree, 'default')).not.toMatch(/Trailová|Lehká|Hmotnost/);
    // Every element has Czech text: the cs page never falls back to default words.
    for (const widget of tree)
      for (const element of widget.children)
        if (Object.keys(element.value).length > 0) expect(element.value.cs).toBeTruthy();
    // Charged per widget and language written: the widgets, plus those default had text for.
    const done = await reload(job);
    const withDefault = tree.filter((w) => w.children.some((e) => e.value.default)).length;
    expect(withDefault).toBeGreaterThan(0);
    expect(done.chargedCost).toBeGreaterThan(done.widgetsCreated * (await widgetPrice()));
    expect(done.chargedCost).toBe(
      Math.min(done.estimatedCost, (done.widgetsCreated + withDefault) * (await widgetPrice())),
    );
  });

  test('when another language has text of its own that the job was not planned to write, then nothing is replaced and the reservation is released', async () => {
    const eshopId = await shop();
    const { entityId, before } = await withDefaultContent(eshopId);
    const { job } = await createJob({
      eshopId,
      entityId,
      lang: 'cs',
      context: { name: 'Trailová bota', remove_exist_widget: true },
    });

    const result = await runGeneration(deps, payload(job));

    expect(result.outcome).toBe('failed');
    const failed = await reload(job);
    expect(failed.errorMessage).toMatch(/^The content changed while the job ran: default now has text/);
    expect((await contentOf(job))!.tree).toEqual(before.tree);
    expect(await settlementsOf(job.id)).toEqual([{ eshop_id: eshopId, job_id: job.id, actual_cost: 0 }]);
  });

  test("when another language has nothing to write into the job language's widgets, then the job fails and nothing is replaced", async () => {
    const eshopId = await shop();
    const { entityId, before } = await withDefaultContent(eshopId);
    // cs has parameters only (a benefits widget); default has a name only (a heading).
    const { job } = await createJob({
      eshopId,
      entityId,
      lang: 'cs',
      context: {
        name: '',
        short_description: '',
        old_description: '',
        parameter: 'Hmotnost: 280 g',
        remove_exist_widget: true,
        other_languages: { default: { name: 'Trail shoe' } },
      },
    });

    await runGeneration(deps, payload(job));

    const failed = await reload(job);
    expect(failed.status).toBe('failed');
    expect(failed.errorMessage).toMatch(/^Nothing could be generated in default/);
    expect((await contentOf(job))!.tree).toEqual(before.tree);
  });
});

describe('runGeneration: an appending job writes its own language only', () => {
  test('when a cs job appends to content written in en, then en keeps its texts and the new widgets have no en or default text', async () => {
    const eshopId = await shop();
    const entityId = nextEntity();
    const first = (await createJob({ eshopId, entityId, lang: 'en', context: { name: 'Trail shoe' } })).job;
    await runGeneration(deps, payload(first));
    const before = (await contentOf(first))!.tree as ContentWidget[];
    expect(valuesIn(before, 'en')).toContain('Trail shoe');

    const { job } = await createJob({
      eshopId,
      entityId,
      lang: 'cs',
      context: {
        name: 'Trailová bota',
        short_description: 'Lehká bota do terénu.',
        old_description: '',
        parameter: 'Hmotnost: 280 g',
      },
    });
    expect((await runGeneration(deps, payload(job))).outcome).toBe('done');

    const after = (await contentOf(job))!;
    const tree = after.tree as ContentWidget[];
    expect(tree.slice(0, before.length)).toEqual(before);
    const added = tree.slice(before.length);
    expect(added.length).toBeGreaterThan(0);
    for (const widget of added)
      for (const element of widget.children)
        expect(Object.keys(element.value).filter((l) => l !== 'cs')).toEqual([]);
    expect(after.html.cs).toContain('Trailová bota');
    for (const lang of ['en', 'default']) expect(after.html[lang]).not.toMatch(/Trailová|Lehká|Hmotnost/);
    expect(after.html.en).toContain('Trail shoe');
    // Neither language has all the texts: en lacks the new widgets, cs the old ones.
    expect(after.languages_complete).toEqual([]);
  });
});
