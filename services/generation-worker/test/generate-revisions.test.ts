// A generation's content write is a revision of source `generation` naming its job, and
// restoring the revision before it brings back what it replaced (the credits stay charged).
import { contentRevisionsRepository, creditsRepository } from '@catalogue/db';
import { restoreRevision } from '../../white-label-api/src/services/revisions.service';
import { runGeneration } from '../src/services/generate.service';
import { contentOf, createJob, deps, nextEntity, payload, shop, useGenerateDeps } from './generate-fixtures';

useGenerateDeps('revisions');

describe('generation revisions', () => {
  const revisionsOf = (eshopId: number, entityId: string) =>
    deps
      .db('content_revisions')
      .where({ eshop_id: eshopId, entity_type: 'product', external_id: entityId })
      .orderBy('version')
      .select('id', 'version', 'source', 'generation_job_id', 'languages_changed', 'tree');

  test('when a job replaces content, then its write is a generation revision with its job id, and restoring the one before brings the replaced texts back without a refund', async () => {
    const eshopId = await shop();
    const entityId = nextEntity();
    const { job: first } = await createJob({ eshopId, entityId });
    await runGeneration(deps, payload(first));
    const before = (await contentOf(first))!;
    const { job: second } = await createJob({
      eshopId,
      entityId,
      context: { name: 'Summit Boot', remove_exist_widget: true },
    });
    await runGeneration(deps, payload(second));
    expect((await contentOf(second))!.html.cs).toContain('Summit Boot');

    const rows = await revisionsOf(eshopId, entityId);
    expect(rows.map((r) => [r.version, r.source, r.generation_job_id])).toEqual([
      [1, 'generation', first.id],
      [2, 'generation', second.id],
    ]);
    expect(rows[1]!.languages_changed).toEqual(['cs', 'default', 'en']);
    expect(rows[1]!.tree).toEqual((await contentOf(second))!.tree);

    // The list says what each generation was charged (what a replace would throw away).
    const charged = await deps
      .db('generation_jobs')
      .whereIn('id', [first.id, second.id])
      .orderBy('id')
      .pluck('charged_cost');
    expect(charged.every((c) => typeof c === 'number' && c > 0)).toBe(true);
    const listed = await contentRevisionsRepository.list(
      deps.db,
      { eshopId, entityType: 'product', externalId: entityId },
      { limit: 10, offset: 0 },
    );
    expect(listed.revisions.map((r) => [r.version, r.generation_id, r.credits_charged])).toEqual([
      [2, second.id, charged[1]],
      [1, first.id, charged[0]],
    ]);

    const balance = (await creditsRepository.getAccount(deps.db, eshopId)).balance;
    const eshop = {
      id: eshopId,
      languages: ['default', 'cs', 'en'] as const,
      contentFallback: 'fallback' as const,
      defaultLanguage: null,
    };
    const restored = await restoreRevision(
      deps.db,
      { eshop: { ...eshop, languages: [...eshop.languages] }, type: 'product', entityId },
      rows[0]!.id,
      'cs',
    );
    expect(restored.version).toBe(3);
    const after = (await contentOf(first))!;
    expect(after.tree).toEqual(before.tree);
    for (const lang of ['default', 'cs', 'en']) {
      expect(after.html[lang]).toContain('Trail Runner 2');
      expect(after.html[lang]).not.toContain('Summit Boot');
    }
    expect((await revisionsOf(eshopId, entityId)).map((r) => r.source)).toEqual([
      'generation',
      'generation',
      'restore',
    ]);
    expect((await creditsRepository.getAccount(deps.db, eshopId)).balance).toBe(balance);
  });
});
