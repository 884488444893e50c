// Why: a registered white-label entity now starts with the eshop's default design of its type
// (docs/decisions/0034-catalogue-content-without-samples-entity-designs.md, "Registered entities start with a design"), so `design_id` is served as the
// integer the specification types it. Entities registered before had null until their first
// fill; this gives each of them the design registration would give now: the first design of its
// type the eshop may use (visible public ones before its own custom ones, then position, id —
// designsRepository.defaultFor). An entity whose type has no such design keeps null.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    update wl_entities w
       set design_id = c.design_id, design_owner = c.owner
      from (
        select e.id, d.id as design_id, d.owner
          from wl_entities e
          cross join lateral (
            select id, owner from designs
             where category = e.type
               and ((type = 'public' and is_visible) or (type = 'custom' and eshop_id = e.eshop_id))
             order by type desc, position, id
             limit 1
          ) d
         where e.design_id is null
      ) c
     where w.id = c.id`);
}

export async function down(_db: Knex): Promise<void> {
  // Nothing to undo in the schema, and a design given here cannot be told from one chosen since
  // (a fill of the same design): every entity keeps its design, which the previous code reads
  // like one it was filled with.
}
