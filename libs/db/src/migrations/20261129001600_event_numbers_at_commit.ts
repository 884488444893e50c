// Events take their numbers at commit, not when they are written. Until now `append` reserved the
// numbers by updating the eshop's `event_sequences` row, which stayed locked for the rest of the
// writer's transaction (its last statements, the client's round trips through a pooler, the
// commit): every writer of one eshop queued behind it. Now an event is inserted with a provisional
// negative number (unique, from the sequence `events_provisional_seq`, invisible to every reader:
// they read numbers above a cursor ≥ 0, and only committed rows). A deferred constraint trigger
// runs as the transaction commits: it locks the eshop's counter, gives the transaction's events
// the next numbers in the order they were written, and the commit ends right after, inside the
// server with no round trip to the client. Writers of one eshop therefore run in parallel and
// serialise only for their commit; numbers are still 1, 2, 3… per eshop, in commit order, without
// gaps (a rolled-back transaction fires no deferred trigger and numbers nothing).
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`create sequence events_provisional_seq as bigint`);
  // A committed event's number is positive still: the trigger below numbers every provisional
  // one before its transaction commits.
  await db.raw('alter table events drop constraint events_seq_positive');
  await db.raw('alter table events add constraint events_seq_not_zero check (seq <> 0)');
  await db.raw(`
    create function number_events_at_commit() returns trigger language plpgsql as $$
    declare
      pending bigint;
      last bigint;
    begin
      -- Another transaction's provisional rows are not visible here (not committed), and a
      -- committed transaction has none left: these are this transaction's own. The first of
      -- its events numbers them all; the triggers of the others find none left.
      select count(*) into pending from events where eshop_id = new.eshop_id and seq < 0;
      if pending = 0 then
        return null;
      end if;
      insert into event_sequences as s (eshop_id, last_seq) values (new.eshop_id, pending)
        on conflict (eshop_id) do update set last_seq = s.last_seq + excluded.last_seq
        returning last_seq into last;
      -- Provisional numbers fall as events are written: the one closest to zero came first.
      update events e set seq = last - pending + p.ord
        from (select seq, row_number() over (order by seq desc) as ord
                from events where eshop_id = new.eshop_id and seq < 0) p
        where e.eshop_id = new.eshop_id and e.seq = p.seq;
      return null;
    end $$`);
  await db.raw(`
    create constraint trigger events_number_at_commit
      after insert on events
      deferrable initially deferred
      for each row when (new.seq < 0)
      execute function number_events_at_commit()`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop trigger if exists events_number_at_commit on events');
  await db.raw('drop function if exists number_events_at_commit()');
  await db.raw('drop sequence if exists events_provisional_seq');
  await db.raw('alter table events drop constraint if exists events_seq_not_zero');
  await db.raw('alter table events add constraint events_seq_positive check (seq >= 1)');
}
