// The sweeper's retention of content revisions: beyond the newest CONTENT_REVISIONS_KEEP of an
// entity, and older than CONTENT_REVISIONS_DAYS unless an entity's newest. The sweep runs over
// the whole test database, so the limits here only touch rows this file makes (no other test
// keeps more than a thousand revisions of an entity or ages them by months).
import { makeEshop, testConfig } from '@catalogue/testing';
import { buildDeps, closeDeps, type Deps } from '../src/deps';
import { sweepStaleWork, type SweepDeps } from '../src/services/sweep.service';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-sweep-revisions`;
const HOUR_MS = 3_600_000;
const KEEP = 1_000;

let deps: Deps;
let sweepDeps: SweepDeps;

beforeAll(() => {
  deps = buildDeps(testConfig({ QUEUE_PREFIX: PREFIX }));
  sweepDeps = {
    ...deps,
    sweep: {
      jobDeadlineMs: HOUR_MS,
      settlementGraceMs: HOUR_MS,
      itemDeadlineMs: HOUR_MS,
      batch: 500,
      eventRetentionDays: 30,
      revisionsKeep: KEEP,
      revisionRetentionDays: 90,
    },
  };
});
afterAll(async () => {
  await closeDeps(deps);
});

/** A page's content at `versions` with one revision per version (the newest first in age order). */
async function pageWithRevisions(eshopId: number, externalId: string, versions: number): Promise<void> {
  await deps.db('content').insert({
    eshop_id: eshopId,
    entity_type: 'page',
    external_id: externalId,
    origin: 'editor',
    version: versions,
  });
  await deps.db.raw(
    `insert into content_revisions (eshop_id, entity_type, external_id, version, source, tree)
     select ?, 'page', ?, v, 'editor', '[]' from generate_series(1, ?) v`,
    [eshopId, externalId, versions],
  );
}

const versionsOf = async (eshopId: number, externalId: string): Promise<number[]> =>
  deps
    .db('content_revisions')
    .where({ eshop_id: eshopId, entity_type: 'page', external_id: externalId })
    .orderBy('version')
    .pluck('version');

test('when entities keep more revisions than the retention, then the sweep deletes the oldest beyond the count and the old ones but the newest, and counts them', async () => {
  const { eshop } = await makeEshop(deps.db, {});
  await pageWithRevisions(eshop.id, 'many', KEEP + 5);
  await pageWithRevisions(eshop.id, 'old', 3);
  await pageWithRevisions(eshop.id, 'few', 3);
  // Every revision of `old` is months old, its newest too.
  await deps
    .db('content_revisions')
    .where({ eshop_id: eshop.id, external_id: 'old' })
    .update({ created_at: deps.db.raw(`now() - interval '100 days'`) });
  const counted = async () =>
    (await sweepDeps.sweepMetrics.swept.get()).values.find((v) => v.labels.kind === 'content_revision')
      ?.value ?? 0;
  const countedBefore = await counted();

  const result = await sweepStaleWork(sweepDeps);

  expect(result.content_revisions_expired).toBe(5 + 2);
  const many = await versionsOf(eshop.id, 'many');
  expect(many).toHaveLength(KEEP);
  expect(many[0]).toBe(6);
  expect(await versionsOf(eshop.id, 'old')).toEqual([3]);
  expect(await versionsOf(eshop.id, 'few')).toEqual([1, 2, 3]);
  expect((await counted()) - countedBefore).toBe(7);

  // Nothing more to do: the next sweep deletes nothing of these.
  expect((await sweepStaleWork(sweepDeps)).content_revisions_expired).toBe(0);
  // New writes past the count are trimmed by the next sweep.
  await deps.db.raw(
    `insert into content_revisions (eshop_id, entity_type, external_id, version, source, tree)
     values (?, 'page', 'many', ?, 'editor', '[]'), (?, 'page', 'many', ?, 'editor', '[]')`,
    [eshop.id, KEEP + 6, eshop.id, KEEP + 7],
  );
  await deps
    .db('content')
    .where({ eshop_id: eshop.id, external_id: 'many' })
    .update({ version: KEEP + 7 });
  expect((await sweepStaleWork(sweepDeps)).content_revisions_expired).toBe(2);
  expect((await versionsOf(eshop.id, 'many'))[0]).toBe(8);
});

test("when an eshop keeps fewer revisions than the default, then its entities are trimmed to its own count and other eshops' are not", async () => {
  const { eshop: own } = await makeEshop(deps.db, {});
  const { eshop: other } = await makeEshop(deps.db, {});
  await deps.db('eshops').where({ id: own.id }).update({ content_revisions_keep: 2 });
  await pageWithRevisions(own.id, 'page', 5);
  await pageWithRevisions(other.id, 'page', 5);

  const result = await sweepStaleWork(sweepDeps);

  expect(result.content_revisions_expired).toBe(3);
  expect(await versionsOf(own.id, 'page')).toEqual([4, 5]);
  expect(await versionsOf(other.id, 'page')).toEqual([1, 2, 3, 4, 5]);
});
