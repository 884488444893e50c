// A bulk generation's builtin lane runs its jobs in chunks (runClaimedGenerations): generated one
// after another, stored together. Each job must end as it would alone: written and charged once,
// appended where it appends, left alone when another delivery ended it, and jobs of another
// entity type stored in a transaction of their own.
import type { ContentWidget } from '@catalogue/content';
import { runClaimedGenerations, runGeneration } from '../src/services/generate.service';
import {
  contentOf,
  createJob,
  deps,
  nextEntity,
  payload,
  reload,
  shop,
  useGenerateDeps,
  widgetPrice,
} from './generate-fixtures';

useGenerateDeps('chunk');

describe('runClaimedGenerations: a chunk of jobs stored together', () => {
  test('when a chunk holds a new entity, an appending job, a job another delivery ended and a category, then each ends as it would alone', async () => {
    const eshopId = await shop();
    const fresh = (await createJob({ eshopId })).job;
    // An entity with content from an earlier job: the next one appends.
    const appendedId = nextEntity();
    const first = (await createJob({ eshopId, entityId: appendedId })).job;
    await runGeneration(deps, payload(first));
    const earlier = (await contentOf(first))!;
    const appending = (
      await createJob({ eshopId, entityId: appendedId, context: { name: 'Trail Runner 3' } })
    ).job;
    // Ended by another delivery before this chunk stores it: nothing written for it.
    const ended = (await createJob({ eshopId })).job;
    await deps.db('generation_jobs').where({ id: ended.id }).update({ status: 'done', charged_cost: 0 });
    const category = (await createJob({ eshopId, entityType: 'category', design: 'category-intro' })).job;

    const results = await runClaimedGenerations(deps, [fresh, appending, ended, category]);

    expect(results.map((r) => r.outcome)).toEqual(['done', 'done', 'already_finished', 'done']);
    const price = await widgetPrice();
    for (const [job, result] of [
      [fresh, results[0]!],
      [appending, results[1]!],
      [category, results[3]!],
    ] as const) {
      const done = await reload(job);
      expect([done.status, done.chargedCost, done.widgetsCreated]).toEqual([
        'done',
        result.actual_cost,
        result.widgets_created,
      ]);
      expect(done.chargedCost).toBe(Math.min(done.estimatedCost, done.widgetsCreated * price));
      expect(((await contentOf(job))!.tree as ContentWidget[]).length).toBeGreaterThan(0);
    }
    // The appending job kept what was there and added its own widgets after it.
    const tree = (await contentOf(appending))!.tree as ContentWidget[];
    const before = earlier.tree as ContentWidget[];
    expect(tree.slice(0, before.length)).toEqual(before);
    expect(tree.length).toBe(before.length + (await reload(appending)).widgetsCreated);
    // The ended job: no content, no revision, its row as the other delivery left it.
    expect(await contentOf(ended)).toBeUndefined();
    expect(
      await deps.db('content_revisions').where({ eshop_id: eshopId, generation_job_id: ended.id }),
    ).toEqual([]);
    expect((await reload(ended)).chargedCost).toBe(0);
    // One revision and one `generation.succeeded` per job written.
    for (const job of [fresh, appending, category]) {
      const revisions = await deps
        .db('content_revisions')
        .where({ eshop_id: eshopId, generation_job_id: job.id })
        .select('source');
      expect(revisions).toEqual([{ source: 'generation' }]);
    }
    const succeeded = await deps
      .db('events')
      .where({ eshop_id: eshopId, type: 'generation.succeeded' })
      .whereRaw(`(data->>'job_id')::bigint = any(?)`, [[fresh.id, appending.id, ended.id, category.id]]);
    expect(succeeded.map((e) => Number(e.data.job_id)).sort((a, b) => a - b)).toEqual(
      [fresh.id, appending.id, category.id].sort((a, b) => a - b),
    );
  });
});
